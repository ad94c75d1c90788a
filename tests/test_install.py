"""The installed package is one name, `kingdom`, and works away from the source tree.

The repository keeps its top-level folders (compiler/, runtime/, grammar/, cards/) and
pyproject.toml maps them under `kingdom`; these tests build the real wheel contents with pip and
check that nothing else lands in site-packages, and that the listed packages cover every folder
the mapping ships.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {"kingdom": "kingdom", "kingdom.compiler": "compiler", "kingdom.runtime": "runtime",
          "kingdom.grammar": "grammar", "kingdom.cards": "cards"}
SHIPPED = {".py", ".yaml", ".lark", ".json", ".j2"}


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_the_package_dir_mapping_is_the_one_documented() -> None:
    assert _config()["package-dir"] == MAPPED


def test_every_shipped_folder_is_a_listed_package() -> None:
    """A new folder (say compiler/structure/) must be listed, or the wheel would leave it out."""
    listed = set(_config()["packages"])
    wanted = set()
    for package, folder in MAPPED.items():
        for sub in [ROOT / folder, *(p for p in (ROOT / folder).rglob("*") if p.is_dir())]:
            if "__pycache__" in sub.parts or not any(f.suffix in SHIPPED for f in sub.iterdir()):
                continue
            if folder == "cards" and sub != ROOT / folder:  # (card sets: package data of kingdom.cards)
                continue
            relative = sub.relative_to(ROOT / folder).parts
            wanted.add(".".join((package, *relative)))
    assert wanted - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - wanted == set(), "these listed packages have no folder"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """`pip install` of a copy of the project into a target folder (without dependencies: the
    test environment has them)."""
    tmp = tmp_path_factory.mktemp("install")
    source = tmp / "src"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file() and name.split("/")[0] in {*MAPPED.values(), "pyproject.toml",
                                                               "README.md"}:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    target = tmp / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"pip install failed: {done.stderr.strip()[-600:]}")
    return target


def test_pip_install_puts_only_kingdom_into_site_packages(installed: Path) -> None:
    names = {p.name for p in installed.iterdir()} - {"bin"}  # (--target's console scripts)
    assert {n for n in names if not n.endswith(".dist-info")} == {"kingdom"}
    assert {n for n in names if n.endswith(".dist-info")} == {"kingdom-0.1.0.dist-info"}


def test_the_studio_page_and_codemirror_are_installed(installed: Path) -> None:
    """Kingdom Studio serves its page and editor from the package, never from the network."""
    static = installed / "kingdom" / "studio" / "static"
    for name in ("index.html", "studio.js", "studio.css", "codemirror/codemirror.js",
                 "codemirror/codemirror.css", "codemirror/yaml.js", "codemirror/show-hint.js",
                 "codemirror/lint.js", "codemirror/LICENSE"):
        assert (static / name).is_file(), name
    assert "MIT License" in (static / "codemirror" / "LICENSE").read_text()


def test_the_installed_package_works_from_another_folder(installed: Path, tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = str(installed)

    def kingdom(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kingdom", *args], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)

    code = "import kingdom.compiler; print(kingdom.compiler.__file__)"
    where = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=60)
    assert where.stdout.startswith(str(installed)), where.stdout + where.stderr
    checked = kingdom("check")
    assert checked.returncode == 0, checked.stderr
    shown = kingdom("show", "Militia")
    assert shown.returncode == 0 and "Each other player discards down to 3 cards in hand." in shown.stdout
    played = kingdom("simulate", "--kingdom", "Smithy,Village", "--bots", "big-money,smithy-big-money",
                     "--games", "2", "--seed", "1")
    assert played.returncode == 0, played.stderr
    (tmp_path / "out.md").unlink(missing_ok=True)
    rendered = kingdom("render", "--set", "base", "--format", "md", "--output", "out.md")
    assert rendered.returncode == 0, rendered.stderr
    assert "Militia" in (tmp_path / "out.md").read_text()


def test_the_installed_package_has_the_accessibility_notes(installed: Path, tmp_path) -> None:
    """Shipped with the cards, they reach a Kingdom sheet and `play`'s setup without any rules
    folder beside the package."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("KINGDOM_PATH", "PYTHONPATH", "KINGDOM_RULES")}
    env["PYTHONPATH"] = str(installed)
    assert sorted(p.parent.name for p in (installed / "kingdom" / "cards").glob("*/accessibility.txt")) \
        == ["allies", "cornucopia-guilds"]

    def kingdom(*args: str, feed: str = "") -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kingdom", *args], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300, input=feed)

    sheet = kingdom("render", "--kingdom", "Young Witch,Baker,Village", "--layout", "sheet",
                    "--format", "md", "--output", "sheet.md")
    assert sheet.returncode == 0, sheet.stderr
    text = (tmp_path / "sheet.md").read_text()
    assert "which pile is the Bane" in text and "every change of a player's Coffers" in text
    assert "Ferryman" not in text  # (only the notes about the sheet's cards)
    played = kingdom("play", "--kingdom", "Baker,Young Witch", "--bots", "big-money", "--plain",
                     "--save", "game.json", feed="quit\n")
    assert played.returncode == 0, played.stderr
    assert "Said aloud in this game: " in played.stdout
    assert "every change of a player's Coffers is said" in played.stdout
