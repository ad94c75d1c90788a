"""What stops a move or a game: an illegal move, the step budget that ends a game that loops,
and the limit on a chain of abilities that stops an endless loop within a turn."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules do not allow; the state is unchanged."""


class GameStalled(Exception):
    """A game used up its budget of steps (`Game.steps_left`) without ending: an effect, a
    turn or an agent that loops. The game is abandoned where it stands."""


# Steps (turns, card plays, buys, Reactions revealed) a game may take: long games between bots
# take a few thousand, so only a game that loops reaches it, in well under a second (a game of
# turns without plays or buys in a few seconds).
STEP_BUDGET = 200_000


# Kingdom's loop rule. A chain is abilities and plays each started while the one before it
# resolves: a gain whose "when you gain" ability gains again, a card that plays a card.
# Dominion's rules have no rule for a chain without end, since their cards end every chain
# (a gain takes a card from a pile, a play from hand moves a card into play, Architects'
# Guild's chain costs Favors); other card games' rules stop a loop no player can stop (Magic:
# a draw; KeyForge: it resolves as often as the active player says, then stops). A chain that
# reaches this depth is taken for such a loop and stops there: the ability or play that
# would go deeper does nothing, and play continues. No chain of the official cards comes near
# it (a Throne Room chain is as deep as the Throne Rooms in one hand).
CHAIN_LIMIT = 50
# Python frames a game may nest (sys.setrecursionlimit, raised to it when lower): a link of a
# chain takes 10 to 20 frames (a gain, its event, the ability, its block, the next gain), so
# Python's default 1,000 holds a chain of 50 only with little else on the stack. (Pure Python
# calls take no C stack in Python 3.11+; 8,000 frames passing through C calls fit a thread's.)
RECURSION_LIMIT = 8_000
