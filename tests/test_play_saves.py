"""`kingdom play`'s save file loses nothing: it is written through links and never over a
device; a save that cannot be written is said and the game goes on (and can be saved
elsewhere); an answer after which the game fails is taken back, live or on resume; killed games
leave no temporary files behind; and a save is checked exactly as `kingdom play`'s arguments
are, plus a digest of its setup."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from kingdom.compiler.build import builtin_library

from kingdom.cli import common
from kingdom.table.play import Table, Terminal
from kingdom.table.save import TEMP_PREFIX, Record, SaveError, digest

ROOT = Path(__file__).resolve().parent.parent
GAME = ["--kingdom", "Smithy,Village", "--bots", "big-money", "--seed", "3"]


def kingdom_play(*args: str | Path, feed: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_DEBUG", "KINGDOM_PATH")}
    return subprocess.run([sys.executable, "-m", "kingdom", "play", *map(str, args)], input=feed,
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


def saved(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


# ---------------------------------------------------------------------------- where it is written
def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    link.symlink_to(real)  # (dangling: the game makes the file it points to)
    done = kingdom_play(*GAME, "--save", link, feed="1\n1\n")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and len(saved(real)["answers"]) == 2
    resumed = kingdom_play("--resume", link, feed="1\n")
    assert resumed.returncode == 0, resumed.stderr
    assert link.is_symlink() and len(saved(real)["answers"]) == 3


@pytest.mark.parametrize("what", ["fifo", "device", "folder"])
def test_a_save_path_that_is_no_regular_file_is_refused_untouched(tmp_path: Path, what: str) -> None:
    path = tmp_path / "special"
    if what == "fifo":
        os.mkfifo(path)
    elif what == "device":
        path.symlink_to(os.devnull)  # a link: if it were replaced, the device still is not
    else:
        path.mkdir()
    before = os.lstat(path)
    done = kingdom_play(*GAME, "--save", path, feed="1\n")
    assert done.returncode == 2
    assert (f"cannot save to {path}: it is " in done.stderr and "not a regular file" in done.stderr) \
        or (what == "folder" and "is a folder" in done.stderr)
    after = os.lstat(path)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert not list(tmp_path.glob(f"{TEMP_PREFIX}*"))


# ---------------------------------------------------------------------------- in-process games
def auto_answer(table: Table) -> str:
    """Buy and play Smithy whenever possible, play all Treasures, else the first choice."""
    pending = table.session.pending()
    if pending.kind in ("play", "buy"):
        return "smithy" if "Smithy" in pending.options else "0"
    return "all" if pending.kind == "treasures" else "1"


def run_terminal(table: Table, save: Path, answers: int, on_read=None) -> tuple[int, list[str]]:
    """Play `answers` automatic answers (then the input ends); the status and lines written.
    `on_read(n)`, if given, is called before the n-th read and may return the text to type."""
    lines: list[str] = []
    count = 0

    def read(_prompt: str) -> str:
        nonlocal count
        count += 1
        typed = on_read(count) if on_read else None
        if typed is not None:
            return typed
        if count > answers:
            raise EOFError
        return auto_answer(table)

    status = Terminal(table, save, read, lambda text, _style: lines.append(text)).run()
    return status, lines


def new_table(library, seed: int = 3, kingdom: tuple[str, ...] = ("Smithy", "Village")) -> Table:
    record = Record(list(kingdom), ["big-money"], seed)
    return Table(library, record, common.bots(library, record.bots))


def test_a_save_that_fails_midgame_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    other = tmp_path / "other.json"
    table = new_table(builtin_library())

    def on_read(n: int) -> str | None:
        if n == 3:
            shutil.rmtree(folder)  # (as root, a read-only folder would still be written)
        return f"save {other}" if n == 6 else None

    status, lines = run_terminal(table, folder / "game.json", 8, on_read)
    text = "\n".join(lines)
    assert f"Could not save the game to {folder / 'game.json'}: " in text
    assert text.count("Could not save the game") == 1  # said once, not after every answer
    assert f"Saved to {other}; the game is saved there from now on." in text
    assert status == 0 and f"Game saved to {other}" in text
    assert saved(other)["answers"] == table.record.answers and len(table.record.answers) == 7


def test_ending_unsaved_says_so_and_fails(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    table = new_table(builtin_library())
    status, lines = run_terminal(table, folder / "game.json", 3,
                                 lambda n: shutil.rmtree(folder) if n == 2 else None)
    assert status == 1
    assert "could NOT be saved" in lines[-1] and "Game saved" not in "\n".join(lines)


def broken_smithy_library():
    """The built-in cards, but Smithy's play fails as an engine fault would."""
    library = builtin_library()

    def boom(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a broken card")

    library.cards["Smithy"] = dataclasses.replace(library.cards["Smithy"], on_play=boom)
    return library


def test_an_answer_after_which_the_game_fails_is_taken_back_live_and_on_resume(tmp_path: Path) -> None:
    library, save = broken_smithy_library(), tmp_path / "game.json"
    table = new_table(library)
    status, lines = run_terminal(table, save, 40)
    text = "\n".join(lines)
    assert status == 0
    assert "The game stopped with an error after your answer 'Smithy' (the game stopped with " \
           "an error: RuntimeError('a broken card')); that answer is taken back" in text
    answers = saved(save)["answers"]
    assert answers == table.record.answers
    # a save holding the fatal answer (written before the failure was seen) resumes before it
    data = saved(save)
    first_play = next(i for i in range(len(answers) + 1) if _fails(library, [*answers[:i], "Smithy"]))
    data["answers"] = [*answers[:first_play], "Smithy"]
    save.write_text(json.dumps(data))
    record = Record.load(save)
    resumed = Table(library, record, common.bots(library, record.bots))
    assert resumed.record.answers == answers[:first_play]
    assert "after your answer 'Smithy'" in resumed.failure
    status, lines = run_terminal(resumed, save, 0, lambda n: "undo" if n == 1 else None)
    assert "Undone: back to your previous decision." in lines
    assert saved(save)["answers"] == answers[:first_play - 1]


def test_an_answer_after_which_a_card_is_in_two_places_is_taken_back(tmp_path: Path) -> None:
    """Smithy put a card of the hand into the hand again: the game went on with a card in two
    places. The bots check the cards before each of their moves now, so the game fails at the
    next one and the person's last answer is taken back (they may undo further)."""
    library = builtin_library()

    def doubles(ctx: Any) -> None:
        ctx.player.hand.append(ctx.player.hand[0])

    library.cards["Smithy"] = dataclasses.replace(library.cards["Smithy"], on_play=doubles)
    table = new_table(library)
    status, lines = run_terminal(table, tmp_path / "game.json", 40)
    text = "\n".join(lines)
    assert status == 0
    assert "The game stopped with an error after your answer" in text
    assert "InvariantViolation" in text and "is both in p1's" in text
    assert "that answer is taken back" in text


def _fails(library, answers: list[Any]) -> bool:
    """Whether these answers, given to the game of `new_table`, end in the broken Smithy."""
    table = new_table(library)
    try:
        table._replay(answers)
        return bool(table.failure) and len(table.record.answers) == len(answers) - 1
    except SaveError:
        return False
    finally:
        table.close()


# ---------------------------------------------------------------------------- temporary files
def test_temporary_files_of_killed_games_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / f"{TEMP_PREFIX}999999999-abc.tmp"  # no such process
    old = tmp_path / f"{TEMP_PREFIX}k2j3h4.tmp"  # an earlier naming, two hours old
    mine = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-def.tmp"  # a live writer's
    for file in (dead, old, mine):
        file.write_text("{}")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    done = kingdom_play(*GAME, "--save", tmp_path / "game.json", feed="1\n")
    assert done.returncode == 0, done.stderr
    assert not dead.exists() and not old.exists() and mine.exists()


def test_a_game_killed_again_and_again_leaves_only_its_save(tmp_path: Path) -> None:
    """Killed while it saves answer after answer (a kill during a save used to leave its
    temporary file: 7 of 25 kills); the next game there leaves only the save."""
    save = tmp_path / "game.json"
    for delay in (0.0, 0.05, 0.1, 0.2, 0.3):
        start = ["--resume", str(save)] if save.exists() else [*GAME, "--save", str(save)]
        process = subprocess.Popen([sys.executable, "-m", "kingdom", "play", *start],
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, cwd=ROOT, text=True)
        given = len(saved(save)["answers"]) if save.exists() else 0
        process.stdin.write("1\n" * 300)
        process.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if len(saved(save)["answers"]) > given:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.01)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    done = kingdom_play("--resume", save, feed="1\n")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# ---------------------------------------------------------------------------- checking a save
@pytest.fixture(scope="module")
def a_save(tmp_path_factory) -> dict[str, Any]:
    save = tmp_path_factory.mktemp("save") / "game.json"
    done = kingdom_play(*GAME, "--save", save, feed="1\n1\n")
    assert done.returncode == 0, done.stderr
    return saved(save)


def _with(data: dict[str, Any], **setup: Any) -> dict[str, Any]:
    """`data` with these settings, its digest made anew (a save written so by hand)."""
    changed = json.loads(json.dumps(data))
    changed["setup"].update(setup)
    changed["digest"] = digest(changed["setup"])
    return changed


# (id, how the save is changed, what the refusal says)
REFUSED = [
    ("unknown card", lambda d: _with(d, kingdom=["Smithee"]), "unknown card 'Smithee'"),
    ("an Ally", lambda d: _with(d, kingdom=["Smithy", "Band of Nomads"]), "'Band of Nomads' is an Ally"),
    ("a split member", lambda d: _with(d, kingdom=["Student"]), "one card of the split pile"),
    ("a Reward", lambda d: _with(d, kingdom=["Smithy", "Coronet"]), "'Coronet' is a Reward"),
    ("a basic card", lambda d: _with(d, kingdom=["Copper"]), "'Copper' is a basic card"),
    ("an empty Kingdom", lambda d: _with(d, kingdom=[]), "--kingdom needs at least one card"),
    ("11 piles", lambda d: _with(d, kingdom=["Smithy", "Village", "Militia", "Moat", "Cellar",
                                             "Market", "Witch", "Workshop", "Remodel",
                                             "Laboratory", "Chapel"]),
     "11 piles, but a Kingdom has at most 10"),
    ("a pile twice", lambda d: _with(d, kingdom=["Smithy", "smithy"]), "'Smithy' is named twice"),
    ("7 players", lambda d: _with(d, bots=["big-money"] * 6), "6 bots, but a game has at most 6"),
    ("no bots", lambda d: _with(d, bots=[]), "--bots needs at least one bot"),
    ("seat 3 of 2", lambda d: _with(d, seat=3), "--seat: 3, but the game has 2 seats"),
    ("seat 0", lambda d: _with(d, seat=0), "the save's --seat: expected a whole number from 1 to 6"),
    ("seed negative", lambda d: _with(d, seed=-1), "the save's --seed: expected a whole number from 0"),
    ("seed text", lambda d: _with(d, seed="3"), "setting 'seed': expected a whole number"),
    ("cards missing", lambda d: _with(d, cards=["/no/such/cards"]), "no such file or folder"),
    ("every file", lambda d: _with(d, cards=["/"]), "'/' holds more than 20,000 files and folders"),
    ("unknown bot", lambda d: _with(d, bots=["big-mony"]), "unknown bot 'big-mony'"),
    ("unknown setting", lambda d: _with(d, colour="blue"), "unknown setting 'colour'"),
    ("not an Ally", lambda d: _with(d, ally="Smithy"), "--ally: 'Smithy' is"),
    ("a Bane of two", lambda d: _with(d, bane="Moat,Smithy"), "--bane: give one Kingdom card"),
    ("colonies text", lambda d: _with(d, colonies="yes"), "setting 'colonies': expected true or false"),
    ("unknown key", lambda d: {**d, "bots": ["x.yaml"]}, "unknown key 'bots'"),
    ("seed changed", lambda d: {**d, "setup": {**d["setup"], "seed": 4}},
     "the setup was changed since the game was saved"),
    ("cards changed", lambda d: {**d, "setup": {**d["setup"], "cards": ["/"]}},
     "the setup was changed since the game was saved"),
    ("no digest", lambda d: {k: v for k, v in d.items() if k != "digest"}, "digest does not match"),
    ("version 1", lambda d: {**d, "version": 1}, "save file version 1"),
    ("5,000 digits", lambda d: '{"format": "kingdom-play", "version": 2, "setup": {"seed": '
     + "9" * 5000 + "}}", "a number of 5,000 characters"),
    ("deep nesting", lambda d: '{"answers": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "not a save file of `kingdom play`"),
    ("nested answers", lambda d: {**d, "answers": [[["Copper"]]]}, "lists nested more than 3 deep"),
    ("NaN", lambda d: '{"format": "kingdom-play", "version": 2, "setup": {"seed": NaN}}',
     "a number of 3 characters ('NaN...')"),
]


def test_a_save_is_checked_as_the_arguments_are(tmp_path: Path, a_save: dict[str, Any]) -> None:
    def run(case: tuple) -> tuple[str, subprocess.CompletedProcess]:
        name, change, _words = case
        file = tmp_path / f"{name}.json"
        data = change(a_save)
        file.write_text(data if isinstance(data, str) else json.dumps(data))
        return name, kingdom_play("--resume", file, feed="1\n")

    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(pool.map(run, REFUSED))
    for name, _change, words in REFUSED:
        done = runs[name]
        assert done.returncode == 2 and "Traceback" not in done.stderr, (name, done.stderr)
        assert "internal error" not in done.stderr and words in done.stderr, (name, done.stderr)


def test_a_save_names_cards_in_any_case_as_the_arguments_do(tmp_path: Path, a_save) -> None:
    file = tmp_path / "miscased.json"
    file.write_text(json.dumps(_with(a_save, kingdom=["smithy", "VILLAGE"])))
    done = kingdom_play("--resume", file, feed="1\n")
    assert done.returncode == 0, done.stderr
    assert saved(file)["setup"]["kingdom"] == ["Smithy", "Village"]


def test_a_save_without_the_setup_choices_still_resumes(tmp_path: Path, a_save) -> None:
    """Saves written before --ally, --bane, --ferryman and --colonies were settings read with
    their defaults."""
    older = json.loads(json.dumps(a_save))
    for key in ("ally", "bane", "ferryman", "colonies"):
        older["setup"].pop(key)
    older["digest"] = digest(older["setup"])
    file = tmp_path / "older.json"
    file.write_text(json.dumps(older))
    done = kingdom_play("--resume", file, feed="1\n")
    assert done.returncode == 0, done.stderr
    assert saved(file)["setup"]["ally"] == "random"


def test_the_setup_choices_are_played_and_saved(tmp_path: Path) -> None:
    file = tmp_path / "chosen.json"
    done = kingdom_play("--kingdom", "Young Witch,Smithy", "--bots", "big-money", "--ally",
                        "cave dwellers", "--bane", "moat", "--colonies", "--seed", "2",
                        "--save", file, "--plain", feed="1\n" * 3)
    assert done.returncode == 0, done.stderr
    assert "The Ally is Cave Dwellers" in done.stdout and "The Bane pile is Moat." in done.stdout
    assert "Colony" in done.stdout
    setup = saved(file)["setup"]
    assert (setup["ally"], setup["bane"], setup["colonies"]) == ("Cave Dwellers", "Moat", True)
    refused = kingdom_play("--resume", file, "--ally", "none")
    assert refused.returncode == 2 and "--resume continues the saved game" in refused.stderr


def test_every_setting_is_saved_and_checked() -> None:
    from kingdom.table.save import SETTINGS

    assert set(Record(["Smithy"], ["big-money"], 1).setup()) == set(SETTINGS)
