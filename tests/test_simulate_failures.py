"""A simulate run never hangs and never loses what finished: a game that raises, stalls or
kills its worker process is reported with its seed, the others still count; the generic bot
does not trash its way out of a game; --max-turns counts turns per player."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.game import GameStalled
from kingdom.runtime.setup import standard_game

from kingdom.cli.main import main
from kingdom.lab.bots import BigMoney, DefaultAgent
from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, game_seed, play_game, simulate

PARENT = os.getpid()
VICTIM = 300  # the game (of seed 1) in which the doomed bot's process dies


@pytest.fixture(scope="module")
def library():
    library, _ = compile_folders([BUILTIN_CARDS / "base"])
    return library


class DoomedBot:
    """Big Money, except in game VICTIM of seed 1 (seat 0 there: the game index is even),
    where its first Buy kills the worker process playing it (SIGKILL, as the out-of-memory
    killer does) or, played in the test's own process, raises."""

    name = "doomed"

    def agent(self, seed: int | None = None) -> BigMoney:
        return DoomedAgent() if seed == game_seed(1, VICTIM) else BigMoney()


class DoomedAgent(BigMoney):
    def buy(self, decision):
        if os.getpid() != PARENT:
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("doomed")


def without_failures(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("failures", "errored", "lost")}


def test_a_killed_worker_loses_only_its_game(library):
    setup = Setup(library, ["Smithy"], [DoomedBot(), resolve_bot("big-money", library)])
    start = time.monotonic()
    two = simulate(setup, games=600, seed=1, jobs=2)
    assert time.monotonic() - start < 120  # it ends (it used to wait forever)
    assert two.games == 599
    [lost] = two.failures
    assert (lost.index, lost.seed, lost.kind) == (VICTIM, game_seed(1, VICTIM), "lost")
    assert "SIGKILL" in lost.message
    # in one process the same game raises instead: reported, and the rest is the same
    one = simulate(setup, games=600, seed=1, jobs=1)
    [error] = one.failures
    assert (error.index, error.seed, error.kind) == (VICTIM, game_seed(1, VICTIM), "errored")
    assert "RuntimeError: doomed" in error.message
    assert without_failures(one.to_json(2)) == without_failures(two.to_json(2))


def test_cli_reports_the_lost_game_and_the_rest(library, monkeypatch, capsys):
    monkeypatch.setattr("kingdom.lab.roster.resolve_bot", lambda spec, _library: DoomedBot()
                        if spec == "doomed" else resolve_bot(spec, library))
    code = main(["simulate", "--kingdom", "Smithy", "--bots", "doomed,big-money", "--games", "600",
                 "--jobs", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    data = json.loads(out)
    assert data["games"] == 599 and data["lost"] == 1
    assert data["failures"][0]["seed"] == game_seed(1, VICTIM)
    assert f"game {VICTIM} (seed {game_seed(1, VICTIM)}) lost" in err


def test_a_turn_that_never_ends_is_stopped_and_named(tmp_path):
    (tmp_path / "boomerang.yaml").write_text(
        "dsl: 1\nname: Boomerang\ncost: 2\ntypes: [Action]\n"
        'play:\n  - "+1 action"\n  - "put this into your hand"\n')
    library, diagnostics = compile_folders([BUILTIN_CARDS / "base", tmp_path])
    assert not diagnostics
    # (the generic bot does not buy a card worth less than a Silver: this one buys it)
    bots = [resolve_bot("big-money+Boomerang*1", library), resolve_bot("big-money", library)]
    results = simulate(Setup(library, ["Boomerang"], bots, max_steps=5000), games=4, seed=2)
    assert results.games == 0 and len(results.failures) == 4
    for index, failure in enumerate(results.failures):
        assert (failure.index, failure.seed, failure.kind) == (index, game_seed(2, index), "stalled")
        assert "stopped while playing Boomerang" in failure.message


def test_a_card_that_raises_is_named_with_the_seed():
    library, _ = compile_folders([BUILTIN_CARDS / "base"])  # (its own: a card is changed)

    def broken(ctx):
        raise ValueError("broken card")

    library["Smithy"].on_play = broken
    bots = [resolve_bot("smithy-big-money", library), resolve_bot("big-money", library)]
    results = simulate(Setup(library, ["Smithy"], bots), games=20, seed=3)
    assert results.failures and results.games + len(results.failures) == 20
    for failure in results.failures:
        assert failure.kind == "errored" and failure.seed == game_seed(3, failure.index)
        assert failure.message == "ValueError: broken card (resolving Smithy)"


def test_the_step_budget_stops_game_run(library):
    game = standard_game(library, ["Smithy"], [BigMoney(), BigMoney()], seed=1)
    game.steps_left = 10
    with pytest.raises(GameStalled, match="used up its budget of steps"):
        game.run()


TRASHERS = ["Remodel", "Chapel", "Moneylender", "Mine", "Village", "Smithy", "Market",
            "Laboratory", "Festival", "Cellar"]
INTRIGUE_TRASHERS = ["Trading Post", "Upgrade", "Replace", "Steward", "Masquerade", "Courtyard",
                     "Remodel", "Village", "Great Hall", "Harem"]


@pytest.mark.parametrize("kingdom", [TRASHERS, INTRIGUE_TRASHERS], ids=["base", "intrigue"])
def test_the_generic_bot_never_trashes_its_way_out(kingdom):
    library, _ = compile_folders([BUILTIN_CARDS])
    bot = resolve_bot("default", library)
    setup = Setup(library, [library.resolve(n) for n in kingdom], [bot, bot], max_turns=100)
    from kingdom.lab.simulate import empty_results

    results = empty_results(setup)
    for index in range(150):
        game = play_game(setup, 4, index, results)
        assert game is not None and game.game_over, results.failures
        assert not [c for c in game.trash if c.d.is_victory and c.d.vp > 1], index
    assert results.unfinished == 0


@pytest.mark.parametrize(("seed", "kingdom"), [
    (8267396734603548888, ["Village", "Emissary", "Great Hall", "Remake", "Fairgrounds", "Importer",
                           "Secret Chamber", "Bauble", "Trading Post", "Soothsayer"]),
    (5755152487839577970, ["Infirmary", "Remake", "Cellar", "Upgrade", "Vassal", "Torturer",
                           "Workshop", "Joust", "Replace", "Bandit"]),
])
def test_remake_games_that_never_ended_now_end(seed, kingdom):
    library, _ = compile_folders([BUILTIN_CARDS])
    game = standard_game(library, kingdom, [DefaultAgent(), DefaultAgent()], seed=seed)
    game.run(max_turns=100)
    assert game.is_over()
    assert not [c for c in game.trash if c.d.name in ("Province", "Duchy")]


def test_max_turns_counts_turns_per_player(library, capsys):
    game = standard_game(library, [], [BigMoney(), BigMoney(), BigMoney()], seed=1)
    game.run(max_turns=4)
    assert [p.turns_taken for p in game.players] == [4, 4, 4] and not game.is_over()
    code = main(["simulate", "--kingdom", "Smithy", "--bots", "big-money,big-money",
                 "--games", "10", "--max-turns", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["unfinished"] == 10
    assert data["turns_per_player"] == {"mean": 5.0, "median": 5.0}
    assert len(data["unfinished_games"]) == 10


class NeverBuys(BigMoney):
    """Plays its Treasures and never buys: no turn of its games plays a card or buys one."""

    name = "never-buys"

    def buy(self, decision):
        return None

    def agent(self, seed: int | None = None) -> NeverBuys:
        return NeverBuys()


def test_turns_without_plays_or_buys_use_up_the_step_budget(library):
    """Turns that play and buy nothing cost no steps, so `--max-turns 1000000000` with such bots
    ran for hours; a turn is a step now. (The alarm stops the test if it hangs.)"""
    def hang(signum, frame):
        raise TimeoutError("the game did not stop")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(120)
    try:
        setup = Setup(library, ["Smithy"], [NeverBuys(), NeverBuys()], max_turns=10**9)
        results = simulate(setup, games=1, seed=1)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    [failure] = results.failures
    assert failure.kind == "stalled" and "stopped while starting a turn" in failure.message


def test_max_turns_is_bounded(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["simulate", "--kingdom", "Smithy", "--max-turns", "1000000000", "--games", "1"])
    assert exit.value.code == 2
    assert "--max-turns: expected a whole number from 1 to 10,000" in capsys.readouterr().err


@pytest.mark.parametrize("fault", ["doubles", "loses", "makes"])
def test_a_game_whose_cards_are_doubled_lost_or_made_is_no_result_without_the_full_check(fault):
    """Without --check-invariants such games were in the figures, silently wrong: every game
    counts its cards at the end now (invariants.CardCount) and leaves such a game out."""
    library, _ = compile_folders([BUILTIN_CARDS / "base"])  # (its own: a card is changed)

    def broken(ctx):
        hand = ctx.player.hand
        if fault == "doubles":
            hand.append(hand[0])
        elif fault == "loses":
            hand.pop()
        else:
            hand.append(ctx.game.new_card(library["Gold"]))

    library["Smithy"].on_play = broken
    bots = [resolve_bot("smithy-big-money", library), resolve_bot("big-money", library)]
    results = simulate(Setup(library, ["Smithy"], bots), games=20, seed=3)
    assert results.violations and results.games + len(results.violations) == 20
    said = {"doubles": "is both in", "loses": "cards where the game was set up with",
            "makes": "was created during the game"}[fault]
    assert all(said in v and "at the end of the game" in v for v in results.violations)
