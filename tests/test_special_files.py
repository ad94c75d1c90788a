"""A named pipe or a link to /dev/zero where Kingdom expects a YAML or rules file: every command
that reads one says which file is not a regular file, at once, instead of waiting for the pipe's
writer or reading /dev/zero until memory runs out. Each command runs under a time limit, so a
hang fails the test (the child is killed) rather than stalling the suite."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kingdom.compiler.errors import CompileError, Diagnostic
from kingdom.compiler.files import NotRegular, TooLarge, read_bytes
from kingdom.compiler.loader import load_yaml

from kingdom.table.save import digest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60  # seconds: the commands take one or two; a hang is killed here
SMITHY = "dsl: 1\nname: Smithy Two\ncost: 4\ntypes: [Action]\nplay: +3 cards\n"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")


def special(path: Path, what: str) -> Path:
    """`path` made a named pipe ("fifo") or a link to /dev/zero ("zero")."""
    if what == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


def kingdom(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_DEBUG", "KINGDOM_PATH")}
    return subprocess.run([sys.executable, "-m", "kingdom", *args], capture_output=True, text=True,
                          timeout=LIMIT, cwd=cwd, env=env, stdin=subprocess.DEVNULL)


WHAT = {"fifo": "a named pipe (FIFO), not a regular file", "zero": "a character device, not a "
        "regular file"}


@pytest.mark.parametrize("what", ["fifo", "zero"])
def test_check_and_list_name_a_special_card_file(tmp_path: Path, what: str) -> None:
    (tmp_path / "smithy.yaml").write_text(SMITHY)
    bad = special(tmp_path / "bad.yaml", what)
    checked = kingdom("check", str(tmp_path))
    assert checked.returncode == 1, checked.stderr
    assert f"{bad}:1:1: error[K402]: {WHAT[what]}" in checked.stderr
    listed = kingdom("list", "--cards", str(tmp_path))
    assert listed.returncode == 0 and "Smithy Two" in listed.stdout
    assert f"{bad}:1:1: warning[K402]: {WHAT[what]}" in listed.stderr


@pytest.mark.parametrize("what", ["fifo", "zero"])
def test_a_special_file_among_scenarios_fails_alone(tmp_path: Path, what: str) -> None:
    (tmp_path / "ok.yaml").write_text("name: draws\nsetup: {kingdom: [Smithy]}\nsteps: []\n")
    bad = special(tmp_path / "bad.yaml", what)
    run = kingdom("test", str(tmp_path))
    assert run.returncode == 1
    assert f"{bad}" in run.stdout and WHAT[what] in run.stdout


@pytest.mark.parametrize("what", ["fifo", "zero"])
def test_a_special_rules_file_is_refused(tmp_path: Path, what: str) -> None:
    (tmp_path / "base.txt").write_text("Smithy: a ruling.\n")
    bad = special(tmp_path / "bad.txt", what)
    run = kingdom("render", "--set", "base", "--rules", str(tmp_path), "-o", str(tmp_path / "o.html"))
    assert run.returncode == 2
    assert f"'{bad}' is {WHAT[what]}" in run.stderr
    env_run = subprocess.run([sys.executable, "-m", "kingdom", "render", "--set", "base", "-o",
                              str(tmp_path / "o.html")], capture_output=True, text=True,
                             timeout=LIMIT, cwd=ROOT, env={**os.environ, "KINGDOM_RULES": str(tmp_path)})
    assert env_run.returncode == 1
    assert f"cannot read the rules file {bad}: {WHAT[what]}" in env_run.stderr


@pytest.mark.parametrize("what", ["fifo", "zero"])
def test_a_special_bot_file_is_refused(tmp_path: Path, what: str) -> None:
    bad = special(tmp_path / "bot.yaml", what)
    run = kingdom("simulate", "--kingdom", "Smithy", "--bots", f"big-money,{bad}", "--games", "1",
                  "--no-progress")
    assert run.returncode == 2
    assert f"{bad}:1:1: error[K550]: this is {WHAT[what]}" in run.stderr


@pytest.mark.parametrize("what", ["fifo", "zero"])
def test_a_save_file_naming_a_special_bot_file_is_refused(tmp_path: Path, what: str) -> None:
    bad = special(tmp_path / "bot.yaml", what)
    save = tmp_path / "game.json"
    started = kingdom("play", "--kingdom", "Smithy", "--bots", "big-money", "--seed", "1",
                      "--save", str(save))
    assert started.returncode == 0, started.stderr
    data = json.loads(save.read_text())
    data["setup"]["bots"] = [str(bad)]
    data["digest"] = digest(data["setup"])  # (as if written so)
    save.write_text(json.dumps(data))
    run = kingdom("play", "--resume", str(save))
    assert run.returncode == 2
    assert str(bad) in run.stderr and WHAT[what] in run.stderr


@pytest.mark.parametrize("what", ["fifo", "zero"])
def test_the_readers_refuse_what_is_not_a_regular_file(tmp_path: Path, what: str) -> None:
    bad = special(tmp_path / "bad.yaml", what)
    with pytest.raises(NotRegular, match=re.escape(WHAT[what])):
        read_bytes(bad, 100)
    doc, problems = load_yaml(str(bad))
    assert doc is None and problems[0].code == "K106" and WHAT[what] in problems[0].message
    # the error reporter quotes no line of it (it would wait, or read forever)
    report = CompileError([Diagnostic("K100", "x", str(bad), 1, 1)]).report()
    assert report == f"{bad}:1:1: error[K100]: x"


def test_the_limit_is_applied_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 5000)
    with pytest.raises(TooLarge) as raised:
        read_bytes(big, 1000)
    assert raised.value.size == 5000
    assert read_bytes(big, 5000) == b"#" * 5000


def test_a_folder_of_everything_is_no_card_folder(tmp_path: Path) -> None:
    """`--cards /` and `check /` would compile every YAML file on the machine."""
    from kingdom.compiler.expansions import MAX_ENTRIES

    for i in range(MAX_ENTRIES // 1000 + 1):
        folder = tmp_path / f"f{i}"
        folder.mkdir()
        for j in range(1000):
            (folder / f"{j}.txt").touch()
    listed = kingdom("list", "--cards", str(tmp_path))
    assert listed.returncode == 2
    assert f"'{tmp_path}' holds more than 20,000 files and folders" in listed.stderr
