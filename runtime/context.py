"""The execution context that compiled effects run in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.runtime.decisions import COST, MAY, YES_NO, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


class Ctx:
    """Who is acting and what the effect has bound so far.

    `you` owns the effect (the player of the card); `player` is who is acting now: the same
    player, or "they" inside `each other player:`. `vars` holds the cards an effect bound
    (`it`, `trashed`, `revealed`, ...). `did` says whether the last step happened in full, for
    "if you did"; `unaffected` holds the players a Reaction made unaffected by this Attack.
    """

    __slots__ = ("card", "did", "game", "player", "unaffected", "vars", "you")

    def __init__(
        self, game: Game, you: Player, card: Card | None, vars: dict[str, Any] | None = None
    ) -> None:
        self.game = game
        self.you = you
        self.player = you
        self.card = card
        self.vars: dict[str, Any] = {} if vars is None else vars
        self.did = True
        self.unaffected: frozenset = frozenset()

    @property
    def source(self) -> str | None:
        """The name of the card or Ally whose effect this is (None: the rules')."""
        return self.card.d.name if self.card is not None else self.vars.get("source")

    def commit(self, chosen: bool, empty: bool = False) -> None:
        """A choice was made ("you may spend a Favor to gain a card": the card): pay what is
        pending for it, or, when nothing was chosen, give the whole offer up (Declined). With
        nothing to choose from (`empty`) while more of the offer remains ("to discard a card
        then draw a card" with no card in hand), the offer is asked as a yes/no question."""
        pay = self.vars.pop("pay", None)
        anyway = self.vars.pop("pay_anyway", None)
        if pay is None:
            return
        if not chosen and not (empty and anyway and ask(
            Decision(YES_NO, self.player, anyway, [True, False], card=self.card, game=self.game,
                     topic=MAY, purpose=COST)
        )):
            raise Declined
        pay(self)

    def for_player(self, player: Player) -> Ctx:
        """The same effect, with `player` acting ("each other player ...")."""
        child = Ctx(self.game, self.you, self.card, dict(self.vars))
        child.player = player
        child.unaffected = self.unaffected
        return child


class Declined(Exception):
    """An optional offer whose first choice was declined: nothing is paid, nothing happens."""
