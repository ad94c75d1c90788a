"""The main job (`kingdom demo`, run by `make run`): its per-turn lines come from the narrator."""

from __future__ import annotations

from kingdom.cli.main import main


def test_demo_compiles_everything_and_plays_a_game(capsys) -> None:
    assert main(["demo", "--seed", "3", "--lines", "5"]) == 0
    out = capsys.readouterr().out
    assert "177 cards compiled" in out
    assert "p1's turn 1: plays " in out and "Winner:" in out
