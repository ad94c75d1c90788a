"""`kingdom play` from a script feeding its standard input: a full game to its end, the same
game resumed from its save file midway, bad input re-asked, end of input and Ctrl-C saving;
and the Python API example."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kingdom.runtime.stepwise import Pending

from kingdom.table.answers import AnswerError, choices, how_to_answer, parse
from kingdom.table.play import Record, SaveError

ROOT = Path(__file__).resolve().parent.parent
GAME = ["--kingdom", "Smithy,Village,Militia,Moat,Cellar", "--bots", "big-money,big-money",
        "--seed", "4"]


def kingdom_play(*args: str, feed: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kingdom", "play", *args], input=feed,
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def ending(out: str) -> list[str]:
    return [line for line in out.splitlines() if "Game over" in line or line.endswith("wins.")]


def test_a_full_game_is_played_to_its_end_and_resumed_midway_the_same(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    done = kingdom_play(*GAME, "--save", str(whole), feed="1\n" * 3000)
    assert done.returncode == 0, done.stderr
    final = ending(done.stdout)
    assert final and final[0].startswith("Game over. Scores: p1 ")
    answers = json.loads(whole.read_text())["answers"]

    half = tmp_path / "half.json"
    stopped = kingdom_play(*GAME, "--save", str(half), feed="1\n" * (len(answers) // 2))
    assert stopped.returncode == 0
    assert f"continue it with: kingdom play --resume {half}" in stopped.stdout
    assert len(json.loads(half.read_text())["answers"]) == len(answers) // 2
    resumed = kingdom_play("--resume", str(half), feed="1\n" * 3000)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed after" in resumed.stdout
    assert ending(resumed.stdout) == final
    assert json.loads(half.read_text())["answers"] == answers


def test_bad_answers_are_re_asked_and_undo_goes_back(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run = kingdom_play(*GAME, "--save", str(save), feed="banana\n9\n?\n? smithy\nhand\n1\n1\n"
                       "undo\n")
    assert run.returncode == 0
    out = run.stdout
    assert "Not accepted: 'banana' is not a choice: answer 1 to 1 or a name (Copper)" in out
    assert "Not accepted: there is no choice 9" in out
    assert "Smithy (4 coins; Action): plus 3 Cards" in out  # (plain: words only)
    assert "Undone: back to your previous decision." in out
    assert "Commands: a number or name answers" in out and "\\n" not in out  # help on its lines
    assert json.loads(save.read_text())["answers"] == [["Copper"]]


def test_ctrl_c_saves_and_says_how_to_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    proc = subprocess.Popen([sys.executable, "-m", "kingdom", "play", *GAME, "--save",
                             str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    proc.stdin.write("1\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (save.exists() and json.loads(
            save.read_text() or "{}").get("answers")):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"continue it with: kingdom play --resume {save}" in out
    assert json.loads(save.read_text())["answers"] == [["Copper"]]


def test_a_bad_save_file_is_refused_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kingdom-play", "version": 2, "setup": {"kingdom": "Smithy"}, '
                   '"digest": "d99fc6177c8975c9fdca4c03fca5cd9b31b0cfff0b5ed2a779946d3372eb0192", '
                   '"answers": []}')
    run = kingdom_play("--resume", str(bad))
    assert run.returncode == 2 and "setting 'kingdom': expected a list of texts" in run.stderr
    bad.write_text("{nope")
    with pytest.raises(SaveError, match=r"bad.json:1:2: not a save file"):
        Record.load(bad)
    run = kingdom_play("--resume", str(bad), "--bots", "default")
    assert run.returncode == 2 and "--resume continues the saved game" in run.stderr


def pending(kind: str, options: tuple, low: int = 1, high: int = 1) -> Pending:
    return Pending("p1", kind, "Pick", options, low, high, False, None, None, None)


def test_answers_by_number_name_prefix_and_lists() -> None:
    buy = pending("buy", ("Copper", "Silver", "Smithy"), 0)
    assert parse(buy, "2") == "Silver" and parse(buy, "SMI") == "Smithy" and parse(buy, "0") is None
    with pytest.raises(AnswerError, match="could be Silver, Smithy"):
        parse(buy, "s")
    cards = pending("cards", ("Copper", "Estate", "Copper"), 0, 3)
    assert parse(cards, "copper, copper") == ["Copper", "Copper"]
    assert parse(cards, "1 1") == ["Copper", "Copper"] and parse(cards, "all") == list(cards.options)
    assert parse(cards, "2 copper, estate") == ["Copper", "Copper", "Estate"]
    assert [c.label for c in choices(cards)] == ["Copper (2)", "Estate"]  # identical cards grouped
    with pytest.raises(AnswerError, match="there are only 2 Copper"):
        parse(cards, "1, 1, 1")
    order = pending("order", ("Gold", "Copper", "Estate"))
    assert parse(order, "3") == ["Estate", "Gold", "Copper"]
    assert parse(pending("yes_no", (True, False)), "n") is False
    number = pending("number", (0, 1, 2))
    assert parse(number, "2") == 2 and parse(number, "all") == 2 and parse(number, "0") == 0
    assert choices(number) == []  # (typed as itself: "1" is one, never the first line)
    with pytest.raises(AnswerError, match="did you mean Smithy"):
        parse(buy, "smthy")


def test_the_hint_promises_only_what_is_accepted() -> None:
    two = pending("cards", ("Copper", "Estate", "Silver"), 2, 2)
    hint = how_to_answer(two)
    assert "'all'" not in hint and "0 for none" not in hint
    for refused in ("all", "0"):
        with pytest.raises(AnswerError):
            parse(two, refused)
    up_to = pending("cards", ("Copper", "Estate"), 0, 2)
    assert "'all' or 0 for none" in how_to_answer(up_to)
    assert parse(up_to, "all") == ["Copper", "Estate"] and parse(up_to, "0") == []


def test_the_api_example_plays_a_full_game() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "play_api.py")],
                         capture_output=True, text=True, timeout=120, env={**os.environ})
    assert run.returncode == 0, run.stderr
    assert "Game over. Scores: p1 " in run.stdout and "Winners: " in run.stdout
