"""Texts that reach a terminal or a printed card: control characters, bidi overrides and lone
surrogates are refused where a file is read, with their position; what comes from elsewhere (a
rules file) is printed escaped by `render` and `test`, as `show` and `list` print it; names and
rulings have length limits that the message states."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kingdom.compiler.loader import load_yaml
from kingdom.compiler.texts import NAME_LENGTH, printable, text_problem

ROOT = Path(__file__).resolve().parent.parent
CLIPBOARD = "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # OSC 52: writes the terminal's clipboard
TITLE = "\x1b]0;pwned\x07"  # sets the window title


def kingdom(*args: str | Path, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_DEBUG", "KINGDOM_PATH")}
    return subprocess.run([sys.executable, "-m", "kingdom", *map(str, args)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**environ, **env},
                          errors="surrogateescape")


@pytest.mark.parametrize(("text", "line", "column", "what"), [
    ('rulings: ["one", "two \\ud800"]\n', 1, 23, "a lone surrogate (half of a character) U+D800"),
    ('play: "+1 card (\\u202Eesrever)"\n', 1, 17, "the bidi control U+202E"),
    ("play: +1 card (\u202eesrever)\n", 1, 16, "the bidi control U+202E"),
    ('name: "Vil\\e]0;x\\alage"\n', 1, 11, "the control character U+001B"),
    ('rulings:\n  - "x\\x9b2J"\n', 2, 7, "the control character U+009B"),
])
def test_the_loader_refuses_unprintable_text_where_it_is_written(
        tmp_path: Path, text: str, line: int, column: int, what: str) -> None:
    file = tmp_path / "card.yaml"
    file.write_text(text)
    doc, problems = load_yaml(str(file))
    assert doc is None
    assert [(p.code, p.line, p.column) for p in problems] == [("K116", line, column)]
    assert what in problems[0].message


def test_lines_and_tabs_are_kept_in_texts(tmp_path: Path) -> None:
    file = tmp_path / "card.yaml"
    file.write_text('rulings: ["one\\ttwo\\nthree"]\n')
    doc, problems = load_yaml(str(file))
    assert problems == [] and doc.data == {"rulings": ["one\ttwo\nthree"]}


def test_printable_escapes_every_refused_character() -> None:
    assert printable(f"a{CLIPBOARD}\u202eb\ud800\nc", lines=True) == \
        "a\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\u202eb\\ud800\nc"
    assert printable("a\nb\tc") == "a\\nb\tc"


def test_names_have_a_length_limit_that_the_message_states() -> None:
    assert text_problem("x" * NAME_LENGTH, NAME_LENGTH) == ""
    assert text_problem("x" * 100_000, NAME_LENGTH) == \
        f"is 100,000 characters long; the limit is {NAME_LENGTH}"
    assert text_problem("two\nlines", 100) == "holds a line break or a tab; write it on one line"
    assert text_problem("two\nlines", 100, lines=True) == ""


def test_a_100000_letter_card_name_is_refused(tmp_path: Path) -> None:
    (tmp_path / "long.yaml").write_text(f"dsl: 1\nname: {'Long' * 25_000}\ncost: 3\n"
                                        "types: [Action]\nplay: +1 card\n")
    run = kingdom("render", "--cards", tmp_path, "--set", tmp_path.name, "--layout", "proxies",
                  "-o", tmp_path / "out.pdf")
    assert run.returncode == 2, run.stderr
    assert f"error[K117]: name '{'Long' * 7}Lo...' is 100,000 characters long; the limit is 30" \
        in run.stderr


def rules_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "base.txt").write_text(
        f"Base Rules\n\nCard-by-Card Clarifications\n\nSmithy\n\nDraw three.{CLIPBOARD}{TITLE}"
        "\u202e\n\nAccessibility Notes\n\nSay it aloud.\x1b[2J\n")
    return folder


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_render_prints_a_rules_file_escaped(tmp_path: Path, fmt: str) -> None:
    run = kingdom("render", "--kingdom", "Smithy,Village", "--layout", "summary", "--format", fmt,
                  "--rules", rules_folder(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout and "\u202e" not in run.stdout
    assert "Draw three." in run.stdout and "x1b" in run.stdout and "u202e" in run.stdout


def test_kingdom_test_prints_scenario_messages_escaped(tmp_path: Path) -> None:
    """A scenario's failure message quotes what the game shows (here, the card named in an
    `error:` expectation), escaped."""
    (tmp_path / "s.yaml").write_text(
        'name: quotes\nkingdom: [Smithy]\nsetup: {p1: {hand: [Smithy]}}\nsteps:\n'
        '  - play: Smithy\n    error: "\\e]0;pwned\\a"\n')
    run = kingdom("test", tmp_path / "s.yaml")
    assert run.returncode == 1
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout, run.stdout
