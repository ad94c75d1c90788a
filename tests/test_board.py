"""The full-screen board of `kingdom play` (kingdom/table/board.py), driven by Textual's test
pilot in a headless terminal: a whole game played to its end by typing answers, the board
showing the Supply with costs and counts, the hand, the log and the decision on the way; the
answer line's completion and history."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kingdom.compiler.build import builtin_library

from kingdom.lab.roster import resolve_bot
from kingdom.table.board import Answer, Board
from kingdom.table.play import Table, Terminal
from kingdom.table.save import Record

LIBRARY = builtin_library()
KINGDOM = ["Militia", "Moat", "Cellar", "Young Witch", "Wizards"]


def terminal(tmp_path: Path) -> Terminal:
    record = Record(KINGDOM, ["big-money", "big-money"], seed=11, bane="Farrier")
    bots = [resolve_bot("big-money", LIBRARY) for _ in record.bots]
    table = Table(LIBRARY, record, bots, plain=False)
    return Terminal(table, tmp_path / "game.json", input, lambda _text, _style: None)


def shown(board: Board, widget: str) -> str:
    return str(board.query_one(widget).render())


def answer_for(board: Board) -> str:
    """A plain player: every Treasure, the dearest card it can buy, the fewest cards it may
    pick; the first choice otherwise."""
    pending = board.pending
    if pending.kind == "treasures":
        return "all"
    if pending.kind == "buy":
        costs = {p.name: p.cost for p in pending.view.supply}
        return max(pending.options, key=lambda name: (costs.get(name) or 0, name))
    if pending.kind == "number":
        return "all"
    if pending.kind == "cards":  # (the first cards listed, as many as must be picked)
        return ", ".join(pending.options[:pending.min]) or "0"
    return "1"


def test_a_whole_game_is_played_on_the_board(tmp_path: Path) -> None:
    async def play() -> tuple[Board, list[str]]:
        board = Board(terminal(tmp_path))
        seen: list[str] = []
        async with board.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            supply = shown(board, "#supply-text")
            seen.append(supply)
            assert "$3  40  Silver" in supply and "$8  12  Province" in supply
            assert "Wizards (Student on top)" in supply and "Farrier (Bane)" in supply
            assert "Not in the Supply" not in supply or "Coronet" in supply
            assert shown(board, "#you-text").startswith("Hand: ")
            assert "Play Treasures" in shown(board, "#decision-text")
            assert any("p1's turn 1." in str(line.text) for line in board.query_one("#log").lines) \
                or board.terminal.shown > 0
            answer = board.query_one(Answer)
            for _ in range(400):
                if board.over:
                    break
                answer.value = answer_for(board)
                await pilot.press("enter")
                await pilot.pause()
            assert board.over, "the game did not end in 400 answers"
            seen.append(shown(board, "#decision-text"))
            await pilot.press("enter")  # (the board closes)
        return board, seen

    board, seen = asyncio.run(play())
    assert "The game is over" in seen[-1]
    said = [line.text for line in board.table.narrator.lines]
    assert any(t.startswith("The game ends: ") for t in said)
    assert any(t.startswith("p1's final deck, ") for t in said)


def test_the_answer_line_completes_names_and_keeps_a_history(tmp_path: Path) -> None:
    async def type_in() -> tuple[str, str, str]:
        board = Board(terminal(tmp_path))
        async with board.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            await pilot.press("c", "o", "p")
            await pilot.pause()
            await pilot.press("tab")
            completed = board.query_one(Answer).value
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("up")
            recalled = board.query_one(Answer).value
            log = "\n".join(str(line.text) for line in board.query_one("#log").lines)
        return completed, recalled, log

    completed, recalled, log = asyncio.run(type_in())
    assert completed == "Copper" and recalled == "Copper"
    assert "p1 plays Copper." in log
