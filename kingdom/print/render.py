"""Printable rule summaries: `kingdom render` writes HTML (for print), Markdown or PDF.

A summary shows, for a set or a chosen Kingdom, each card's name, cost, types and rules text
(the text the compiler renders from the card's own tree), a setup summary derived from the
card data (setup abilities, tokens, mats, piles outside the Supply, split-pile order), and the
rulings for those cards found in the rules folder's "Clarifications" sections.

The `plain` layout is for screen readers and plain printers: costs and Victory points spelled
out in words, the divider written as text, no icons and no colour.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import Environment, FileSystemLoader

from kingdom.print.notes import SetupNote, relevant_access, setup_notes
from kingdom.print.selection import (
    NON_SUPPLY_KINDS,
    SPLIT_COPIES,
    RenderError,
    Selection,
    set_name,
)
from kingdom.runtime.cards import CardDef
from kingdom.runtime.library import Library

if TYPE_CHECKING:
    from kingdom.print.dividers import Layout

TEMPLATES = Path(__file__).resolve().parent / "templates"
FORMATS = ("html", "md", "pdf")
EXTENSIONS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md", ".pdf": "pdf"}
LAYOUTS = ("summary", "sheet", "proxies", "dividers")
SHEET_SCALES = (1.0, 0.9, 0.8, 0.72, 0.65)  # type sizes tried, largest first, to fit a sheet
PAPERS = {"a4": "A4", "letter": "letter"}


def output_format(output: str | None, given: str | None) -> str:
    """The format: `--format` if given, else the output file's extension, else HTML."""
    if given:
        return given
    return EXTENSIONS.get(Path(output).suffix.lower(), "html") if output else "html"


# ------------------------------------------------------------------------------ the summary
@dataclass
class CardView:
    name: str
    cost: str  # "$4+" (compact) or "4 coins, Overpay" (plain)
    cost_words: str
    types: list[str]
    kind: str
    set: str
    above: list[str]
    below: list[str]
    markers: list[str] = field(default_factory=list)  # "Overpay", "special cost"
    members: list[str] = field(default_factory=list)  # for a split pile
    rulings: list[str] = field(default_factory=list)
    set_name: str = ""  # the set's name, as printed on a proxy

    @property
    def type_line(self) -> str:
        return " \u2013 ".join(self.types)

    @property
    def css(self) -> str:
        """The box's classes: its types, and `long` when its rulings may not fit on one page
        (such a box may break across pages, or the PDF could not be laid out)."""
        long = sum(map(len, self.rulings)) > LONG_RULINGS
        return " ".join([*(f"t-{t.lower()}" for t in self.types), *(["long"] if long else [])])


LONG_RULINGS = 2_500  # characters of rulings past which a card's box may break across pages


@dataclass
class Summary:
    title: str
    sections: list[tuple[str, list[CardView]]]
    setup: list[SetupNote]
    plain: bool = False
    paper: str = "a4"
    access: list[str] = field(default_factory=list)  # accessibility notes of the rules files
    layout: str = "summary"  # or "sheet": a Kingdom on one page, its rulings on the next
    backs: bool = False  # proxies: a page of card backs after each page of fronts
    dividers: Layout | None = None  # dividers: their tabs and size; None for the default

    @property
    def cards(self) -> list[CardView]:
        return [c for _, cards in self.sections for c in cards]

    @property
    def sheet_cards(self) -> list[CardView]:
        """The cards a Kingdom sheet shows: all but the basic cards (its setup names those)."""
        return [c for title, cards in self.sections if title != SECTION_TITLES["basic"] for c in cards]


_MONEY = re.compile(r"\$(\d+)")
_VP = re.compile(r"\b(\d+) VP\b")


def spell_out(text: str) -> str:
    """Costs and Victory points in words, for screen readers: '+$2' -> '+2 coins'."""
    text = _MONEY.sub(lambda m: f"{m.group(1)} coin" + ("" if m.group(1) == "1" else "s"), text)
    text = _VP.sub(lambda m: f"{m.group(1)} Victory Point" + ("" if m.group(1) == "1" else "s"), text)
    return re.sub(r"\bVP\b", "Victory Points", text)


def card_view(card: CardDef, plain: bool, rulings: dict[str, list[str]]) -> CardView:
    lines = card.text.splitlines()
    if "---" in lines:
        cut = lines.index("---")
        above, below = lines[:cut], lines[cut + 1:]
    else:
        above, below = lines, []
    markers = (["Overpay"] if card.overpay else []) + (["special cost"] if card.special_cost else [])
    cost = f"${card.cost}" + ("+" if card.overpay else "") + ("*" if card.special_cost else "")
    coins = f"{card.cost} coin" + ("" if card.cost == 1 else "s")
    cost_words = ", ".join([coins, *markers])
    if card.kind == "ally":  # an Ally is not a card pile: it has no cost
        cost, cost_words = "", "none (an Ally is not bought)"
    if plain:
        above, below = [spell_out(x) for x in above], [spell_out(x) for x in below]
    if card.kind in NON_SUPPLY_KINDS and not any("not in the Supply" in x for x in above + below):
        markers.append("not in the Supply")
    return CardView(card.name, cost, cost_words, list(card.types), card.kind, card.set, above, below,
                    markers, rulings=[spell_out(r) if plain else r for r in card_rulings(card, rulings)],
                    set_name=set_name(card))


def card_rulings(card: CardDef, folder: dict[str, list[str]]) -> list[str]:
    """A card's own rulings (its file's `rulings:`), else the rules folder's for it."""
    return list(card.rulings) or folder.get(card.name, [])


def _order(card: CardDef) -> tuple:
    return (card.cost, card.name)


SECTION_TITLES = {
    "kingdom": "Kingdom cards", "basic": "Basic cards", "split-member": "Split piles",
    "reward": "Not in the Supply: Rewards", "ally": "Allies",
}


def build_summary(library: Library, selection: Selection, plain: bool = False, paper: str = "a4",
                  rulings: dict[str, list[str]] | None = None,
                  accessibility: list[tuple[frozenset[str], list[str]]] | None = None,
                  layout: str = "summary", backs: bool = False, dividers: Layout | None = None) -> Summary:
    """The summary of a selection; `accessibility` notes are kept for rules files about its cards."""
    rulings = {} if rulings is None else rulings
    by_kind: dict[str, list[CardDef]] = {}
    in_piles = {m for members in selection.piles.values() for m in members}
    for card in selection.cards:
        kind = "split-member" if card.name in in_piles else card.kind
        by_kind.setdefault(kind, []).append(card)
    sections: list[tuple[str, list[CardView]]] = []
    for kind in ("kingdom", "split-member", "reward", "ally", "basic"):
        cards = by_kind.pop(kind, [])
        if kind == "split-member":
            views = []
            for pile, members in selection.piles.items():
                views.extend(_pile_view(library, pile, members, plain, rulings))
            loose = [c for c in cards if c.name not in in_piles]  # members of no known pile
            views.extend(card_view(c, plain, rulings) for c in sorted(loose, key=_order))
            if views:
                sections.append((SECTION_TITLES[kind], views))
            continue
        if cards:
            title = "Ally" if kind == "ally" and selection.is_kingdom else SECTION_TITLES[kind]
            sections.append((title, [card_view(c, plain, rulings) for c in sorted(cards, key=_order)]))
    for kind, cards in sorted(by_kind.items()):
        views = [card_view(c, plain, rulings) for c in sorted(cards, key=_order)]
        sections.append((kind.capitalize(), views))
    notes = setup_notes(library, selection)
    if plain:
        for note in notes:
            note.text = spell_out(note.text)
    access = relevant_access(library, selection, accessibility or [])
    if plain:
        access = [spell_out(note) for note in access]
    return Summary(selection.title, sections, notes, plain, paper, access, layout, backs, dividers)


# What an accessibility sentence is about, when it names no card: a mechanic of the game.


def _pile_view(library: Library, pile: str, members: list[str], plain: bool,
               rulings: dict[str, list[str]]) -> list[CardView]:
    """A split pile: a header entry with its order, then each member card."""
    cards = [library[m] for m in members if m in library]
    order = ", then ".join(members)
    first = cards[0] if cards else None
    head = CardView(
        name=pile, cost=f"${first.cost}" if first else "", cost_words=(
            f"{first.cost} coins" if first else ""), types=["Split pile"], kind="split-pile",
        set=first.set if first else "",
        above=[f"{SPLIT_COPIES} copies each, top to bottom: {order}. "
               "Only the top card can be bought or gained."],
        below=[], members=list(members), rulings=rulings.get(pile, []))
    return [head, *(card_view(c, plain, rulings) for c in cards)]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ------------------------------------------------------------------------------ output
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=lambda name: bool(name and name.endswith(".html.j2")),
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["md"] = _md_escape
    return env


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|#])", r"\\\1", text)


def render_html(summary: Summary, for_pdf: bool = False, scale: float = 1.0,
                grid_only: bool = False) -> str:
    """`scale` and `grid_only`, for a sheet: its type sizes, and the page of cards alone."""
    from kingdom.print import fonts

    template = "sheet.html.j2" if summary.layout == "sheet" else "summary.html.j2"
    return _environment().get_template(template).render(
        s=summary, page_size=PAPERS[summary.paper], for_pdf=for_pdf, scale=scale,
        grid_only=grid_only, font_faces=fonts.css() if for_pdf else "", font=fonts.FONT)


def render_markdown(summary: Summary) -> str:
    text = _environment().get_template("summary.md.j2").render(s=summary)
    return re.sub(r"\n{3,}", "\n\n", text)


def render_pdf(summary: Summary) -> bytes:
    """The summary or sheet as PDF, in the embedded font (RenderError if a text has a character
    the font lacks: it would print as a box)."""
    from kingdom.print import fonts

    if refusal := fonts.unprintable(printed_texts(summary)):
        raise RenderError(refusal)
    scale = sheet_scale(summary) if summary.layout == "sheet" else 1.0
    return _pdf(render_html(summary, for_pdf=True, scale=scale))


def printed_texts(summary: Summary) -> list[tuple[str, str]]:
    """Every text a summary or sheet prints, as (what to call it in a refusal, the text): the
    cards first, so that a card's name in the title is refused as the card."""
    texts = []
    for _, cards in summary.sections:
        texts.extend((card.name, "".join([card.name, card.cost, card.cost_words, card.type_line,
                                          card.type_line.upper(), card.set_name, *card.above,
                                          *card.below, *card.markers, *card.rulings]))
                     for card in cards)
    texts.append((f"the title '{summary.title}'", summary.title))
    texts.extend((f"the heading '{title}'", title) for title, _ in summary.sections)
    texts.extend((f"the setup note '{note.title}'", note.title + note.text) for note in summary.setup)
    texts.extend(("an accessibility note", note) for note in summary.access)
    return texts


def sheet_scale(summary: Summary) -> float:
    """The largest of SHEET_SCALES at which a sheet's setup and cards fit on its first page (a
    Kingdom with Rewards, a split pile, a Bane and an Ally has two dozen cards), else the least."""
    from pypdf import PdfReader

    for scale in SHEET_SCALES:
        grid = _pdf(render_html(summary, for_pdf=True, scale=scale, grid_only=True))
        if len(PdfReader(io.BytesIO(grid)).pages) == 1:
            return scale
    return SHEET_SCALES[-1]


def _pdf(html: str) -> bytes:
    """xhtml2pdf's PDF of `html`. Its warnings (CSS it skips, glyphs) are kept from the user's
    terminal: the characters are checked before, and a font it could not embed is an error."""
    from reportlab.platypus.doctemplate import LayoutError
    from xhtml2pdf import pisa

    from kingdom.print import fonts

    said = _Collected()
    logger = logging.getLogger("xhtml2pdf")
    propagate, logger.propagate = logger.propagate, False
    logger.addHandler(said)
    try:  # read as if it were a file beside the fonts: xhtml2pdf reads local files only there
        out = io.BytesIO()
        status = pisa.CreatePDF(html, dest=out, encoding="utf-8",
                                path=str(Path(fonts.folder()) / "page.html"))
    except LayoutError:  # (a box that must stay on one page and is taller than a page)
        raise RenderError("the PDF cannot be laid out: a card's box is taller than a page "
                          "(its rulings too long?); try --format html") from None
    finally:
        logger.removeHandler(said)
        logger.propagate = propagate
    if status.err:
        raise RenderError(f"PDF rendering failed with {status.err} error(s)")
    if lost := [m for m in said.messages if m.startswith("@font-face") or "font families" in m]:
        raise RenderError(f"the print font could not be embedded: {lost[0]}")
    return out.getvalue()


class _Collected(logging.Handler):
    """The messages logged while it is attached."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def render_print_and_play(summary: Summary) -> bytes:
    """Proxies (a split pile as its member cards) or dividers (one per pile) of the summary's
    cards, as PDF."""
    from kingdom.print import dividers, proxies

    try:
        if summary.layout == "dividers":
            return dividers.dividers_pdf(divider_piles(summary), summary.paper, summary.dividers,
                                         summary.title)
        cards = [_proxy(c, c.above, c.below) for c in summary.cards if c.kind != "split-pile"]
        return proxies.proxies_pdf(cards, summary.paper, summary.backs, summary.title)
    except proxies.ProxyError as exc:
        raise RenderError(str(exc)) from exc


def divider_piles(summary: Summary) -> list:
    """A divider's content per pile: a card's own text; a split pile's members in order, with
    their costs (the members get no divider of their own)."""
    by_name = {c.name: c for c in summary.cards}
    piles = []
    for card in summary.cards:
        if card.kind == "split-pile":
            members = [by_name[m] for m in card.members if m in by_name]
            lines = [f"{m.name} ({m.cost})" for m in members]
            piles.append(_proxy(card, lines, card.above, members[0].set_name if members else ""))
        elif card.kind != "split-member":
            piles.append(_proxy(card, card.above, card.below))
    return piles


def _proxy(card: CardView, above: list[str], below: list[str], set_name: str = ""):
    from kingdom.print.proxies import Proxy

    return Proxy(card.name, card.cost, card.type_line, above, below, set_name or card.set_name)


def render(summary: Summary, fmt: str) -> bytes:
    """The summary in one format, as bytes ready to write."""
    if summary.layout in ("proxies", "dividers"):
        if fmt != "pdf":
            raise RenderError(f"--layout {summary.layout} is drawn to cut out: it is written as "
                              "PDF only (--format pdf, or an output file ending in .pdf)")
        return render_print_and_play(summary)
    if fmt == "html":
        return render_html(summary).encode("utf-8")
    if fmt == "md":
        return render_markdown(summary).encode("utf-8")
    if fmt == "pdf":
        return render_pdf(summary)
    raise RenderError(f"unknown format '{fmt}'; formats: {', '.join(FORMATS)}")


def brief(library: Library, selection: Selection) -> str:
    """A dealt Kingdom as text for a terminal: its piles by cost, the Ally, the setup notes."""
    lines = [selection.title]
    for name in selection.game.kingdom if selection.game else ():
        first = library[library.split_piles[name][0]] if name in library.split_piles else library[name]
        lines.append(f"  ${first.cost:<2} {name}  [{set_name(first)}]")
    if selection.ally is not None:
        lines.append(f"  Ally: {selection.ally.name}")
    lines.append("Setup:")
    lines.extend(f"  {note.title}: {note.text}" for note in setup_notes(library, selection))
    return "\n".join(lines)
