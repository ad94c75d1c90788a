"""Step-wise play: a UI or an AI agent answers one decision at a time, in plain data.

    with Session() as session:
        game = standard_game(library, kingdom, [session.seat(), BigMoney()], seed=5)
        session.start(game)
        while (pending := session.pending()) is not None:
            print(pending.prompt, pending.options, pending.view.hand)
            try:
                session.answer(choose(pending))  # e.g. ["Copper", "Estate"], "Silver", 2, True
            except IllegalAnswer as refused:  # says what would be accepted
                print(refused)  # ... and the same decision is still pending
        print(session.result().winners)

The protocol. `pending()` waits until the game asks a seat of this session something and returns
it as a `Pending` (kind, prompt, options, min..max, the asked player's `view`), or None once the
game is over; `result()` then gives scores and winners. `answer(value)` answers what `pending()`
showed, in the same plain data as its `options` (card kinds: a list of card names; PLAY: a name
or None); an illegal answer raises IllegalAnswer and leaves the decision pending. A call in the
wrong state raises SessionError at once. What a caller gets is immutable plain data, a player's
view: never the game, never a live Decision, nothing of hidden information (other players' hands,
anyone's deck order). `Decision.accept` (runtime/decisions.py) decides what is legal.

The engine asks its agents deep inside card effects, so the game runs in a thread of its own that
waits for each answer. The thread holds no reference to its Session: `close()` (or leaving the
`with` block, or dropping the session) ends it. Bots calling `decide` directly pay nothing.
"""

from __future__ import annotations

import queue
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kingdom.runtime.decisions import Decision, IllegalAnswer
from kingdom.runtime.tokens import BY_KEY, KINDS

if TYPE_CHECKING:
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

__all__ = ["GameFailed", "IllegalAnswer", "Pending", "PileView", "PlayerView", "PublicPlayer",
           "Result", "Seat", "Session", "SessionError", "player_view"]

JOIN_SECONDS = 10.0  # how long close() waits for the game thread to reach its next decision


class SessionError(Exception):
    """A call in the wrong state (before start, twice, with nothing pending, after close)."""


class GameFailed(SessionError):
    """The game itself stopped with an error (an engine fault, not the caller's)."""


# ---------------------------------------------------------------------------- plain data
@dataclass(frozen=True)
class PileView:
    """A pile as everyone sees it: how many cards, which card is on top at what cost."""

    name: str
    count: int
    top: str | None  # the card a buy or gain takes; None when the pile is empty
    cost: int | None  # its current cost
    in_supply: bool
    tokens: tuple[tuple[str, int], ...]  # tokens on the pile, by kind
    roles: tuple[str, ...] = ()  # what setup made it ("Bane")


@dataclass(frozen=True)
class PublicPlayer:
    """What everyone knows of a player: sizes of hidden zones, the rest in full."""

    name: str
    hand_size: int
    deck_size: int
    discard_size: int
    discard_top: str | None  # the discard pile lies face up
    in_play: tuple[str, ...]
    set_aside_size: int
    tokens: tuple[tuple[str, int], ...]  # each token kind's count, by its key: ("coffers", 2)
    turns_taken: int
    # Victory points now, where the viewer knows them: their own (they know every card they
    # have) and everyone's once the game is over; None for another player during the game
    # (Masquerade passes cards face down; the table sees `vp_tokens` and the cards in play)
    score: int | None

    def __getattr__(self, name: str) -> int:
        """A token kind's count read by its key, `view.coffers` (runtime/tokens)."""
        if name not in BY_KEY:
            raise AttributeError(name)
        return next((n for key, n in self.__dict__.get("tokens", ()) if key == name), 0)


@dataclass(frozen=True)
class PlayerView:
    """What `player` may see: their own hand and set-aside cards, and the public state (of a
    discard pile only its size and top card: the rules let no one look through it). Piles are
    written top first."""

    player: str
    hand: tuple[str, ...]
    set_aside: tuple[str, ...]
    players: tuple[PublicPlayer, ...]  # everyone, this player included, in seat order
    supply: tuple[PileView, ...]
    trash: tuple[str, ...]
    ally: str | None
    turn: int
    current: str  # whose turn it is
    phase: str
    actions: int
    buys: int
    coins: int


@dataclass(frozen=True)
class Pending:
    """A decision waiting for an answer: answer it with one of `options` (card kinds: a list of
    `min`..`max` names from them; `exact`: none or exactly `max`)."""

    player: str
    kind: str  # a kind of runtime/decisions.py: "cards", "buy", "yes_no", ...
    prompt: str
    options: tuple
    min: int
    max: int
    exact: bool
    card: str | None  # the card (or the Ally) whose effect asks, if any
    topic: str | None  # what a decision of the turn itself is about ("spend_coffers", "overpay", ...)
    view: PlayerView  # the asked player's view, as it is now


@dataclass(frozen=True)
class Result:
    """A finished game: scores in seat order, the winners, and whether the rules ended it (a
    Province pile or enough piles empty) rather than the limit on turns."""

    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    turns: int
    finished: bool


def player_view(game: Game, player: Player) -> PlayerView:
    """`player`'s view of `game` now."""
    return PlayerView(
        player=player.name,
        hand=_names(player.hand),
        set_aside=_names(player.set_aside),
        players=tuple(_public(game, p, p is player or game.game_over) for p in game.players),
        supply=tuple(
            PileView(pile.name, len(pile.cards), pile.top.name if pile.cards else None,
                     game.cost(pile.top) if pile.cards else None, pile.in_supply,
                     tuple(sorted(pile.tokens.items())), tuple(sorted(pile.roles)))
            for pile in game.piles.values()
        ),
        trash=_names(reversed(game.trash)),
        ally=game.ally.name if game.ally is not None else None,
        turn=game.turn_number,
        current=game.player.name,
        phase=game.phase,
        actions=game.actions,
        buys=game.buys,
        coins=game.coins,
    )


def _public(game: Game, player: Player, known: bool) -> PublicPlayer:
    """What everyone knows of `player`; `known`: the viewer knows their score too."""
    return PublicPlayer(
        name=player.name, hand_size=len(player.hand), deck_size=len(player.deck),
        discard_size=len(player.discard),
        discard_top=player.discard[-1].d.name if player.discard else None,
        in_play=_names(player.in_play), set_aside_size=len(player.set_aside),
        tokens=tuple((kind.key, getattr(player, kind.key)) for kind in KINDS),
        turns_taken=player.turns_taken, score=game.score(player) if known else None,
    )


def _names(cards) -> tuple[str, ...]:
    return tuple(card.d.name for card in cards)


def _pending(decision: Decision, game: Game) -> Pending:
    """The decision as plain data (`game`: a question of a trigger may come without its game)."""
    return Pending(
        player=decision.player.name, kind=decision.kind, prompt=decision.prompt,
        options=decision.plain_options(), min=decision.min, max=decision.max,
        exact=decision.exact,
        card=decision.card.name if decision.card is not None else game.asking,
        topic=decision.topic, view=player_view(game, decision.player),
    )


def _result(game: Game) -> Result:
    return Result(
        scores=tuple((p.name, game.score(p)) for p in game.players),
        winners=tuple(p.name for p in game.winners()),
        turns=game.turn_number,
        finished=game.is_over(),
    )


# ---------------------------------------------------------------------------- the game thread
_CLOSE = object()


class _Closed(BaseException):
    """Unwinds the game thread of a closed session (a BaseException, so no game code that
    catches errors stops it)."""


@dataclass(frozen=True)
class _End:
    """The game thread's last message: the result, or the error that stopped the game."""

    result: Result | None
    error: BaseException | None


class _Channel:
    """What a session's game thread and the session share. It refers to no Session, so a session
    nobody holds any more is collected, and its finalizer closes the channel."""

    def __init__(self) -> None:
        self.asked: queue.SimpleQueue = queue.SimpleQueue()  # to the caller: Decisions, an _End
        self.replies: queue.SimpleQueue = queue.SimpleQueue()  # to the game: outcomes, _CLOSE
        self.thread: threading.Thread | None = None

    def close(self) -> None:
        self.replies.put(_CLOSE)


class Seat:
    """The agent of a seat played through a Session: hands each decision over and waits."""

    __slots__ = ("channel",)

    def __init__(self, channel: _Channel) -> None:
        self.channel = channel

    def decide(self, decision: Decision) -> Any:
        channel = self.channel
        if threading.current_thread() is not channel.thread:
            raise SessionError("a seat of a Session was asked outside its game: the game must "
                               "be played by Session.start(game)")
        channel.asked.put(decision)
        reply = channel.replies.get()
        if reply is _CLOSE:
            raise _Closed
        return reply


def _play(game: Game, channel: _Channel, max_turns: int) -> None:
    """The game thread: play to the end (or until closed) and tell the caller how it ended."""
    try:
        game.run(max_turns)
        end = _End(_result(game), None)
    except _Closed:
        return
    except BaseException as exc:  # reported to the caller, not lost in the thread: a bot's
        end = _End(None, exc)  # SystemExit or KeyboardInterrupt too (pending() would wait)
    channel.asked.put(end)


# ---------------------------------------------------------------------------- the session
class Session:
    """One game played step by step through the seats it hands out (see the module's text).

    Use it from one thread. Calls: `seat()` before start, `start(game)` once, then `pending()`,
    `answer(value)`, `view(player)`, `result()`; `close()` at any time (idempotent)."""

    def __init__(self) -> None:
        self._channel = _Channel()
        self._seats: list[Seat] = []
        self._players: list[Player] = []
        self._game: Game | None = None
        self._decision: Decision | None = None  # asked by the game, not answered yet
        self._pending: Pending | None = None  # ... and handed out by pending()
        self._end: _End | None = None
        self._closed = False
        self._closer = weakref.finalize(self, self._channel.close)  # a dropped session closes

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def seat(self) -> Seat:
        """A new agent for one player of the game (pass it to `standard_game` or `Game`)."""
        if self._game is not None or self._closed:
            raise SessionError("seats are handed out before start()")
        seat = Seat(self._channel)
        self._seats.append(seat)
        return seat

    def start(self, game: Game, max_turns: int = 500) -> None:
        """Play `game` in the session's thread until the first decision of one of its seats."""
        self._check_open()
        if self._game is not None:
            raise SessionError("start() was already called: a session plays one game")
        players = [p for p in game.players if any(p.agent is seat for seat in self._seats)]
        if not players:
            raise SessionError("no player of this game has a seat of this session: pass "
                               "session.seat() as an agent when making the game")
        self._game, self._players = game, players
        thread = threading.Thread(target=_play, args=(game, self._channel, max_turns),
                                  name="kingdom-session", daemon=True)
        self._channel.thread = thread
        thread.start()

    def pending(self) -> Pending | None:
        """The decision waiting for an answer (the same one until it is answered legally), or
        None when the game is over."""
        self._settle()
        if self._decision is None:
            return None
        if self._pending is None:
            self._pending = _pending(self._decision, self._game)
        return self._pending

    def answer(self, value: Any) -> None:
        """Answer the pending decision; IllegalAnswer (the decision stays pending) if `value` is
        not a legal answer."""
        self._check_started()
        if self._pending is None or self._decision is None:
            if self._end is not None:
                raise SessionError("the game is over: there is nothing to answer (see result())")
            raise SessionError("nothing to answer yet: call pending() and answer what it shows")
        outcome = self._decision.accept(value)
        self._decision = self._pending = None
        self._channel.replies.put(outcome)

    def view(self, player: str | None = None) -> PlayerView:
        """What `player` (a name, "p1"; by default the one asked now, else this session's first
        seat) may see now; only players seated through this session."""
        self._settle()
        if player is None:
            who = self._decision.player if self._decision is not None else self._players[0]
        else:
            found = [p for p in self._players if p.name == player]
            if not found:
                seated = ", ".join(p.name for p in self._players)
                raise SessionError(f"{player!r} is not played through this session ({seated} is)")
            who = found[0]
        return player_view(self._game, who)

    def result(self) -> Result:
        """Scores and winners of the finished game; SessionError while it is not over."""
        if self._end is None:
            self._settle()
        if self._end is None:
            raise SessionError("the game is not over: a decision is pending")
        self._raise_failure()
        return self._end.result

    def close(self) -> None:
        """End the game thread (the game is abandoned where it stands) and let go of the game."""
        if self._closed:
            return
        self._closed = True
        self._closer()  # (once: a finalizer runs at most once)
        thread = self._channel.thread
        if thread is not None:
            thread.join(JOIN_SECONDS)
        self._game = self._decision = self._pending = None
        self._players = []

    # -------------------------------------------------------------------------- states
    def _check_open(self) -> None:
        if self._closed:
            raise SessionError("the session is closed")

    def _check_started(self) -> None:
        self._check_open()
        if self._game is None:
            raise SessionError("the game is not started: call start(game) first")

    def _settle(self) -> None:
        """Wait until the game asks one of the session's seats something, or ends (the engine
        runs on until it needs an answer)."""
        self._check_started()
        if self._decision is None and self._end is None:
            item = self._channel.asked.get()
            if isinstance(item, _End):
                self._end = item
            else:
                self._decision = item
        self._raise_failure()

    def _raise_failure(self) -> None:
        if self._end is not None and self._end.error is not None:
            raise GameFailed(f"the game stopped with an error: {self._end.error!r}"
                             ) from self._end.error
