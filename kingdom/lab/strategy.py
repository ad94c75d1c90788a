"""Bots as data: strategy files (kingdom/lab/strategies/*.yaml) and the agent that follows them.

A strategy file lists what to buy, in priority order, each entry optionally guarded by
conditions, and which Actions to play first:

```yaml
name: Smithy Big Money
buy:
  - Province
  - Gold
  - card: Smithy
    when: {coins: 4-5, owned: {Smithy: 0}}
  - Silver
play: [Smithy]
```

Conditions (all must hold): `coins` (available now), `turn` (this player's turn number),
`empty_piles`, `total_money` (the $ of every Treasure the player owns), `vp_lead` (own score
less the best other score), `owned: {CARD: N}` (copies the player has) and `supply: {CARD: N}`
(cards left in its pile). N is a number (exactly), `"<N"`, `"<=N"`, `">N"`, `">=N"` or a range
`A-B`. `suicide_check` (default true) skips a buy that would end the game with this player
losing.

Optional keys say how to spend the tokens the turn offers, one key per kind the turn spends
(runtime/tokens: `coffers`, `villagers`), and how much to overpay; the engine asks only a player
who holds such tokens when they can be spent (Coffers before each buy, Villagers out of Actions
with an Action card to play) and only for a card with an Overpay ability bought with coins left
over:

```yaml
coffers: spend-to-reach [8, 6]   # enough to reach the highest of these prices in reach
overpay: all                     # all the coins left over
```

A token key: `all` (every one, when first offered), `never`, or, for a kind worth +$1 each,
`spend-to-reach [A, B, ...]`; `overpay`: `all` or `never`. Left out (or `auto`), the kind's own
answer decides, as the generic `DefaultAgent` gives it: Coffers to reach $8 or $6; out of Actions
with Villagers, one when its `play` rules (or `play_others`) would play one of the Action cards
in hand. Left out, an overpay is made on its last Buy when the card's ability draws (Farrier: all
of it) or gains cards costing the amount (Stonemason: the most at which an Action costs exactly
that). Every other decision (discards, gains, reactions) goes to the generic `DefaultAgent`, unless
`decisions:` says otherwise for its topic.

A `decisions:` key overrides the generic bot's answer to a card's decisions by their topic
(runtime/decisions.py `CARD_TOPICS`: discard, trash, topdeck, set_aside, reveal, react, choose,
may, pay, ...), as Dominiate's priority lists do:

```yaml
decisions:
  discard: [Estate, Curse]   # pick these first, in this order; only these when none is forced
  react: never               # never reveal a Reaction (never / always)
  choose: ["+2 Actions"]     # a choice's options as printed, the first offered is taken
```

Mistakes are reported like card errors, `file:line:col: error[CODE]: message`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdom.compiler.documents import kind_of, read_yaml
from kingdom.compiler.errors import CompileError, Diagnostic
from kingdom.compiler.loader import Located, load_yaml
from kingdom.compiler.texts import PARAGRAPH_LENGTH, TITLE_LENGTH, text_problem
from kingdom.lab.bots import DefaultAgent, note_decision, spend_to_reach, would_lose_by_gaining
from kingdom.runtime.decisions import (
    BUY,
    CARD_TOPICS,
    CARDS,
    CHOOSE,
    OPTION,
    PLAY,
    TREASURES,
    YES_NO,
    Decision,
)
from kingdom.runtime.library import Library
from kingdom.runtime.tokens import SPENDABLE, TokenKind

STRATEGIES = Path(__file__).resolve().parent / "strategies"

Test = Callable[[Any, Any], bool]  # (game, player) -> bool

TOP_KEYS = {"name", "description", "buy", "play", "suicide_check", "play_others", "overpay",
            "decisions"}
# ... and the key of each token kind the turn spends (`coffers`), read when a file is loaded
RULE_KEYS = {"card", "when"}
NUMBER_CONDITIONS = ("coins", "turn", "empty_piles", "total_money", "vp_lead")
CARD_CONDITIONS = ("owned", "supply")


@dataclass
class Rule:
    card: str
    tests: list[Test] = field(default_factory=list)
    text: str = ""

    def holds(self, game: Any, player: Any) -> bool:
        return not self.tests or _all_hold(self.tests, game, player)


@dataclass
class Strategy:
    """A loaded strategy file; `agent()` makes a bot that follows it."""

    name: str
    file: str
    buy: list[Rule]
    play: list[Rule]
    suicide_check: bool = True
    play_others: bool = True
    description: str = ""
    # by token kind's key (`coffers`), when the file says: "never", "all", or the prices to
    # spend tokens worth +$1 to reach; a kind left out is spent as the generic bot spends it
    spend: dict[str, str | tuple[int, ...]] = field(default_factory=dict)
    overpay: str | None = None  # None: the generic bot's rule; "never" or "all"
    # by a card decision's topic (runtime/decisions.py CARD_TOPICS): "never", "always", or the
    # cards (a choice's options) to pick first, in order; a topic left out is the generic bot's
    decisions: dict[str, str | tuple[str, ...]] = field(default_factory=dict)

    def agent(self, seed: int | None = None) -> StrategyAgent:
        return StrategyAgent(self)

    def compiled_buy(self) -> tuple[tuple[str, tuple[Test, ...] | None], ...]:
        """The buy rules as (card, its tests or None), made again if the rules changed."""
        rules = tuple(self.buy)
        made = self.__dict__.get("_compiled_buy")
        if made is None or made[0] != rules:
            made = self.__dict__["_compiled_buy"] = (
                rules, tuple((rule.card, tuple(rule.tests) or None) for rule in rules))
        return made[1]


class StrategyAgent(DefaultAgent):
    """Follows a `Strategy` for the turn's decisions; the generic bot answers the rest."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = strategy.name
        self._buy = strategy.compiled_buy()  # (card, its tests or None) for choose_buy's loop
        self._suicide_check = strategy.suicide_check

    def decide(self, decision: Decision) -> Any:
        kind = decision.kind
        if kind == BUY:
            return self.choose_buy(decision.game, decision.player, decision.options)
        if kind == TREASURES:
            return list(decision.options)
        if kind == PLAY:
            return self.choose_play(decision)
        rule = self.strategy.decisions.get(decision.topic) if decision.topic else None
        if rule is None:
            return DefaultAgent.decide(self, decision)
        answer = self.by_rule(decision, rule)
        if self.tally is not None and decision.card is not None:
            note_decision(self.tally, decision, answer)
        return answer

    def by_rule(self, decision: Decision, rule: str | tuple[str, ...]) -> Any:
        """A card decision as the file's `decisions:` says for its topic: "never" declines
        what may be declined, "always" takes it (the generic pick, else the first option);
        a list picks those cards (or options) first, in its order, and only them when the
        rest may be left (else the generic bot's least bad fill the count)."""
        kind, options = decision.kind, decision.options
        generic = DefaultAgent.decide(self, decision)
        if rule == "never":
            if kind == YES_NO:
                return False
            if kind == CARDS and decision.min == 0:
                return []
            return None if kind == OPTION and decision.min == 0 else generic
        if rule == "always":
            if kind == YES_NO:
                return True
            if kind == CARDS and not generic and options and decision.max:
                return list(options[: decision.max if decision.exact else 1])
            return generic if generic is not None or not options else options[0]
        if kind == OPTION:
            return next((o for name in rule for o in options if str(o).lower() == name.lower()),
                        generic)
        if kind != CARDS:
            return generic
        picks = [c for name in rule for c in options if c.d.name == name][: decision.max]
        picks = list({id(c): c for c in picks}.values())
        if len(picks) < decision.min or (decision.exact and picks and len(picks) < decision.max):
            fill = [c for c in (generic or []) + list(options) if all(c is not p for p in picks)]
            picks += fill[: max(decision.min, decision.max if decision.exact else 0) - len(picks)]
        return picks

    def spend(self, kind: TokenKind, decision: Decision) -> int:
        """As the file's key for the kind says (`coffers: never`), else as the kind's answer."""
        rule = self.strategy.spend.get(kind.key)
        if rule is None:
            return DefaultAgent.spend(self, kind, decision)
        if rule == "never":
            return 0
        if rule == "all":
            return max(decision.options)
        return spend_to_reach(decision.game.coins, max(decision.options), rule)

    def play_waiting(self, decision: Decision) -> int:
        """One token worth +1 Action (a Villager) when the strategy would play one of the Action
        cards waiting in hand."""
        game, player = decision.game, decision.player
        playable = [c for c in player.hand if c.d.is_action and game.can_play(player, c)]
        play = Decision(PLAY, player, "Play an Action", playable, 0, 1, game=game)
        return 1 if self.choose_play(play) is not None else 0

    def choose_buy(self, game: Any, player: Any, options: list[str]) -> str | None:
        for card, tests in self._buy:
            if card not in options:
                continue
            if tests is not None and not _all_hold(tests, game, player):
                continue
            if self._suicide_check:
                pile = game.piles.get(card)  # (only a pile's last card can end the game)
                if (pile is None or len(pile.cards) == 1) and would_lose_by_gaining(
                        game, player, card):
                    continue
            return card
        return None

    def overpay(self, decision: Decision) -> int:
        rule = self.strategy.overpay
        if rule is None:
            return DefaultAgent.overpay(self, decision)
        return max(decision.options) if rule == "all" else 0

    def choose_play(self, decision: Decision) -> Any:
        game, player = decision.game, decision.player
        for rule in self.strategy.play:
            for card in decision.options:
                if card.d.name == rule.card and rule.holds(game, player):
                    return card
        if self.strategy.play_others:
            return DefaultAgent.decide(self, decision)
        return None

    def __repr__(self) -> str:
        return f"<StrategyAgent {self.strategy.name}>"


def _all_hold(tests: tuple[Test, ...], game: Any, player: Any) -> bool:
    for test in tests:  # noqa: SIM110 (a loop: no generator to create, on the hot path)
        if not test(game, player):
            return False
    return True


# ------------------------------------------------------------------------------ loading
class _Loader:
    def __init__(self, doc: Located, library: Library) -> None:
        self.doc = doc
        self.library = library
        self.diagnostics: list[Diagnostic] = []

    def error(self, code: str, message: str, path: tuple, key: bool = False, hint: str = "") -> None:
        line, col = self.doc.where(path, key=key)
        self.diagnostics.append(Diagnostic(code, message, self.doc.file, line, col, hint))

    def card(self, value: Any, path: tuple) -> str | None:
        if not isinstance(value, str):
            self.error("K104", f"a card name is expected, not {kind_of(value)}", path)
            return None
        name = self.library.resolve(value)
        if name is None:
            hint = self.library.suggest(value)
            self.error("K300", f"unknown card '{value}'", path,
                       hint=f"did you mean '{hint}'?" if hint else "check the spelling")
        return name

    def rules(self, data: Any, path: tuple) -> list[Rule]:
        if data is None:
            return []
        if not isinstance(data, list):
            self.error("K104", f"'{path[-1]}' must be a list of cards, not {kind_of(data)}", path)
            return []
        rules = []
        for i, item in enumerate(data):
            here = (*path, i)
            if isinstance(item, dict):
                for key in item:
                    if key not in RULE_KEYS:
                        self.unknown_key(key, RULE_KEYS, (*here, key))
                if "card" not in item:
                    self.error("K103", "missing required key 'card'", here)
                    continue
                name = self.card(item["card"], (*here, "card"))
                tests = self.conditions(item.get("when"), (*here, "when"))
            else:
                name = self.card(item, here)
                tests = []
            if name is not None:
                rules.append(Rule(name, tests, str(item)))
        return rules

    def conditions(self, data: Any, path: tuple) -> list[Test]:
        if data is None:
            return []
        if not isinstance(data, dict):
            self.error("K104", f"'when' must be a mapping of conditions, not {kind_of(data)}", path)
            return []
        tests: list[Test] = []
        for key, value in data.items():
            here = (*path, key)
            if key in NUMBER_CONDITIONS:
                compare = self.comparison(value, here)
                if compare is not None:
                    tests.append(_number_test(key, compare))
            elif key in CARD_CONDITIONS:
                if not isinstance(value, dict):
                    self.error("K104", f"'{key}' must map card names to counts, e.g. "
                               f"{{Smithy: 0}}, not {kind_of(value)}", here)
                    continue
                for card_key, count in value.items():
                    name = self.card(card_key, (*here, card_key))
                    compare = self.comparison(count, (*here, card_key))
                    if name is not None and compare is not None:
                        tests.append(_card_test(key, name, compare))
            else:
                self.unknown_key(key, (*NUMBER_CONDITIONS, *CARD_CONDITIONS), here)
        return tests

    def comparison(self, value: Any, path: tuple) -> Callable[[int], bool] | None:
        if _too_big(value):
            self.error("K551", f"{_digits(value)}: a count is at most {LIMIT:,} either way", path)
            return None
        compare = parse_comparison(value)
        if compare is None:
            self.error("K104", f"{value!r} is not a count: write N, \"<N\", \"<=N\", \">N\", "
                       "\">=N\" or a range A-B", path)
        return compare

    def spend(self, kind: TokenKind, value: Any, path: tuple) -> str | tuple[int, ...] | None:
        """A token kind's key (`coffers`): auto (None), never, all, or, for a kind worth +$1
        each, spend-to-reach [A, B, ...]."""
        if value in (None, "auto"):
            return None
        if value in ("never", "all"):
            return value
        prices = kind.spend.each == "$"
        match = _SPEND_TO_REACH.match(value) if isinstance(value, str) and prices else None
        if match is not None and _too_big(value):
            self.error("K551", f"{_digits(value)}: a price is at most {LIMIT:,}", path)
            return None
        if match is None:
            self.error("K104", f"'{kind.key}' must be never, all, auto"
                       + (" or spend-to-reach [A, B, ...] (prices)" if prices else "")
                       + f", not {value!r}", path, hint=f"e.g. {kind.key}: "
                       + ("spend-to-reach [8, 6]" if prices else "never"))
            return None
        return tuple(int(n) for n in match[1].split(","))

    def decisions(self, data: Any, path: tuple) -> dict[str, str | tuple[str, ...]]:
        """`decisions: {TOPIC: never | always | [CARD, ...]}` (a choice's options as printed)."""
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.error("K104", f"'decisions' must map topics to rules, not {kind_of(data)}", path)
            return {}
        rules: dict[str, str | tuple[str, ...]] = {}
        for topic, value in data.items():
            here = (*path, topic)
            if topic not in CARD_TOPICS:
                self.unknown_key(topic, CARD_TOPICS, here)
                continue
            if value in ("never", "always"):
                rules[topic] = value
            elif isinstance(value, list) and topic == CHOOSE and all(
                    isinstance(v, str) for v in value):
                rules[topic] = tuple(value)
            elif isinstance(value, list):
                names = [self.card(v, (*here, i)) for i, v in enumerate(value)]
                rules[topic] = tuple(n for n in names if n is not None)
            else:
                self.error("K104", f"'{topic}' must be never, always or a list of cards, not "
                           f"{kind_of(value)}", here)
        return rules

    def overpay(self, value: Any, path: tuple) -> str | None:
        """`overpay`: auto (None), never or all."""
        if value in (None, "auto"):
            return None
        if value in ("never", "all"):
            return value
        self.error("K104", f"'overpay' must be never, all or auto, not {value!r}", path)
        return None

    def text(self, value: Any, path: tuple, limit: int = TITLE_LENGTH, lines: bool = False) -> str:
        """A printed text of at most `limit` characters (on one line unless `lines`)."""
        if not isinstance(value, str):
            self.error("K104", f"'{path[-1]}' must be text, not {kind_of(value)}", path)
            return ""
        problem = text_problem(value, limit, lines)
        if problem:
            self.error("K117", f"'{path[-1]}' {problem}", path)
        return value

    def unknown_key(self, key: Any, known: Any, path: tuple) -> None:
        import difflib

        match = difflib.get_close_matches(str(key), list(known), n=1, cutoff=0.6)
        hint = f"did you mean '{match[0]}'?" if match else "expected one of " + ", ".join(sorted(known))
        self.error("K102", f"unknown key '{key}'", path, key=True, hint=hint)


LIMIT = 999_999_999  # the largest count or price a strategy may name
_LONG_NUMBER = re.compile(r"\d{10,}")


def _too_big(value: Any) -> bool:
    """A number (or text holding one) past LIMIT, which no game reaches."""
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) > LIMIT
    return isinstance(value, str) and _LONG_NUMBER.search(value) is not None


def _digits(value: Any) -> str:
    """A long value shown by its length: `a value 5000 characters long`."""
    text = str(value)
    return f"a value {len(text)} characters long" if len(text) > 20 else repr(value)


_SPEND_TO_REACH = re.compile(r"^\s*spend-to-reach\s*\[?\s*(\d+(?:\s*,\s*\d+)*)\s*\]?\s*$")
_COMPARE = re.compile(r"^\s*(<=|>=|<|>|==|=)?\s*(-?\d+)\s*$")
_RANGE = re.compile(r"^\s*(-?\d+)\s*-\s*(-?\d+)\s*$")


def parse_comparison(value: Any) -> Callable[[int], bool] | None:
    """N, "<N", "<=N", ">N", ">=N" or "A-B" as a test of an integer; None if malformed."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return lambda x, n=value: x == n
    if not isinstance(value, str):
        return None
    match = _RANGE.match(value)
    if match:
        low, high = int(match[1]), int(match[2])
        return lambda x: low <= x <= high
    match = _COMPARE.match(value)
    if not match:
        return None
    op, n = match[1] or "==", int(match[2])
    return {
        "<": lambda x: x < n, "<=": lambda x: x <= n, ">": lambda x: x > n,
        ">=": lambda x: x >= n, "==": lambda x: x == n, "=": lambda x: x == n,
    }[op]


def _number_test(key: str, compare: Callable[[int], bool]) -> Test:
    if key == "coins":
        return lambda game, player: compare(game.coins)
    if key == "turn":
        return lambda game, player: compare(player.turns_taken)
    if key == "empty_piles":
        return lambda game, player: compare(game.empty_supply_piles())
    if key == "total_money":
        def total_money(game, player) -> bool:
            return compare(sum(c.d.coins or 0 for c in player.owned() if c.d.is_treasure))
        return total_money

    def vp_lead(game, player) -> bool:
        mine = game.score(player)
        return compare(mine - max(game.score(p) for p in game.players if p is not player))
    return vp_lead


def _card_test(key: str, name: str, compare: Callable[[int], bool]) -> Test:
    if key == "owned":
        def owned(game, player) -> bool:
            n = 0
            for zone in (player.deck, player.hand, player.in_play, player.discard, player.set_aside):
                for card in zone:
                    if card.d.name == name:
                        n += 1
            return compare(n)
        return owned

    def supply(game, player) -> bool:
        pile = game.piles.get(name)  # (not `or`: Pile.__bool__ is a Python call)
        if pile is None:
            pile = game.pile_of.get(name)
        return compare(0 if pile is None else len(pile.cards))
    return supply


def load_strategy(file: str | Path, library: Library, text: str | None = None) -> Strategy:
    """Load and check one strategy file; raises CompileError listing every mistake."""
    file = str(file)
    doc, diagnostics = read_yaml(file, "K550") if text is None else load_yaml(file, text)
    if doc is None:
        raise CompileError(diagnostics)
    loader = _Loader(doc, library)
    data = doc.data
    if not isinstance(data, dict):
        loader.error("K101", f"a strategy file is a mapping with 'name' and 'buy', not {kind_of(data)}", ())
        raise CompileError(loader.diagnostics)
    known = TOP_KEYS | {kind.key for kind in SPENDABLE}
    for key in data:
        if key not in known:
            loader.unknown_key(key, known, (key,))
    for key in ("name", "buy"):
        if key not in data:
            loader.error("K103", f"missing required key '{key}'", ())
    name = loader.text(data.get("name", Path(file).stem), ("name",))
    flags = {}
    for key, default in (("suicide_check", True), ("play_others", True)):
        value = data.get(key, default)
        if not isinstance(value, bool):
            loader.error("K104", f"'{key}' must be true or false, not {kind_of(value)}", (key,))
        flags[key] = bool(value)
    strategy = Strategy(
        name=name,
        file=file,
        buy=loader.rules(data.get("buy"), ("buy",)),
        play=loader.rules(data.get("play"), ("play",)),
        description=loader.text(data.get("description", ""), ("description",), PARAGRAPH_LENGTH, True),
        spend={kind.key: rule for kind in SPENDABLE
               if (rule := loader.spend(kind, data.get(kind.key), (kind.key,))) is not None},
        overpay=loader.overpay(data.get("overpay"), ("overpay",)),
        decisions=loader.decisions(data.get("decisions"), ("decisions",)),
        **flags,
    )
    if loader.diagnostics:
        raise CompileError(loader.diagnostics)
    return strategy


def builtin_strategies() -> dict[str, Path]:
    """The strategy files shipped in kingdom/lab/strategies, by file stem."""
    return {p.stem: p for p in sorted(STRATEGIES.glob("*.yaml"))}
