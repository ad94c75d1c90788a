"""Hostile arguments to every `kingdom` command, run as the user runs them (subprocesses): no
traceback, the documented exit status (README, Commands), and a message saying what would do."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from kingdom.compiler.texts import printable

from kingdom.cli import main as cli
from kingdom.cli import schema

ROOT = Path(__file__).resolve().parent.parent
SIM = ["simulate", "--games", "2", "--no-progress"]  # few games: the checks come first anyway


def kingdom(*args: str, **kwargs) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_DEBUG", "KINGDOM_PATH")}
    kwargs = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.Popen([sys.executable, "-m", "kingdom", *args], cwd=ROOT, env=env,
                            text=True, **kwargs)


# (id, arguments; "{tmp}" is a scratch folder, "{empty}" an empty one), status, words in stderr
CASES = [
    ("no command", [], 2, "usage: kingdom"),
    ("unknown command", ["nosuch"], 2, "invalid choice"),
    ("a wrong option", ["render", "--nosuch"], 2, "usage: kingdom render [-h]"),
    ("a wrong option after a value", ["test", "tests/scenarios", "--junt", "x"], 2, "usage: kingdom test"),
    ("check /dev/null", ["check", "/dev/null"], 2, "not a card file (*.yaml) or a folder"),
    ("check a missing path", ["check", "/no/such/cards"], 2, "no such file or folder"),
    ("check a folder without cards", ["check", "{empty}"], 2, "no card files (*.yaml)"),
    ("check a non-card file", ["check", "README.md"], 2, "not a card file"),
    ("list an unknown set", ["list", "--set", "nosuch"], 2, "unknown set 'nosuch' (sets: "),
    ("list a misspelt set", ["list", "--set", "bas"], 2, "did you mean 'base'?"),
    ("list --cards missing", ["list", "--cards", "/no/such/cards"], 2, "no such file or folder"),
    ("show an unknown card", ["show", "Smithee"], 2, "unknown card 'Smithee'; did you mean 'Smithy'?"),
    ("show an empty name", ["show", ""], 2, "unknown card ''"),
    ("schema with an argument", ["schema", "extra"], 2, "unrecognized arguments: extra"),
    ("test a missing path", ["test", "/no/such/scenarios"], 2, "no such file or folder"),
    ("test a folder without scenarios", ["test", "{empty}"], 2, "no scenario files (*.yaml)"),
    ("test /dev/null", ["test", "/dev/null"], 2, "not a scenario file"),
    ("demo unknown card", ["demo", "--kingdom", "Nope"], 2, "unknown card 'Nope'"),
    ("demo negative lines", ["demo", "--lines", "-1"], 2, "--lines: expected a whole number of 0 or more"),
    ("demo negative seed", ["demo", "--seed", "-3"], 2, "--seed: expected a whole number of 0 or more"),
    ("1 player", [*SIM, "--players", "1"], 2, "--players: expected a whole number from 2 to 6, not 1"),
    ("7 players", [*SIM, "--players", "7"], 2, "from 2 to 6, not 7"),
    ("100 players", [*SIM, "--players", "100"], 2, "from 2 to 6, not 100"),
    ("-2 players", [*SIM, "--players", "-2"], 2, "from 2 to 6, not -2"),
    ("7 bots", [*SIM, "--bots", ",".join(["big-money"] * 7)], 2, "7 bots but a game has 2 to 6 players"),
    ("no bots", [*SIM, "--bots", ","], 2, "--bots needs at least one bot"),
    ("unknown bot", [*SIM, "--bots", "big-mony"], 2, "unknown bot 'big-mony'"),
    ("missing bot file", [*SIM, "--bots", "/no/such/bot.yaml"], 2, "/no/such/bot.yaml"),
    ("zero games", ["simulate", "--games", "0"], 2, "--games: expected a whole number from 1"),
    ("negative games", ["simulate", "--games", "-5"], 2, "--games: expected a whole number from 1"),
    ("games not a number", ["simulate", "--games", "many"], 2, "not 'many'"),
    ("zero jobs", [*SIM, "--jobs", "0"], 2, "--jobs: expected a whole number from 1 to 64"),
    ("negative seed", [*SIM, "--seed", "-1"], 2, "--seed: expected a whole number of 0 or more"),
    ("zero max turns", [*SIM, "--max-turns", "0"], 2, "--max-turns: expected a whole number from 1"),
    ("endless max turns", [*SIM, "--max-turns", "1000000000"], 2, "from 1 to 10,000, not 1000000000"),
    ("random from no such set", [*SIM, "--kingdom", "random", "--sets", "nosuch"], 2,
     "unknown set 'nosuch' (sets with Kingdom cards: "),
    ("--sets without random", [*SIM, "--kingdom", "Smithy", "--sets", "base"], 2,
     "--sets goes with --kingdom random"),
    ("a pile twice", [*SIM, "--kingdom", "Smithy,smithy"], 2, "'Smithy' is named twice"),
    ("an Ally as a pile", [*SIM, "--kingdom", "City-state"], 2,
     "'City-state' is an Ally, not a Kingdom pile"),
    ("a split-pile member", [*SIM, "--kingdom", "Voyage"], 2,
     "'Voyage' is one card of the split pile 'Odysseys', not a pile: name 'Odysseys'"),
    ("a basic card as a pile", [*SIM, "--kingdom", "Copper"], 2, "'Copper' is a basic card"),
    ("unknown Kingdom card", [*SIM, "--kingdom", "Vilage"], 2, "did you mean 'Village'?"),
    ("plot into a missing folder", [*SIM, "--plot", "/no/such/dir/p.png"], 2,
     "--plot: no such folder '/no/such/dir'"),
    ("plot onto a folder", [*SIM, "--plot", "{tmp}"], 2, "is a folder; give a file name in it"),
    ("plot without an image suffix", [*SIM, "--plot", "{tmp}/plot"], 2, "end the name with one"),
    ("render neither set nor kingdom", ["render"], 2, "give one of --set SET, --kingdom"),
    ("render an unknown set", ["render", "--set", "nosuch"], 2, "unknown set 'nosuch'"),
    ("render output into a missing folder", ["render", "--set", "base", "-o", "/no/such/dir/b.html"],
     2, "--output/-o: no such folder '/no/such/dir'"),
    ("render output onto a folder", ["render", "--set", "base", "-o", "{tmp}"], 2, "is a folder"),
    ("render rules pointing nowhere", ["render", "--set", "base", "--rules", "/no/such/rules"], 2,
     "--rules: no such folder"),
    ("render rules without rules files", ["render", "--set", "base", "--rules", "{empty}"], 2,
     "no rules files (*.txt)"),
    ("render an Ally in the Kingdom", ["render", "--kingdom", "Village,City-state"], 2,
     "is an Ally, not a Kingdom pile (give it with --ally)"),
    ("render a misspelt Ally", ["render", "--kingdom", "Village", "--ally", "city stat"], 2,
     "did you mean 'City-state'?"),
    ("render --ally with --set", ["render", "--set", "base", "--ally", "City-state"], 2,
     "--ally goes with --kingdom"),
    ("render an empty Kingdom", ["render", "--kingdom", ","], 2, "--kingdom needs at least one card"),
    ("render an unknown format", ["render", "--set", "base", "--format", "docx"], 2, "invalid choice"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, tuple[int, str]]:
    """Every case, run a few at a time: (status, stderr) by id."""
    tmp = tmp_path_factory.mktemp("hostile")
    empty = str(tmp_path_factory.mktemp("empty"))

    def run(case) -> tuple[int, str]:
        args = [a.replace("{tmp}", str(tmp)).replace("{empty}", empty) for a in case[1]]
        process = kingdom(*args)
        _out, err = process.communicate(timeout=120)
        return process.returncode, err

    with ThreadPoolExecutor(4) as pool:
        return dict(zip([c[0] for c in CASES], pool.map(run, CASES), strict=True))


@pytest.mark.parametrize(("name", "status", "message"), [(c[0], c[2], c[3]) for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_arguments_are_refused_with_a_message(outcomes, name, status, message) -> None:
    code, err = outcomes[name]
    assert "Traceback" not in err
    assert code == status, err
    assert message in err


def test_good_arguments_in_any_case(tmp_path) -> None:
    out, _ = kingdom("show", "remodel").communicate(timeout=120)
    assert out.startswith("Remodel  ($4)  Action")
    version = kingdom("--version")
    assert version.communicate(timeout=60)[0].startswith("kingdom ") and version.returncode == 0
    plot = tmp_path / "p.png"
    run = kingdom(*SIM, "--kingdom", "smithy,odysseys", "--json", "--plot", str(plot))
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert '"kingdom": "Smithy, Odysseys"' in out and plot.stat().st_size > 0


def test_closed_pipe_stops_quietly() -> None:
    """`kingdom list | head -1`: 141 (128 + SIGPIPE) and nothing on stderr; the same for the
    rich tables of simulate. The reader closes before anything is written, so the pipe breaks."""
    for args in (["list"], [*SIM, "--games", "20"]):
        process = kingdom(*args)
        process.stdout.close()
        err = process.stderr.read()
        assert process.wait(timeout=120) == cli.BROKEN_PIPE, err
        assert err == ""


def test_head_reading_one_line() -> None:
    """The pipe of the README: head takes one line and goes; the rest is dropped quietly."""
    process = kingdom("list")
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) in (0, cli.BROKEN_PIPE)
    assert "cards" in first and err == ""


def test_internal_error_is_one_line(monkeypatch, capsys) -> None:
    def broken(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(schema, "run", broken)
    monkeypatch.delenv("KINGDOM_DEBUG", raising=False)
    assert cli.main(["schema"]) == cli.INTERNAL
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: a bug; please report" in err
    monkeypatch.setenv("KINGDOM_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main(["schema"])


def test_control_characters_are_escaped() -> None:
    assert printable("Evil\x1b[31m\u202eCard\x07") == "Evil\\x1b[31m\\u202eCard\\x07"
    assert printable("line one\nline\ttwo\r", lines=True) == "line one\nline\ttwo\\r"
    assert printable("a\nb") == "a\\nb"  # a name stays on one line


def test_hostile_card_name_cannot_reach_the_terminal(tmp_path) -> None:
    """A card named with an escape sequence is refused by the compiler or printed escaped."""
    (tmp_path / "evil.yaml").write_text(
        'dsl: 1\nname: "Evil\\e[2J[bold]Card"\ncost: 2\ntypes: [Action]\nplay: +1 card\n')
    for args in (["list", "--cards", str(tmp_path)],
                 ["show", "evil\x1b[2j[bold]card", "--cards", str(tmp_path)]):
        process = kingdom(*args)
        out, err = process.communicate(timeout=120)
        assert "\x1b" not in out and "Traceback" not in err
        # (the loader refuses the text: `list` then warns and goes on, `show` fails: the card
        # did not compile, or no card has that name)
        refused = process.returncode in ((0,) if args[0] == "list" else (1, 2)) and "warning[K116]" in err
        assert refused or (process.returncode == 0 and "Evil\\x1b[2J[bold]Card" in out)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["show", "Militia"], ["list"], ["phrases"]])
def test_output_to_a_full_disk_is_said_with_its_own_status(args) -> None:
    """`> /dev/full` ended in exit 70, an internal error with its OSError."""
    with open("/dev/full", "w") as full:
        run = kingdom(*args, stdout=full)
        _out, err = run.communicate(timeout=120)
    assert run.returncode == cli.CANNOT_WRITE == 74
    assert err == "kingdom: cannot write the output: No space left on device\n"
