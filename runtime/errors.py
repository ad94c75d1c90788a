"""What stops a move or a game: an illegal move, and the step budget that ends a game that loops."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules do not allow; the state is unchanged."""


class GameStalled(Exception):
    """A game used up its budget of steps (`Game.steps_left`) without ending: an effect, a
    turn or an agent that loops. The game is abandoned where it stands."""


# Steps (card plays, buys, Reactions revealed) a game may take: long games between bots take
# a few thousand, so only a game that loops reaches it, in well under a second.
STEP_BUDGET = 200_000
