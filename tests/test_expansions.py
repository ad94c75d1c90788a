"""Custom expansions: manifests, the ways they are found, and the example expansion's scenarios."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import BUILTIN_CARDS, compile_folders
from compiler.expansions import (
    ENTRY_POINT_GROUP,
    Manifest,
    discover,
    entry_point_folders,
    env_folders,
    read_manifest,
)
from kingdom.cli import main
from kingdom.scenario_check import Scenario, load_file
from kingdom.scenarios import run_scenario

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "harbor"
BUILTIN = BUILTIN_CARDS.resolve()
HARBOR = {"Dockhand", "Beacon", "Toll Bridge", "Press Gang", "Warehouse District", "Low Tide",
          "High Tide", "Lighthouse Keepers", "Tide Pool"}


def _copy_example(dest: Path) -> Path:
    shutil.copytree(EXAMPLE, dest, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    return dest


def _cards_of(folders: list[Path]) -> dict:
    library, diagnostics = compile_folders(folders, strict=False)
    ours = [d for d in diagnostics if BUILTIN not in Path(d.file).resolve().parents]
    assert not ours, [d.format() for d in ours]  # the built-in cards are checked elsewhere
    return {c.name: c for c in library}


def test_manifest_is_read() -> None:
    manifest = read_manifest(EXAMPLE / "expansion.yaml")
    assert isinstance(manifest, Manifest)
    assert (manifest.name, manifest.version, manifest.dsl, manifest.set) == (
        "Harbor Towns", "1.0.0", 1, "harbor")


def test_example_loads_from_a_folder() -> None:
    cards = _cards_of(discover([EXAMPLE], environ={}, entry_points=[]))
    assert set(cards) >= HARBOR
    assert {cards[n].set for n in HARBOR} == {"harbor"}
    assert "Village" in cards  # the built-in cards still load beside it


EXAMPLE_SCENARIOS = [s for f in sorted((EXAMPLE / "scenarios").glob("*.yaml"))
                     for s in load_file(f)[0]]


def test_example_has_scenarios_for_every_card() -> None:
    assert len(EXAMPLE_SCENARIOS) >= len(HARBOR)
    text = " ".join(str(scenario.spec) for scenario in EXAMPLE_SCENARIOS)
    assert all(name in text for name in HARBOR)


@pytest.mark.parametrize("scenario", EXAMPLE_SCENARIOS, ids=[s.name for s in EXAMPLE_SCENARIOS])
def test_example_scenario_passes(scenario: Scenario) -> None:
    outcome = run_scenario(scenario)
    assert outcome.passed, outcome.message


def test_cli_check_and_list(capsys) -> None:
    assert main(["check", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "ok:" in out and "expansion Harbor Towns 1.0.0 (dsl 1)" in out
    assert main(["list", "--cards", str(EXAMPLE), "--set", "harbor", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {c["name"] for c in listed} == HARBOR
    toll = next(c for c in listed if c["name"] == "Toll Bridge")
    assert toll["cost"] == {"coins": 4, "overpay": True}


def test_kingdom_path(monkeypatch, tmp_path, capsys) -> None:
    other = tmp_path / "nothing-here"
    other.mkdir()
    monkeypatch.setenv("KINGDOM_PATH", os.pathsep.join([str(EXAMPLE), str(other), ""]))
    assert env_folders() == [EXAMPLE, other]
    assert set(_cards_of(discover(entry_points=[]))) >= HARBOR
    assert main(["list", "--set", "harbor", "--json"]) == 0  # no --cards: found through the variable
    assert {c["name"] for c in json.loads(capsys.readouterr().out)} == HARBOR


def _fake_install(site: Path) -> Path:
    """What `pip install examples/harbor` leaves in site-packages: the package and its dist-info."""
    package = _copy_example(site / "kingdom_harbor")
    info = site / "kingdom_harbor-1.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kingdom-harbor\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nharbor = kingdom_harbor\n")
    return package


def test_entry_point_of_an_installed_distribution(monkeypatch, tmp_path) -> None:
    package = _fake_install(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("KINGDOM_PATH", raising=False)
    monkeypatch.delitem(sys.modules, "kingdom_harbor", raising=False)
    assert package.resolve() in [p.resolve() for p in entry_point_folders()]
    cards = _cards_of(discover())
    assert set(cards) >= HARBOR
    assert Path(cards["Dockhand"].source).parent.resolve() == package.resolve()


class FakeEntryPoint:
    def __init__(self, name: str, target) -> None:
        self.name, self.value, self._target = name, f"fake:{name}", target

    def load(self):
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_entry_point_forms_and_a_broken_one() -> None:
    import types

    module = types.ModuleType("harbor_module")
    module.__file__ = str(EXAMPLE / "__init__.py")
    eps = [FakeEntryPoint("module", module), FakeEntryPoint("path", str(EXAMPLE)),
           FakeEntryPoint("callable", lambda: EXAMPLE), FakeEntryPoint("broken", ImportError("gone"))]
    found = entry_point_folders(eps)
    assert found == [EXAMPLE, EXAMPLE, EXAMPLE]
    assert [(d.code, d.file) for d in found.problems] == [("K402", "<entry point broken = fake:broken>")]
    assert "ImportError: gone" in found.problems[0].message
    # the same expansion reached three ways is loaded once: no K400 clash
    folders = discover(entry_points=eps, environ={})
    assert sum(1 for f in folders if f.resolve() == EXAMPLE.resolve()) == 1


def test_a_second_copy_of_an_expansion_is_loaded_once(tmp_path) -> None:
    copy = _copy_example(tmp_path / "harbor-copy")
    folders = discover([EXAMPLE, copy], environ={}, entry_points=[])
    assert copy not in folders
    assert set(_cards_of(folders)) >= HARBOR


def test_newer_dsl_manifest_is_refused_with_k401(tmp_path, capsys) -> None:
    folder = _copy_example(tmp_path / "future")
    manifest = folder / "expansion.yaml"
    manifest.write_text(manifest.read_text().replace("dsl: 1", "dsl: 99"))
    library, diagnostics = compile_folders(discover([folder], environ={}, entry_points=[]),
                                           strict=False)
    diagnostics = [d for d in diagnostics if BUILTIN not in Path(d.file).resolve().parents]
    assert [d.code for d in diagnostics] == ["K401"]
    assert diagnostics[0].file == str(manifest)
    assert "DSL version 99" in diagnostics[0].message
    assert "Dockhand" not in library  # none of its cards are loaded
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"{manifest}:" in err and "error[K401]" in err and "upgrade Kingdom" in err


def test_invalid_manifest_is_k402(tmp_path) -> None:
    folder = _copy_example(tmp_path / "broken")
    (folder / "expansion.yaml").write_text("name: Broken\nversion: 1\n")
    _, diagnostics = compile_folders([folder], strict=False)
    assert [d.code for d in diagnostics] == ["K402"]
    assert "missing dsl" in diagnostics[0].message


def test_name_clash_names_both_files(tmp_path) -> None:
    folder = tmp_path / "clash"
    folder.mkdir()
    (folder / "expansion.yaml").write_text("name: Clash\nversion: 0.1\ndsl: 1\n")
    shutil.copy(EXAMPLE / "dockhand.yaml", folder / "dockhand.yaml")
    _, diagnostics = compile_folders(discover([EXAMPLE, folder], environ={}, entry_points=[]),
                                     strict=False)
    diagnostics = [d for d in diagnostics if BUILTIN not in Path(d.file).resolve().parents]
    assert [d.code for d in diagnostics] == ["K400"]
    clash = diagnostics[0]
    assert {clash.file, clash.message.rsplit(" ", 1)[-1]} == {
        str(EXAMPLE / "dockhand.yaml"), str(folder / "dockhand.yaml")}


def test_scenarios_and_build_files_are_not_cards(tmp_path) -> None:
    folder = _copy_example(tmp_path / "harbor")
    (folder / "build" / "lib").mkdir(parents=True)
    shutil.copy(folder / "beacon.yaml", folder / "build" / "lib" / "beacon.yaml")
    cards = _cards_of(discover([folder], environ={}, entry_points=[]))
    assert set(cards) >= HARBOR


def test_pip_install_exposes_the_entry_point(tmp_path) -> None:
    """A real `pip install` of the example into a target folder (needs the package index)."""
    target = tmp_path / "site"
    source = _copy_example(tmp_path / "src")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=240)
    if done.returncode != 0:
        pytest.skip(f"pip install did not run here: {done.stderr.strip()[-300:]}")
    env = {k: v for k, v in os.environ.items() if k != "KINGDOM_PATH"}
    env["PYTHONPATH"] = str(target)
    listed = subprocess.run([sys.executable, "-m", "kingdom.cli", "list", "--set", "harbor", "--json"],
                            capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert {c["name"] for c in json.loads(listed.stdout)} == HARBOR
