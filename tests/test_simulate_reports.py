"""`kingdom simulate`'s setup choices, random Kingdoms, CSV rows, charts and Dask cluster."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from kingdom.compiler.build import builtin_library

from kingdom.cli.main import main
from kingdom.lab.cluster import ClusterError, RunSpec, build_setup, simulate_on_cluster
from kingdom.lab.results import write_csv
from kingdom.lab.simulate import game_seed, random_kingdom, simulate

LIBRARY = builtin_library()
CHOSEN = ["--kingdom", "Young Witch,Ferryman,Smithy", "--bots", "big-money,smithy-big-money",
          "--bane", "moat", "--ferryman", "Village", "--ally", "City-state", "--colonies",
          "--games", "20", "--seed", "4", "--no-progress"]


def test_setup_choices_in_json(capsys) -> None:
    assert main(["simulate", *CHOSEN, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["setup"] == {"colonies": True, "ally": "City-state", "bane": "Moat",
                             "ferryman": "Village", "sets": None}
    assert data["setups_drawn"] == {"Ally": {"City-state": 20}, "Bane": {"Moat": 20},
                                    "Ferryman": {"Village": 20}}


def test_setup_choices_in_table(capsys) -> None:
    assert main(["simulate", *CHOSEN]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("Setup: Colonies yes; Ally City-state (drawn: City-state 100%); Bane Moat (drawn: "
            "Moat 100%); Ferryman Village (drawn: Village 100%)") in out


def test_piped_tables_are_written_whole(capsys, monkeypatch) -> None:
    """To a file or pipe, no line is cropped to a terminal's width (nor rich's 80)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    bots = "big-money+Laboratory*2,big-money+Witch*2"
    assert main(["simulate", "--kingdom", "Laboratory,Witch", "--bots", bots, "--games", "4",
                 "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out and "big-money+Laboratory*2 │ Laboratory" in out
    assert max(len(line) for line in out.splitlines()) > 80


def test_setup_choices_reach_the_games() -> None:
    spec = RunSpec(("big-money",), ("Young Witch", "Ferryman"), colonies=True, ally=None,
                   choices=(("bane", "Moat"), ("ferryman", "Village")))
    setup = build_setup(spec, LIBRARY)
    game = setup.start(list(spec.kingdom), [setup.bots[0].agent(1)] * 2, 1)
    assert {"Platinum", "Colony", "Moat", "Village"} <= set(game.piles) and game.ally is None
    assert "Bane" in game.piles["Moat"].roles and not game.piles["Village"].in_supply
    plain = build_setup(RunSpec(("big-money",), ("Smithy",)), LIBRARY)
    assert "Colony" not in plain.start(["Smithy"], [plain.bots[0].agent(1)] * 2, 1).piles


def test_bad_setup_choices_are_usage_errors(capsys) -> None:
    assert main(["simulate", "--kingdom", "Smithy", "--ally", "Smithy", "--games", "1"]) == 2
    assert main(["simulate", "--kingdom", "Smithy", "--bane", "Moat,Village", "--games", "1"]) == 2
    assert main(["simulate", "--kingdom", "random", "--sets", "nosuch", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "Smithy" in err and "--bane: give one Kingdom card" in err
    assert "unknown set 'nosuch'" in err


def test_random_kingdoms_hold_split_piles_and_draw_setup_piles_from_their_sets(capsys) -> None:
    deal = random_kingdom(LIBRARY, ("allies",))
    dealt = [pile for seed in range(40) for pile in deal(seed)]
    assert set(dealt) & set(LIBRARY.split_piles)
    assert main(["simulate", "--kingdom", "random", "--sets", "cornucopia-guilds", "--games",
                 "150", "--seed", "1", "--json", "--bots", "default,big-money"]) == 0
    drawn = json.loads(capsys.readouterr().out)["setups_drawn"]
    assert drawn["Bane"] and drawn["Ferryman"]
    for piles in (drawn["Bane"], drawn["Ferryman"]):
        assert {LIBRARY[name].set for name in piles} == {"cornucopia-guilds"}


def test_csv_has_a_row_per_game_and_player(tmp_path: Path, capsys) -> None:
    out = tmp_path / "games.csv"
    assert main(["simulate", "--kingdom", "Smithy", "--bots", "big-money,smithy-big-money",
                 "--games", "30", "--seed", "2", "--json", "--csv", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 60 and [r["game"] for r in rows[:4]] == ["0", "0", "1", "1"]
    assert rows[0]["seed"] == str(game_seed(2, 0)) and rows[0]["bot"] == "Big Money"
    assert rows[2]["bot"] == "Smithy Big Money"  # seats rotate
    for bot in data["bots"]:
        mine = [r for r in rows if r["bot"] == bot["name"]]
        assert sum(r["result"] == "won" for r in mine) == bot["wins"]
        assert sum(r["result"] == "tied" for r in mine) == bot["ties"]
        assert sum(int(r["score"]) for r in mine) == round(bot["average_score"] * 30)
        provinces = sum(int(r["bought Province"]) for r in mine)
        assert provinces == round(bot["cards"]["Province"]["bought_per_game"] * 30)


def test_details_are_recorded_only_when_asked() -> None:
    spec = RunSpec(("big-money", "smithy-big-money"), ("Smithy",))
    plain = simulate(build_setup(spec, LIBRARY), 20, seed=5)
    assert not plain.rows and not plain.turn_figures and not plain.bought_by_turn
    detailed = simulate(build_setup(RunSpec(spec.bots, spec.kingdom, detail=True), LIBRARY), 20,
                        seed=5)
    assert detailed.bots == plain.bots and detailed.timeline == plain.timeline
    assert detailed.turn_figures[0][1][0] == 20  # every game had turn 1 of each bot
    smithies = sum(n for (_turn, card), n in detailed.bought_by_turn[1].items() if card == "Smithy")
    assert smithies == plain.bots[1].bought["Smithy"]
    text = io.StringIO()
    write_csv(detailed, text)
    assert text.getvalue().splitlines()[0].startswith("game,seed,seat,bot,score,turns,result,")


def test_plot_has_the_per_turn_charts(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "charts.png"
    assert main(["simulate", "--kingdom", "Smithy", "--bots", "big-money,smithy-big-money",
                 "--games", "40", "--no-progress", "--plot", str(out)]) == 0
    from matplotlib import image

    height, width = image.imread(out).shape[:2]
    assert width > 900 and height > 900  # four panels of figures and one per bot


def test_cluster_gives_the_results_of_one_process() -> None:
    distributed = pytest.importorskip("distributed")
    spec = RunSpec(("big-money", "smithy-big-money"), ("Smithy", "Young Witch"), detail=True)
    local = simulate(build_setup(spec, LIBRARY), 200, seed=3)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        remote = simulate_on_cluster(cluster.scheduler_address, spec, 200, seed=3)
    assert remote == local and remote.games == 200 and len(remote.rows) == 400
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        missing = RunSpec(("no-such-bot",), ("Smithy",))
        with pytest.raises(ClusterError, match="a worker could not play its games"):
            simulate_on_cluster(cluster.scheduler_address, missing, 10)


def test_unreachable_cluster_is_a_quick_clear_error(capsys) -> None:
    pytest.importorskip("distributed")
    start = time.perf_counter()
    with pytest.raises(ClusterError, match=r"cannot reach a Dask scheduler at tcp://127\.0\.0\.1:1 "):
        simulate_on_cluster("tcp://127.0.0.1:1", RunSpec(("big-money",), ("Smithy",)), 10,
                            timeout=1)
    assert time.perf_counter() - start < 5
    assert main(["simulate", "--kingdom", "Smithy", "--games", "5", "--cluster", "not an address",
                 "--no-progress"]) == 2
    assert "--cluster:" in capsys.readouterr().err


@contextmanager
def stopped_worker(cluster, client, which: int = 0):
    """One worker process of `cluster` stopped with SIGSTOP (registered, silent), until the end."""
    pids = client.run(os.getpid)
    address = sorted(pids)[which]
    os.kill(pids[address], signal.SIGSTOP)
    try:
        yield address
    finally:
        os.kill(pids[address], signal.SIGCONT)


@contextmanager
def alarm(seconds: int):
    """A hang is an error after `seconds` (the run must give up or finish well before)."""
    def expire(signum, frame):
        raise TimeoutError(f"the run did not end within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_stopped_worker_is_given_up_on_naming_its_ranges_or_its_games_played_elsewhere() -> None:
    """A registered worker that stops answering (SIGSTOP) passed wait_for_workers, and the run
    waited for it forever. Now its ranges are played again on the other workers after
    --task-timeout; with no other worker the run stops, naming the ranges still out."""
    distributed = pytest.importorskip("distributed")
    spec = RunSpec(("big-money", "smithy-big-money"), ("Smithy",))
    local = simulate(build_setup(spec, LIBRARY), 1000, seed=3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with stopped_worker(cluster, client), alarm(300):
            remote = simulate_on_cluster(cluster.scheduler_address, spec, 1000, seed=3,
                                         task_timeout=45)  # (a worker compiles the cards first)
        assert remote == local
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with stopped_worker(cluster, client) as address, alarm(300):
            start = time.monotonic()
            with pytest.raises(ClusterError) as error:
                simulate_on_cluster(cluster.scheduler_address, spec, 600, seed=3, task_timeout=3)
            assert time.monotonic() - start < 120
        assert f"no range of games came back within 3 s; games 0-249, 250-499, 500-599 are " \
               f"still out (on {address})" in str(error.value)
