"""What a token kind is (`TokenKind`), and the kinds declared so far.

A token kind is a count each player keeps from turn to turn: Coffers, Villagers, Favors, VP
tokens. One module of this package declares each, whole, with `register(TokenKind(...))`, so
that a new kind (Debt, Sun, ...) is one declaration and not an edit of a dozen modules: the
bonus grammar and its English, spending by cards, Player's storage, the turn's offers to
spend, the decision topics, the step-wise view, the narrator, `kingdom play`'s status, the rule
sheets, the scenario format and runner, the invariant checker and the bots read the tables
below instead of naming kinds.

The tables are filled in place, never rebound, so a module may bind them once at import and
read them on a hot path (the turn reads `OFFERED` before each buy) without a lookup being built
per call. What is derived from the kinds and cached (the grammar and its parser, the scenario
schema) is dropped through `watch` when a kind comes or goes: a plugin's or a test's own kind
(`register`, `unregister`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

PHASES = ("action", "buy")  # the phases a token can be spent in, in turn order


@dataclass(frozen=True)
class Each:
    """What one token spent gives: `apply` does it for `n` at once; `state` is what the turn's
    offer says of the turn beside how many are held ("$3", "no Actions"); `bot` names the
    bots' default answer, a method of kingdom.lab.bots.DefaultAgent taking the decision."""

    apply: Callable[[Game, Player, int], None]
    state: Callable[[Game], str]
    bot: str


def _coins(game: Game, _player: Player, n: int) -> None:
    game.coins += n


def _actions(game: Game, _player: Player, n: int) -> None:
    game.actions += n


# What a spent token can give, by the resource of the bonus it is worth ("+$1", "+1 Action").
# Another effect is one row here: its bonus, what the offer says, and the bots' answer.
EACH = {
    "$": Each(_coins, lambda game: f"${game.coins}", "reach_price"),
    # (offered in the Action phase only when no Action is left: "no Actions" is always so)
    "Action": Each(_actions, lambda game: "no Actions", "play_waiting"),
}


@dataclass(frozen=True)
class Spending:
    """How the turn itself spends a kind (Coffers, Villagers; Favors only cards spend): any
    number at once, in one of `phases` (a scenario's spend step is refused in another), each
    giving `each` (a key of EACH: "$" for +$1, "Action" for +1 Action). The turn offers it in
    the last of its phases: "buy", before each buy while the player holds some; "action", when
    the player is out of Actions with an Action card to play. `bot`: the bots' answer (a
    DefaultAgent method), when not the default for `each`."""

    phases: tuple[str, ...]
    each: str
    bot: str = ""

    def __post_init__(self) -> None:
        if self.each not in EACH:
            raise ValueError(f"a token spent gives one of {', '.join(EACH)}, not {self.each!r}")
        if not self.phases or not set(self.phases) <= set(PHASES):
            raise ValueError(f"a token is spent in the phases {', '.join(PHASES)}, not {self.phases}")

    @property
    def offered_in(self) -> str:
        return self.phases[-1]

    @property
    def effect(self) -> Each:
        return EACH[self.each]

    @property
    def policy(self) -> str:
        """The bots' answer: a method of DefaultAgent, taking the decision."""
        return self.bot or EACH[self.each].bot

    def refusal(self) -> str:
        """When it cannot be spent, as a refused move says it: "after the Buy phase" (spent from
        the start of the turn through the Buy phase), "outside the Action phase"."""
        last = self.phases[-1].capitalize()
        if len(self.phases) > 1 and self.phases[0] == PHASES[0]:
            return f"after the {last} phase"
        return f"outside the {last} phase"


@dataclass(frozen=True, eq=False)
class TokenKind:
    """One kind of token, everything about it.

    `key`: the Player attribute holding the count, the scenario key (`coffers: 2` on a player,
    a step, an expectation), the strategy-file key and the step-wise view's name. `singular`,
    `plural`: the name as printed ("Villager", "Villagers"; "Coffers" both). `bonus`: how its
    "+N" bonus is printed, (singular, plural), when not the name ("+1 VP", not "+1 VP token";
    the name is accepted too). The DSL words are these in lower case: "+2 villagers".

    `spend`: how the turn spends it (None: never by the turn). `by_cards`: cards may name it
    ("spend a Favor", "Favors you have", "per Coffers you spend"). `scored`: each is worth 1 VP
    at the end (VP tokens). `value`: what one is worth to the generic bot, in coins, when it
    judges a card by what it gives. `mat`: the rule sheet's setup note, given how many each
    player starts with (None when no game is set up); None, no note. `uses`: card types that
    use it without naming it (Liaisons, Favors), for the rule sheet's "Used by".
    """

    key: str
    singular: str
    plural: str
    bonus: tuple[str, str] | None = None
    spend: Spending | None = None
    by_cards: bool = False
    scored: bool = False
    value: float = 0.0
    mat: Callable[[int | None], str] | None = None
    uses: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.key.isidentifier() or self.key.startswith("_"):
            raise ValueError(f"a token kind's key is a plain lower-case name, not {self.key!r}")
        singular, plural = self.bonus or (self.singular, self.plural)
        names = tuple(dict.fromkeys(w.lower() for w in (self.plural, self.singular)))
        words = tuple(dict.fromkeys(w.lower() for w in (plural, singular)))
        derived = {
            "resource": singular,  # what the compiled bonus names it ("Favor", "VP")
            "words": words,  # the DSL words of its bonus, plural first ("favors", "favor")
            "name_words": names if names != words else (),  # "+1 vp token": the name as a bonus
            "topic": f"spend_{self.key}" if self.spend is not None else None,
        }
        for attr, value in derived.items():
            object.__setattr__(self, attr, value)

    def name(self, n: int) -> str:
        """The name for `n` of them: "Villager", "Villagers"."""
        return self.singular if n == 1 else self.plural

    def count(self, n: int) -> str:
        """'1 Favor', '2 Favors', '2 Coffers'."""
        return f"{n} {self.name(n)}"

    def bonus_word(self, n: int) -> str:
        """The word of "+N ..." as printed: "Villager", "Villagers", "VP"."""
        singular, plural = self.bonus or (self.singular, self.plural)
        return singular if n == 1 else plural

    @property
    def spent(self) -> bool:
        """Whether it is ever spent (by the turn or by cards): a VP token is not, only lost."""
        return self.spend is not None or self.by_cards

    def __repr__(self) -> str:
        return f"<TokenKind {self.key}>"


KINDS: list[TokenKind] = []  # in the order declared: how they are listed and said
BY_KEY: dict[str, TokenKind] = {}
BY_WORD: dict[str, TokenKind] = {}  # every DSL word ("favor", "favors", "vp token") -> its kind
BY_RESOURCE: dict[str, TokenKind] = {}  # the compiled bonus's resource ("Favor") -> its kind
BY_TOPIC: dict[str, TokenKind] = {}  # the topic of the turn's decision to spend it -> its kind
OFFERED: dict[str, list[TokenKind]] = {phase: [] for phase in PHASES}  # what the turn offers
SPENDABLE: list[TokenKind] = []  # the kinds the turn spends
BY_CARDS: list[TokenKind] = []  # the kinds cards may name ("spend a Favor")
SCORED: list[TokenKind] = []
_WATCHERS: list[Callable[[], object]] = []


def register(kind: TokenKind) -> TokenKind:
    """Declare `kind` (after those declared before it); ValueError if its key, a word or its
    resource is another kind's."""
    for other in KINDS:
        shared = ({other.key} & {kind.key}) | (set(other.words + other.name_words)
                                               & set(kind.words + kind.name_words))
        if shared or other.resource == kind.resource:
            raise ValueError(f"token kind {kind.key!r} clashes with {other.key!r}: "
                             f"{', '.join(sorted(shared)) or kind.resource}")
    KINDS.append(kind)
    _index()
    return kind


def unregister(kind: TokenKind) -> None:
    """Take `kind` away again (a test's, a plugin's); what was derived from it is dropped."""
    KINDS.remove(kind)
    _index()


def watch(*callbacks: Callable[[], object]) -> None:
    """Call each of `callbacks` whenever a kind is declared or taken away: the `cache_clear`
    of a cache derived from the kinds."""
    _WATCHERS.extend(callbacks)


def _index() -> None:
    """Fill the tables again from KINDS, in place, and tell the watchers."""
    BY_KEY.clear()
    BY_WORD.clear()
    BY_RESOURCE.clear()
    BY_TOPIC.clear()
    for kind in KINDS:
        BY_KEY[kind.key] = kind
        BY_WORD.update(dict.fromkeys(kind.words + kind.name_words, kind))
        BY_RESOURCE[kind.resource] = kind
        if kind.topic is not None:
            BY_TOPIC[kind.topic] = kind
    for phase, kinds in OFFERED.items():
        kinds[:] = [k for k in KINDS if k.spend is not None and k.spend.offered_in == phase]
    SPENDABLE[:] = [k for k in KINDS if k.spend is not None]
    BY_CARDS[:] = [k for k in KINDS if k.by_cards]
    SCORED[:] = [k for k in KINDS if k.scored]
    for callback in _WATCHERS:
        callback()
