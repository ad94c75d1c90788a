"""`kingdom completion bash|zsh|fish`: the scripts are run in the shells themselves, as a shell
runs them when Tab is pressed (bash: COMP_WORDS and COMP_CWORD set, the function called)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kingdom.cli.main import build_parser

BASH_CALL = """source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kingdom
printf '%s\\n' "${COMPREPLY[@]}"
"""


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> dict[str, Path]:
    """Each shell's script, as `python -m kingdom completion SHELL` prints it."""
    folder = tmp_path_factory.mktemp("completion")
    found = {}
    for shell in ("bash", "zsh", "fish"):
        done = subprocess.run([sys.executable, "-m", "kingdom", "completion", shell],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        found[shell] = folder / f"kingdom.{shell}"
        found[shell].write_text(done.stdout)
    return found


def _commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def _bash(script: Path, *words: str) -> list[str]:
    """What bash offers for the command line `words` (the last one being completed)."""
    done = subprocess.run(["bash", "-c", BASH_CALL, "bash", str(script), *words],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_bash_completes_commands_options_choices_and_cards(scripts) -> None:
    bash = scripts["bash"]
    assert _bash(bash, "kingdom", "re") == ["render"]
    assert set(_bash(bash, "kingdom", "")) == {*_commands(), "--help", "--version"}
    assert _bash(bash, "kingdom", "render", "--la") == ["--layout"]
    assert _bash(bash, "kingdom", "render", "--layout", "") == ["summary", "sheet", "proxies", "dividers"]
    assert _bash(bash, "kingdom", "show", "Young") == ["Young\\ Witch"]  # quoted as bash wants it
    assert _bash(bash, "kingdom", "show", "Architects") == ["Architects\\'\\ Guild"]
    assert _bash(bash, "kingdom", "render", "--kingdom", "Village,Smi") == ["Village,Smithy"]
    assert _bash(bash, "kingdom", "kingdom", "--require", "Young\\ Witch,Throne") == \
        ["Young\\ Witch,Throne\\ Room"]
    assert "Copper" not in _bash(bash, "kingdom", "kingdom", "--exclude", "C")  # Kingdom piles only
    assert "Copper" in _bash(bash, "kingdom", "show", "C")  # any card
    assert _bash(bash, "kingdom", "render", "--pick", "Village,Cop") == \
        ["Village,Copper", "Village,Coppersmith"]  # any card
    assert _bash(bash, "kingdom", "simulate", "--ally", "City") == ["City-state"]
    assert _bash(bash, "kingdom", "kingdom", "--sets", "cor") == ["cornucopia-guilds"]
    assert _bash(bash, "kingdom", "completion", "") == ["bash", "zsh", "fish"]
    assert _bash(bash, "kingdom", "render", "--seed", "") == []  # a number: nothing to offer


def test_every_option_of_every_command_is_offered(scripts) -> None:
    """The script is made from the parser: an option added to a command is completed at once."""
    for name, parser in _commands().items():
        options = {o for a in parser._actions for o in a.option_strings}
        assert set(_bash(scripts["bash"], "kingdom", name, "-")) == options, name


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_runs_the_bash_completion(scripts) -> None:
    call = ('source "$1"; emulate sh; COMP_WORDS=(kingdom render --kingdom Village,Smi); '
            'COMP_CWORD=3; _kingdom; print -rl -- "${COMPREPLY[@]}"')
    done = subprocess.run(["zsh", "-c", call, "zsh", str(scripts["zsh"])], capture_output=True,
                          text=True, timeout=30)
    assert done.stdout.split() == ["Village,Smithy"], done.stderr


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_commands_choices_and_cards(scripts) -> None:
    def fish(line: str) -> list[str]:
        done = subprocess.run(["fish", "-c", f'source {scripts["fish"]}; complete -C "{line}"'],
                              capture_output=True, text=True, timeout=30)
        assert not done.stderr, done.stderr
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    assert fish("kingdom re") == ["render"]
    assert fish("kingdom render --layout ") == ["dividers", "proxies", "sheet", "summary"]
    assert fish("kingdom show Young") == ["Young Witch"]
    assert fish("kingdom render --kingdom Village,Smi") == ["Village,Smithy"]
    assert "--paper" in fish("kingdom render --pa")


SYNTAX_CHECKS = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}


@pytest.mark.parametrize("shell", SYNTAX_CHECKS)
def test_each_script_is_valid_in_its_shell(scripts, shell) -> None:
    """Each script passes its shell's own syntax check (read, nothing run); CI installs zsh and
    fish (.ci/run), so only a machine without them skips, saying which shell is missing."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed: its script's syntax is not checked here")
    text = scripts[shell].read_text()
    assert text.startswith(f"# kingdom completion for {shell}") and "_kingdom" in text
    done = subprocess.run([*SYNTAX_CHECKS[shell], str(scripts[shell])], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0 and not done.stderr, done.stderr
    broken = scripts[shell].with_suffix(".broken")  # (the check does refuse a broken script)
    broken.write_text(text + "\nif then fi end (\n")
    assert subprocess.run([*SYNTAX_CHECKS[shell], str(broken)], capture_output=True,
                          timeout=30).returncode != 0
