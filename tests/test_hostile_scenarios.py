"""Malformed scenario files (tests/hostile/scenarios/, one case a file) fail cleanly.

Each is run through `kingdom test` in its own process: it must fail with the expected code at
the expected position, exit 1, print the summary, print no traceback and take under 2 s of
CPU time (a hang is killed after a minute). A
folder of all of them beside one good scenario still runs the good one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).parent / "hostile" / "scenarios"
# unreadable files: this module's K500, or the loader's own codes once it refuses them itself

# file -> (code pattern, line, column, text the message contains)
CASES: dict[str, tuple[str, int, int, str]] = {
    "empty.yaml": ("K501", 1, 1, "the file holds nothing"),
    "comment-only.yaml": ("K501", 1, 1, "the file holds nothing"),
    "empty-list.yaml": ("K501", 1, 1, "the file holds nothing"),
    "scalar-number.yaml": ("K501", 1, 1, "not a number"),
    "scalar-text.yaml": ("K501", 1, 1, "not text"),
    "list-of-numbers.yaml": ("K501", 1, 2, "a scenario is a mapping"),
    "bad-yaml.yaml": ("K100", 2, 6, "invalid YAML"),
    "binary.yaml": ("K105", 1, 1, "not UTF-8 text"),
    "deep-nesting.yaml": ("K107", 2, 27, "nested too deeply"),
    "seed-5000-digits.yaml": ("K112", 2, 7, "number too long"),
    "missing-name.yaml": ("K503", 1, 1, "missing required key 'name'"),
    "name-number.yaml": ("K504", 1, 7, "name: 5 is not valid here"),
    "name-empty.yaml": ("K505", 1, 7, "name: '' is out of range"),
    "name-list.yaml": ("K504", 1, 7, 'name: ["a", "b"] is not valid here'),
    "name-mapping.yaml": ("K504", 1, 7, 'name: {"a": 1} is not valid here'),
    "name-surrogate.yaml": ("K116", 1, 13, "lone surrogate (half of a character) U+D800"),
    "name-escape.yaml": ("K116", 1, 8, "the control character U+001B"),
    "step-number.yaml": ("K504", 2, 9, "steps.0: 5 is not valid here"),
    "expect-number-key.yaml": ("K502", 2, 10, "unknown key '5' (a number; the keys of a scenario "
                               "are names)"),
    "duplicate-names.yaml": ("K508", 2, 9, "another scenario in this file is named 'twice'"),
    "players-text.yaml": ("K504", 2, 10, "players: 'two' is not valid here"),
    "players-huge.yaml": ("K505", 2, 10, "players: 1000000000 is out of range; expected the "
                          "number of players, 2 to 6"),
    "players-one.yaml": ("K505", 2, 10, "players: 1 is out of range"),
    "kingdom-text.yaml": ("K504", 2, 10, "kingdom: 'Village' is not valid here"),
    "kingdom-number-item.yaml": ("K504", 2, 20, "kingdom.1: 5 is not valid here; expected a card name"),
    "kingdom-null.yaml": ("K504", 2, 9, "kingdom: null is not valid here"),
    "kingdom-unknown-card.yaml": ("K507", 2, 11, "unknown card or pile 'Vilage'"),
    "ally-list.yaml": ("K504", 2, 7, "ally: [\"Band of Nomads\"] is not valid here"),
    "ally-unknown.yaml": ("K507", 2, 7, "unknown card 'Band of Nomds'"),
    "bane-number.yaml": ("K504", 2, 7, "bane: 3 is not valid here"),
    "bane-unknown.yaml": ("K507", 3, 7, "unknown card 'Moot'"),
    "colonies-text.yaml": ("K504", 2, 11, "colonies: 'maybe' is not valid here; expected true or false"),
    "seed-list.yaml": ("K504", 2, 7, "seed: [1] is not valid here; expected a whole number"),
    "seed-text.yaml": ("K504", 2, 7, "seed: 'abc' is not valid here"),
    "expansions-text.yaml": ("K504", 2, 13, "expansions: 'my-set' is not valid here"),
    "expansions-missing-folder.yaml": ("K509", 2, 14, "expansion folder 'no-such-folder' not found"),
    "setup-number.yaml": ("K504", 2, 8, "setup: 5 is not valid here"),
    "setup-list.yaml": ("K504", 2, 8, "setup: [\"p1\"] is not valid here"),
    "setup-typo-standard.yaml": ("K504", 2, 8, "setup: 'standrd' is not valid here; expected 'standard'"),
    "setup-p9.yaml": ("K506", 3, 3, "no player 'p9'"),
    "setup-p0.yaml": ("K506", 3, 3, "no player 'p0'"),
    "setup-p-1.yaml": ("K506", 3, 3, "no player 'p-1'"),
    "setup-p3-of-two.yaml": ("K506", 3, 3, "setup.p3: this scenario has 2 players (p1 to p2), not p3"),
    "setup-player-null.yaml": ("K504", 3, 6, "setup.p1: null is not valid here"),
    "setup-player-typo.yaml": ("K502", 3, 8, "unknown key 'hnad'"),
    "setup-player-number-key.yaml": ("K502", 3, 8, "unknown key '1'"),
    "setup-players-misplaced.yaml": ("K502", 3, 3, "unknown key 'players'"),
    "turn-p0.yaml": ("K506", 3, 9, "setup.turn: 'p0' is not a player"),
    "turn-p-1.yaml": ("K506", 3, 9, "setup.turn: 'p-1' is not a player"),
    "turn-number.yaml": ("K504", 3, 9, "setup.turn: 1 is not valid here; expected a player"),
    "turn-p3-of-two.yaml": ("K506", 3, 9, "setup.turn: this scenario has 2 players"),
    "hand-text.yaml": ("K504", 4, 11, "setup.p1.hand: 'Copper' is not valid here"),
    "hand-number.yaml": ("K504", 4, 11, "setup.p1.hand: 5 is not valid here"),
    "hand-huge-count.yaml": ("K505", 4, 20, "setup.p1.hand.Copper: 100000000 is out of range; "
                             "expected a whole number from 0 to 500"),
    "hand-negative-count.yaml": ("K505", 4, 20, "setup.p1.hand.Copper: -1 is out of range"),
    "hand-count-text.yaml": ("K504", 4, 20, "setup.p1.hand.Copper: 'many' is not valid here"),
    "hand-unknown-card.yaml": ("K507", 4, 20, "unknown card 'Coper'"),
    "hand-too-many.yaml": ("K505", 4, 11, "setup.p1.hand: 501 entries is out of range"),
    "hand-nested-list.yaml": ("K504", 4, 12, "setup.p1.hand.0: [\"Copper\"] is not valid here"),
    "deck-unknown-card-count.yaml": ("K507", 4, 12, "unknown card 'Sliver'"),
    "discard-number.yaml": ("K504", 4, 14, "setup.p1.discard: 3 is not valid here"),
    "favors-text.yaml": ("K504", 4, 13, "setup.p1.favors: 'lots' is not valid here"),
    "favors-negative.yaml": ("K505", 4, 13, "setup.p1.favors: -2 is out of range"),
    "coins-huge.yaml": ("K505", 4, 12, "setup.p1.coins: 1000000000000 is out of range"),
    "actions-list.yaml": ("K504", 4, 14, "setup.p1.actions: [1] is not valid here"),
    "supply-list.yaml": ("K504", 3, 11, "setup.supply: [\"Province\"] is not valid here"),
    "supply-unknown-pile.yaml": ("K507", 3, 12, "unknown pile 'Provnice'"),
    "supply-negative.yaml": ("K505", 3, 22, "setup.supply.Province: -1 is out of range"),
    "supply-huge.yaml": ("K505", 3, 20, "setup.supply.Copper: 100000000 is out of range"),
    "trash-number.yaml": ("K504", 3, 10, "setup.trash: 3 is not valid here"),
    "steps-mapping.yaml": ("K504", 2, 8, "steps: {\"play\": \"Village\"} is not valid here"),
    "step-scalar.yaml": ("K504", 2, 9, "steps.0: 'Village' is not valid here"),
    "step-no-move.yaml": ("K501", 3, 5, "steps.0: no move"),
    "step-two-moves.yaml": ("K501", 3, 5, "steps.0: more than one move (play, buy)"),
    "step-typo.yaml": ("K502", 3, 5, "unknown key 'paly'"),
    "play-number.yaml": ("K504", 3, 11, "steps.0.play: 5 is not valid here"),
    "play-mapping.yaml": ("K504", 3, 11, "steps.0.play: {\"Village\": 2} is not valid here"),
    "buy-list.yaml": ("K504", 3, 10, "steps.0.buy: [\"Silver\"] is not valid here"),
    "overpay-without-buy.yaml": ("K503", 3, 5, "'overpay' goes with 'buy'"),
    "overpay-negative.yaml": ("K505", 3, 28, "steps.0.overpay: -1 is out of range"),
    "coffers-text.yaml": ("K504", 3, 14, "steps.0.coffers: 'all' is not valid here"),
    "end-turn-false.yaml": ("K504", 3, 15, "steps.0.end_turn: false is not valid here; expected true"),
    "end-turn-text.yaml": ("K504", 3, 15, "steps.0.end_turn: 'now' is not valid here"),
    "gain-player-p9.yaml": ("K506", 3, 28, "steps.0.player: 'p9' is not a player"),
    "gain-player-p3-of-two.yaml": ("K506", 3, 28, "steps.0.player: this scenario has 2 players"),
    "player-without-gain.yaml": ("K503", 3, 5, "'player' goes with 'gain'"),
    "answers-text.yaml": ("K504", 4, 14, "steps.0.answers: 'Copper' is not valid here"),
    "answers-p0.yaml": ("K506", 4, 15, "no player 'p0'"),
    "answers-nested-mapping.yaml": ("K502", 4, 16, "unknown key 'a'"),
    "error-number.yaml": ("K504", 4, 12, "steps.0.error: 5 is not valid here"),
    "expect-list.yaml": ("K504", 2, 9, "expect: [\"p1\"] is not valid here"),
    "expect-typo-discard-count.yaml": ("K502", 4, 5, "unknown key 'discrad_count'"),
    "expect-typo-trash.yaml": ("K502", 3, 3, "unknown key 'trsh'"),
    "expect-p9.yaml": ("K506", 3, 3, "no player 'p9'"),
    "expect-p3-of-two.yaml": ("K506", 3, 3, "expect.p3: this scenario has 2 players"),
    "expect-hand-count-text.yaml": ("K504", 4, 17, "expect.p1.hand_count: 'five' is not valid here"),
    "expect-hand-count-negative.yaml": ("K505", 4, 17, "expect.p1.hand_count: -1 is out of range"),
    "expect-game-over-text.yaml": ("K504", 3, 14, "expect.game_over: 'yes please' is not valid here"),
    "expect-winner-p0.yaml": ("K506", 3, 11, "expect.winner: 'p0' is not a player"),
    "expect-winner-number.yaml": ("K504", 3, 11, "expect.winner: 1 is not valid here"),
    "expect-turn-p7.yaml": ("K506", 3, 9, "expect.turn: 'p7' is not a player"),
    "expect-supply-text.yaml": ("K504", 3, 22, "expect.supply.Province: 'some' is not valid here"),
    "expect-supply-unknown-pile.yaml": ("K507", 3, 12, "unknown pile 'Provnice'"),
    "expect-top-unknown-pile.yaml": ("K507", 3, 9, "unknown pile 'Tydes'"),
    "expect-score-text.yaml": ("K504", 4, 12, "expect.p1.score: 'high' is not valid here"),
    "top-level-typo-list.yaml": ("K502", 2, 1, "unknown key 'kingdon'"),
    "top-level-typo-text.yaml": ("K502", 2, 1, "unknown key 'aly'"),
}

# hints that must follow the error (did-you-mean and the like)
HINTS = {
    "expect-typo-discard-count.yaml": "did you mean 'discard_count'?",
    "expect-typo-trash.yaml": "did you mean 'trash'?",
    "setup-player-typo.yaml": "did you mean 'hand'?",
    "step-typo.yaml": "did you mean 'play'?",
    "top-level-typo-list.yaml": "did you mean 'kingdom'?",
    "top-level-typo-text.yaml": "did you mean 'ally'?",
    "hand-unknown-card.yaml": "did you mean 'Copper'?",
    "setup-players-misplaced.yaml": "'players' belongs at the top level",
    "setup-p3-of-two.yaml": "add 'players: 3'",
}

GOOD = """\
- name: Village gives two Actions
  kingdom: [Village]
  setup:
    p1:
      hand: [Village]
      deck: [Copper]
  steps:
    - play: Village
  expect:
    p1:
      hand: [Copper]
      actions: 2
"""


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    cpu_seconds: float  # the process's own CPU time: a fair measure on a loaded machine


def kingdom(*args: str | Path) -> Run:
    """`kingdom ARGS...` in a process of its own, killed if it runs past a minute."""
    command = [sys.executable, "-m", "kingdom", *map(str, args)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, text=True)
        killer = threading.Timer(60, process.kill)
        killer.start()
        _, status, usage = os.wait4(process.pid, 0)
        killer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(process.returncode, out.read(), err.read(), usage.ru_utime + usage.ru_stime)


def kingdom_test(*paths: Path) -> Run:
    return kingdom("test", *paths)


def simulate_with(bot: Path | str) -> Run:
    return kingdom("simulate", "--kingdom", "Smithy", "--bots", f"{bot},big-money", "--games", "1",
                   "--no-progress")


@cache
def runs(kind: str) -> dict[str, Run]:
    """Every case of a kind run once (two at a time: the test machine has two cores)."""
    cases, folder, command = {"scenarios": (CASES, HOSTILE, kingdom_test),
                              "strategies": (STRATEGY_CASES, STRATEGIES, simulate_with)}[kind]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(cases, pool.map(lambda name: command(folder / name), cases), strict=True))


def assert_clean_failure(done: Run, file: str, case: tuple[str, int, int, str]) -> str:
    """The run failed with the case's code at its position, quickly and without a traceback."""
    code, line, column, text = case
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    head = rf"{re.escape(file)}:{line}:{column}: error\[({code})\]: "
    assert re.search(head + r".*" + re.escape(text), output), output
    assert done.cpu_seconds < 2, f"{file} took {done.cpu_seconds:.1f} s"
    return output


def test_every_file_has_a_case() -> None:
    assert sorted(p.name for p in HOSTILE.iterdir()) == sorted(CASES)
    assert sorted(p.name for p in STRATEGIES.iterdir()) == sorted(STRATEGY_CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_malformed_scenario_fails_cleanly(name: str) -> None:
    done = runs("scenarios")[name]
    output = assert_clean_failure(done, str(Path("tests/hostile/scenarios") / name), CASES[name])
    assert done.returncode == 1, output
    if name in HINTS:
        assert f"= help: {HINTS[name]}" in output, output
    assert re.search(r"^\d+ passed, [1-9]\d* failed$", done.stdout, re.MULTILINE), output


def test_a_folder_of_them_still_runs_the_good_scenario(tmp_path: Path) -> None:
    folder = tmp_path / "all"
    shutil.copytree(HOSTILE, folder)
    (folder / "zz-good.yaml").write_text(GOOD)
    done = kingdom_test(folder)
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert f"pass  {folder / 'zz-good.yaml'}: Village gives two Actions" in done.stdout
    summary = re.search(r"^(\d+) passed, (\d+) failed$", done.stdout, re.MULTILINE)
    assert summary, done.stdout
    # the good file and the first of the two scenarios named 'twice' pass; every file fails once
    # (a list of two numbers fails twice)
    assert (int(summary[1]), int(summary[2])) == (2, len(CASES) + 1)


def test_a_bad_scenario_does_not_stop_the_good_one_beside_it(tmp_path: Path) -> None:
    file = tmp_path / "mixed.yaml"
    file.write_text("- name: bad\n  players: 9\n" + GOOD)
    done = kingdom_test(file)
    assert done.returncode == 1
    assert f"{file}:2:12: error[K505]: players: 9 is out of range" in done.stdout
    assert "pass" in done.stdout and done.stdout.rstrip().endswith("1 passed, 1 failed")


def test_the_good_scenario_alone_exits_0(tmp_path: Path) -> None:
    file = tmp_path / "good.yaml"
    file.write_text(GOOD)
    done = kingdom_test(file)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("1 passed, 0 failed")


def test_missing_file_and_folder_fail_with_a_message(tmp_path: Path) -> None:
    done = kingdom_test(tmp_path / "nowhere.yaml")  # bad input to the command: usage, status 2
    assert done.returncode == 2 and "no such file or folder" in done.stderr
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------------------ strategies
STRATEGIES = Path(__file__).parent / "hostile" / "strategies"
STRATEGY_CASES: dict[str, tuple[str, int, int, str]] = {
    "empty.yaml": ("K101", 1, 1, "a strategy file is a mapping with 'name' and 'buy', not nothing"),
    "scalar.yaml": ("K101", 1, 1, "not a number"),
    "list.yaml": ("K101", 1, 1, "not a list"),
    "bad-yaml.yaml": ("K100", 2, 1, "invalid YAML"),
    "binary.yaml": ("K105", 1, 1, "not UTF-8 text"),
    "deep-nesting.yaml": ("K107", 2, 25, "nested too deeply"),
    "int-5000-digits.yaml": ("K112", 4, 19, "number too long"),
    "text-5000-digits.yaml": ("K551", 4, 19, "a value 5001 characters long: a count is at most "
                              "999,999,999"),
    "range-5000-digits.yaml": ("K551", 4, 18, "a count is at most 999,999,999"),
    "spend-to-reach-5000-digits.yaml": ("K551", 3, 10, "a price is at most 999,999,999"),
    "count-too-big.yaml": ("K551", 4, 26, "10000000000: a count is at most 999,999,999"),
    "name-list.yaml": ("K104", 1, 7, "'name' must be text, not a list"),
    "name-surrogate.yaml": ("K116", 1, 12, "lone surrogate (half of a character) U+D800"),
    "name-long.yaml": ("K117", 1, 7, "'name' is 200 characters long; the limit is 100"),
    "description-list.yaml": ("K104", 2, 14, "'description' must be text, not a list"),
    "missing-buy.yaml": ("K103", 1, 1, "missing required key 'buy'"),
    "unknown-top-key.yaml": ("K102", 2, 1, "unknown key 'byu'"),
    "buy-mapping.yaml": ("K104", 2, 6, "'buy' must be a list of cards, not a mapping"),
    "buy-item-number.yaml": ("K104", 2, 13, "a card name is expected, not a number"),
    "buy-card-list.yaml": ("K104", 3, 11, "a card name is expected, not a list"),
    "buy-unknown-card.yaml": ("K300", 2, 7, "unknown card 'Provnce'"),
    "buy-missing-card.yaml": ("K103", 3, 5, "missing required key 'card'"),
    "when-list.yaml": ("K104", 4, 11, "'when' must be a mapping of conditions, not a list"),
    "when-unknown-key.yaml": ("K102", 4, 12, "unknown key 'cions'"),
    "owned-list.yaml": ("K104", 4, 19, "'owned' must map card names to counts"),
    "coins-text.yaml": ("K104", 4, 19, "'lots' is not a count"),
    "coins-list.yaml": ("K104", 4, 19, "[6, 7] is not a count"),
    "play-text.yaml": ("K104", 3, 7, "'play' must be a list of cards, not text"),
    "suicide-check-text.yaml": ("K104", 3, 16, "'suicide_check' must be true or false, not text"),
    "play-others-number.yaml": ("K104", 3, 14, "'play_others' must be true or false, not a number"),
    "coffers-number.yaml": ("K104", 3, 10, "'coffers' must be never, all, auto or spend-to-reach"),
    "overpay-list.yaml": ("K104", 3, 10, "'overpay' must be never, all or auto, not ['all']"),
}


@pytest.mark.parametrize("name", list(STRATEGY_CASES))
def test_malformed_strategy_fails_cleanly(name: str) -> None:
    done = runs("strategies")[name]
    output = assert_clean_failure(done, str(Path("tests/hostile/strategies") / name),
                                  STRATEGY_CASES[name])
    assert done.returncode in (1, 2), output  # a check failed / bad input
    assert done.stdout.strip() == "", output  # no games were played


def test_missing_strategy_file_and_folder(tmp_path: Path) -> None:
    missing = simulate_with(tmp_path / "nowhere.yaml")
    assert_clean_failure(missing, str(tmp_path / "nowhere.yaml"), ("K550", 1, 1, "no such file"))
    folder = simulate_with(tmp_path)
    assert_clean_failure(folder, str(tmp_path), ("K550", 1, 1, "this is a folder"))
    assert missing.returncode in (1, 2) and folder.returncode in (1, 2)
