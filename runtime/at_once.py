"""Effects that happen at the same time, ordered by their owner: at the start of a turn, the
effects waiting for it (Durations' next-turn effects, "... at the start of your next turn") and
the abilities that listen for it (the Ally's, "at the start of your turn" on cards) all wait at
once, and the player picks which resolves next (an ORDER_EFFECTS decision)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.runtime.decisions import OPTION, ORDER_EFFECTS, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.events import Listener
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

Waiting = tuple[str, Callable[[], None]]  # (whose effect it is, as the player is asked; run it)


def start_of_turn(game: Game, player: Player) -> None:
    """Resolve everything waiting for the start of `player`'s turn, in the order the player
    picks: asked before each while differently named effects wait (by default, the order they
    are offered in: effects waiting since an earlier turn, then abilities, the Ally's last)."""
    effects: list[Waiting] = []
    if player.next_turn:
        waiting, player.next_turn = player.next_turn, []
        for card, effect, ctx in waiting:
            source = card if card is not None else ctx.card
            effects.append((_name(source), lambda effect=effect, ctx=ctx: effect(ctx)))
    for listener in list(game.listeners.get("start_turn", ())):
        if listener.match is None or listener.match(game, player, None):
            effects.append((_name(listener.source), _listening(game, player, listener)))
    while effects:
        names = list(dict.fromkeys(name for name, _run in effects))
        if len(names) > 1:
            name = ask(Decision(OPTION, player, "Which start-of-turn effect resolves next?",
                                names, game=game, topic=ORDER_EFFECTS))
        else:
            name = names[0]
        index = next(i for i, (n, _run) in enumerate(effects) if n == name)
        effects.pop(index)[1]()


def _listening(game: Game, player: Player, listener: Listener) -> Callable[[], None]:
    """Run `listener` for the start of `player`'s turn if it still listens then (an earlier
    effect may have ended it)."""

    def run() -> None:
        if listener in game.listeners.get("start_turn", ()):
            listener.effect(game, player, None, None)

    return run


def _name(source) -> str:
    """The name a waiting effect is asked by: its card's (or Ally's)."""
    if source is None:
        return "an effect"
    return getattr(getattr(source, "d", source), "name", "an effect")
