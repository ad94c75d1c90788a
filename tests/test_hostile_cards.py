"""Hostile input: each file of tests/hostile (and each generated one) makes `kingdom check` report
its diagnostic and exit 1, quickly, without a traceback; nothing in it runs or hangs.

Each run is a subprocess; its CPU time (not the wall clock, which other processes on a shared
machine stretch) must stay under 2 s and its memory under 400 MB (an alias bomb took 22 s and
700 MB, a 10 MB card 111 s and 1.5 GB).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from kingdom.compiler.errors import CompileError
from kingdom.compiler.loader import MAX_BYTES, load_yaml

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
CPU_SECONDS = 2.0
MEMORY_KB = 400_000
HEAD = "dsl: 1\nname: Hostile Card\ncost: 3\ntypes: [Action]\n"

CARDS = {  # file in tests/hostile/cards: the code of its one diagnostic
    "alias-bomb.yaml": "K108", "alias-self.yaml": "K108",
    "deep-flow-list.yaml": "K107", "deep-map.yaml": "K107", "deep-block-list.yaml": "K107",
    "many-reminders.yaml": "K114",
    "binary.yaml": "K105", "utf16.yaml": "K105", "latin1.yaml": "K105",
    "raw-escape-sequence.yaml": "K100",
    "date-name.yaml": "K110", "date-type.yaml": "K110", "date-effect.yaml": "K110",
    "binary-cost.yaml": "K110", "binary-effect.yaml": "K110",
    "mixed-type-keys.yaml": "K102", "duplicate-key.yaml": "K109",
    "octal-cost.yaml": "K111", "sexagesimal-cost.yaml": "K111", "hex-cost.yaml": "K111",
    "gain-from-hand.yaml": "K202", "gain-two.yaml": "K202", "spend-any-favors.yaml": "K202",
    "cost-less-per-token.yaml": "K202", "choose-gain-from-discard.yaml": "K202",
    "blank-name.yaml": "K113", "newline-name.yaml": "K113", "zero-width-name.yaml": "K113",
    # control and bidi characters, lone surrogates: refused by the loader, in any text
    "control-char-name.yaml": "K116", "escape-sequence-name.yaml": "K116",
    "surrogate-ruling.yaml": "K116", "bidi-reminder.yaml": "K116", "clipboard-ruling.yaml": "K116",
    "long-name.yaml": "K117",
    "cyrillic-look-alike-name.yaml": "K410", "case-only-name.yaml": "K410",
    "keyword-name.yaml": "K411", "former-name-clash.yaml": "K412",
}
MANIFESTS = {  # folder in tests/hostile/manifests: the code of its one diagnostic
    "alias-bomb": "K108", "deep-nesting": "K107", "binary": "K105", "latin1": "K105",
    "utf16": "K105", "mixed-type-keys": "K402", "duplicate-key": "K109", "date-name": "K110",
    "same-name": "K400", "surrogate-version": "K116", "long-version": "K117",
}
ENTRY_POINTS = ["entry-point-raises", "entry-point-exits", "entry-point-missing-folder"]


@dataclass
class Run:
    status: int
    stderr: str
    cpu: float
    memory_kb: int


# Runs the command as its own child and writes "status cpu maxrss" to a file: the command is
# forked from this small process, not from pytest, whose size (hundreds of MB late in the suite)
# a child forked from it would report as its own peak memory.
MEASURE = """import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_pid, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
"""


def kingdom(*args: str | Path, env: dict[str, str] | None = None) -> Run:
    """`kingdom ARGS` in a subprocess, with its exit status, stderr, CPU time and peak memory."""
    environ = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_PATH", "PYTHONPATH")}
    environ.update(env or {})
    with open(os.devnull, "wb") as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as figures:
        process = subprocess.Popen([sys.executable, "-c", MEASURE, figures.name, sys.executable,
                                    "-m", "kingdom", *map(str, args)],
                                   stdout=out, stderr=err, cwd=ROOT, env=environ,
                                   start_new_session=True)
        try:  # a hang guard only: CPU time is what is checked
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
            pytest.fail(f"kingdom {' '.join(map(str, args))} did not end")
        status, cpu, memory = figures.read().split()
        err.seek(0)
        text = err.read().decode("utf-8", errors="replace")
    return Run(int(status), text, float(cpu), int(memory))


@pytest.fixture(scope="module", autouse=True)
def warm_cache() -> None:
    """Compile the built-in cards once, so each timed run reads them from the cache."""
    assert kingdom("check").status == 0


def assert_refused(run: Run, where: str, code: str) -> None:
    """One error, `code`, in a file whose path starts with `where`; exit 1; quick and small."""
    assert run.status == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert "\x1b" not in run.stderr  # no escape sequence reaches the terminal
    codes = re.findall(rf"{re.escape(where)}\S*:\d+:\d+: error\[(K\d+)\]", run.stderr)
    assert codes == [code], run.stderr
    assert "\n1 error(s)" in run.stderr, run.stderr
    assert run.cpu < CPU_SECONDS, f"{run.cpu:.2f} s of CPU"
    assert run.memory_kb < MEMORY_KB, f"{run.memory_kb} KB"


@pytest.mark.parametrize("name", sorted(CARDS))
def test_hostile_card(name: str) -> None:
    file = HOSTILE / "cards" / name
    assert_refused(kingdom("check", file), str(file), CARDS[name])


def test_every_hostile_file_is_tested() -> None:
    assert {p.name for p in (HOSTILE / "cards").iterdir()} == set(CARDS)
    assert {p.name for p in (HOSTILE / "manifests").iterdir()} == set(MANIFESTS) | set(ENTRY_POINTS)


@pytest.mark.parametrize("name", sorted(MANIFESTS))
def test_hostile_manifest(name: str) -> None:
    folder = HOSTILE / "manifests" / name
    assert_refused(kingdom("check", folder), str(folder), MANIFESTS[name])


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_broken_entry_point_is_an_error_for_check_and_a_warning_elsewhere(name: str) -> None:
    site = {"PYTHONPATH": str(HOSTILE / "manifests" / name / "site")}
    assert_refused(kingdom("check", env=site), "<entry point hostile = hostile_expansion:folder>",
                   "K402")
    listed = kingdom("list", "--set", "base", env=site)
    assert listed.status == 0, listed.stderr
    assert listed.stderr.count("warning[K402]") == 1, listed.stderr


def test_broken_expansion_on_kingdom_path_is_warned_about_once() -> None:
    path = {"KINGDOM_PATH": str(HOSTILE / "manifests" / "binary")}
    listed = kingdom("list", "--set", "base", env=path)
    assert listed.status == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert listed.stderr.count("warning[K105]") == 1, listed.stderr
    assert_refused(kingdom("check", env=path), str(HOSTILE / "manifests" / "binary"), "K105")


def test_two_expansions_of_one_name_given_apart() -> None:
    same = HOSTILE / "manifests" / "same-name"
    run = kingdom("check", same / "first", same / "second")
    assert_refused(run, str(same / "second"), "K400")
    assert str(same / "first" / "expansion.yaml") in run.stderr  # both are named


@pytest.mark.parametrize(("name", "text", "code"), [
    ("huge.yaml", HEAD + "play:\n" + "  - +1 card\n" * 900_000, "K106"),  # 10 MB
    ("huge-name.yaml", HEAD.replace("Hostile Card", "Long" * 25_000), "K117"),  # 100,000 letters
    ("long-ruling.yaml", HEAD + "play: +1 card\nrulings: [" + "word " * 401 + "]\n", "K117"),
    ("long-cost.yaml", HEAD.replace("cost: 3", "cost: " + "9" * 5000), "K112"),
    ("long-bonus.yaml", HEAD + f"play: +{'9' * 5000} cards\n", "K112"),
])
def test_generated_hostile_card(tmp_path: Path, name: str, text: str, code: str) -> None:
    file = tmp_path / name
    file.write_text(text)
    assert_refused(kingdom("check", file), str(file), code)


def test_symlinked_folders_are_followed_and_loops_end(tmp_path: Path) -> None:
    real, cards = tmp_path / "real", tmp_path / "cards"
    real.mkdir()
    cards.mkdir()
    (real / "linked.yaml").write_text(HEAD.replace("Hostile Card", "Linked Card")
                                      + "play: gain a Silvr\n")
    (cards / "linked").symlink_to(real, target_is_directory=True)
    (cards / "loop").symlink_to(cards, target_is_directory=True)
    run = kingdom("check", cards)
    assert_refused(run, str(cards), "K300")  # read once through the link, not through the loop


# ---------------------------------------------------------------------------- load_yaml itself
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
REFUSED = [  # what load_yaml refuses in any kind of file, and the code
    (BOMB.encode(), "K108"),
    (b"play: &a [*a]\n", "K108"),
    (b"x: " + b"[" * 200 + b"]" * 200, "K107"),
    (b"x: " + b"{a: " * 500 + b"1" + b"}" * 500, "K107"),
    (b"x:\n  " + b"- " * 1000 + b"1\n", "K107"),
    ("name: Café\n".encode("latin-1"), "K105"),
    ("name: Café\n".encode("utf-16"), "K105"),
    (bytes(range(256)), "K105"),
    (b"when: 2024-01-01\n", "K110"),
    (b"a: 1\na: 2\n", "K109"),
    (b"seed: 010\n", "K111"),
    (b"seed: " + b"1" * 5000 + b"\n", "K112"),
    (b"x" * (MAX_BYTES + 1), "K106"),
    (b'name: "a \\ud800"\n', "K116"),  # a lone surrogate: no printer can encode it
    (b'name: "\\e]0;title\\a"\n', "K116"),  # sets the terminal's window title
    ("name: a\u202eb\n".encode(), "K116"),  # a right-to-left override, written as itself
    (b'{"\\x1b": 1}\n', "K116"),  # in a key too
]


@pytest.mark.parametrize("kind", ["card.yaml", "expansion.yaml", "strategy.yaml", "scenario.yaml"])
@pytest.mark.parametrize(("data", "code"), REFUSED, ids=[f"{c}-{i}" for i, (_, c) in enumerate(REFUSED)])
def test_load_yaml_refuses_in_any_file(tmp_path: Path, kind: str, data: bytes, code: str) -> None:
    file = tmp_path / kind
    file.write_bytes(data)
    start = time.process_time()
    doc, diagnostics = load_yaml(str(file))
    assert time.process_time() - start < CPU_SECONDS
    assert doc is None
    assert [d.code for d in diagnostics] == [code]
    assert diagnostics[0].file == str(file)


def test_load_yaml_reads_utf8_with_a_byte_order_mark(tmp_path: Path) -> None:
    file = tmp_path / "bom.yaml"
    file.write_bytes("\ufeffname: Café\ncost: 10\n".encode())
    doc, diagnostics = load_yaml(str(file))
    assert diagnostics == [] and doc is not None
    assert doc.data == {"name": "Café", "cost": 10}


def test_strategy_files_are_loaded_safely(tmp_path: Path) -> None:
    from kingdom.compiler.build import BUILTIN_CARDS, compile_folders

    from kingdom.lab.strategy import load_strategy

    library, _ = compile_folders([BUILTIN_CARDS / "base"])
    file = tmp_path / "bomb.yaml"
    file.write_text("name: Bomb\nbuy:\n" + "".join(f"  - {line}" for line in BOMB.splitlines(True)))
    with pytest.raises(CompileError) as refused:
        load_strategy(file, library)
    assert [d.code for d in refused.value.diagnostics] == ["K108"]
