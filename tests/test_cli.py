"""The main job (`kingdom demo`, run by `make run`) and the per-turn log summary."""

from __future__ import annotations

from kingdom.cli import main, turn_summaries


def test_demo_compiles_everything_and_plays_a_game(capsys) -> None:
    assert main(["demo", "--seed", "3", "--lines", "5"]) == 0
    out = capsys.readouterr().out
    assert "177 cards compiled" in out
    assert "turn 1 p1:" in out and "Winner:" in out


def test_turn_summaries_collapse_repeats_and_bought_gains() -> None:
    log = ["-- turn 1: p1", "p1 plays Copper", "p1 plays Copper", "p1 buys Silver for $2",
           "p1 gains Silver", "p2 gains Curse", "-- turn 2: p2"]
    assert turn_summaries(log) == [
        "turn 1 p1: plays Copper x2; buys Silver for $2; p2 gains Curse",
        "turn 2 p2: nothing",
    ]
