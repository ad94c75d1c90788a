"""The step-wise protocol: plain-data decisions, refused illegal answers, clear errors for calls
in the wrong state, a player's view without hidden information, and no leaked threads.

Every call that could hang runs under `within`, so a regression fails instead of hanging."""

from __future__ import annotations

import dataclasses
import gc
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from kingdom.compiler.build import builtin_library
from kingdom.runtime.decisions import BUY, NAME, NUMBER, OPTION, PILE, Decision
from kingdom.runtime.setup import standard_game
from kingdom.runtime.stepwise import GameFailed, IllegalAnswer, Pending, Session, SessionError

from kingdom.table.play import score_lines

KINGDOM = ["Cellar", "Chapel", "Moat", "Harbinger", "Workshop", "Militia", "Remodel",
           "Throne Room", "Library", "Sentry"]
BASE_CARDS = {"Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"}
LIBRARY = builtin_library()


def within(call: Callable[..., Any], *args: Any, seconds: float = 10.0) -> Any:
    """`call(*args)`, failing the test if it does not return within `seconds`."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call(*args)
        except BaseException as exc:  # handed back to the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{getattr(call, '__name__', call)} hung"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def choose(rng: random.Random, kind: str, options: tuple, low: int, high: int, exact: bool) -> Any:
    """A legal answer in plain data, picked at random (buying like a plain Big Money player
    that sometimes takes a Kingdom card)."""
    if kind == "buy":
        for name in ("Province", "Gold"):
            if name in options:
                return name
        kingdom = [name for name in options if name not in BASE_CARDS]
        if kingdom and rng.random() < 0.6:
            return rng.choice(kingdom)
        return "Silver" if "Silver" in options else None
    if kind == "treasures":
        return list(options)
    if kind == "cards":
        counts = [n for n in ((0, high) if exact else range(low, high + 1)) if low <= n <= len(options)]
        return rng.sample(list(options), rng.choice(counts))
    if kind == "order":
        return rng.sample(list(options), len(options))
    if kind == "yes_no":
        return rng.random() < 0.5
    if low == 0 and rng.random() < 0.2:
        return None
    return rng.choice(list(options))


def choose_for(rng: random.Random, pending: Pending) -> Any:
    return choose(rng, pending.kind, pending.options, pending.min, pending.max, pending.exact)


def illegal_answers(pending: Pending) -> list[Any]:
    """Answers that are illegal by construction, whatever the decision's options are."""
    kind, options = pending.kind, pending.options
    unknown = "No Such Card"
    if kind in ("cards", "order", "treasures"):
        bad = [options[0], [unknown], [*options, options[0]], ("Copper", 5)]  # a name, not a list
        if kind == "order":
            bad.append(list(options[:-1]))  # not all of them
        elif len(options) > pending.max:
            bad.append(list(options[: pending.max + 1]))  # too many
        if pending.min > 0:
            bad.append([])
        return bad
    if kind == "yes_no":
        return ["yes", 1, None]
    if kind == "number":
        return [max(options) + 1, str(options[0]), True, None if pending.min else -1]
    bad = [unknown, 5, {"x": 1}]
    if kind in ("play", "buy") and "Province" not in options:
        bad.append("Province")  # unaffordable, or not an Action in hand
    if pending.min > 0:
        bad.append(None)
    return bad


def new_session(seed: int = 3, seats: int = 2) -> tuple[Session, Any]:
    session = Session()
    agents = [session.seat() for _ in range(seats)]
    if seats == 1:
        agents.append(RandomAgent(random.Random(seed)))
    game = standard_game(LIBRARY, KINGDOM, agents, seed=seed)
    return session, game


class RandomAgent:
    """A direct agent answering as `choose` does, through the same plain data."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, decision: Any) -> Any:
        return decision.accept(choose(self.rng, decision.kind, decision.plain_options(),
                                      decision.min, decision.max, decision.exact))


def play_through(session: Session, rng: random.Random, mistakes: random.Random | None = None
                 ) -> tuple[list[tuple], int]:
    """Play the started session to the end with `choose`; with `mistakes`, first try some
    illegal answers at random decisions. (The decisions seen, the illegal answers refused.)"""
    seen, refused = [], 0
    while (pending := session.pending()) is not None:
        seen.append((pending.player, pending.kind, pending.prompt, pending.options))
        if mistakes is not None and mistakes.random() < 0.4:
            for bad in mistakes.sample(illegal_answers(pending), 2):
                with pytest.raises(IllegalAnswer):
                    session.answer(bad)
                refused += 1
                assert session.pending() is pending  # still the same decision
        session.answer(choose_for(rng, pending))
    return seen, refused


# ------------------------------------------------------------------------------ whole games
def test_stepwise_plays_exactly_like_direct_play() -> None:
    direct = standard_game(LIBRARY, KINGDOM, [RandomAgent(random.Random(7))] * 2, seed=3)
    direct.run()
    session, game = new_session()
    with session:
        session.start(game)
        seen, _ = within(play_through, session, random.Random(7))
        result = session.result()
    assert len(seen) > 50
    assert {kind for _, kind, _, _ in seen} >= {"play", "treasures", "buy", "cards"}
    assert result.scores == tuple((p.name, direct.score(p)) for p in direct.players)
    assert result.winners == tuple(p.name for p in direct.winners())
    assert result.turns == direct.turn_number and result.finished


def test_illegal_answers_mixed_in_change_nothing() -> None:
    legal, game = new_session()
    with legal:
        legal.start(game)
        seen, refused = within(play_through, legal, random.Random(11))
        expected = legal.result()
    mixed, game = new_session()
    with mixed:
        mixed.start(game)
        mixed_seen, refused = within(play_through, mixed, random.Random(11), random.Random(5))
        assert mixed.result() == expected
    assert mixed_seen == seen
    assert refused > 50


# ------------------------------------------------------------------------------ misuse
def test_calls_before_start_raise_at_once() -> None:
    session, _game = new_session()
    for call in (session.pending, session.view, session.result):
        with pytest.raises(SessionError, match="not started"):
            within(call)
    with pytest.raises(SessionError, match="not started"):
        within(session.answer, "Silver")


def test_start_twice_and_a_game_without_a_seat_are_refused() -> None:
    session, game = new_session()
    with session:
        session.start(game)
        with pytest.raises(SessionError, match="already"):
            session.start(game)
        with pytest.raises(SessionError, match="before start"):
            session.seat()
        assert within(session.pending) is not None  # the one game goes on
    stranger = Session()
    with pytest.raises(SessionError, match="no player of this game"):
        stranger.start(standard_game(LIBRARY, KINGDOM, [RandomAgent(random.Random(1))] * 2))


def test_answer_needs_a_decision_shown_and_answers_it_once() -> None:
    session, game = new_session()
    with session:
        session.start(game)
        with pytest.raises(SessionError, match="call pending"):
            within(session.answer, [])
        pending = within(session.pending)
        within(session.answer, choose_for(random.Random(1), pending))
        with pytest.raises(SessionError, match="call pending"):
            within(session.answer, choose_for(random.Random(1), pending))


def test_wrong_answers_are_refused_with_what_would_do() -> None:
    session, game = new_session(seats=1)
    with session:
        session.start(game)
        pending = within(session.pending)
        while pending.kind != "buy" or "Province" in pending.options:
            within(session.answer, choose_for(random.Random(2), pending))
            pending = within(session.pending)
        for bad in ("Colony", 5, "Province", ["Silver"]):
            with pytest.raises(IllegalAnswer, match=r"is not one of .*Silver") as refused:
                within(session.answer, bad)
            assert repr(bad) in str(refused.value)
            assert within(session.pending) is pending
        within(session.answer, "Silver")
        assert within(session.pending) is not pending


def test_the_decision_handed_out_is_a_copy() -> None:
    session, game = new_session()
    with session:
        session.start(game)
        pending = within(session.pending)
        with pytest.raises(dataclasses.FrozenInstanceError):
            pending.options = ("Colony",)  # type: ignore[misc]
        assert isinstance(pending.options, tuple) and not hasattr(pending, "game")
        widened = dataclasses.replace(pending, options=(*pending.options, "Colony"))
        assert "Colony" in widened.options
        with pytest.raises(IllegalAnswer):
            within(session.answer, ["Colony"])
        assert within(session.pending) is pending


def test_game_over_is_a_state_to_read() -> None:
    session, game = new_session()
    with session:
        session.start(game)
        within(play_through, session, random.Random(4))
        for _ in range(3):
            assert within(session.pending) is None
        result = within(session.result)
        assert result.finished and result.winners and len(result.scores) == 2
        assert set(result.winners) <= {name for name, _ in result.scores}
        assert within(session.view).player == "p1"
        with pytest.raises(SessionError, match="game is over"):
            within(session.answer, None)
    assert session.result() == result  # still readable once closed


def test_result_while_a_decision_waits_is_refused() -> None:
    session, game = new_session()
    with session:
        session.start(game)
        with pytest.raises(SessionError, match="not over"):
            within(session.result)


def test_a_closed_session_refuses_everything_and_its_thread_ends() -> None:
    session, game = new_session()
    session.start(game)
    within(session.pending)
    thread = session._channel.thread
    within(session.close)
    within(session.close)  # again: nothing happens
    assert thread is not None and not thread.is_alive()
    for call in (session.pending, session.view, session.result):
        with pytest.raises(SessionError, match="closed"):
            within(call)
    with pytest.raises(SessionError, match="closed"):
        within(session.answer, [])


def test_an_engine_error_is_reported_not_hung() -> None:
    class Broken:
        def decide(self, decision: Any) -> Any:
            raise ValueError("broken agent")

    session = Session()
    with session:
        session.start(standard_game(LIBRARY, KINGDOM, [Broken(), session.seat()], seed=1))
        for _ in range(2):
            with pytest.raises(GameFailed, match="broken agent"):
                within(session.pending)


def test_a_seat_used_outside_its_session_raises() -> None:
    session = Session()
    game = standard_game(LIBRARY, KINGDOM, [session.seat(), session.seat()], seed=1)
    with pytest.raises(SessionError, match="outside its game"):
        within(game.run)


def test_views_only_of_seated_players() -> None:
    session, game = new_session(seats=1)
    with session:
        session.start(game)
        assert within(session.view, "p1").player == "p1"
        with pytest.raises(SessionError, match="'p2' is not played through this session"):
            within(session.view, "p2")


# ------------------------------------------------------------------------------ threads
def wait_for_threads(count: int, seconds: float = 20.0) -> int:
    deadline = time.monotonic() + seconds
    while threading.active_count() > count and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.05)
    return threading.active_count()


@pytest.mark.parametrize("closed", [True, False])
def test_300_sessions_leave_no_thread(closed: bool) -> None:
    baseline = threading.active_count()
    for seed in range(300):
        session, game = new_session(seed)
        session.start(game)
        within(session.pending)
        assert threading.active_count() > baseline
        if closed:
            session.close()
        del session, game  # dropped without close: its finalizer ends the thread
    assert wait_for_threads(baseline) == baseline


# ------------------------------------------------------------------------------ the view
def test_the_view_hides_other_hands_and_deck_order() -> None:
    """Changing what a player may not see (the order of their deck, the other player's hand)
    leaves their view unchanged; what they may see is there."""
    shuffler = random.Random(9)
    session, game = new_session(seats=1)
    me, other = game.players
    with session:
        session.start(game)
        checked = 0
        while (pending := within(session.pending)) is not None and checked < 40:
            if pending.kind in ("play", "treasures", "buy") and other.deck and other.hand:
                view = pending.view
                assert view.hand == tuple(c.d.name for c in me.hand)
                assert [p.hand_size for p in view.players] == [len(me.hand), len(other.hand)]
                shuffler.shuffle(me.deck)
                other.hand[0], other.deck[0] = other.deck[0], other.hand[0]
                shuffler.shuffle(other.hand)
                assert within(session.view) == view
                checked += 1
            within(session.answer, choose_for(shuffler, pending))
    assert checked == 40
    public = {f.name for f in dataclasses.fields(type(view.players[0]))}
    private = {f.name for f in dataclasses.fields(type(view))}
    assert not {"hand", "deck"} & public and "deck" not in private


# ------------------------------------------------------------------------------ exact answers
class Liar:
    """An object equal to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


def test_a_number_is_an_exact_int() -> None:
    """1.0 and 1+0j equal 1, and were taken (a player's Coffers became 0.0); True is 1 too."""
    player = standard_game(LIBRARY, KINGDOM, [RandomAgent(random.Random(1))] * 2).players[0]
    decision = Decision(NUMBER, player, "Spend Coffers?", [0, 1, 2])
    for bad in (1.0, 1 + 0j, True, Liar(), "1"):
        with pytest.raises(IllegalAnswer, match="not one of 0, 1, 2"):
            decision.accept(bad)
    assert type(decision.accept(1)) is int and decision.accept(1) == 1


@pytest.mark.parametrize("kind", [OPTION, PILE, NAME, BUY])
def test_an_option_is_taken_by_its_exact_type_never_an_object_equal_to_anything(kind) -> None:
    player = standard_game(LIBRARY, KINGDOM, [RandomAgent(random.Random(1))] * 2).players[0]
    options = ["Silver", "+1 Card"]
    decision = Decision(kind, player, "Pick", options)
    with pytest.raises(IllegalAnswer, match="is not one of"):
        decision.accept(Liar())
    assert decision.accept("+1 Card") is options[1]  # the engine's own option


@pytest.mark.parametrize("error", [SystemExit, KeyboardInterrupt])
def test_a_bot_raising_systemexit_or_keyboardinterrupt_fails_the_game_not_pending(error) -> None:
    """The game thread caught only Exception: it died and pending() waited for ever."""
    class Quits:
        def decide(self, decision: Any) -> Any:
            raise error("the bot quit")

    session = Session()
    with session:
        session.start(standard_game(LIBRARY, KINGDOM, [Quits(), session.seat()], seed=1))
        with pytest.raises(GameFailed, match="the bot quit"):
            within(session.pending)


def test_another_players_score_is_hidden_until_the_game_ends() -> None:
    """Masquerade passes cards face down: a score counted from every card leaked them."""
    session, game = new_session(seats=1)
    with session:
        session.start(game)
        pending = within(session.pending)
        me, other = pending.view.players
        assert me.score == game.score(game.players[0]) and other.score is None
        assert other.vp_tokens == 0
        assert score_lines(pending)[1].startswith("p2: score hidden, 0 VP tokens")
        within(play_through, session, random.Random(2))
        assert [p.score for p in within(session.view).players] == [
            score for _name, score in session.result().scores]
