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
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

from kingdom.print.notes import (
    COMMON_TYPES,
    NON_SUPPLY_KINDS,
    SPLIT_COPIES,
    SetupNote,
    relevant_access,
    setup_notes,
)
from kingdom.print.randomizer import GameSetup, RandomizerError, resolve_setup
from kingdom.runtime.cards import CardDef
from kingdom.runtime.library import Library

TEMPLATES = Path(__file__).resolve().parent / "templates"
RULES_ENV = "KINGDOM_RULES"
DEFAULT_RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
FORMATS = ("html", "md", "pdf")
EXTENSIONS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md", ".pdf": "pdf"}
LAYOUTS = ("summary", "sheet", "proxies", "dividers")
# Built-in sets by id; a custom expansion's name comes from its manifest.
SET_NAMES = {
    "base": "Base", "base-1e": "Base (first-edition cards)", "intrigue": "Intrigue",
    "intrigue-1e": "Intrigue (first-edition cards)", "cornucopia-guilds": "Cornucopia & Guilds",
    "allies": "Allies", "prosperity-basic": "Prosperity (Platinum and Colony)",
}
PAPERS = {"a4": "A4", "letter": "letter"}


class RenderError(Exception):
    """A selection that cannot be rendered: unknown set, card or Ally."""


def output_format(output: str | None, given: str | None) -> str:
    """The format: `--format` if given, else the output file's extension, else HTML."""
    if given:
        return given
    return EXTENSIONS.get(Path(output).suffix.lower(), "html") if output else "html"


# ------------------------------------------------------------------------------ rulings
_NAME_COLON = re.compile(r"^([A-Z][\w'\u2019.-]*(?:[ -](?:of |the )?[A-Z][\w'\u2019.-]*)*): (.+)$")
_SECTION_END = ("Accessibility Notes", "Source", "Setup", "What You Need")


def parse_rulings(text: str) -> dict[str, list[str]]:
    """Per-card-name paragraphs from every "... Clarifications" section of a rules file.

    Two layouts are read: a card name alone on its line followed by paragraphs, and
    `Name: paragraph` on one line. A section ends at the next heading that is not a card
    (another Clarifications section, Accessibility Notes, Source).
    """
    rulings: dict[str, list[str]] = {}
    inside = False
    current: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.endswith("Clarifications"):
            inside, current = True, None
            continue
        if not inside:
            continue
        if line in _SECTION_END:
            inside, current = False, None
            continue
        match = _NAME_COLON.match(line)
        if match and len(match.group(1)) <= 40:
            if "\u2192" not in match.group(2):  # "Augurs: Herb Gatherer → ...": the pile order
                rulings.setdefault(match.group(1), []).append(match.group(2))
            current = None
            continue
        if _is_heading(line):
            current = line
            continue
        if current is not None:
            rulings.setdefault(current, []).append(line)
    return rulings


def _is_heading(line: str) -> bool:
    """A card name on its own line: short, no sentence punctuation, capitalised words."""
    if len(line) > 40 or line[-1] in ".:;!?”\"" or "→" in line:
        return False
    words = line.split()
    return len(words) <= 5 and all(w[0].isupper() or w in ("of", "the", "and") for w in words)


def rules_folder(folder: str | Path | None = None) -> Path | None:
    """The rules folder: the one given, $KINGDOM_RULES, or ../shared/rules beside the project."""
    candidates = [folder, os.environ.get(RULES_ENV), DEFAULT_RULES]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def load_rulings(folder: str | Path | None = None) -> dict[str, list[str]]:
    """Every ruling of every rules file in the folder; empty when there is no such folder."""
    found = rules_folder(folder)
    rulings: dict[str, list[str]] = {}
    if found is None:
        return rulings
    for file in sorted(found.glob("*.txt")):
        for name, paragraphs in parse_rulings(file.read_text(encoding="utf-8")).items():
            rulings.setdefault(name, []).extend(paragraphs)
    return rulings


def parse_accessibility(text: str) -> list[str]:
    """The paragraphs of a rules file's "Accessibility Notes" section."""
    out: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line == "Accessibility Notes":
            inside = True
        elif inside and line in _SECTION_END:
            break
        elif inside and line:
            out.append(line)
    return out


def load_accessibility(folder: str | Path | None = None) -> list[tuple[frozenset[str], list[str]]]:
    """Per rules file: the card names it has rulings for, and its accessibility notes."""
    found = rules_folder(folder)
    if found is None:
        return []
    out = []
    for file in sorted(found.glob("*.txt")):
        text = file.read_text(encoding="utf-8")
        notes = parse_accessibility(text)
        if notes:
            out.append((frozenset(parse_rulings(text)), notes))
    return out


# ------------------------------------------------------------------------------ selection
@dataclass
class Selection:
    """What a summary covers: cards to show, split piles (name -> members, top first), an Ally."""

    title: str
    cards: list[CardDef]
    piles: dict[str, list[str]] = field(default_factory=dict)
    ally: CardDef | None = None
    is_kingdom: bool = False
    game: GameSetup | None = None  # a Kingdom's setup, every choice resolved


def sets_of(library: Library) -> list[str]:
    """Every set id (and card folder name) that `--set` accepts."""
    names = {c.set for c in library} | {Path(c.source).parent.name for c in library if c.source}
    return sorted(names)


def select_set(library: Library, set_name: str) -> Selection:
    cards = [c for c in library
             if c.set == set_name or (c.source and Path(c.source).parent.name == set_name)]
    if not cards:
        raise RenderError(f"unknown set '{set_name}'; sets: {', '.join(sets_of(library))}")
    names = {c.name for c in cards}
    piles = {p: m for p, m in library.split_piles.items() if m and m[0] in names}
    return Selection(_set_title(cards, set_name), cards, piles)


def _set_title(cards: list[CardDef], set_name: str) -> str:
    """The set's name, with the version of a custom expansion's manifest."""
    found = _manifest(cards[0]) if cards else None
    return f"{found.name} {found.version}" if found else SET_NAMES.get(set_name, set_name)


def set_name(card: CardDef) -> str:
    """The name of a card's set, as printed on a card: "Cornucopia & Guilds", "Harbor Towns"."""
    found = _manifest(card)
    return found.name if found else SET_NAMES.get(card.set, card.set)


def _manifest(card: CardDef):
    """The manifest of the expansion folder a card comes from, if it has one."""
    from kingdom.compiler.expansions import MANIFEST, Manifest, read_manifest

    for folder in Path(card.source).parents if card.source else ():
        if (folder / MANIFEST).is_file():
            found = read_manifest(folder / MANIFEST)
            return found if isinstance(found, Manifest) else None
    return None


def select_kingdom(library: Library, names: list[str], ally: str | None = None, players: int = 2,
                   seed: int = 0, colonies: bool | None = None) -> Selection:
    """A Kingdom and its setup for `players`, every choice (Bane, Ally, ...) resolved, seeded."""
    cards: list[CardDef] = []
    piles: dict[str, list[str]] = {}
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        if name in library.split_piles:
            piles[name] = list(library.split_piles[name])
            cards.extend(library[m] for m in piles[name] if m in library)
            continue
        resolved = library.resolve(name)
        if resolved is None:
            hint = library.suggest(name)
            raise RenderError(f"unknown card '{name}'" + (f"; did you mean '{hint}'?" if hint else ""))
        if library[resolved] not in cards:
            cards.append(library[resolved])
    ally_card = None
    if ally:
        resolved = library.resolve(ally)
        if resolved is None or library[resolved].kind != "ally":
            allies = sorted(c.name for c in library if c.kind == "ally")
            raise RenderError(f"'{ally}' is not an Ally" +
                              (f"; Allies: {', '.join(allies)}" if allies else ""))
        ally_card = library[resolved]
    chosen = [n.strip() for n in names if n.strip()]
    kingdom = [n if n in piles else library[n].name for n in chosen]
    try:
        game = resolve_setup(library, kingdom, players, seed, ally_card and ally_card.name, colonies)
    except RandomizerError as exc:
        raise RenderError(str(exc)) from exc
    ally_card = library[game.ally] if game.ally else None
    for pile in game.added.values():  # the Bane, Ferryman's pile
        if library[pile] not in cards:
            cards.append(library[pile])
    if game.colonies:
        cards.extend(library[n] for n in ("Platinum", "Colony") if n in library)
    for extra in _outside_supply(library, [*cards, *([ally_card] if ally_card else [])]):
        if extra not in cards:
            cards.append(extra)
    if ally_card is not None:
        cards.append(ally_card)
    title = "Kingdom: " + ", ".join(kingdom)
    return Selection(title, cards, piles, ally_card, is_kingdom=True, game=game)


def _outside_supply(library: Library, chosen: list[CardDef]) -> list[CardDef]:
    """Cards kept outside the Supply (Rewards) that a chosen card's text refers to."""
    text = "\n".join(c.text for c in chosen)
    out = []
    for card in library:
        if card.kind not in NON_SUPPLY_KINDS:
            continue
        words = [card.name, *(t for t in card.types if t not in COMMON_TYPES)]
        if any(re.search(rf"\b{re.escape(w)}s?\b", text) for w in words):
            out.append(card)
    return out


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
        return " ".join(f"t-{t.lower()}" for t in self.types)


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
                  layout: str = "summary", backs: bool = False) -> Summary:
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
    return Summary(selection.title, sections, notes, plain, paper, access, layout, backs)


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


# ------------------------------------------------------------------------------ output
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=lambda name: bool(name and name.endswith(".html.j2")),
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["md"] = _md_escape
    return env


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|#])", r"\\\1", text)


def render_html(summary: Summary, for_pdf: bool = False) -> str:
    template = "sheet.html.j2" if summary.layout == "sheet" else "summary.html.j2"
    return _environment().get_template(template).render(
        s=summary, page_size=PAPERS[summary.paper], for_pdf=for_pdf)


def render_markdown(summary: Summary) -> str:
    text = _environment().get_template("summary.md.j2").render(s=summary)
    return re.sub(r"\n{3,}", "\n\n", text)


def render_pdf(summary: Summary) -> bytes:
    from xhtml2pdf import pisa

    out = io.BytesIO()
    status = pisa.CreatePDF(render_html(summary, for_pdf=True), dest=out, encoding="utf-8")
    if status.err:
        raise RenderError(f"PDF rendering failed with {status.err} error(s)")
    return out.getvalue()


def render_print_and_play(summary: Summary) -> bytes:
    """Proxies or dividers of the summary's cards (a split pile as its member cards), as PDF."""
    from kingdom.print import proxies

    cards = [proxies.Proxy(c.name, c.cost, c.type_line, c.above, c.below, c.set_name)
             for c in summary.cards if c.kind != "split-pile"]
    try:
        if summary.layout == "dividers":
            return proxies.dividers_pdf(cards, summary.paper, summary.title)
        return proxies.proxies_pdf(cards, summary.paper, summary.backs, summary.title)
    except proxies.ProxyError as exc:
        raise RenderError(str(exc)) from exc


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
