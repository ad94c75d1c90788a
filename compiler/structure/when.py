"""Trigger heads: `When` says which event ("when you gain a card", "at the start of your
turn", "the third time you play an Action this turn"), whose, and which cards; an Ability or a
Lasting effect fires on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.selections.filters import Filter
from kingdom.runtime.context import Ctx
from kingdom.runtime.history import VERBS, times_this_turn

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


class When(Node):
    """The head of a triggered ability: which event, whose, and which cards."""

    def __init__(self, event: str, filter: Filter | None = None, scope: str = "you",
                 phase: str = "", text: str = "", once: bool = False, who: str = "you") -> None:
        self.event = event  # gain_this, trash_this, discard_from_play, attack, gain, play, ...
        self.filter = filter
        self.scope = scope
        self.phase = phase
        self.text = text
        self.once = once
        self.nth = 0  # "the third time you gain an Action this turn": 3 (0: every time)
        self.who = who  # whose event: "you" (the card's owner) or "other" (another player's)
        self.react = ""  # a Reaction in hand: reveal, trash, discard or play this for it
        self.first = False  # "you may first reveal this": before the Attack does anything
        self.attack_type = ""
        self.min_hand = 0

    @property
    def counted(self) -> bool:
        """Whether it fires on the Nth matching event of the whole turn (play, gain or buy)."""
        return bool(self.nth) and self.event in VERBS

    @property
    def records(self) -> tuple[str, ...]:
        """The turn history a game must keep for it (buys are kept only if asked)."""
        return ("buy",) if self.counted and self.event == "buy" else ()

    def check(self, env: Env) -> None:
        if self.nth and self.event not in VERBS and (self.nth > 1 or self.scope == "in_play"):
            env.error("K360", f"'{self.text}' counts events of the turn, but only plays, gains "
                      "and buys are counted", self, "write it of playing, gaining or buying "
                      "a card ('the second time you gain a card this turn')")

    EVENTS = {"gain": "gain", "trash": "trash", "play": "play", "start_turn": "start_turn",
              "start_buy": "start_buy", "end_turn": "end_turn", "after_play": "after_play",
              "shuffle": "shuffle", "score": "score", "cleanup": "cleanup",
              "end_buy": "end_buy", "buy": "buy"}

    def matcher(self) -> Callable[[Game, Player, Card | None], bool] | None:
        pred = self.filter.compile_pred() if self.filter is not None else None
        phase = self.phase
        nth, verb = (self.nth, self.event) if self.counted else (0, "")

        def match(game: Game, player: Player, card: Card | None) -> bool:
            if phase == "action" and game.phase != "action":
                return False
            if phase == "your_turn" and player is not game.player:
                return False
            if pred is not None and (card is None or not pred(Ctx(game, player, card), card.d)):
                return False
            # "the third time you gain an Action this turn": this one is the third of the turn
            return not nth or times_this_turn(game, player, verb, pred) == nth

        return match

    def render(self, they: bool = False) -> str:
        return self.text

    KEYWORDS = {"Buy phase": "buy phase", "Action phase": "action phase",
                "Clean-up": "clean-up"}  # printed capitalised, written in lower case

    def unparse(self) -> str:
        text = self.text
        if self.event == "attack":  # printed "an Attack card", written "an Attack"
            text = text.replace(f" {self.attack_type} card,", f" {self.attack_type},", 1)
        for printed, written in self.KEYWORDS.items():
            text = text.replace(printed, written)
        if self.filter is not None:
            text = text.replace(self.filter.render(), self.filter.unparse())
        return text
