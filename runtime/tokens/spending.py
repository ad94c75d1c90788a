"""The part of Game that spends tokens, for every kind the registry declares: the turn's offers
(Coffers before each buy, Villagers when out of Actions) and a spend itself, which a scenario's
step (kingdom/table/moves.py) makes too."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kingdom.runtime.decisions import NUMBER, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.player import Player
    from kingdom.runtime.tokens.registry import TokenKind


class TokenSpending:
    """The part of Game that spends tokens."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    @staticmethod
    def holds(player: Player, kinds: Iterable[TokenKind]) -> bool:
        """Whether `player` has a token of one of `kinds`."""
        for kind in kinds:  # noqa: SIM110 (a loop, not any(): no generator on the turn's path)
            if getattr(player, kind.key):
                return True
        return False

    def offer_tokens(self, player: Player, kinds: Iterable[TokenKind]) -> int:
        """Ask `player`, for each of `kinds` they hold (those the turn offers now), how many to
        spend now: a NUMBER decision, 0 up to all, whose topic is the kind's ("spend_coffers").
        Spend them; return how many were spent in all."""
        spent = 0
        for kind in kinds:
            have = getattr(player, kind.key)
            if not have:
                continue  # (no decision is made for a player holding none)
            state = kind.spend.effect.state(self)
            n = ask(Decision(NUMBER, player, f"Spend {kind.plural}? (you have {have}, and {state})",
                             list(range(have + 1)), game=self, topic=kind.topic))
            if n:
                self.spend_tokens(player, kind, n)
                spent += n
        return spent

    def spend_tokens(self, player: Player, kind: TokenKind, n: int) -> None:
        """`player` spends `n` tokens of `kind` (they hold that many), each giving what the kind
        says (+$1 a Coffers, +1 Action a Villager)."""
        setattr(player, kind.key, getattr(player, kind.key) - n)
        kind.spend.effect.apply(self, player, n)
        if self.log is not None:
            self.note(f"{player.name} spends {kind.count(n)}")
        self.tokens_changed(player, (kind, n))
