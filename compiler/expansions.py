"""Custom expansions: folders of card files with an `expansion.yaml` manifest, and how they are found.

An expansion is a folder of YAML card files (subfolders allowed) with a small manifest:

    # expansion.yaml
    name: Harbor Towns      # shown by `kingdom list` and in rule summaries
    version: 1.0.0
    dsl: 1                  # the DSL version its cards are written in
    set: harbor             # optional: the set id of its cards (default: the folder's name)

Files named `expansion.yaml` and anything under `scenarios/` (or `build/`, `dist/`, hidden and
`.egg-info` folders) are not card files.
A folder without a manifest still loads (as a plain card folder).

Folders are found, in this order (the first of two copies of one expansion wins):

1. the built-in cards;
2. folders given explicitly (`kingdom check PATH`, `--cards PATH`, a scenario's `expansions:`);
3. the `KINGDOM_PATH` environment variable (folders separated by `os.pathsep`);
4. installed Python packages declaring an entry point in the group `kingdom.expansions`.
   The entry point names a module (its folder is the expansion), a path, or a callable
   returning a path.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from compiler.errors import Diagnostic

MANIFEST = "expansion.yaml"
ENTRY_POINT_GROUP = "kingdom.expansions"
ENV_VAR = "KINGDOM_PATH"
NOT_CARDS = {"scenarios", "build", "dist"}  # subfolders of an expansion that hold no card files


@dataclass
class Manifest:
    """What an `expansion.yaml` says."""

    file: Path
    name: str
    version: str
    dsl: int
    set: str | None = None
    description: str = ""

    @property
    def folder(self) -> Path:
        return self.file.parent


def read_manifest(file: Path) -> Manifest | Diagnostic:
    """Read one manifest; a K401 diagnostic when its DSL version is newer than ours, K402 if invalid."""
    from compiler.card import DSL_VERSION

    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        return Diagnostic("K402", f"cannot read the expansion manifest: {exc}", str(file))
    if not isinstance(data, dict):
        return Diagnostic("K402", "an expansion manifest must be a mapping with name, version "
                          "and dsl", str(file))
    missing = [k for k in ("name", "version", "dsl") if k not in data]
    if missing:
        return Diagnostic("K402", f"expansion manifest is missing {', '.join(missing)}", str(file),
                          hint="write name, version and dsl, e.g. `dsl: 1`")
    dsl = data["dsl"]
    if not isinstance(dsl, int) or isinstance(dsl, bool) or dsl < 1:
        return Diagnostic("K402", f"expansion manifest: dsl must be a positive integer, "
                          f"not {dsl!r}", str(file), _line_of(file, "dsl"))
    if dsl > DSL_VERSION:
        return Diagnostic("K401", f"expansion '{data['name']}' is written for DSL version {dsl}; "
                          f"this Kingdom reads version {DSL_VERSION} and older", str(file),
                          _line_of(file, "dsl"), hint="upgrade Kingdom to load this expansion")
    unknown = sorted(set(data) - {"name", "version", "dsl", "set", "description"})
    if unknown:
        return Diagnostic("K402", f"unknown key '{unknown[0]}' in the expansion manifest", str(file),
                          _line_of(file, unknown[0]),
                          hint="a manifest has name, version, dsl, and optionally set, description")
    set_id = data.get("set")
    return Manifest(file, str(data["name"]), str(data["version"]), dsl,
                    str(set_id) if set_id else None, str(data.get("description") or ""))


def _line_of(file: Path, key: str) -> int:
    try:
        for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            if line.startswith(f"{key}:"):
                return n
    except OSError:
        pass
    return 1


def manifests(folder: Path) -> list[Manifest | Diagnostic]:
    """Every manifest in `folder` and below it."""
    if not folder.is_dir():
        return []
    return [read_manifest(f) for f in sorted(folder.rglob(MANIFEST)) if f.is_file()]


def folder_cards(folder: Path) -> tuple[list[tuple[Path, str]], list[Diagnostic]]:
    """The card files of one folder, each with its default set id, and manifest problems.

    A folder (or subfolder) whose manifest is refused contributes no cards.
    """
    folder = Path(folder)
    if not folder.exists():
        return [], [Diagnostic("K402", "no such card folder", str(folder))]
    if folder.is_file():
        return [(folder, folder.parent.name)], []
    diagnostics: list[Diagnostic] = []
    accepted: dict[Path, Manifest] = {}
    refused: list[Path] = []
    for found in manifests(folder):
        if isinstance(found, Diagnostic):
            diagnostics.append(found)
            refused.append(Path(found.file).parent)
        else:
            accepted[found.folder] = found
    files = []
    for file in sorted(p for p in folder.rglob("*.yaml") if p.is_file()):
        if file.name == MANIFEST:
            continue
        parts = file.relative_to(folder).parts[:-1]
        if any(p in NOT_CARDS or p.startswith(".") or p.endswith(".egg-info") for p in parts):
            continue
        if any(r == file.parent or r in file.parents for r in refused):
            continue
        owner = next((accepted[p] for p in (file.parent, *file.parents) if p in accepted), None)
        if owner is not None and owner.set:
            set_name = owner.set
        else:
            set_name = file.parent.name if file.parent != folder else folder.name
        files.append((file, set_name))
    return files, diagnostics


# ------------------------------------------------------------------------------ discovery
def env_folders(environ: dict[str, str] | None = None) -> list[Path]:
    """The folders named by KINGDOM_PATH."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "")
    return [Path(p).expanduser() for p in value.split(os.pathsep) if p.strip()]


def entry_point_folders(entry_points: Iterable[Any] | None = None) -> list[Path]:
    """The folders of installed packages that declare a `kingdom.expansions` entry point.

    A broken entry point is reported on stderr and skipped, so one bad package does not stop
    every command.
    """
    if entry_points is None:
        return list(_installed_folders(tuple(sys.path)))
    folders = []
    for ep in entry_points:
        try:
            folders.append(_entry_point_path(ep.load()))
        except Exception as exc:  # an installed package's fault, not the user's command
            print(f"warning: skipping expansion entry point '{ep.name}' ({ep.value}): {exc}",
                  file=sys.stderr)
    return folders


@functools.lru_cache(maxsize=8)
def _installed_folders(path_key: tuple[str, ...]) -> tuple[Path, ...]:
    """Installed expansions, looked up once per `sys.path` (scenario runs ask for each scenario)."""
    return tuple(entry_point_folders(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)))


def _entry_point_path(obj: Any) -> Path:
    if isinstance(obj, str | os.PathLike):
        return Path(obj)
    if hasattr(obj, "__path__") or hasattr(obj, "__file__"):  # a module or package
        file = getattr(obj, "__file__", None)
        return Path(file).parent if file else Path(next(iter(obj.__path__)))
    if callable(obj):
        return Path(obj())
    raise TypeError(f"expected a module, a path or a callable, got {type(obj).__name__}")


def discover(extra: Iterable[str | Path] = (), *, builtin: bool = True,
             environ: dict[str, str] | None = None,
             entry_points: Iterable[Any] | None = None) -> list[Path]:
    """Every card folder to load: built-in, `extra`, KINGDOM_PATH, then installed packages.

    A folder reached twice, or a second copy of an expansion with the same manifest name
    (a folder given explicitly and the same expansion pip-installed), is loaded once.
    """
    from compiler.build import BUILTIN_CARDS

    candidates = [*([BUILTIN_CARDS] if builtin else []), *map(Path, extra),
                  *env_folders(environ), *entry_point_folders(entry_points)]
    out: list[Path] = []
    seen_paths: set[Path] = set()
    seen_names: set[str] = set()
    for folder in candidates:
        resolved = folder.resolve()
        if resolved in seen_paths:
            continue
        seen_paths.add(resolved)
        manifest = folder / MANIFEST
        if manifest.is_file():
            found = read_manifest(manifest)
            if isinstance(found, Manifest):
                if found.name in seen_names:
                    continue
                seen_names.add(found.name)
        out.append(folder)
    return out


def load_library(extra: Iterable[str | Path] = (), strict: bool = True, **kwargs: Any):
    """Compile every discovered folder: (Library, diagnostics)."""
    from compiler.build import compile_folders

    return compile_folders(discover(extra, **kwargs), strict=strict)


def installed() -> list[Manifest]:
    """The manifests of every expansion found outside the built-in cards (for `kingdom list`)."""
    out = []
    for folder in discover(builtin=False):
        for found in manifests(folder):
            if isinstance(found, Manifest):
                out.append(found)
    return out
