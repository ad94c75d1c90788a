"""What a user of a modern Python command line expects of `kingdom`, and what the README promises
a newcomer: `python -m kingdom --version`, a description and the exit statuses in every
command's --help, did-you-mean for a mistyped command, option or choice, PDF as the only (and
so the default) format of proxies and dividers, the Python version, how to reach the command
after `make run`, and the licence."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from kingdom.compiler.card import DSL_VERSION

from kingdom.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
COMMANDS = next(a for a in build_parser()._actions
                if isinstance(a, argparse._SubParsersAction)).choices


def test_python_m_kingdom_version() -> None:
    done = subprocess.run([sys.executable, "-m", "kingdom", "--version"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"kingdom {PROJECT['version']} (card DSL version {DSL_VERSION})\n"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_help_says_what_it_does_and_its_exit_statuses(command, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    usage, description = out.split("\n\n")[:2]
    assert usage.startswith(f"usage: kingdom {command} ")
    assert description[0].isupper() and description.rstrip().endswith("."), description
    assert " ".join(out.split()).endswith(
        "Exit status: 0 ok, 1 a check or test failed, 2 bad usage or input, 70 an internal error "
        "(please report it).")


@pytest.mark.parametrize(("argv", "meant"), [
    (["simulte"], "did you mean 'simulate'?"),
    (["Render"], "did you mean 'render'?"),
    (["render", "--set", "base", "--layot", "proxies"], "did you mean '--layout'?"),
    (["render", "--set", "base", "--layout", "proxy"], "did you mean 'proxies'?"),
    (["kingdom", "--tabs", "center"], "did you mean 'centre'?"),
    (["completion", "bsh"], "did you mean 'bash'?"),
    (["list", "--jsn"], "did you mean '--json'?"),
])
def test_a_mistyped_command_option_or_choice_names_the_closest(argv, meant, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: kingdom") and meant in err, err
    assert err.rstrip().endswith("--help` says more)")


def test_nothing_close_is_not_guessed(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["render", "--layout", "zzzz"])
    assert "did you mean" not in capsys.readouterr().err


@pytest.mark.parametrize("layout", ["proxies", "dividers"])
def test_proxies_and_dividers_are_pdf_by_default(layout, tmp_path, capsys) -> None:
    """Without --format or an output file's extension they were refused (exit 1, as if the
    cards had failed): PDF is their only format, so it is theirs by default; another one asked
    for is a usage mistake (exit 2)."""
    out = tmp_path / "cards"  # no extension
    assert main(["render", "--set", "base", "--layout", layout, "-o", str(out)]) == 2
    assert "PDF only" in capsys.readouterr().err and not out.exists()
    assert main(["render", "--set", "base", "--layout", layout, "--format", "html"]) == 2
    assert "PDF only" in capsys.readouterr().err
    assert main(["render", "--set", "base", "--layout", layout, "-o", str(tmp_path / "x.html")]) == 2
    capsys.readouterr()
    piped = subprocess.run([sys.executable, "-m", "kingdom", "render", "--set", "base", "--layout",
                            layout], capture_output=True, timeout=300, cwd=ROOT)
    assert piped.returncode == 0 and piped.stdout.startswith(b"%PDF-"), piped.stderr


def test_readme_tells_a_newcomer_the_python_and_where_kingdom_is() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    top = "\n".join(readme.splitlines()[:15])
    needed = re.fullmatch(r">=(\d+\.\d+)", PROJECT["requires-python"])[1]
    assert f"Python {needed} or newer" in top
    assert "make run" in top and ".venv/bin/kingdom" in top and "python -m kingdom" in top
    assert "[LICENSE](LICENSE)" in readme


def test_the_licence() -> None:
    text = " ".join((ROOT / "LICENSE").read_text(encoding="utf-8").split())
    assert text.startswith("MIT License") and "Rio Grande Games" in text
    assert "non-commercial" in text
    assert PROJECT["license"] == {"file": "LICENSE"}


def test_the_help_names_every_environment_variable_read(capsys) -> None:
    """Each KINGDOM_* variable the code reads is in `kingdom --help`, with NO_COLOR (rich's)."""
    read = {name for folder in ("kingdom", "compiler", "runtime")
            for file in (ROOT / folder).rglob("*.py")
            for name in re.findall(r'"(KINGDOM_[A-Z_]+)"', file.read_text(encoding="utf-8"))}
    assert {"KINGDOM_PATH", "KINGDOM_DEBUG"} <= read
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    environment = out[out.index("Environment:"):]
    for name in sorted(read | {"NO_COLOR"}):
        assert re.search(rf"^  {name} ", environment, re.MULTILINE), name


def test_an_option_is_named_alike_in_every_command() -> None:
    """--cards takes a PATH, --kingdom CARDS, --output a FILE, wherever they are."""
    wanted = {"cards": "PATH", "kingdom": "CARDS", "output": "FILE", "require": "CARDS",
              "exclude": "CARDS", "pick": "CARDS"}
    for name, command in COMMANDS.items():
        for action in command._actions:
            if action.option_strings and action.dest in wanted:
                assert action.metavar == wanted[action.dest], (name, action.option_strings)
