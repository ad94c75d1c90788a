"""A card's proxy as HTML and CSS, laid out the way kingdom/print/proxies.py draws it on the
PDF page: the same 63 x 88 mm card, padding, title and cost line, type line and set, the same
embedded font, and the rules text at the size `fit_text` picks for the printed proxy, so the
preview is what the printer will make."""

from __future__ import annotations

from html import escape

from reportlab.lib.units import mm

from kingdom.print import fonts
from kingdom.print.proxies import CARD, PAD, Proxy, ProxyError, fit_text
from kingdom.print.render import card_view
from kingdom.runtime.cards import CardDef

TOP_GAP, BOTTOM_GAP = 10, 16  # points: the title's baseline below the top, the type line's box


def proxy_of(card: CardDef) -> Proxy:
    view = card_view(card, False, {})
    return Proxy(view.name, view.cost, view.type_line, view.above, view.below, view.set_name)


def proxy_html(card: CardDef) -> str:
    """The card as one `<figure>` sized in points like the PDF's cell (1 pt = 1/72 in)."""
    fonts.register()  # (fit_text measures with the printed font)
    proxy = proxy_of(card)
    w, h = CARD
    top = h - PAD - TOP_GAP
    bottom = PAD + BOTTOM_GAP
    text_w, text_h = w - 2 * PAD, (top - 8) - (bottom + 4)
    try:
        size, _above, _below, _used = fit_text(proxy, text_w, text_h)
        overflow = ""
    except ProxyError as exc:
        size, overflow = 5.5, f'<p class="overflow" role="alert">{escape(str(exc))}</p>'
    paragraphs = "".join(f"<p>{escape(x)}</p>" for x in proxy.above)
    if proxy.below:
        paragraphs += '<hr class="divider">' + "".join(f"<p>{escape(x)}</p>" for x in proxy.below)
    label = f"Proxy of {proxy.name}, costs {proxy.cost or 'nothing'}, {proxy.types}"
    return (
        f'<figure class="proxy" role="img" aria-label="{escape(label)}" '
        f'style="width:{w:.1f}pt;height:{h:.1f}pt;--pad:{PAD:.1f}pt">'
        f'<div class="frame" style="inset:{1.5 * mm:.1f}pt"></div>'
        f'<div class="title" style="top:{PAD:.1f}pt"><span class="name">{escape(proxy.name)}</span>'
        f'<span class="cost">{escape(proxy.cost)}</span></div>'
        f'<div class="text" style="top:{h - top + 8:.1f}pt;height:{text_h:.1f}pt;'
        f'font-size:{size:.1f}pt">{paragraphs}</div>'
        f'<div class="types" style="bottom:{PAD + 4:.1f}pt">{escape(proxy.types.upper())}</div>'
        f'<div class="set" style="bottom:{PAD - 1:.1f}pt">{escape(proxy.set_name)}</div>'
        f"{overflow}</figure>")
