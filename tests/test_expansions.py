"""Custom expansions: manifests, the ways they are found, and the example expansions' scenarios
(each test of an example runs over every one in examples/, see example_sets.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from example_sets import EXAMPLE_IDS, EXAMPLES, Example
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.expansions import (
    ENTRY_POINT_GROUP,
    Manifest,
    discover,
    entry_point_folders,
    env_folders,
    read_manifest,
)

from kingdom.cli.main import main
from kingdom.scenarios.check import Scenario, load_file
from kingdom.scenarios.runner import run_scenario

ROOT = Path(__file__).resolve().parent.parent
BUILTIN = BUILTIN_CARDS.resolve()
each_example = pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)


def _copy_example(example: Example, dest: Path) -> Path:
    shutil.copytree(example.folder, dest,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    return dest


def _cards_of(folders: list[Path]) -> dict:
    library, diagnostics = compile_folders(folders, strict=False)
    ours = [d for d in diagnostics if BUILTIN not in Path(d.file).resolve().parents]
    assert not ours, [d.format() for d in ours]  # the built-in cards are checked elsewhere
    return {c.name: c for c in library}


@each_example
def test_manifest_is_read(example: Example) -> None:
    manifest = read_manifest(example.folder / "expansion.yaml")
    assert isinstance(manifest, Manifest)
    assert (manifest.name, manifest.version, manifest.dsl, manifest.set) == (
        example.title, "1.0.0", 1, example.set)


def test_every_example_folder_is_covered() -> None:
    folders = {p for p in (ROOT / "examples").iterdir() if (p / "expansion.yaml").is_file()}
    assert folders == {e.folder for e in EXAMPLES}


@each_example
def test_example_loads_from_a_folder(example: Example) -> None:
    cards = _cards_of(discover([example.folder], environ={}, entry_points=[]))
    assert set(cards) >= example.cards
    assert {cards[n].set for n in example.cards} == {example.set}
    assert "Village" in cards  # the built-in cards still load beside it


def _scenarios_of(example: Example) -> list[Scenario]:
    return [s for f in sorted((example.folder / "scenarios").glob("*.yaml")) for s in load_file(f)[0]]


EXAMPLE_SCENARIOS = [(e, s) for e in EXAMPLES for s in _scenarios_of(e)]


@each_example
def test_example_has_scenarios_for_every_card(example: Example) -> None:
    scenarios = _scenarios_of(example)
    assert len(scenarios) >= len(example.cards)
    text = " ".join(str(scenario.spec) for scenario in scenarios)
    assert all(name in text for name in example.cards)


@pytest.mark.parametrize("scenario", [s for _, s in EXAMPLE_SCENARIOS],
                         ids=[f"{e.set}: {s.name}" for e, s in EXAMPLE_SCENARIOS])
def test_example_scenario_passes(scenario: Scenario) -> None:
    outcome = run_scenario(scenario)
    assert outcome.passed, outcome.message


@each_example
def test_cli_check_and_list(example: Example, capsys) -> None:
    assert main(["check", str(example.folder)]) == 0
    out = capsys.readouterr().out
    assert "ok:" in out and f"expansion {example.title} 1.0.0 (dsl 1)" in out
    assert main(["list", "--cards", str(example.folder), "--set", example.set, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {c["name"] for c in listed} == example.cards
    name, cost = example.priced
    assert next(c for c in listed if c["name"] == name)["cost"] == cost


@each_example
def test_kingdom_path(example: Example, monkeypatch, tmp_path, capsys) -> None:
    other = tmp_path / "nothing-here"
    other.mkdir()
    monkeypatch.setenv("KINGDOM_PATH", os.pathsep.join([str(example.folder), str(other), ""]))
    assert env_folders() == [example.folder, other]
    assert set(_cards_of(discover(entry_points=[]))) >= example.cards
    assert main(["list", "--set", example.set, "--json"]) == 0  # no --cards: found through the variable
    assert {c["name"] for c in json.loads(capsys.readouterr().out)} == example.cards


def _fake_install(example: Example, site: Path) -> Path:
    """What `pip install examples/<name>` leaves in site-packages: the package and its dist-info."""
    package = _copy_example(example, site / example.package)
    info = site / f"{example.package}-1.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: kingdom-{example.set}\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\n{example.set} = {example.package}\n")
    return package


@each_example
def test_entry_point_of_an_installed_distribution(example: Example, monkeypatch, tmp_path) -> None:
    package = _fake_install(example, tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("KINGDOM_PATH", raising=False)
    monkeypatch.delitem(sys.modules, example.package, raising=False)
    assert package.resolve() in [p.resolve() for p in entry_point_folders()]
    cards = _cards_of(discover())
    assert set(cards) >= example.cards
    assert Path(cards[example.sample_card].source).parent.resolve() == package.resolve()


class FakeEntryPoint:
    def __init__(self, name: str, target) -> None:
        self.name, self.value, self._target = name, f"fake:{name}", target

    def load(self):
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


@each_example
def test_entry_point_forms_and_a_broken_one(example: Example) -> None:
    import types

    folder = example.folder
    module = types.ModuleType(f"{example.set}_module")
    module.__file__ = str(folder / "__init__.py")
    eps = [FakeEntryPoint("module", module), FakeEntryPoint("path", str(folder)),
           FakeEntryPoint("callable", lambda: folder), FakeEntryPoint("broken", ImportError("gone"))]
    found = entry_point_folders(eps)
    assert found == [folder, folder, folder]
    assert [(d.code, d.file) for d in found.problems] == [("K402", "<entry point broken = fake:broken>")]
    assert "ImportError: gone" in found.problems[0].message
    # the same expansion reached three ways is loaded once: no K400 clash
    folders = discover(entry_points=eps, environ={})
    assert sum(1 for f in folders if f.resolve() == folder.resolve()) == 1


@each_example
def test_a_second_copy_of_an_expansion_is_loaded_once(example: Example, tmp_path) -> None:
    copy = _copy_example(example, tmp_path / f"{example.set}-copy")
    folders = discover([example.folder, copy], environ={}, entry_points=[])
    assert copy not in folders
    assert set(_cards_of(folders)) >= example.cards


@each_example
def test_newer_dsl_manifest_is_refused_with_k401(example: Example, tmp_path, capsys) -> None:
    folder = _copy_example(example, tmp_path / "future")
    manifest = folder / "expansion.yaml"
    manifest.write_text(manifest.read_text().replace("dsl: 1", "dsl: 99"))
    library, diagnostics = compile_folders(discover([folder], environ={}, entry_points=[]),
                                           strict=False)
    diagnostics = [d for d in diagnostics if BUILTIN not in Path(d.file).resolve().parents]
    assert [d.code for d in diagnostics] == ["K401"]
    assert diagnostics[0].file == str(manifest)
    assert "DSL version 99" in diagnostics[0].message
    assert example.sample_card not in library  # none of its cards are loaded
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"{manifest}:" in err and "error[K401]" in err and "upgrade Kingdom" in err


@each_example
def test_invalid_manifest_is_k402(example: Example, tmp_path) -> None:
    folder = _copy_example(example, tmp_path / "broken")
    (folder / "expansion.yaml").write_text("name: Broken\nversion: 1\n")
    _, diagnostics = compile_folders([folder], strict=False)
    assert [d.code for d in diagnostics] == ["K402"]
    assert "missing dsl" in diagnostics[0].message


@each_example
def test_name_clash_names_both_files(example: Example, tmp_path) -> None:
    folder = tmp_path / "clash"
    folder.mkdir()
    (folder / "expansion.yaml").write_text("name: Clash\nversion: 0.1\ndsl: 1\n")
    shutil.copy(example.folder / example.sample, folder / example.sample)
    _, diagnostics = compile_folders(discover([example.folder, folder], environ={}, entry_points=[]),
                                     strict=False)
    diagnostics = [d for d in diagnostics if BUILTIN not in Path(d.file).resolve().parents]
    assert [d.code for d in diagnostics] == ["K400"]
    clash = diagnostics[0]
    assert {clash.file, clash.message.rsplit(" ", 1)[-1]} == {
        str(example.folder / example.sample), str(folder / example.sample)}


@each_example
def test_scenarios_and_build_files_are_not_cards(example: Example, tmp_path) -> None:
    folder = _copy_example(example, tmp_path / example.set)
    (folder / "build" / "lib").mkdir(parents=True)
    shutil.copy(folder / example.sample, folder / "build" / "lib" / example.sample)
    cards = _cards_of(discover([folder], environ={}, entry_points=[]))
    assert set(cards) >= example.cards


@each_example
def test_pip_install_exposes_the_entry_point(example: Example, tmp_path) -> None:
    """A real `pip install` of the example into a target folder (needs the package index)."""
    target = tmp_path / "site"
    source = _copy_example(example, tmp_path / "src")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=240)
    if done.returncode != 0:
        pytest.skip(f"pip install did not run here: {done.stderr.strip()[-300:]}")
    env = {k: v for k, v in os.environ.items() if k != "KINGDOM_PATH"}
    env["PYTHONPATH"] = str(target)
    listed = subprocess.run([sys.executable, "-m", "kingdom", "list", "--set", example.set, "--json"],
                            capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert {c["name"] for c in json.loads(listed.stdout)} == example.cards

