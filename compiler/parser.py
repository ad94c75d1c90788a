"""Parse DSL text into the typed node tree.

The grammar is grammar/effect.lark plus the rules each primitive registers; a Lark Transformer
turns parse trees into nodes (compiler.nodes, .selections, .structure and the primitives).
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.lark import PostLex

from compiler import primitives
from compiler.cache import lark_parser
from compiler.nodes import Node
from compiler.selections import (
    Amount,
    Condition,
    Countable,
    Filter,
    Money,
    Noun,
    Qualifier,
    Ref,
    Selection,
)
from compiler.structure import (
    Ability,
    AsYou,
    Block,
    Choose,
    Deferred,
    Each,
    MayStep,
    RepeatAsDesired,
    Sequence,
    Then,
    Unless,
    When,
    make_compound,
)


class WholeWords(PostLex):
    """Makes every state of Lark's contextual lexer try WORD (any lower-case word), so that a
    keyword matches only as a whole word: without it a state that expects "the" lexes "then"
    as "the" + "n", and accepts "gaina Silver". The tokens pass through unchanged."""

    always_accept = ("WORD",)

    def process(self, stream):
        return stream


GRAMMAR_FILE = Path(__file__).resolve().parent.parent / "grammar" / "effect.lark"
STARTS = ["statements", "head_only", "worth"]
LARK_OPTIONS = {"start": STARTS, "parser": "lalr", "propagate_positions": True,
                "maybe_placeholders": False, "postlex": WholeWords()}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}
STEP_WORDS = [
    "draw", "gain", "trash", "discard", "put", "play", "reveal", "look", "set", "return",
    "spend", "pay", "name", "be", "cards", "you", "choose", "each", "if", "otherwise",
    "repeat", "twice", "for", "at", "this", "until", "when", "setup", "overpay",
]


class DSLSyntaxError(Exception):
    """A syntax error at (line, column) of the parsed text, with what was expected."""

    def __init__(self, message: str, line: int, column: int, code: str = "K200", hint: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code
        self.hint = hint


@cache
def grammar_text() -> str:
    """The grammar: grammar/effect.lark and the primitives' rules, in name order (the same text
    whatever order the primitives registered in, so one key for Lark's cached tables)."""
    primitives.load_all()
    order = sorted(primitives.GRAMMAR)
    rules = "\n".join(primitives.GRAMMAR[name] for name in order)
    names = " | ".join(order)
    return GRAMMAR_FILE.read_text(encoding="utf-8") + f"\n?primitive: {names}\n{rules}\n"


@cache
def parser() -> Lark:
    """The LALR parser; its tables are kept in the compile cache (compiler.cache), keyed by the
    grammar, so a new process need not build them again."""
    return lark_parser(grammar_text(), LARK_OPTIONS)


MAX_TREE_DEPTH = 60  # rules inside each other in one statement; the built-in cards reach 9


def parse(text: str, start: str = "statements") -> Any:
    """Parse `text` from rule `start` into nodes; raises DSLSyntaxError."""
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as exc:
        error = _syntax_error(text, exc)
        try:
            nodes = _as_nested(text) if start == "statements" else None
        except DSLSyntaxError as nested:  # (the error found further on is the better one)
            error = max(error, nested, key=lambda e: (e.line, e.column))
            nodes = None
        if nodes is None:
            raise error from None
        return nodes
    _check_limits(tree)  # (the transformer recurses once per level)
    try:
        return ToNodes().transform(tree)
    except VisitError as exc:  # raised by a method of ToNodes
        meta = getattr(exc.obj, "meta", None)
        line, col = (meta.line, meta.column) if meta and not meta.empty else (1, 1)
        raise DSLSyntaxError(f"cannot build '{exc.rule}': {exc.orig_exc}", line, col,
                             "K115") from None


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
            head = parse(_blank(text[: cut + 1]) + text[cut + 1 : colon], "head_only")
        except DSLSyntaxError:
            continue
        before = parse(text[:cut]) if cut >= 0 else []
        body = parse(_blank(text[: colon + 1]) + text[colon + 1 :])
        start = len(text[: cut + 1]) + len(text[cut + 1 :]) - len(text[cut + 1 :].lstrip())
        line = text.count("\n", 0, start) + 1
        compound = make_compound(head, Block([body]), None)
        compound.line, compound.column = line, start - text.rfind("\n", 0, start)
        return [*before, compound]
    return None


def _check_limits(tree: Tree) -> None:
    """Refuse a tree deeper than MAX_TREE_DEPTH (1,000 reminders in a row) or with a number
    too long to convert, walking it without recursion."""
    from compiler.loader import MAX_NUMBER_LENGTH

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


def _syntax_error(text: str, exc: UnexpectedInput) -> DSLSyntaxError:
    line, column = exc.line if exc.line > 0 else 1, exc.column if exc.column > 0 else 1
    lines = text.splitlines() or [""]
    here = lines[line - 1][column - 1 :] if line <= len(lines) else ""
    word = here.split(" ")[0].rstrip(",;:") if here else ""
    before = lines[line - 1][: column - 1].rstrip() if line <= len(lines) else ""
    at_step_start = before == "" or before.endswith((";", ":"))
    if at_step_start and word and word[0].islower() and word not in STEP_WORDS:
        match = difflib.get_close_matches(word, STEP_WORDS, n=1, cutoff=0.6)
        hint = f"did you mean '{match[0]}'?" if match else "primitives: " + ", ".join(STEP_WORDS)
        return DSLSyntaxError(f"unknown primitive '{word}'", line, column, "K201", hint)
    expected = sorted(set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
                      - {"WORD"})  # (WholeWords makes every state accept it; no rule does)
    found = f"'{word}'" if word else "the end of the text"
    hint = f"expected {_grouped(expected)}" if expected else ""
    keywords = [w for t in expected for w in _keywords(t)]
    close = difflib.get_close_matches(word, keywords, n=1, cutoff=0.7) if word else []
    if close:
        hint = f"did you mean '{close[0]}'? ({hint})"
    return DSLSyntaxError(f"unexpected {found}", line, column, "K200", hint)


NAMED_TERMINALS = {"$END": "the end of the statement", "NAME": "a card or type name",
                   "NON_TYPE": "non-Type", "INT": "a number", "MONEY": "an amount like $2",
                   "REMINDER": "a reminder in ( )",
                   "CMP": "a comparison (>=, <=, ==, !=, >, <)"}
PHRASE_GROUPS = (  # what a syntax error lists, grouped: (phrase, the rule its words start);
    # a word goes to the first that fits, so the narrowest phrases come first
    ("a card", "filter"), ("cards", "selection"), ("a number", "amount"), ("coins", "money"),
    ("a condition", "condition"), ("a step", "step"))


@cache
def _first_terminals(rule: str) -> frozenset[str]:
    """The terminals a phrase of `rule` can start with (its FIRST set, from the parser's
    rules: the same for a parser loaded from cached tables)."""
    expansions: dict[str, list[list]] = {}
    for r in parser().rules:
        expansions.setdefault(r.origin.name, []).append(r.expansion)
    found: set[str] = set()
    seen: set[str] = set()
    todo = [rule]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for expansion in expansions.get(name, ()):
            if expansion and expansion[0].is_term:
                found.add(expansion[0].name)
            elif expansion:
                todo.append(expansion[0].name)
    return frozenset(found)


def _grouped(expected: list[str]) -> str:
    """Every terminal the parser could take, grouped as phrases: "a step: 'draw', 'gain';
    a condition: 'you'; a word: 'the'; a sign: ';'". Never cut short."""
    groups: dict[str, list[str]] = {}
    for terminal in expected:
        group = next((g for g, rule in PHRASE_GROUPS if terminal in _first_terminals(rule)),
                     "a word" if _keywords(terminal) else "a sign")
        groups.setdefault(group, []).append(_describe(terminal))
    order = [g for g, _ in reversed(PHRASE_GROUPS)] + ["a word", "a sign"]
    return "; ".join(f"{g}: {', '.join(groups[g])}" for g in order if g in groups)


def _keywords(terminal: str) -> list[str]:
    """The words a keyword terminal accepts ("card", "cards", ...), for did-you-mean."""
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return []
    if pattern.type == "str":
        return [pattern.value] if re.fullmatch(r"[a-z][a-z'/-]*", pattern.value) else []
    words = re.match(r"\(\?:([a-z|]+)\)", pattern.value)  # (card|cards)(?!...)
    return words.group(1).split("|") if words else []


def _describe(terminal: str) -> str:
    """A terminal as the author would write it: 'draw', 'card' or 'cards', a number."""
    if terminal in NAMED_TERMINALS:
        return NAMED_TERMINALS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    if pattern.type == "str":
        return repr(pattern.value)
    words = _keywords(terminal)
    if terminal == "NUMBER_WORD":
        return "a number word (" + ", ".join(words) + ")"
    return " or ".join(repr(w) for w in sorted(words)) if words else terminal


def _token_word(token: Token) -> str:
    """"favors" -> "favor", "coffers" -> "coffers"."""
    text = str(token)
    return text if text.startswith("coffer") else text.removesuffix("s")


AND = "; and"  # the separator of steps rendered in one sentence, "X and Y"
THEN = ", then"  # in an option: "+3 Cards, then discard 3 cards"


def _joined(children: list) -> list:
    """Steps with their "; and" separators dropped; a step after one is marked `and_before`."""
    out, joined = [], False
    for child in children:
        if isinstance(child, str) and child == AND:
            joined = True
            continue
        if joined and isinstance(child, Node):
            child.and_before = True
        joined = False
        out.append(child)
    return out


def _plural(ref: Ref, text: str) -> Ref:
    """A plural reference ("them", "those"): the set a step picks "one of them" from."""
    ref.text = text
    ref.plural = True
    return ref


def _int(token: Token) -> int:
    text = str(token)
    return NUMBER_WORDS[text] if text in NUMBER_WORDS else int(text.lstrip("$"))


@v_args(meta=True)
class ToNodes(Transformer):
    """Parse tree -> nodes. Primitive rules are looked up in the primitive registry."""

    def __default__(self, data: str, children: list, meta: Any) -> Any:
        builder = primitives.BUILDERS.get(data)
        if builder is None:
            return Tree(data, children, meta)
        try:  # (Lark calls this outside the code that wraps errors in VisitError)
            node = builder(*children)
        except Exception as exc:  # a builder's refusal ("gain two" needs a card), or its fault
            raise VisitError(data, Tree(data, children, meta), exc) from exc
        return node.at(meta) if isinstance(node, Node) else node

    # ---- entry points
    def statements(self, meta, children):
        return _joined(children)

    def and_sep(self, meta, children):
        return AND

    def head_only(self, meta, children):
        return children[0]

    def worth_per(self, meta, children):
        """Victory points per thing counted when the game is scored: "1 per 10 cards you have" (round
        down)."""
        numbers = [c for c in children if isinstance(c, Token)]
        countable = children[-1]
        vp = int(numbers[0])
        divisor = int(numbers[1]) if len(numbers) > 1 else 1
        return vp, divisor, countable

    def inline_compound(self, meta, children):
        """A head and its block on one line: "if you did: +1 card; +$1"."""
        head, *steps = children
        return make_compound(head, Block([_joined(steps)]), None).at(meta)

    # ---- heads
    def if_head(self, meta, c):
        """Does the block only if the condition holds when it is reached."""
        return ("if", c[0])

    def else_head(self, meta, c):
        """Does the block when the "if" just before it did not apply."""
        return ("otherwise",)

    def if_cases_head(self, meta, c):
        return ("cases", c[0])

    def case_head(self, meta, c):
        """One line under "if it is an...:": the block applies when the card fits this description."""
        return ("case", c[0])

    def may_head(self, meta, c):
        """Offers the step; the block follows only if the player does it."""
        return ("may", c[0])

    def choose_head(self, meta, c):
        # "choose two different options": different, and printed that way
        return ("choose", c[0], False, "options" if "options" in c[1:] else "different" in c[1:])

    def different_options(self, meta, c):
        """The options picked must all be different, printed as "different options"."""
        return "options"

    def may_choose_head(self, meta, c):
        """Offers the step; if the player does it, they choose among the options."""
        return ("may_to", c[0], self.choose_head(meta, c[1:]))

    def you_choose_head(self, meta, c):
        return ("choose", c[0], True, "different" in c[1:])

    def each_other_head(self, meta, c):
        return ("each", "others", c[0] if c else None)

    def each_player_head(self, meta, c):
        return ("each", "all", c[0] if c else None)

    def left_player_head(self, meta, c):
        return ("each", "left", None)

    def with_clause(self, meta, c):
        return c[0]

    def repeat_head(self, meta, c):
        """Does the block that many times."""
        return ("repeat", c[0])

    def twice_head(self, meta, c):
        """Does the block two times."""
        return ("repeat", Amount("number", 2))

    def for_each_head(self, meta, c):
        """Does the block once for each of those cards, "it" being the card each time."""
        return ("for_each", c[0])

    def for_each_counted_head(self, meta, c):
        return ("for_each", c[0])

    def next_turn_head(self, meta, c):
        return ("next_turn",)

    def then_next_turn_head(self, meta, c):
        return ("next_turn", "then")

    def now_and_next_turn_head(self, meta, c):
        """Does the block now, and again at the start of your next turn (a Duration)."""
        return ("next_turn", "now")

    def this_turn_head(self, meta, c):
        return ("lasting", c[0], "turn")

    def until_then_head(self, meta, c):
        """"until then, ...": until your next turn, after an "at the start of your next turn"."""
        c[0].until_then = True
        return ("lasting", c[0], "next_turn")

    def until_next_turn_head(self, meta, c):
        return ("lasting", c[0], "next_turn")

    def trigger_head(self, meta, c):
        """An ability below the line: the block happens each time the trigger fires."""
        return ("ability", c[0])

    def setup_head(self, meta, c):
        """Happens once while the game is set up, before the first turn, in every game using the card."""
        return ("ability", "setup")

    def overpay_head(self, meta, c):
        """When you buy the card you may pay more than its cost; the block uses the amount overpaid."""
        return ("ability", "overpay")

    # ---- steps
    def may_step(self, meta, c):
        return MayStep(c[0]).at(meta)

    def may_step_immediately(self, meta, c):
        """"you may immediately X": X now, in the middle of resolving the card, as printed."""
        step = MayStep(c[0]).at(meta)
        step.adverb = "immediately"
        return step

    def may_for(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), "for").at(meta)

    def may_to(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), "to").at(meta)

    def may_comma_to(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), ", to").at(meta)

    def may_for_options(self, meta, c):
        options = Choose(Amount("number", 1), [Block([[o]]) for o in c[1:]]).at(meta)
        options.style = "or"
        return MayStep(c[0], Block([[options]]), ", for").at(meta)

    def have_each_other(self, meta, c):
        each = Each("others", Block([[c[0]]])).at(meta)
        each.have = True
        return each

    def unless(self, meta, c):
        return Unless(c[0], c[1]).at(meta)

    def repeat_as_desired(self, meta, c):
        return RepeatAsDesired().at(meta)

    def chain_and(self, meta, c):
        return Sequence(list(c), "and").at(meta)

    def chain_then(self, meta, c):
        return Sequence(list(c), "then").at(meta)

    def chain_comma_then(self, meta, c):
        return Sequence(list(c), ", then").at(meta)

    def chain_comma_and(self, meta, c):
        return Sequence(list(c), ", and").at(meta)

    def reminded(self, meta, c):
        """A statement with a reminder after it, printed and not compiled."""
        c[0].reminder = str(c[1])
        return c[0]

    def reminded_condition(self, meta, c):
        """A condition with a reminder after it: the reminder is printed and changes nothing."""
        c[0].reminder = str(c[1])
        return c[0]

    def then_step(self, meta, c):
        return Then(c[0]).at(meta)

    def inline_choice(self, meta, c):
        head, options = c[0], list(c[1:])
        choose = head[2] if head[0] == "may_to" else head
        if choose[0] != "choose":
            raise ValueError("options separated by '|' need a 'choose' head")
        node = Choose(choose[1], options, by_you=choose[2], different=choose[3]).at(meta)
        return node if choose is head else MayStep(head[1], Block([[node]]), "to").at(meta)

    def pick_ref(self, meta, c):
        return Selection("pick", c[0], None, "ref", ref=c[1]).at(meta)

    def option(self, meta, c):
        steps, then = [], False
        for x in c:
            if isinstance(x, str) and x == THEN:
                then = True
                continue
            if then and isinstance(x, Node):
                x.then_before = True
            then = False
            steps.append(x)
        return Block([steps], joiner=" and ")

    def then_sep(self, meta, c):
        return THEN

    def different(self, meta, c):
        return "different"

    # ---- triggers
    def when_you(self, meta, c):
        """Fires when you do the event."""
        when = c[0]
        when.text = f"when you {when.text}"
        return when

    def first_time(self, meta, c):
        """Fires only the first time you do the event (each turn, or in the lasting period)."""
        when = c[0]
        when.text = f"the first time you {when.text}"
        when.once = True
        return when

    def when_attacked(self, meta, c):
        """A Reaction: when another player plays an Attack, you may reveal this card to do the block first."""
        name = next(t for t in c if isinstance(t, Token) and t.type == "NAME")
        min_hand = next((x for x in c if isinstance(x, int)), 0)
        where = f"a hand of {min_hand} or more cards" if min_hand else "your hand"
        first = "first " if "first" in c else ""
        when = When("attack", text=f"when another player plays an {name} card, you may {first}"
                    f"reveal this from {where}")
        when.attack_type, when.min_hand = str(name), min_hand
        return when

    def from_hand(self, meta, c):
        """The Reaction is revealed from your hand."""
        return 0

    def first_word(self, meta, c):
        return "first"

    def from_big_hand(self, meta, c):
        """The Reaction is revealed from a hand holding at least that many cards."""
        return int(c[0])

    def game_wide(self, meta, c):
        """Fires in every game that uses this card, for every player, whether they own it or not."""
        when = c[0]
        when.scope = "game"
        when.text = f"in games using this, when you {when.text}"
        return when

    def while_in_play(self, meta, c):
        """Works only while this card is in its owner's play area, for that owner's events."""
        when = c[0]
        when.scope = "in_play"
        when.text = f"while this is in play, when you {when.text}"
        return when

    def at_start(self, meta, c):
        """Fires at the start of your turn or of that phase."""
        part = c[0]
        event = "start_turn" if part == "turn" else "start_buy"
        return When(event, text=f"at the start of your {part.replace('_', ' ')}")

    def at_end(self, meta, c):
        """Fires at the end of your turn or of that phase."""
        if c and c[0] == "Buy phase":
            return When("end_buy", text="at the end of your Buy phase")
        return When("end_turn", text="at the end of your turn")

    def turn(self, meta, c):
        """Your whole turn."""
        return "turn"

    def buy_phase(self, meta, c):
        """Your Buy phase."""
        return "Buy phase"

    def action_phase(self, meta, c):
        """Your Action phase."""
        return "Action phase"

    def after_playing(self, meta, c):
        """Fires after a card you play that fits the description has been resolved."""
        f = c[-1]
        return When("after_play", f, text=f"after playing {f.render_with_article()}")

    def when_shuffling(self, meta, c):
        """Fires when you shuffle your discard pile to form a new deck; "them" are the cards shuffled."""
        return When("shuffle", text="when shuffling")

    def when_scoring(self, meta, c):
        """Fires when the game is scored, at its end."""
        return When("score", text="when scoring")

    def when_cleanup(self, meta, c):
        """Fires in Clean-up as you discard your hand."""
        return When("cleanup", text="when discarding your hand in Clean-up")

    def ev_gain_this(self, meta, c):
        """You gain this card (bought or otherwise)."""
        return When("gain_this", text="gain this")

    def ev_trash_this(self, meta, c):
        """You trash this card."""
        return When("trash_this", text="trash this")

    def ev_gain_or_trash_this(self, meta, c):
        """You gain or trash this card."""
        return When("gain_or_trash_this", text="gain or trash this")

    def ev_discard_from_play(self, meta, c):
        """This card leaves play for your discard pile (normally in Clean-up)."""
        return When("discard_from_play", text="discard this from play")

    def _event(self, event, verb, c):
        filter_ = next(x for x in c if isinstance(x, Filter))
        phase = next((x for x in c if isinstance(x, str) and x in ("action", "your_turn")), "")
        text = f"{verb} {filter_.render_with_article()}"
        if phase == "action":
            text += " in an Action phase"
        elif phase == "your_turn":
            text += " during your turn"
        return When(event, filter_, phase=phase, text=text)

    def ev_gain(self, meta, c):
        """You gain a card that fits the description; "it" is that card."""
        return self._event("gain", "gain", c)

    def ev_trash(self, meta, c):
        """You trash a card that fits the description; "it" is that card."""
        return self._event("trash", "trash", c)

    def ev_play(self, meta, c):
        """You play a card that fits the description; "it" is that card."""
        return self._event("play", "play", c)

    def in_action_phase(self, meta, c):
        """Only gains that happen during an Action phase."""
        return "action"

    def during_your_turn(self, meta, c):
        """Only gains that happen during your own turn."""
        return "your_turn"

    # ---- selections
    def pick_not_in_play(self, meta, c):
        """"an Action card from your hand that you don't have a copy of in play" (Shop)."""
        qualifier = Qualifier("not_in_play").at(meta)
        qualifier.after_source = True  # printed after "from your hand"
        c[1].qualifiers.append(qualifier)
        return self.pick(meta, c)

    def pick(self, meta, c):
        quantity, filter_ = c[0], c[1]
        source = next((x for x in c[2:] if isinstance(x, str) and x != "you"), None)
        chooser = "you" if "you" in c[2:] else "player"
        return Selection("pick", quantity, filter_, source, chooser).at(meta)

    def pick_per(self, meta, c):
        source = c[3] if len(c) > 3 else None
        selection = Selection("pick", ("per", 1), c[1], source, per=c[2]).at(meta)
        selection.per_quantity = c[0]  # "up to 2 cards per Favor you spend"
        return selection

    def any_number_of_them(self, meta, c):
        selection = Selection("pick", ("any", 0), Filter([], Noun("any"), []), "revealed")
        selection.bare = True  # "discard any number": of the cards just looked at
        return selection.at(meta)

    def ref_selection(self, meta, c):
        return Selection("ref", ref=c[0]).at(meta)

    def whole_hand(self, meta, c):
        return Selection("hand").at(meta)

    def whole_deck(self, meta, c):
        return Selection("deck").at(meta)

    def top_card(self, meta, c):
        return Selection("top", ("exact", 1)).at(meta)

    def top_of_deck(self, meta, c):
        return Selection("top", ("exact", int(c[0]))).at(meta)

    def down_to(self, meta, c):
        return Selection("down_to", ("exact", int(c[0]))).at(meta)

    def until_revealed(self, meta, c):
        return Selection("until", until=(c[-2], c[-1])).at(meta)

    def the_rest(self, meta, c):
        return Selection("rest").at(meta)

    def the_other(self, meta, c):
        """"the other cards": the rest, as written."""
        selection = Selection("rest").at(meta)
        selection.text = "the other cards"
        return selection

    def the_other_one(self, meta, c):
        """"the other one": the cards of the set "one of them" was picked from still there."""
        selection = Selection("ref", ref=_plural(Ref("it").at(meta), "them")).at(meta)
        selection.text = "the other one"
        return selection

    def the_other_revealed(self, meta, c):
        selection = Selection("rest").at(meta)
        selection.text = "the other revealed cards"
        return selection

    def the_both(self, meta, c):
        """"the Victory cards and Curses": all the revealed cards of either kind."""
        noun = Noun("named", (c[0], c[2]), plural_form=True).at(meta)
        selection = Selection("pick", ("all", 0), Filter([], noun, []), "revealed").at(meta)
        selection.text = f"the {c[0]} cards and {c[2]}"
        return selection

    def those_of(self, meta, c):
        """"those Treasure cards": all the revealed cards of that kind."""
        selection = Selection("pick", ("all", 0), Filter([], c[0], []), "revealed").at(meta)
        selection.those = True
        return selection

    def q_one(self, meta, c):
        """One card."""
        return ("one", 1)

    def q_exact(self, meta, c):
        """Exactly that many cards (fewer if there are not enough)."""
        return ("exact", int(c[0]))

    def q_exact_word(self, meta, c):
        """Exactly that many cards, the number written as a word."""
        return ("exact", _int(c[0]))

    def q_up_to(self, meta, c):
        """Any number of cards from none up to that many, as the player picks."""
        return ("up_to", int(c[0]))

    def q_any(self, meta, c):
        """Any number of cards, as the player picks, none included."""
        return ("any", 0)

    def q_that_many(self, meta, c):
        """As many cards as the step before counted (the Favors spent, ...)."""
        return ("that_many", 1)

    def q_all(self, meta, c):
        """Every card that fits the description."""
        return ("all", 0)

    def from_zone(self, meta, c):
        """From your hand, discard pile or deck."""
        return c[0]

    def from_trash(self, meta, c):
        """From the trash."""
        return "trash"

    def from_supply(self, meta, c):
        """From the Supply piles."""
        return "supply"

    def from_revealed(self, meta, c):
        """From the cards revealed or looked at that nothing has moved yet."""
        return "revealed"

    def from_it(self, meta, c):
        """From the cards just revealed, or the pile just looked through."""
        return "revealed_it"  # the revealed cards, or the pile just looked through

    def z_hand(self, meta, c):
        """Your hand."""
        return "hand"

    def z_discard(self, meta, c):
        """Your discard pile."""
        return "discard"

    def z_deck(self, meta, c):
        """Your deck (from the top)."""
        return "deck"

    def chooser(self, meta, c):
        return "you"

    def pick_bare(self, meta, c):
        """"put one into your hand": one of the bound cards ("it", "them")."""
        selection = Selection("pick", ("exact", _int(c[0])), None, "ref",
                              ref=_plural(Ref("it").at(meta), "them")).at(meta)
        selection.text = str(c[0])
        return selection

    def all_but_bare(self, meta, c):
        """"reveal all but one": of the cards in hand."""
        selection = Selection("pick", ("all_but", _int(c[0])), Filter([], Noun("any"), []),
                              "hand").at(meta)
        selection.text = f"all but {c[0]}"
        return selection

    def ref_those(self, meta, c):
        return _plural(Ref("it").at(meta), "those")

    def ref_it(self, meta, c):
        return Ref("it").at(meta)

    def ref_this(self, meta, c):
        return Ref("this").at(meta)

    def ref_this_card(self, meta, c):
        ref = Ref("this").at(meta)
        ref.text = "this card"  # as older cards print it
        return ref

    def ref_revealed(self, meta, c):
        return Ref("revealed").at(meta)

    def ref_bound(self, meta, c):
        participle = " ".join(str(t) for t in c[0].children)
        if participle == "revealed":  # every card revealed or looked at, wherever it was
            ref = Ref("revealed_all").at(meta)
            ref.text = f"the revealed {c[1]}"
            return ref
        ref = Ref("bound", participle).at(meta)
        ref.plural = str(c[1]) == "cards"  # "the trashed cards": all of them
        return ref

    # ---- filters
    def article(self, meta, c):
        return "a"

    def gain_count(self, meta, c):
        return 1 if c[0] == "a" else _int(c[0])

    def gain_to(self, meta, c):
        return "deck" if "deck" in [str(t) for t in c] else "hand"

    def filter(self, meta, c):
        adjectives = [x for x in c if isinstance(x, tuple)]
        noun = next(x for x in c if isinstance(x, Noun))
        qualifiers = [x for x in c if isinstance(x, Qualifier)]
        return Filter(adjectives, noun, qualifiers).at(meta)

    def not_type(self, meta, c):
        """Cards that do not have that type: "non- Victory"."""
        return ("not", str(c[0]).removeprefix("non-"))

    def not_type_word(self, meta, c):
        """Cards that do not have that type: "non-Victory"."""
        return ("not", str(c[0]).removeprefix("non-"))

    def distinct(self, meta, c):
        """Counts each card name once."""
        return ("distinct",)

    def revealed_adj(self, meta, c):
        """Only among the cards revealed."""
        return ("revealed",)

    def any_card(self, meta, c):
        return Noun("any").at(meta)

    def named(self, meta, c):
        return Noun("named", (c[0],), plural_form=len(c) > 1).at(meta)

    def either(self, meta, c):
        return Noun("named", (c[0], c[1]), plural_form=len(c) > 2).at(meta)

    def copy_of(self, meta, c):
        return Noun("copy", ref=c[0]).at(meta)

    def _qualifier(self, kind, meta, c):
        value = c[0] if c else None
        return Qualifier(kind, value).at(meta)

    def cost_up_to(self, meta, c):
        return self._qualifier("cost_up_to", meta, c)

    def cost_at_most(self, meta, c):
        """"costing at most $2 less than it": "up to", as written."""
        qualifier = self._qualifier("cost_up_to", meta, c)
        qualifier.at_most = True
        return qualifier

    def cost_exactly(self, meta, c):
        return self._qualifier("cost_exactly", meta, c)

    def cost_less(self, meta, c):
        return self._qualifier("cost_less", meta, c)

    def cost_at_least(self, meta, c):
        return self._qualifier("cost_at_least", meta, c)

    def cost_is(self, meta, c):
        return self._qualifier("cost_is", meta, c)

    def cheaper_than(self, meta, c):
        return self._qualifier("cheaper_than", meta, c)

    def other_than(self, meta, c):
        return self._qualifier("other_than", meta, c)

    def sharing_type(self, meta, c):
        return self._qualifier("sharing_type", meta, c)

    def not_in_play(self, meta, c):
        return self._qualifier("not_in_play", meta, c)

    def not_named(self, meta, c):
        return self._qualifier("not_named", meta, c)

    def same_cost(self, meta, c):
        return self._qualifier("same_cost", meta, c)

    # ---- amounts and money
    def number(self, meta, c):
        return Amount("number", int(c[0])).at(meta)

    def number_word(self, meta, c):
        amount = Amount("number", _int(c[0])).at(meta)
        amount.word = True
        return amount

    def count(self, meta, c):
        return Amount("count", c[0]).at(meta)

    def cost_of(self, meta, c):
        return Amount("cost_of", c[0]).at(meta)

    def types_of(self, meta, c):
        return Amount("types_of", c[0]).at(meta)

    def add(self, meta, c):
        return Amount("add", c[0], c[1]).at(meta)

    def sub(self, meta, c):
        return Amount("sub", c[0], c[1]).at(meta)

    def money(self, meta, c):
        return Money("money", _int(c[0])).at(meta)

    def money_more(self, meta, c):
        return Money("money_more", _int(c[0]), c[1]).at(meta)

    def money_less(self, meta, c):
        return Money("money_less", _int(c[0]), c[1]).at(meta)

    def money_per(self, meta, c):
        return Money("money_per", _int(c[0]), c[1]).at(meta)

    def money_of(self, meta, c):
        return Money("money_of", 0, c[0]).at(meta)

    def money_total(self, meta, c):
        """The sum of the costs of all the cards referred to ("the total cost of the trashed cards")."""
        return Money("money_total", 0, c[0]).at(meta)

    def countable(self, meta, c):
        adjectives = [x for x in c if isinstance(x, tuple)]
        noun = next(x for x in c if isinstance(x, Noun))
        return Countable("cards", Filter(adjectives, noun, []), c[-1]).at(meta)

    def empty_piles(self, meta, c):
        return Countable("empty_piles").at(meta)

    def tokens_spent(self, meta, c):
        return Countable("spend", word=_token_word(c[0])).at(meta)

    def tokens_bare(self, meta, c):
        return Countable("tokens", place="bare", word=_token_word(c[0])).at(meta)

    def tokens_held(self, meta, c):
        return Countable("tokens", word=str(c[0]).removesuffix("s") + (
            "s" if str(c[0]).startswith("coffer") else "")).at(meta)

    def coins_in_cost(self, meta, c):
        """Each $N of what the card referred to costs ("+1 VP per $2 it costs": rounded down)."""
        return Countable("coins_in_cost", word=str(c[0])).at(meta)

    def coins_overpaid(self, meta, c):
        return Countable("coins_overpaid").at(meta)

    def in_hand(self, meta, c):
        """The cards in your hand."""
        return "in_hand"

    def in_hand_short(self, meta, c):
        """The cards in your hand, written "in hand"."""
        return "in_hand_short"

    def in_play(self, meta, c):
        """The cards you have in play."""
        return "in_play"

    def owned(self, meta, c):
        """Every card you have, wherever it is (deck, hand, discard pile, in play, set aside)."""
        return "owned"

    def played_this_turn(self, meta, c):
        """The cards you played this turn, counting each play."""
        return "played_this_turn"

    def in_revealed(self, meta, c):
        """The cards just revealed."""
        return "in_revealed"

    def in_discarded(self, meta, c):
        """The cards the step before discarded."""
        return "in_discarded"

    def in_trash(self, meta, c):
        """The cards in the trash."""
        return "in_trash"

    # ---- conditions
    def _cond(self, kind, meta, c):
        return Condition(kind, *[x for x in c if not (isinstance(x, str) and x == "a")]).at(meta)

    def all_of(self, meta, c):
        """True when both conditions are."""
        return self._cond("all_of", meta, c)

    def compare(self, meta, c):
        """Compares two numbers: >=, <=, ==, !=, > or <."""
        return self._cond("compare", meta, c)

    def at_least(self, meta, c):
        """True when the count is that number or more."""
        return self._cond("at_least", meta, c)

    def at_least_words(self, meta, c):
        """"at least 5 cards in hand": "5 or more", printed as written."""
        condition = self._cond("at_least", meta, c)
        condition.at_least_words = True
        return condition

    def played_at_least(self, meta, c):
        """True when you have played that many such cards this turn (each play counts)."""
        adjectives = [x for x in c if isinstance(x, tuple)]
        noun = next(x for x in c if isinstance(x, Noun))
        played = Countable("cards", Filter(adjectives, noun, []), "played_this_turn").at(meta)
        return Condition("played_at_least", c[0], played, "counting" in c).at(meta)

    def counting_this(self, meta, c):
        return "counting"

    def at_most(self, meta, c):
        """True when the count is that number or fewer."""
        return self._cond("at_most", meta, c)

    def none_of(self, meta, c):
        """True when the count is 0."""
        return self._cond("none_of", meta, c)

    def no_empty_piles(self, meta, c):
        """True while no Supply pile is empty."""
        return self._cond("no_empty_piles", meta, c)

    def is_a(self, meta, c):
        """True when the card referred to fits the description."""
        return self._cond("is_a", meta, c)

    def did(self, meta, c):
        """True when the step before did all it said (gained, trashed, spent, ...)."""
        return self._cond("did", meta, c)

    def did_not(self, meta, c):
        """True when the step before did not do all it said (or was declined)."""
        return self._cond("did_not", meta, c)

    def did_present(self, meta, c):
        """The same test as "if you did", printed "if you do"."""
        return Condition("did", "do").at(meta)

    def did_not_present(self, meta, c):
        """The same test as "if you didn't", printed "if you don't"."""
        return Condition("did_not", "do").at(meta)

    def is_named(self, meta, c):
        """True when the card referred to is the card named by "name a card"."""
        return Condition("is_named", c[0]).at(meta)

    # ---- Allies constructs
    def its_named(self, meta, c):
        """True when the card just revealed is the card named by "name a card"."""
        condition = Condition("is_named", Ref("it")).at(meta)
        condition.text = "it's the named card"
        return condition

    def is_not_named(self, meta, c):
        """True when the card referred to is not the card named by "name a card"."""
        return Condition("is_not_named", c[0]).at(meta)

    def costs_at_least(self, meta, c):
        """True when the card referred to costs that much or more."""
        return Condition("costs_at_least", c[0], c[1]).at(meta)

    def made_shuffle(self, meta, c):
        """True when the step before made you shuffle your discard pile into your deck."""
        return Condition("made_shuffle").at(meta)

    def moved_at_least(self, meta, c):
        """True when the step before moved (discarded, trashed, ...) at least that many cards."""
        word = " ".join(str(t) for t in c[0].children)
        return Condition("moved_at_least", word, _int(c[1])).at(meta)

    def first_each_other(self, meta, c):
        """Fires for the first matching card each other player plays in each of their turns."""
        filter_ = c[0]
        when = When("play", filter_, scope="others",
                    text=f"the first {filter_.render()} each other player plays each turn")
        when.first_each_turn = True
        return when

    def pick_ref_of(self, meta, c):
        quantity = ("one", 1) if c[0] == ("exact", 1) else c[0]
        chooser = "you" if len(c) > 2 else "player"
        return Selection("pick", quantity, None, "ref", chooser, ref=c[1]).at(meta)

    def pick_ref_of_you(self, meta, c):
        """"one of those you choose": you pick, as "that you choose"."""
        selection = self.pick_ref_of(meta, [c[0], c[1], "you"])
        selection.text = f"{selection.render().removesuffix(' that you choose')} you choose"
        return selection

    def q_all_but(self, meta, c):
        """Every card there but that many, which the player keeps back."""
        return ("all_but", _int(c[0]))

    def cheaper_adj(self, meta, c):
        """Costing less than the card referred to ("a cheaper card": cheaper than it)."""
        return ("cheaper",)

    def different_adj(self, meta, c):
        """Not a copy of the card referred to: another card name."""
        return ("different",)

    def other_than_ref(self, meta, c):
        return self._qualifier("other_than_ref", meta, c)

    def cost_either(self, meta, c):
        return Qualifier("cost_either", (c[0], c[1])).at(meta)

    # ---- Cornucopia & Guilds constructs
    def trailing_trigger(self, meta, c):
        """A step that happens when the event does, written after it: "gain one when you gain a Ferryman"."""
        step, when = c[0], c[1]
        when.text = f"when you {when.text}"
        ability = Ability(when, Block([[step]])).at(meta)
        ability.trailing = True
        return ability

    def this_turn_suffix_head(self, meta, c):
        c[0].this_turn_after = True  # "at the end of your Buy phase this turn, ..."
        return ("lasting", c[0], "turn")

    def per_head(self, meta, c):
        """Does the block once per thing counted: "per $1 overpaid"."""
        amount = Amount("count", c[0]).at(meta)
        amount.per = True  # "per $1 overpaid, ..."
        return ("repeat", amount)

    def may_and(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), ", and").at(meta)

    def you_do(self, meta, c):
        return AsYou(c[0]).at(meta)

    def deferred_next_turn(self, meta, c):
        return Deferred(c[0], "next_turn").at(meta)

    def deferred_end_turn(self, meta, c):
        return Deferred(c[0], "end_turn").at(meta)

    def until_revealing(self, meta, c):
        """"cards from the top of your deck until revealing one costing $3 or more"."""
        amount = Amount("number", _int(c[1])).at(meta)
        selection = Selection("until", until=(amount, Filter([], Noun("any"), list(c[2:]))))
        selection.revealing = str(c[1])
        return selection.at(meta)

    def until_revealed_one(self, meta, c):
        amount = Amount("number", 1).at(meta)
        amount.article = True  # "until you reveal a card that ..."
        return Selection("until", until=(amount, c[-1])).at(meta)

    def ref_them(self, meta, c):
        return _plural(Ref("it").at(meta), "them")

    def ref_that(self, meta, c):
        ref = Ref("it").at(meta)
        ref.text = "that card"
        return ref

    def not_in_hand(self, meta, c):
        return self._qualifier("not_in_hand", meta, c)

    def cost_overpaid(self, meta, c):
        return Qualifier("cost_overpaid").at(meta)

    def money_more_per(self, meta, c):
        money = Money("money_more_per", _int(c[0]), c[1]).at(meta)
        money.per = c[2]
        return money

    def gained_this_phase(self, meta, c):
        """The cards you gained in the phase just named ("at the end of your Buy phase")."""
        return "gained_this_phase"

    def all_different(self, meta, c):
        """True when no two of the revealed cards share a name."""
        return Condition("all_different").at(meta)

    def revealed_any(self, meta, c):
        """True when a revealed card fits the description; binds those cards as "them"."""
        return Condition("revealed_any", c[0]).at(meta)

    def one_of_each(self, meta, c):
        if c[0] != ("exact", 1):
            raise ValueError("write 'one of each ...'")
        return Selection("one_each", filter=c[1], source=c[2] if len(c) > 2 else None).at(meta)

    def in_play_counting(self, meta, c):
        """The cards you have in play, this card included, as printed."""
        return "in_play_counting"
