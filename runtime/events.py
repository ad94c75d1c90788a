"""Triggered abilities waiting for events, and the Game's dispatcher that runs them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.runtime.cards import Card, CardDef
from kingdom.runtime.errors import CHAIN_LIMIT
from kingdom.runtime.player import Player

if TYPE_CHECKING:
    from kingdom.runtime.game import Game


class Listener:
    """A triggered ability waiting for an event (an Ally, a "this turn, when ..." effect)."""

    __slots__ = ("effect", "event", "late", "match", "owner", "source", "until")

    def __init__(
        self,
        event: str,
        owner: Player | None,
        effect: Callable[[Game, Player, Card | None, Any], None],
        match: Callable[[Game, Player, Card | None], bool] | None = None,
        source: Card | CardDef | None = None,
        until: str = "game",
        late: bool = False,
    ) -> None:
        self.event = event
        self.owner = owner
        # An Ally's listener runs after the others of the same event, so that Favors the same
        # event gives (Guildmaster, Sycophant) can already pay for it.
        self.late = late
        self.effect = effect
        self.match = match
        self.source = source
        self.until = until  # "game", "turn" (ends in Clean-up) or "next_turn"


class Events:
    """The part of Game that registers listeners and emits events."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    def listen(self, listener: Listener) -> Listener:
        group = self.listeners.setdefault(listener.event, [])
        if listener.late or not group or not group[-1].late:
            group.append(listener)
        else:  # before the late ones
            group.insert(next(i for i, x in enumerate(group) if x.late), listener)
        return listener

    def unlisten(self, listener: Listener) -> None:
        group = self.listeners.get(listener.event)
        if group and listener in group:
            group.remove(listener)
            if not group:
                del self.listeners[listener.event]

    def tokens_changed(self, player: Player, why: Any = None) -> None:
        """`player`'s Favors, Coffers or VP tokens (or a pile's tokens) changed: a "tokens" event
        for a narrator, when one listens (the totals are read from the state). `why`: what a
        spend was for, the name of the card or Ally spending, or (kind, n) for the turn's own
        spend of n tokens of a kind."""
        if "tokens" in self.listeners:
            self.emit("tokens", player, None, why)

    def emit(self, event: str, player: Player, card: Card | None = None, data: Any = None) -> None:
        """Run every listener of `event`; costs a dict lookup when nobody listens. None when
        the chain it is in is CHAIN_LIMIT deep (Kingdom's loop rule, runtime/errors.py)."""
        group = self.listeners.get(event)
        if not group:
            return
        if self.chain >= CHAIN_LIMIT:
            self.stop_loop(f"the abilities that answer '{event}'")
            return
        self.chain += 1
        try:
            for listener in list(group):
                if listener.match is None or listener.match(self, player, card):
                    listener.effect(self, player, card, data)
        finally:
            self.chain -= 1

    def stop_loop(self, doing: str) -> None:
        """A chain of abilities reached CHAIN_LIMIT: what would go deeper is not done."""
        self.loops_stopped += 1
        if self.log is not None:
            self.note(f"an endless loop is stopped (a chain {CHAIN_LIMIT} deep): not {doing}")
