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

Symbolic links to folders are followed (each real folder once). A broken expansion (a manifest
refused, an entry point that fails or names no folder, a second expansion of a name already
taken) is an error for `kingdom check`; other commands warn once on stderr and skip it.
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

from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.files import not_regular, read_bytes
from kingdom.compiler.loader import MAX_BYTES, load_yaml
from kingdom.compiler.names import visible_name_problem
from kingdom.compiler.texts import PARAGRAPH_LENGTH, TITLE_LENGTH, text_problem

BUILTIN_CARDS = Path(__file__).resolve().parent.parent / "cards"  # (kingdom.cards when installed)
MANIFEST = "expansion.yaml"
ENTRY_POINT_GROUP = "kingdom.expansions"
ENV_VAR = "KINGDOM_PATH"
NOT_CARDS = {"scenarios", "build", "dist"}  # subfolders of an expansion that hold no card files
MAX_ENTRIES = 20_000  # files and folders under a card folder: more is no card folder (`/`)


@dataclass
class Manifest:
    """What an `expansion.yaml` says."""

    file: Path
    name: str
    version: str
    dsl: int
    set: str | None = None
    description: str = ""
    name_at: tuple[int, int] = (1, 1)  # the line and column of its name

    def name_taken(self, first: Manifest) -> Diagnostic:
        """K400: this expansion's name is already `first`'s."""
        return Diagnostic("K400", f"expansion name '{self.name}' is already used by {first.file}",
                          str(self.file), *self.name_at, "rename one of the expansions")

    @property
    def folder(self) -> Path:
        return self.file.parent


def read_manifest(file: Path) -> Manifest | Diagnostic:
    """Read one manifest; a K401 diagnostic when its DSL version is newer than ours, K402 if
    invalid (or the loader's code: not UTF-8, an alias, ...)."""
    from kingdom.compiler.card import DSL_VERSION

    doc, problems = load_yaml(str(file))
    if doc is None:
        return problems[0]
    data = doc.data

    def refuse(message: str, key: str | None = None, hint: str = "") -> Diagnostic:
        where = doc.where((key,), key=True) if key is not None else doc.where(())
        return Diagnostic("K402", message, str(file), *where, hint)

    if not isinstance(data, dict):
        return refuse("an expansion manifest must be a mapping with name, version and dsl")
    missing = [k for k in ("name", "version", "dsl") if k not in data]
    if missing:
        return refuse(f"expansion manifest is missing {', '.join(missing)}",
                      hint="write name, version and dsl, e.g. `dsl: 1`")
    unknown = sorted(set(data) - {"name", "version", "dsl", "set", "description"}, key=str)
    if unknown:
        return refuse(f"unknown key '{unknown[0]}' in the expansion manifest", unknown[0],
                      "a manifest has name, version, dsl, and optionally set, description")
    dsl = data["dsl"]
    if not isinstance(dsl, int) or isinstance(dsl, bool) or dsl < 1:
        return refuse(f"expansion manifest: dsl must be a positive integer, not {dsl!r}", "dsl")
    name = data["name"]
    problem = visible_name_problem(name) if isinstance(name, str) else "is not text"
    if problem:
        return refuse(f"expansion name {name!r} {problem}", "name")
    for key, limit in (("name", TITLE_LENGTH), ("version", TITLE_LENGTH), ("set", TITLE_LENGTH),
                       ("description", PARAGRAPH_LENGTH)):
        value = data.get(key)
        problem = text_problem(value, limit, key == "description") if isinstance(value, str) else ""
        if problem:
            return Diagnostic("K117", f"the expansion's {key} {problem}", str(file),
                              *doc.where((key,)))
    if dsl > DSL_VERSION:
        return Diagnostic("K401", f"expansion '{name}' is written for DSL version {dsl}; "
                          f"this Kingdom reads version {DSL_VERSION} and older", str(file),
                          *doc.where(("dsl",)), hint="upgrade Kingdom to load this expansion")
    set_id = data.get("set")
    return Manifest(file, name, str(data["version"]), dsl, str(set_id) if set_id else None,
                    str(data.get("description") or ""), doc.where(("name",)))


def _skipped(folder_name: str) -> bool:
    """A subfolder of an expansion that holds no card files."""
    return (folder_name in NOT_CARDS or folder_name.startswith(".")
            or folder_name.endswith(".egg-info"))


def yaml_files(folder: Path) -> list[Path]:
    """Every `*.yaml` under `folder` but in skipped subfolders, following symbolic links to
    folders (each real folder once, so a link loop ends)."""
    seen: set[str] = set()
    out = []
    for root, dirs, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:
            dirs.clear()
            continue
        seen.add(real)
        dirs[:] = [d for d in dirs if not _skipped(d)]
        out.extend(Path(root, f) for f in files if f.endswith(".yaml"))
    return sorted(out)


def too_many_entries(folder: Path) -> bool:
    """Whether `folder` holds more than MAX_ENTRIES files and folders (counted as `yaml_files`
    walks, up to the first one too many)."""
    count = 0
    for _root, dirs, files in os.walk(folder, followlinks=True):
        dirs[:] = [d for d in dirs if not _skipped(d)]
        count += len(dirs) + len(files)
        if count > MAX_ENTRIES:
            return True
    return False


def manifests(folder: Path) -> list[Manifest | Diagnostic]:
    """Every manifest in `folder` and below it."""
    if not folder.is_dir():
        return []
    return [read_manifest(f) for f in yaml_files(folder) if f.name == MANIFEST and f.is_file()]


def folder_cards(folder: Path) -> tuple[list[tuple[Path, str]], list[Diagnostic]]:
    """The card files of one folder, each with its default set id, and manifest problems.

    A folder (or subfolder) whose manifest is refused contributes no cards.
    """
    folder = Path(folder)
    if not folder.exists():
        return [], [Diagnostic("K402", "no such card folder", str(folder))]
    if folder.is_file():
        return [(folder, set_id(folder.parent))], []
    if too_many_entries(folder):
        return [], [Diagnostic("K402", f"more than {MAX_ENTRIES:,} files and folders under this "
                               "folder: is it a card folder?", str(folder),
                               hint="give the folder that holds the card files")]
    diagnostics: list[Diagnostic] = []
    accepted: dict[Path, Manifest] = {}
    refused: list[Path] = []
    for found in manifests(folder):
        twin = next((m for m in accepted.values() if isinstance(found, Manifest)
                     and m.name == found.name), None)
        problem = found.name_taken(twin) if twin is not None else found
        if isinstance(problem, Diagnostic):
            diagnostics.append(problem)
            refused.append(Path(problem.file).parent)
        else:
            accepted[found.folder] = found
    files = []
    for file in yaml_files(folder):
        if file.name == MANIFEST:
            continue
        if not file.is_file():
            why = not_regular(file) or "not a readable file (a broken link?)"
            diagnostics.append(Diagnostic("K402", f"{why}; only regular files are read", str(file)))
            continue
        if any(r == file.parent or r in file.parents for r in refused):
            continue
        owner = next((accepted[p] for p in (file.parent, *file.parents) if p in accepted), None)
        files.append((file, owner.set if owner is not None and owner.set else set_id(file.parent)))
    return files, diagnostics


def set_id(folder: Path) -> str:
    """The set id of the cards of a folder without a manifest: the folder's own name, as its
    absolute path names it (`--cards .` and `--cards ..` name a folder too; links kept)."""
    return Path(os.path.abspath(folder)).name or "custom"


# ------------------------------------------------------------------------------ discovery
def env_folders(environ: dict[str, str] | None = None) -> list[Path]:
    """The folders named by KINGDOM_PATH."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "")
    return [Path(p).expanduser() for p in value.split(os.pathsep) if p.strip()]


class Folders(list[Path]):
    """Card folders to load, and the problems met finding them: `kingdom check` reports them
    as errors, other commands warn once and load the rest (see `compile_folders`)."""

    def __init__(self, folders: Iterable[Path] = (), problems: Iterable[Diagnostic] = ()) -> None:
        super().__init__(folders)
        self.problems = list(problems)


def entry_point_folders(entry_points: Iterable[Any] | None = None) -> Folders:
    """The folders of installed packages that declare a `kingdom.expansions` entry point.

    An entry point that fails to load (even with SystemExit) or names no folder is a problem
    of the result and skipped, so one bad package does not stop every command.
    """
    if entry_points is None:
        return _installed_folders(tuple(sys.path))
    found = Folders()
    for ep in entry_points:
        where = f"<entry point {ep.name} = {ep.value}>"
        try:
            folder = _entry_point_path(ep.load())
        except (Exception, SystemExit) as exc:  # an installed package's fault
            found.problems.append(Diagnostic("K402", f"the expansion entry point failed: "
                                             f"{type(exc).__name__}: {exc}", where))
            continue
        if folder.is_dir():
            found.append(folder)
        else:
            found.problems.append(Diagnostic("K402", f"the expansion entry point names "
                                             f"'{folder}', which is not a folder", where))
    return found


@functools.lru_cache(maxsize=8)
def _installed_folders(path_key: tuple[str, ...]) -> Folders:
    """Installed expansions, looked up once per `sys.path` (scenario runs ask for each scenario)."""
    return entry_point_folders(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


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
             entry_points: Iterable[Any] | None = None) -> Folders:
    """Every card folder to load: built-in, `extra`, KINGDOM_PATH, then installed packages.

    A folder reached twice, or a second copy of an expansion (same manifest name and card
    files: a folder given explicitly and the same expansion pip-installed), is loaded once;
    a different expansion with a name already taken is a K400 problem, and skipped.
    """
    installed = entry_point_folders(entry_points)
    candidates = [*([BUILTIN_CARDS] if builtin else []), *map(Path, extra),
                  *env_folders(environ), *installed]
    out = Folders(problems=installed.problems)
    seen_paths: set[Path] = set()
    named: dict[str, Manifest] = {}
    for folder in candidates:
        resolved = folder.resolve()
        if resolved in seen_paths:
            continue
        seen_paths.add(resolved)
        manifest = folder / MANIFEST
        found = read_manifest(manifest) if manifest.is_file() else None
        if isinstance(found, Manifest):
            first = named.setdefault(found.name, found)
            if first is not found:
                if _card_contents(first.folder) != _card_contents(found.folder):
                    out.problems.append(found.name_taken(first))
                continue
        out.append(folder)
    return out


def _card_contents(folder: Path) -> dict[Path, bytes | None]:
    """The card files of an expansion by their place in it, to tell a copy from another."""
    files, _ = folder_cards(folder)
    contents = {}
    for file, _set in files:
        try:
            contents[file.relative_to(folder)] = read_bytes(file, MAX_BYTES)
        except OSError:
            contents[file.relative_to(folder)] = None
    return contents


_warned: set[str] = set()


def warn_once(problems: Iterable[Diagnostic]) -> None:
    """Print each problem on stderr as a warning, once per process (commands other than
    `check` load the rest)."""
    for problem in problems:
        text = problem.format(severity="warning")
        if text not in _warned:
            _warned.add(text)
            print(f"{text}\n     = note: skipped; `kingdom check` reports this as an error",
                  file=sys.stderr)


def installed() -> list[Manifest]:
    """The manifests of every expansion found outside the built-in cards (for `kingdom list`)."""
    out = []
    for folder in discover(builtin=False):
        for found in manifests(folder):
            if isinstance(found, Manifest):
                out.append(found)
    return out
