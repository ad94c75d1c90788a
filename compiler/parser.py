"""Parse DSL text into the typed node tree.

The grammar is grammar/effect.lark plus the rules each primitive registers (compiler.grammar);
a Lark Transformer (compiler.transform) turns parse trees into nodes (compiler.nodes,
.selections, .structure and the primitives); compiler.syntax_errors says what went wrong.
Here: parse() and the fallback that reads a refused one-line `head: steps` as its nested layout.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from typing import Any

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.expectations import COMMON_WORDS, accepted, keywords, words_of
from kingdom.compiler.grammar import GRAMMAR_FILE, LARK_OPTIONS, STARTS, grammar_text, parser
from kingdom.compiler.loader import Located
from kingdom.compiler.nodes import Env
from kingdom.compiler.primitives.buy_limits import BuyLimit
from kingdom.compiler.primitives.costs import CostChange
from kingdom.compiler.references import check_references
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.compound import make_compound
from kingdom.compiler.syntax_errors import DSLSyntaxError, explain, offset_of
from kingdom.compiler.transform import ToNodes
from lark import Token, Tree
from lark.exceptions import UnexpectedInput, VisitError

__all__ = ["GRAMMAR_FILE", "LARK_OPTIONS", "STARTS", "DSLSyntaxError", "ToNodes", "grammar_text",
           "parse", "parser"]


MAX_TREE_DEPTH = 60  # rules inside each other in one statement; the built-in cards reach 9


def parse(text: str, start: str = "statements", explained: bool = True,
          where: tuple[str, str] = ("", "")) -> Any:
    """Parse `text` from rule `start` into nodes; raises DSLSyntaxError, told in the
    designer's words unless `explained` is False (where only whether it parses matters).
    `where`: the card section (play, triggers) the text is a line of and the card's kind, so
    that a suggestion fits there too."""
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as exc:
        error = DSLSyntaxError("", *_where(text, exc))
        try:
            nodes = _as_nested(text) if start == "statements" else None
        except DSLSyntaxError as nested:  # (the error found further on is the better one)
            error = max(error, nested, key=lambda e: (e.line, e.column))
            nodes = None
        named = _names_in_any_case(text, error, start) if nodes is None and not error.message else None
        if named is not None:  # (parsed again: it reads, or its first error is further on)
            return parse(named, start, explained, where)
        if nodes is None:
            if error.message or not explained:  # (built by a phrase, or its limits)
                raise error from None
            raise explain(text, error.line, error.column, start,
                          lambda candidate, rule: parses(candidate, rule, where)) from None
        return nodes
    _check_limits(tree)  # (the transformer recurses once per level)
    try:
        return ToNodes().transform(tree)
    except VisitError as exc:  # raised by a method of ToNodes
        meta = getattr(exc.obj, "meta", None)
        line, col = (meta.line, meta.column) if meta and not meta.empty else (1, 1)
        if isinstance(exc.orig_exc, PhraseError):  # the author's words: said precisely
            raise DSLSyntaxError(str(exc.orig_exc), line, col, "K202", exc.orig_exc.hint) from None
        raise DSLSyntaxError(f"cannot build '{exc.rule}': {exc.orig_exc}", line, col,
                             "K115") from None


MOST_LATER_ERRORS = 10  # errors reported after the first in one text


def later_errors(text: str, error: DSLSyntaxError, where: tuple[str, str] = ("", "")
                 ) -> tuple[list[DSLSyntaxError], list]:
    """The errors after `error` in `text`, and the nodes of the statements after the last
    of them: the text is read again from the statement after each fault (after the next
    ';'), each error at its own place. A statement that only goes on from the one at fault
    ('otherwise ...') is not an error of its own."""
    errors: list[DSLSyntaxError] = []
    nodes: list = []
    offset = offset_of(text, error.line, error.column)
    while len(errors) < MOST_LATER_ERRORS:
        cut = text.find(";", offset)
        rest = _blank(text[: cut + 1]) + text[cut + 1 :]
        if cut < 0 or not rest.strip() or rest.split()[0].startswith("otherwise"):
            break
        try:
            return errors, [*nodes, *parse(rest, where=where)]
        except DSLSyntaxError as later:
            errors.append(later)
            offset = max(offset_of(rest, later.line, later.column), cut + 1)
            between = text.rfind(";", cut + 1, offset)  # the statements before this fault
            if between > cut:
                with contextlib.suppress(DSLSyntaxError):
                    nodes.extend(parse(_blank(text[: cut + 1]) + text[cut + 1 : between],
                                       explained=False, where=where))
    return errors, nodes


def _names_in_any_case(text: str, error: DSLSyntaxError, start: str) -> str | None:
    """`text` with the lower-case words where the parser stopped made a card or type name
    ("gain a silver", "a throne room"), when a name may go there and the text then reads past
    it; None otherwise. The name is resolved in any case when compiling (a misspelt one is
    told there, with the names it is near)."""
    at = offset_of(text, error.line, error.column)
    written = re.match(r"[a-z][\w'-]*", text[at:])
    if not written or written.group(0) in COMMON_WORDS or _misspelt_keyword(
            written.group(0), accepted(text[:at], start) or set()):
        return None  # ("cardsx" where "cards" may go is a syntax error at the word)
    named = re.search(r"(?:[A-Z][\w'-]* )+$", text[:at])  # "Throne room": the name so far
    begin = named.start() if named else at
    words = list(re.finditer(r"[A-Za-z][\w'-]*", text[begin:]))
    opening = text[:begin].rstrip() == "" or text[:begin].rstrip().endswith((";", ":", "|"))
    if opening or "NAME" not in (accepted(text[:begin], start) or ()):
        return None  # (a statement's first word is a step, misspelt or not: K201)
    run = [words[0]]
    for word in words[1:]:
        gap = text[begin + run[-1].end() : begin + word.start()]
        if gap != " " or (word.group(0) in keywords() and word.group(0) != "of"):
            break
        run.append(word)
    for size in range(len(run), 0, -1):
        if run[size - 1].group(0) == "of":
            continue
        name = " ".join(w if w == "of" and n else w[:1].upper() + w[1:]
                        for n, w in enumerate(m.group(0) for m in run[:size]))
        end = begin + run[size - 1].end()
        candidate = text[:begin] + name + text[end:]
        if candidate == text:  # (nothing to read in another case)
            continue
        try:
            parse(candidate, start, explained=False)
        except DSLSyntaxError as later:  # (the fault of a later statement is its own)
            statement_end = candidate.find(";", end)
            if (not later.message and statement_end >= 0
                    and offset_of(candidate, later.line, later.column) > statement_end):
                return candidate
            continue
        return candidate
    return None


def _misspelt_keyword(word: str, terminals: set[str]) -> bool:
    """Whether `word` looks like a keyword that may go where it is ("cardsx", "aq"): a
    syntax error then, not a card name."""
    keywords = [k for t in terminals for k in words_of(t)]
    return any(word.startswith(k) or difflib.SequenceMatcher(None, word, k).ratio() >= 0.8
               for k in keywords)


def _where(text: str, exc: UnexpectedInput) -> tuple[int, int]:
    """The (line, column) a parse failed at; the end of the text when it ended too soon
    (Lark puts that at its last token)."""
    if getattr(getattr(exc, "token", None), "type", "") == "$END":
        end = len(text.rstrip())
        return text.count("\n", 0, end) + 1, end - text.rfind("\n", 0, end)
    return max(exc.line, 1), max(exc.column, 1)


def parses(text: str, start: str = "statements", where: tuple[str, str] = ("", "")) -> bool:
    """Whether `text` parses and builds its nodes, every reference in it that it can bind
    itself means something ("you may play it" alone does not), and, as a line of the card
    section `where` names, its statements belong there: what a suggestion must do."""
    try:
        nodes = parse(text, start, explained=False)
    except DSLSyntaxError:
        return False
    section, kind = where
    if start == "head_only":  # (a head stands where a statement it starts would)
        return not section or parses(f"{text}: +1 card", "statements", where)
    if start != "statements":
        return True
    env = Env(Located("", None, ""), set(), set(), set(), lambda _name: None, lambda _name: None)
    env.card_kind = kind or "kingdom"
    check_references(Block([nodes]), env, playing=section != "triggers")
    return not any(d.code == "K301" for d in env.diagnostics) and _belongs(nodes, section, env)


def _belongs(nodes: list, section: str, env: Env) -> bool:
    """Whether statements can stand in `section`: an ability in `triggers:` only (where it
    says where its card must be: K320), or above the line while this is in play (K375)."""
    if section == "play":
        return all(not isinstance(node, Ability) or getattr(node.when, "scope", "") == "in_play"
                   or getattr(node, "trailing", False) for node in nodes)
    if section != "triggers":
        return True
    env.path = (section,)
    for node in nodes:
        if not isinstance(node, Ability | CostChange | BuyLimit):
            return False
        if isinstance(node, Ability):
            node.check(env)  # (K323 'this' game-wide, K350-K353 Reactions in hand)
            if node.is_placed():
                try:
                    node.place(env)
                except AttributeError:  # (a name not resolved: the card itself, maybe)
                    continue
    return not any(d.code in ("K320", "K323", "K350", "K351", "K352", "K353")
                   for d in env.diagnostics)


def _blank(text: str) -> str:
    """`text` with every character but line breaks made a space: what is cut off a statement
    keeps its place, so the rest is parsed at its own lines and columns."""
    return re.sub(r"[^\n]", " ", text)


def _as_nested(text: str) -> list | None:
    """A one-line `head: steps` the grammar refused, read as its nested layout `{head: steps}`
    (the head's block is the rest of the line), so that a text means the same in either
    layout: "if you did: +1 card and +1 action". The statements before the head are parsed on
    their own. None when no head ends at a ':'; the error of the part that fails otherwise,
    where the nested layout would report it."""
    for colon in (m.start() for m in re.finditer(":", text)):
        cut = text.rfind(";", 0, colon)
        try:
            head = parse(_blank(text[: cut + 1]) + text[cut + 1 : colon], "head_only", False)
        except DSLSyntaxError:
            continue
        before = parse(text[:cut], explained=False) if cut >= 0 else []
        body = parse(_blank(text[: colon + 1]) + text[colon + 1 :], explained=False)
        start = len(text[: cut + 1]) + len(text[cut + 1 :]) - len(text[cut + 1 :].lstrip())
        line = text.count("\n", 0, start) + 1
        compound = make_compound(head, Block([body]), None)
        compound.line, compound.column = line, start - text.rfind("\n", 0, start)
        return [*before, compound]
    return None


def _check_limits(tree: Tree) -> None:
    """Refuse a tree deeper than MAX_TREE_DEPTH (1,000 reminders in a row) or with a number
    too long to convert, walking it without recursion."""
    from kingdom.compiler.loader import MAX_NUMBER_LENGTH

    stack: list[tuple[Tree | Token, int, Tree]] = [(tree, 1, tree)]
    while stack:
        node, depth, parent = stack.pop()
        if isinstance(node, Token):
            digits = max(map(len, re.findall(r"[0-9]+", node)), default=0)
            if digits > MAX_NUMBER_LENGTH:
                raise DSLSyntaxError(f"number too long ({digits:,} digits; at most "
                                     f"{MAX_NUMBER_LENGTH})", node.line or 1, node.column or 1,
                                     "K112")
            continue
        if depth > MAX_TREE_DEPTH:
            meta = parent.meta
            line, col = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise DSLSyntaxError(f"the statement is nested too deeply (more than "
                                 f"{MAX_TREE_DEPTH} levels)", line, col, "K114",
                                 "split it into several statements, or remove reminders")
        stack.extend((child, depth + 1, node) for child in node.children)


