"""Invariants of a game in progress, checked between moves by `kingdom simulate --check-invariants`,
and a cheap check of a whole game that is always on (`CardCount`).

Between moves (before each Action, Treasure and Buy decision of a turn, and after every turn):
no card has been created or lost since setup, every card is in exactly one place (a player's
deck, hand, play area, discard pile or set-aside cards, a pile, or the trash), and the turn's
counters and the players' tokens are not negative. That the game ends is checked by the caller.
"""

from __future__ import annotations

from typing import Any

from kingdom.runtime.decisions import BUY, PLAY, TREASURES
from kingdom.runtime.game import Game
from kingdom.runtime.tokens import KINDS

TURN_DECISIONS = (PLAY, TREASURES, BUY)
ZONES = ("deck", "hand", "in_play", "discard", "set_aside")


class InvariantViolation(Exception):
    pass


class CheckingAgent:
    """Checks the game's invariants before passing a turn decision to the agent it wraps."""

    plays_all_treasures = False  # ask every turn decision, so each is a checkpoint
    choose_buy = None

    def __init__(self, agent: Any, checker: InvariantChecker,
                 before: tuple[str, ...] = TURN_DECISIONS) -> None:
        self.agent = agent
        self.checker = checker
        self.before = before  # the decisions checked before

    def decide(self, decision: Any) -> Any:
        if decision.kind in self.before and decision.game is not None:
            self.checker.check(decision.game, f"before a {decision.kind} decision")
        return self.agent.decide(decision)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


class InvariantChecker:
    def __init__(self, raise_on_violation: bool = True) -> None:
        self.cards: dict[int, Any] = {}  # uid -> card, as set up
        self.violations: list[str] = []
        self.raise_on_violation = raise_on_violation
        self.checks = 0

    def wrap(self, agents: list[Any], before: tuple[str, ...] = TURN_DECISIONS) -> list[Any]:
        """The agents, checking the game before each of their decisions of the kinds `before`
        (every move of a turn, or fewer checks: BUY alone is about once a turn)."""
        return [CheckingAgent(a, self, before) for a in agents]

    def attach(self, game: Game) -> None:
        """Take stock of every card once the game is set up."""
        self.cards = {card.uid: card for card, _where in locate(game)}
        self.check(game, "after setup")

    def check(self, game: Game, when: str) -> None:
        self.checks += 1
        problems = list(self.problems(game))
        if problems:
            message = f"turn {game.turn_number} ({game.player.name}), {when}: " + "; ".join(problems)
            self.violations.append(message)
            if self.raise_on_violation:
                raise InvariantViolation(message)

    def problems(self, game: Game):
        seen: dict[int, str] = {}
        for card, where in locate(game):
            if card.uid in seen:
                yield f"{card!r} is both in {seen[card.uid]} and in {where}"
                continue
            seen[card.uid] = where
            known = self.cards.get(card.uid)
            if known is None:
                yield f"{card!r} in {where} was created during the game"
            elif known is not card:
                yield f"{card!r} in {where} is a copy of a card of the same uid"
        lost = [self.cards[uid] for uid in self.cards.keys() - seen.keys()]
        if lost:
            yield "lost: " + ", ".join(map(repr, lost[:10]))
        for counter in ("actions", "buys", "coins", "cost_reduction"):
            value = getattr(game, counter)
            if value < 0:
                yield f"{counter} is {value}"
        for player in game.players:
            for kind in KINDS:
                value = getattr(player, kind.key, 0)
                if value < 0:
                    yield f"{player.name} has {value} {kind.key}"
        for uid, value in getattr(game, "card_tokens", {}).items():
            if value < 0:
                yield f"card #{uid} has {value} tokens"
        for pile in game.piles.values():
            for token, value in pile.tokens.items():
                if value < 0:
                    yield f"pile {pile.name} has {value} {token} tokens"


def locate(game: Game):
    """Every card of the game with where it is."""
    for player in game.players:
        for zone in ZONES:
            for card in getattr(player, zone):
                yield card, f"{player.name}'s {zone}"
    for name, pile in game.piles.items():
        for card in pile.cards:
            yield card, f"the {name} pile"
    for card in game.trash:
        yield card, "the trash"


class CardCount:
    """The check every game of `simulate`, `rate` and `play` gets: as many cards at the end as
    at setup and none made since, and no token count below zero. A card in two places is
    counted twice and a lost one not at all, so this finds what the full check between moves
    finds, unless a loss and a duplicate cancel out; it costs two counts per game (bench/run.py
    --invariants), where the full check costs a scan of every card before every move."""

    __slots__ = ("made", "total")

    def __init__(self, game: Game) -> None:
        self.total = count_cards(game)
        self.made = game._next_uid  # (cards are numbered as they are made)

    def check(self, game: Game, when: str = "at the end of the game") -> None:
        """Raise InvariantViolation, naming the cards, if a card was made, lost or doubled."""
        total = count_cards(game)
        if total == self.total and game._next_uid == self.made and not _negative(game):
            return
        problems = list(_negative(game))
        seen: dict[int, str] = {}
        for card, where in locate(game):
            if card.uid in seen:
                problems.append(f"{card!r} is both in {seen[card.uid]} and in {where}")
            elif card.uid > self.made:
                problems.append(f"{card!r} in {where} was created during the game")
            seen[card.uid] = where
        if total != self.total:
            problems.append(f"{total} cards where the game was set up with {self.total}")
        raise InvariantViolation(f"turn {game.turn_number} ({game.player.name}), {when}: "
                                 + "; ".join(problems))


def count_cards(game: Game) -> int:
    """How many cards the game holds, wherever they are (a card in two places counts twice)."""
    total = len(game.trash)
    for player in game.players:
        total += (len(player.deck) + len(player.hand) + len(player.in_play) + len(player.discard)
                  + len(player.set_aside))
    for pile in game.piles.values():
        total += len(pile.cards)
    return total


def _negative(game: Game) -> list[str]:
    """The players' token counts below zero (the turn's counters are the full check's)."""
    return [f"{player.name} has {getattr(player, kind.key)} {kind.key}"
            for player in game.players for kind in KINDS if getattr(player, kind.key, 0) < 0]
