"""One card file through the pipeline: load -> schema -> parse -> names -> closures.

`parse_card` does the per-file stages (it needs no other card); `compile_card` resolves names
against every loaded card and builds the `CardDef`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from kingdom.compiler.checks import check_card
from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.loader import Located, load_yaml
from kingdom.compiler.names import check_file_names
from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.parser import DSLSyntaxError, later_errors, parse, parses
from kingdom.compiler.primitives.buy_limits import BuyLimit
from kingdom.compiler.primitives.costs import CostChange
from kingdom.compiler.printed import printed_parts, read_printed
from kingdom.compiler.references import check_references
from kingdom.compiler.render import render_card
from kingdom.compiler.schema import validate
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.block import Block, compile_apart
from kingdom.compiler.structure.compound import make_compound
from kingdom.compiler.structure.conditional import If
from kingdom.runtime.cards import CardDef
from kingdom.runtime.context import Ctx

DSL_VERSION = 1


@dataclass
class ParsedCard:
    """A card file after the per-file stages."""

    doc: Located
    data: dict[str, Any]
    set: str
    play: Block | None = None
    triggers: Block | None = None
    worth: tuple | None = None
    vp: int | None = None  # a card's fixed VP, given as `vp:` or printed "2 VP" in `text:`
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.data["name"]


def parse_card(file: Path, set_name: str | None = None, text: str | None = None
               ) -> ParsedCard | list[Diagnostic]:
    """Load, validate and parse one card file (its `text`, when already read); a list of
    diagnostics if the file is no card; a card with `diagnostics` if some of its effect text
    does not parse (its other statements parsed, so that their faults and the file's other
    checks are reported too: every error of a file at once)."""
    doc, errors = load_yaml(str(file), text)
    if doc is None:
        return errors
    errors = validate(doc) or check_file_names(doc, doc.data)
    if errors:
        return errors
    data = doc.data
    if data["dsl"] > DSL_VERSION:
        line, col = doc.where(("dsl",))
        return [Diagnostic("K401", f"written for DSL version {data['dsl']}; this Kingdom "
                           f"reads version {DSL_VERSION} and older", doc.file, line, col,
                           "upgrade Kingdom to load this card")]
    card = ParsedCard(doc, data, data.get("set") or set_name or file.parent.name)
    if "text" in data:
        _parse_printed(card, data["text"])
        return card
    if "play" in data:
        card.play = _parse_block(card, data["play"], ("play",))
    if "triggers" in data:
        card.triggers = _parse_block(card, data["triggers"], ("triggers",))
    if isinstance(data.get("vp"), str):
        card.worth = _parse_text(card, data["vp"], ("vp",), "worth")
    elif isinstance(data.get("vp"), int):
        card.vp = data["vp"]
    return card


def _parse_printed(card: ParsedCard, text: str) -> None:
    """A card written as its printed text (`text:`): the part above the divider is its play,
    below it its triggers and worth (compiler/printed.py)."""
    given = [key for key in ("play", "triggers", "vp") if key in card.data]
    if given:
        line, col = card.doc.where((given[0],), key=True)
        card.diagnostics.append(Diagnostic(
            "K101", f"'{given[0]}:' given beside 'text:'", card.doc.file, line, col,
            "a card is written either as its printed text (text:) or as play:, triggers: "
            "and vp:; keep one"))
        return
    parts = printed_parts(text, card.data.get("kind", "kingdom"),
                          "Treasure" in card.data["types"])
    path = ("text",)
    if parts.play.strip():
        card.play = _parse_block(card, parts.play, path, read_printed)
    if parts.triggers.strip():
        card.triggers = _parse_block(card, parts.triggers, path, read_printed)
    if parts.worth.strip():
        card.worth = _parse_text(card, parts.worth, path, "worth")
    if parts.vp is not None:
        card.vp = parts.vp


def _parse_text(card: ParsedCard, text: str, path: tuple, start: str = "statements") -> Any:
    try:
        return parse(text, start)
    except DSLSyntaxError as exc:
        line, col = card.doc.text_position(path, exc.line, exc.column)
        card.diagnostics.append(
            Diagnostic(exc.code, exc.message, card.doc.file, line, col, exc.hint, exc.suggestion)
        )
        return None


def _into_if(before: Node, node: Node) -> bool:
    """Whether "; B" after an "if" would read as the "if"'s ("If X, A; B." is "if X: A; B"):
    such a B is printed as a sentence of its own ("If X, A. B."); an "if" after one keeps its
    "; " ("If A, X; if B, Y.")."""
    return isinstance(before, If) and before.otherwise is None and not isinstance(node, If)


def _parse_block(card: ParsedCard, value: Any, path: tuple, read: Callable | None = None) -> Block:
    """A YAML block: a string of statements (one author line per text line) or a list; `read`
    parses a line (read_printed for a printed text)."""
    lines: list[list[Node]] = []
    items = value if isinstance(value, list) else [value]
    for i, item in enumerate(items):
        item_path = (*path, i) if isinstance(value, list) else path
        if isinstance(item, list):  # a list inside a list: its statements print as one line
            line: list[Node] = []
            for j, sub in enumerate(item):
                nodes = _parse_block(card, sub, (*item_path, j)).statements
                if isinstance(sub, list):  # a list in that: one sentence, "A; B"
                    for before, node in pairwise(nodes):
                        if not _into_if(before, node):
                            node.semi_before = True
                elif isinstance(sub, str) and nodes and isinstance(nodes[0], If):
                    nodes[0].own_sentence = True  # "If A, X. If B, Y." (nested: "...; if B, Y")
                line.extend(nodes)
            lines.append(line)
            continue
        if isinstance(item, dict):
            (head_text, body), = item.items()
            nodes = _as_one_line(card, str(head_text), body, (*item_path, head_text))
            if nodes is not None:
                lines.extend([nodes] if nodes else [])
                continue
            head = _parse_head(card, str(head_text), (*item_path, head_text))
            body_block = _parse_block(card, body, (*item_path, head_text))
            if head is not None:
                lines.append([make_compound(head, body_block, None)])
            continue
        text = str(item)
        for n, line, breaks in _text_lines(text):
            nodes = _parse_line(card, line, item_path, n, read)
            if nodes and breaks:  # options of a choice laid out on several lines
                choose = next((x for node in nodes for x in node.walk()
                               if type(x).__name__ == "Choose"), None)
                if choose is not None:
                    choose.breaks = breaks
            if nodes:
                lines.append(nodes)
    return Block(lines)


def _text_lines(text: str) -> list[tuple[int, str, set[int]]]:
    """(line number, statement text, option breaks) per statement line of a string block. A
    line ending with ':' or '|' goes on to the next ("choose one:" / "+1 Card |" / "or ..."):
    the choice is printed with a line break there, before the option it counts to."""
    out: list[tuple[int, str, set[int]]] = []
    pending: tuple[int, str, set[int]] | None = None
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if pending is not None:
            start, joined, breaks = pending
            breaks.add(joined.count("|"))
            line, n = f"{joined}\n{line}", start
        else:
            breaks = set()
        if line.rstrip().endswith((":", "|")):
            pending = (n, line, breaks)
            continue
        pending = None
        out.append((n, line, breaks))
    if pending is not None:
        out.append(pending)
    return out


def _parse_line(card: ParsedCard, line: str, path: tuple, n: int, read: Callable | None = None
                ) -> list[Node] | None:
    """One statement line (`read` by the printed-text reader, or parsed); every error of it."""
    top = all(isinstance(step, int) for step in path[1:])  # (not nested under a head)
    where = (path[0] if top else "block", card.data.get("kind", "kingdom"))
    try:
        nodes = read(line) if read is not None else parse(line, where=where)
    except DSLSyntaxError as exc:
        later, nodes = later_errors(line, exc, where) if read is None else ([], [])
        for error in [exc, *later]:
            fl, fc = card.doc.text_position(path, n + (error.line or 1) - 1, error.column)
            card.diagnostics.append(Diagnostic(error.code, error.message, card.doc.file, fl,
                                               fc, error.hint, error.suggestion))
        # (the statements after the last fault are kept for the checks of their names)
    return _placed(nodes, path, n) if nodes else None


def _placed(nodes: list[Node], path: tuple, n: int, offset: int = 0) -> list[Node]:
    """`nodes` told the YAML item and line they came from; `offset` characters at the start of
    their line were not in the card text."""
    for node in nodes:
        for child in node.walk():
            child.line = n
            child.item_path = path  # the YAML item it came from, for diagnostics
            if offset and hasattr(child, "column"):
                child.column = max(1, child.column - offset)
    return nodes


def _as_one_line(card: ParsedCard, head: str, body: Any, path: tuple) -> list[Node] | None:
    """A mapping `key: value` that YAML made of one line, read as that line when the nested
    reading cannot work: options separated by '|' (`choose one: +1 card | +1 action`), or a
    key that is not a head alone (`discard a card; if you did: +1 card`); its errors are the
    line's. None when it is not such a line (nested, then), or on an error."""
    if not isinstance(body, str) or "\n" in body.strip():
        return None
    if "|" not in body:
        try:
            parse(head, "head_only")
            return None
        except DSLSyntaxError:
            pass
    offset = len(head) + 2
    try:
        return _placed(parse(f"{head}: {body}"), path, 1, offset)
    except DSLSyntaxError as exc:
        if exc.line == 1 and exc.column <= len(head):  # in the key
            line, col = card.doc.where(path, key=True)
            col += exc.column - 1
        else:
            col = exc.column - offset if exc.line == 1 else exc.column
            line, col = card.doc.text_position(path, exc.line, col)
        card.diagnostics.append(Diagnostic(exc.code, exc.message, card.doc.file, line, col,
                                           exc.hint))
        return []


def _parse_head(card: ParsedCard, text: str, path: tuple) -> tuple | None:
    try:
        return parse(text, "head_only")
    except DSLSyntaxError as exc:
        line, col = card.doc.where(path, key=True)
        card.diagnostics.append(Diagnostic(exc.code, exc.message, card.doc.file, line,
                                           col + exc.column - 1, _head_hint(text, exc.hint)))
        return None


def _head_hint(text: str, hint: str) -> str:
    """The hint for a key that is not a head: when it is a step, say that a step takes no
    nested block (the one-line layout `step; step` is what parses)."""
    try:
        parse(text)
    except DSLSyntaxError:
        return hint
    return (f"'{text}' is a step, not a head: only a head (if ..., choose ..., you may ... to, "
            "each other player, ...) takes steps nested under it; write them after it on "
            "one line, 'step; step', or as items of the same list")


def compile_card(card: ParsedCard, env: Env) -> CardDef | None:
    """Resolve names and build closures. Reports into `env.diagnostics`; None on errors.

    A statement that the grammar accepts but whose node fails to check, compile or render
    (a fault of Kingdom's, not the author's) is reported at that node, never as a traceback.
    """
    env.fits = lambda statement: parses(statement, where=("triggers", env.card_kind))
    try:
        return _compile_card(card, env)
    except Exception as exc:
        env.error("K115", f"cannot compile this statement ({type(exc).__name__}: {exc})",
                  _failing_node(exc), "the grammar accepts it but Kingdom cannot compile it; "
                  "write it another way, and please report it")
        return None


def _failing_node(exc: BaseException) -> Node | None:
    """The innermost effect node whose method raised `exc`: where to report it."""
    node, frame = None, exc.__traceback__
    while frame is not None:
        candidate = frame.tb_frame.f_locals.get("self")
        node = candidate if isinstance(candidate, Node) else node
        frame = frame.tb_next
    return node


def _compile_card(card: ParsedCard, env: Env) -> CardDef | None:
    data = card.data
    before = len(env.diagnostics)
    env.card_name, env.card_kind = data["name"], data.get("kind", "kingdom")
    for section, path in ((card.play, ("play",)), (card.triggers, ("triggers",))):
        if section is not None:
            env.path = path
            for node in section.walk():
                node.check(env)
    if card.worth is not None:
        env.path = ("vp",)
        for node in card.worth[2].walk():
            node.check(env)
    if card.diagnostics:  # some text did not parse: the rest is checked for names only (what
        return None       # it binds or how it fits together may need the statement missing)
    check_card(card, env)
    for section, path in ((card.play, ("play",)), (card.triggers, ("triggers",))):
        if section is not None:
            env.path = path
            check_references(section, env, playing=section is card.play)
    if len(env.diagnostics) > before:
        return None
    cost = data.get("cost", 0)
    cost = cost if isinstance(cost, dict) else {"coins": cost}
    definition = CardDef(
        name=data["name"],
        set=card.set,
        cost=cost["coins"],
        types=tuple(data["types"]),
        kind=data.get("kind", "kingdom"),
        overpay=cost.get("overpay", False),
        special_cost=cost.get("special", False),
        former_names=tuple(data.get("former_names", ())),
        pile_size=data.get("pile_size"),
        rulings=tuple(data.get("rulings", ())),
        source=card.doc.file,
        vp=card.vp or 0,
    )
    definition.tree = card
    env.path = ("play",)
    if card.play is not None:
        _compile_play(definition, card.play, env)
    if card.worth is not None:
        definition.worth = _compile_worth(card.worth)
    if card.triggers is not None:
        env.path = ("triggers",)
        for node in card.triggers.statements:
            if isinstance(node, CostChange):  # a "cost" listener of the games it is in
                definition.cost_changes += (node.compile(env),)
                continue
            if isinstance(node, BuyLimit):  # checked by every buy of this card
                definition.buy_limit = (node.compile_limit(), node.render())
                continue
            if not isinstance(node, Ability):
                env.error("K302", "a trigger must start with when/at/after/setup/overpay", node)
                continue
            _add_ability(definition, node, env)
    definition.brings = tuple(sorted({  # non-Supply piles it needs ("gain any Reward")
        b for section in (card.play, card.triggers) if section is not None
        for n in section.walk() for b in getattr(n, "brings", ())}))
    definition.records = tuple(sorted({  # turn history a game keeps only if asked ("buy")
        r for section in (card.play, card.triggers) if section is not None
        for n in section.walk() for r in getattr(n, "records", ())}))
    definition.text = render_card(definition, card)
    if "text" in data:  # a card written as its printed text shows that text (check compares)
        definition.text = data["text"].strip("\n")
    return definition if len(env.diagnostics) == before else None


def _add_ability(definition: CardDef, node: Ability, env: Env) -> None:
    """Files an ability's compiled trigger where the runtime looks for it."""
    slot, trigger = node.trigger(env)
    if slot == "setup":
        definition.setup = trigger.effect
        definition.setup_keys = tuple(  # the setup choices a scenario may preset
            k for n in node.walk() if hasattr(n, "choice_keys")
            for k in n.choice_keys(definition.name))
    else:
        trigger.match = node.when.matcher() if slot in ("game", "hand") else None
        definition.triggers.setdefault(slot, []).append(trigger)
        if getattr(node.when, "event", "") == "gain_or_trash_this":
            definition.triggers.setdefault("trash", []).append(trigger)


def _lift_in_play_abilities(definition: CardDef, play: Block, env: Env) -> Block:
    """A "while this is in play, when you ..." ability printed above the line (Groundskeeper)
    lives while the card is in play: filed as a trigger, it is not done when the card is
    played. The rest of `play` is returned; any other ability left in it is K375 (Ability.compile)."""
    lifted = [s for s in play.statements
              if isinstance(s, Ability) and getattr(s.when, "scope", "") == "in_play"]
    if not lifted:
        return play
    for node in lifted:
        _add_ability(definition, node, env)
    lines = [[s for s in line if not any(s is n for n in lifted)] for line in play.lines]
    return Block([line for line in lines if line], play.joiner)


def _compile_play(definition: CardDef, play: Block, env: Env) -> None:
    play = _lift_in_play_abilities(definition, play, env)
    if not play.lines:
        return
    statements = play.statements
    if (
        definition.is_treasure
        and len(statements) == 1
        and type(statements[0]).__name__ == "Bonus"
        and statements[0].plain_coins() is not None
    ):
        definition.coins = statements[0].plain_coins()  # played without the interpreter
        return
    definition.on_play = compile_apart(play, env)


def _compile_worth(worth: tuple):
    vp, divisor, countable = worth
    count = countable.compile_count()

    def worth_of(game, player) -> int:
        return vp * (count(Ctx(game, player, None)) // divisor)

    return worth_of

