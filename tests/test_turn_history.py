"""Turn history: buys are listed only in a game whose cards count them, and the counted
phrases refuse events the turn does not list (K360) or a number unlike the descriptions
(K361)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from kingdom.cli.main import main
from kingdom.scenarios.runner import build_game, library_for, run_step

CARDS = Path(__file__).parent / "dsl-cards"


def test_a_game_whose_cards_count_no_buys_lists_none() -> None:
    game = build_game({"kingdom": ["Smithy", "Merchant"], "setup": {"p1": {"coins": 3}}},
                      library_for([CARDS]))
    run_step(game, {"buy": "Silver"})
    assert game.bought_this_turn is None


def test_a_card_counting_buys_makes_the_game_list_them_for_the_turn() -> None:
    game = build_game({"kingdom": ["Buy Ledger"], "setup": {"p1": {"coins": 5, "buys": 2}}},
                      library_for([CARDS]))
    run_step(game, {"buy": "Silver"})
    run_step(game, {"buy": "Estate"})
    assert [card.d.name for _who, card in game.bought_this_turn] == ["Silver", "Estate"]
    run_step(game, {"end_turn": True})
    assert game.bought_this_turn == []  # a new turn, a new list


def _check(tmp_path: Path, play: str) -> str:
    (tmp_path / "card.yaml").write_text(
        f'dsl: 1\nname: Probe\ncost: 3\ntypes: [Action]\nplay:\n  - "{play}"\n',
        encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(tmp_path)]) == 1
    return err.getvalue()


def test_the_nth_time_of_an_event_the_turn_does_not_list_is_refused(tmp_path: Path) -> None:
    report = _check(tmp_path, "this turn, the second time you trash a card: +$1")
    assert "error[K360]" in report
    assert "only plays, gains and buys are counted" in report


def test_gaining_two_cards_with_three_descriptions_is_refused(tmp_path: Path) -> None:
    report = _check(tmp_path, "trash a card from your hand; gain two cards, one costing "
                              "exactly $1 more than it and one costing exactly $2 more than it "
                              "and one costing exactly $3 more than it")
    assert "error[K361]" in report
    assert "lists 3 descriptions" in report
