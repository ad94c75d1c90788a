"""`kingdom simulate --plot` writes a PNG of the running win rate and the game lengths."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdom.cli.main import main

pytest.importorskip("matplotlib")


def test_plot_is_a_png(tmp_path: Path, capsys) -> None:
    out = tmp_path / "plot.png"
    status = main(["simulate", "--kingdom", "Smithy", "--bots", "big-money,smithy-big-money",
                   "--games", "60", "--seed", "2", "--no-progress", "--plot", str(out)])
    assert status == 0
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000


def test_timeline_has_one_entry_per_game_in_order() -> None:
    from kingdom.compiler.build import builtin_library

    from kingdom.lab.roster import resolve_bot
    from kingdom.lab.simulate import Setup, simulate

    library = builtin_library()
    bots = [resolve_bot("big-money", library), resolve_bot("smithy-big-money", library)]
    setup = Setup(library, ["Smithy"], bots, players=2)
    one = simulate(setup, 40, seed=3, jobs=1)
    two = simulate(setup, 40, seed=3, jobs=2)
    assert len(one.timeline) == 40
    assert one.timeline == two.timeline
    assert sum(points[1] == 2 for points, _ in one.timeline) == one.bots[1].wins
