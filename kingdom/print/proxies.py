"""Print-and-play: proxy cards at poker size, drawn as PDF with ReportLab (which xhtml2pdf
installs), because exact millimetres and cut marks need a drawing, not HTML; also the grid, the
fitting of text and the font check that pile dividers (dividers.py) share.

Proxies are 63 x 88 mm, nine to an A4 or Letter page, edge to edge so one cut separates two
cards; cut marks stand in the margins. Each card's text is set at the largest size that fits its
box (never below MIN_FONT), so no card runs over a cut line. With `backs`, each page of fronts
is followed by a page of backs, its columns mirrored for printing on both sides (long edge).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from kingdom.print import fonts
from kingdom.print.fonts import BOLD, FONT

PAGES = {"a4": A4, "letter": letter}
CARD = (63 * mm, 88 * mm)
PAD = 3.2 * mm
MAX_FONT, MIN_FONT = 11, 5.5
MARK = 4 * mm  # cut-mark length, in the margin


class ProxyError(Exception):
    """A card whose text does not fit a proxy even at the smallest readable size, or has a
    character the font cannot print."""


@dataclass
class Proxy:
    """What a proxy or divider prints: from a summary's card view."""

    name: str
    cost: str
    types: str
    above: list[str]
    below: list[str]
    set_name: str


@dataclass
class Cell:
    """Where one item sits: page number (from 0), lower-left corner, size, in points."""

    page: int
    x: float
    y: float
    w: float
    h: float
    name: str


def printable(cards: list[Proxy], title: str = "") -> None:
    """A ProxyError naming the first card (or the title) with characters the font lacks; also
    makes the font known to ReportLab."""
    fonts.register()
    texts = [(card.name, "".join([card.name, card.cost, card.types, card.types.upper(),
                                  card.set_name, *card.above, *card.below])) for card in cards]
    if refusal := fonts.unprintable([*texts, (f"the title '{title}'", title)]):
        raise ProxyError(refusal)


def grid(count: int, paper: str, size: tuple[float, float]) -> Iterator[Cell]:
    """Cells of `size` laid edge to edge, as many as fit a page, centred, row by row."""
    page_w, page_h = PAGES[paper]
    w, h = size
    cols, rows = int((page_w - 2 * MARK) // w), int((page_h - 2 * MARK) // h)
    left, top = (page_w - cols * w) / 2, page_h - (page_h - rows * h) / 2
    for i in range(count):
        page, slot = divmod(i, cols * rows)
        row, col = divmod(slot, cols)
        yield Cell(page, left + col * w, top - (row + 1) * h, w, h, "")


def _style(size: float, bold: bool = False, centre: bool = False) -> ParagraphStyle:
    return ParagraphStyle("t", fontName=BOLD if bold else FONT, fontSize=size, leading=size * 1.2,
                          alignment=1 if centre else 0, spaceAfter=size * 0.25)


def fit_text(card: Proxy, width: float, height: float, centre: bool = True,
             what: str = "card") -> tuple[float, list, list, float]:
    """The largest font size at which the card's text fits `width` x `height`, the paragraphs
    above and below the divider, wrapped, and the height they take."""
    size = MAX_FONT
    while size >= MIN_FONT:
        style = _style(size, centre=centre)
        above = [Paragraph(escape(x), style) for x in card.above]
        below = [Paragraph(escape(x), style) for x in card.below]
        used = sum(p.wrap(width, height)[1] + style.spaceAfter for p in above + below)
        used += size if below else 0
        if used <= height:
            return size, above, below, used
        size -= 0.5
    raise ProxyError(f"{card.name}: its text does not fit a {width / mm:.0f} x "
                     f"{height / mm:.0f} mm {what} text box at {MIN_FONT} pt")


def one_line(canvas: Canvas, text: str, font: str, size: float, x: float, y: float,
              width: float, align: str = "left") -> None:
    """Text on one line, shrunk to fit `width`."""
    while size > 4 and canvas.stringWidth(text, font, size) > width:
        size -= 0.25
    canvas.setFont(font, size)
    {"left": canvas.drawString, "right": canvas.drawRightString,
     "centre": canvas.drawCentredString}[align](x, y, text)


def draw_card(canvas: Canvas, card: Proxy, cell: Cell) -> None:
    x, y, w, h = cell.x, cell.y, cell.w, cell.h
    canvas.setStrokeGray(0.6)
    canvas.setLineWidth(0.4)
    canvas.roundRect(x + 1.5 * mm, y + 1.5 * mm, w - 3 * mm, h - 3 * mm, 2.5 * mm)
    top = y + h - PAD - 10
    one_line(canvas, card.name, BOLD, 11.5, x + PAD, top, w - 2 * PAD - 14 * mm)
    one_line(canvas, card.cost, BOLD, 12, x + w - PAD, top, 13 * mm, "right")
    canvas.setStrokeGray(0)
    canvas.line(x + PAD, top - 4, x + w - PAD, top - 4)
    bottom = y + PAD + 16  # room for the type line and the set
    one_line(canvas, card.types.upper(), BOLD, 7.5, x + w / 2, bottom - 7, w - 2 * PAD, "centre")
    canvas.line(x + PAD, bottom, x + w - PAD, bottom)
    one_line(canvas, card.set_name, FONT, 6.5, x + w / 2, y + PAD + 0.5, w - 2 * PAD, "centre")
    text_w, text_h = w - 2 * PAD, (top - 8) - (bottom + 4)
    size, above, below, used = fit_text(card, text_w, text_h)
    cursor = top - 8 - (text_h - used) / 2  # centred in its box, as on a printed card
    for i, para in enumerate([*above, None, *below] if below else above):
        if para is None:  # the divider line
            cursor -= size * 0.5
            canvas.line(x + w * 0.3, cursor, x + w * 0.7, cursor)
            cursor -= size * 0.5
            continue
        _, used = para.wrap(text_w, text_h)
        para.drawOn(canvas, x + PAD, cursor - used)
        cursor -= used + (para.style.spaceAfter if i < len(above) + len(below) else 0)


def draw_back(canvas: Canvas, cell: Cell, title: str) -> None:
    x, y, w, h = cell.x, cell.y, cell.w, cell.h
    canvas.setStrokeGray(0)
    canvas.setLineWidth(1.2)
    canvas.roundRect(x + 3 * mm, y + 3 * mm, w - 6 * mm, h - 6 * mm, 3 * mm)
    one_line(canvas, "KINGDOM", BOLD, 20, x + w / 2, y + h / 2, w - 10 * mm, "centre")
    one_line(canvas, title, FONT, 9, x + w / 2, y + h / 2 - 16, w - 10 * mm, "centre")


def cut_marks(canvas: Canvas, cells: list[Cell], paper: str) -> None:
    """Short lines in the margins at every cut: the grid's columns and rows, outside it."""
    canvas.setStrokeGray(0)
    canvas.setLineWidth(0.3)
    left, right = min(c.x for c in cells), max(c.x + c.w for c in cells)
    low, high = min(c.y for c in cells), max(c.y + c.h for c in cells)
    for x in sorted({c.x for c in cells} | {c.x + c.w for c in cells}):
        canvas.line(x, high + 1 * mm, x, high + 1 * mm + MARK)
        canvas.line(x, low - 1 * mm, x, low - 1 * mm - MARK)
    for y in sorted({c.y for c in cells} | {c.y + c.h for c in cells}):
        canvas.line(left - 1 * mm - MARK, y, left - 1 * mm, y)
        canvas.line(right + 1 * mm, y, right + 1 * mm + MARK, y)


def proxies_pdf(cards: list[Proxy], paper: str, backs: bool = False, title: str = "") -> bytes:
    """The cards at poker size, nine to a page, with cut marks (and backs, when asked)."""
    printable(cards, title)
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=PAGES[paper], pageCompression=1)
    canvas.setTitle(title)
    cells = list(grid(len(cards), paper, CARD))
    page_w = PAGES[paper][0]
    for page in sorted({c.page for c in cells}):
        on_page = [(card, c) for card, c in zip(cards, cells, strict=True) if c.page == page]
        for card, cell in on_page:
            draw_card(canvas, card, cell)
        cut_marks(canvas, [c for _, c in on_page], paper)
        canvas.showPage()
        if backs:  # mirrored across the page: each back lands behind its front
            mirrored = [Cell(c.page, page_w - c.x - c.w, c.y, c.w, c.h, "") for _, c in on_page]
            for card, cell in zip(on_page, mirrored, strict=True):
                draw_back(canvas, cell, card[0].set_name)
            cut_marks(canvas, mirrored, paper)
            canvas.showPage()
    canvas.save()
    return out.getvalue()
