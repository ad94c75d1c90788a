"""The typed tree of the effect DSL: base classes, the compile environment and English helpers.

Every node knows three things: its position (for diagnostics), how to `compile` itself into a
closure over a runtime `Ctx`, and how to `render` itself as English. Structural nodes (blocks,
choices, conditions) live in `compiler.structure`; card descriptions, counts and selections in
`compiler.selections`; the primitives (draw, gain, trash, ...) in `compiler.primitives`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.lexicon import POSSESSIVES, inflected

if TYPE_CHECKING:
    from kingdom.compiler.loader import Located
    from kingdom.runtime.context import Ctx

Effect = Callable[["Ctx"], Any]


_UNSET = object()


class Node:
    """A node of the effect tree.

    Its fields are its instance attributes, except `ATTRIBUTES`: where it was written, kept
    for diagnostics only. Two nodes are equal when they have the same type and fields, wherever
    they were written (as Jinja2 splits a node's fields from its attributes), so that text
    printed from a tree can be checked to parse back to the same tree.
    """

    ATTRIBUTES = frozenset({"line", "column", "item_path", "runs_on"})
    line: int = 1
    column: int = 1
    binds = ""  # a step's participle for the cards it binds as "it" (compiler.references)

    def fields(self) -> dict[str, Any]:
        """The attributes that make the node what it is: not its position, and not one set to
        its class's default value (an `and_before = False` is the same as none)."""
        cls = type(self)
        return {k: v for k, v in vars(self).items()
                if k not in self.ATTRIBUTES and getattr(cls, k, _UNSET) != v}

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.fields() == other.fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # (equal nodes can change: no hash)

    def at(self, meta: Any) -> Node:
        if meta is not None and not getattr(meta, "empty", True):
            self.line, self.column = meta.line, meta.column
        return self

    def children(self) -> Iterator[Node]:
        for value in vars(self).values():
            if isinstance(value, Node):
                yield value
            elif isinstance(value, list | tuple):
                yield from (v for v in value if isinstance(v, Node))

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children():
            yield from child.walk()

    def check(self, env: Env) -> None:
        """Resolve names and report misuse; called on every node before compiling."""

    def compile(self, env: Env) -> Effect:
        raise NotImplementedError(type(self).__name__)

    def render(self, they: bool = False) -> str:
        raise NotImplementedError(type(self).__name__)

    def unparse(self) -> str:
        """Canonical DSL text that parses back to a node equal to this one."""
        raise NotImplementedError(type(self).__name__)


class Env:
    """What the compiler knows while compiling one card: names, file, diagnostics."""

    def __init__(
        self,
        doc: Located,
        card_names: set[str],
        pile_names: set[str],
        type_names: set[str],
        resolve: Callable[[str], str | None],
        suggest: Callable[[str], str | None],
    ) -> None:
        self.doc = doc
        self.card_names = card_names
        self.pile_names = pile_names
        self.type_names = type_names
        self._resolve = resolve
        self._suggest = suggest
        self.path: tuple = ()
        self.diagnostics: list[Diagnostic] = []
        self.context = "play"  # play, trigger, setup, worth: what "this" means and where it is
        self.card_name = ""  # the card being compiled, and its kind ("kingdom", "ally", ...)
        self.card_kind = "kingdom"
        # whether a statement compiles as a trigger of this card, for a hint to offer it only
        # then (compile_card sets it: compiler.parser.parses)
        self.fits: Callable[[str], bool] = lambda _statement: True
        # what a step's decision leads to, for an agent weighing it (id of the step -> the node
        # of what its "you may ... for/to" offers, else of the statement after it): `reward_of`
        self.rewards: dict[int, Node] = {}

    def reward_of(self, node: Node) -> Node | None:
        """What `node`'s decision leads to ("+1 Card per card discarded", "if you do: +$2")."""
        return self.rewards.get(id(node))

    def error(self, code: str, message: str, node: Any = None, hint: str = "",
              suggestion: str = "") -> None:
        """Report a fault at `node`; `suggestion`: the statement that would be right."""
        line, column = getattr(node, "line", 1) or 1, getattr(node, "column", 1) or 1
        path = getattr(node, "item_path", None) or self.path
        file_line, file_col = self.doc.text_position(path, line, column)
        self.diagnostics.append(
            Diagnostic(code, message, self.doc.file, file_line, file_col, hint, suggestion)
        )

    def _in_any_case(self, name: str) -> str | None:
        """The one card, type or pile name that `name` is in another case ("Throne Room" for
        "Throne room"), or None; names that differ only by case are refused (K410)."""
        folded = name.casefold()
        found = {n for n in (*self.card_names, *self.type_names, *self.pile_names)
                 if n.casefold() == folded}
        singular = {n for n in (*self.card_names, *self.type_names)
                    if folded.endswith("s") and n.casefold() == folded[:-1]}
        found = found or singular
        return next(iter(found)) if len(found) == 1 else None

    def card_or_type(self, name: str, node: Any) -> tuple[str, str]:
        """Resolve a capitalised name to ("type", T), ("card", C) or ("pile", P)."""
        if name in self.type_names:
            return "type", name
        singular = name[:-1] if name.endswith("s") and name[:-1] in self.type_names else None
        if singular:
            return "type", singular
        head, _, word = name.rpartition(" ")  # "Action Card" (as older cards print it)
        if word in ("Card", "Cards") and head in self.type_names:
            return "type", head
        card = self._resolve(name)
        if card is not None:
            return "card", card
        if name in self.pile_names:
            return "pile", name
        proper = self._in_any_case(name)
        if proper is not None and proper != name:  # "gain a silver": the name as printed
            return self.card_or_type(proper, node)
        suggestion = self._suggest(name) or self._suggest(name.title())
        self.error(
            "K300",
            f"unknown card, type or pile name '{name}'",
            node,
            f"did you mean '{suggestion}'?" if suggestion else "check the spelling: no card, "
            "type or pile of the loaded cards has that name (`kingdom list` shows them)",
            suggestion or "",
        )
        return "card", name


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


# --------------------------------------------------------------------------- English helpers
def their(phrase: str) -> str:
    """A phrase about "you" said about "they": "your hand" -> "their hand" (the possessives of
    compiler/lexicon.py, which the grammar reads)."""
    for yours, theirs in POSSESSIVES.items():
        phrase = re.sub(rf"\b{yours}\b", theirs, phrase)
    return re.sub(r"\byou have\b", "they have", phrase)


def third_person(phrase: str) -> str:
    """Turn an imperative phrase into a third-person one: "discard your hand" -> "discards
    their hand"."""
    if not phrase or phrase.startswith(("+", "-$")):
        return their(phrase)
    word, _, rest = phrase.partition(" ")
    if word == "then":  # "then discards a card", never "thens discard a card"
        return f"then {third_person(rest)}"
    verb = inflected(word)  # (the form the grammar reads after "each other player")
    rest = their(rest)
    rest = re.sub(r"\byou\b(?! choose)|(?<=any order )you(?= choose)", "they", rest) if (
        verb != "may") else rest  # "that you choose" is yours; "in any order they choose"
    return f"{verb} {rest}".strip()


def they_do(phrase: str) -> str:
    """An imperative phrase with "they" as its subject: "gain a Curse" -> "they gain a Curse"."""
    return f"they {'get ' if phrase.startswith('+') else ''}{their(phrase)}"


def join_and(parts: list[str]) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    if len(parts) == 2:
        return f"{parts[0]} and {parts[1]}"
    return ", ".join(parts[:-1]) + f", and {parts[-1]}"


def plural(word: str, n: int | None = 2) -> str:
    if n == 1:
        return word
    if word.endswith("y") and not word.endswith(("ay", "ey", "oy")):
        return word[:-1] + "ies"
    if word.endswith(("s", "sh", "ch", "x")):
        return word + "es"
    return word + "s"


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def capitalised(text: str) -> str:
    """The first letter upper-case; a choice that opens a sentence also its first option, as
    printed ("Choose one: Trash an Action card ..."), one inside a sentence not ("Each other
    player chooses one: discard a card; ...")."""
    text = text[:1].upper() + text[1:]
    head = re.match(r"Choose (one|two|three|four)( different options)?:\s+", text)
    if head:
        at = head.end()
        return text[:at] + text[at:at + 1].upper() + text[at + 1:]
    return text


def sentence(text: str) -> str:
    """Capitalise and end with a full stop (bonus lines like "+1 Card" stay as they are)."""
    text = text.strip()
    if not text:
        return text
    if text.startswith("+") and not any(t in text for t in (" per ", " equal to ", ".")):
        return text
    text = capitalised(text)
    if "...\n" in text:  # a list laid out one case per line ("is an...\nAction card, ...")
        return text
    return text if text.endswith((".", ".)", ":")) else text + "."
