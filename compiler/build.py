"""Compile whole folders of card files into a `Library`, reporting every error at once."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import sys
from functools import cache
from pathlib import Path

from compiler.card import ParsedCard, compile_card, parse_card
from compiler.checks import add_split_piles
from compiler.errors import CompileError, Diagnostic
from compiler.expansions import folder_cards, warn_once
from compiler.names import check_library_names
from compiler.nodes import Env
from runtime.library import CARD_TYPES, Library, singular_forms

BUILTIN_CARDS = Path(__file__).resolve().parent.parent / "cards"
COMPILER = Path(__file__).resolve().parent
GRAMMAR = COMPILER.parent / "grammar"


def cache_dir() -> Path | None:
    """Kingdom's folder in the user's cache folder ($XDG_CACHE_HOME or ~/.cache), made if
    missing; None when caching is off (KINGDOM_NO_CACHE set) or the folder cannot be made."""
    if os.environ.get("KINGDOM_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    folder = Path(base) / "kingdom"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


@cache
def _compiler_fingerprint() -> str:
    """A hash of what parsing a card depends on besides the file: the compiler's and the
    grammar's sources, Python's version and the installed Lark, PyYAML and jsonschema."""
    import jsonschema
    import lark
    import yaml

    digest = hashlib.sha256()
    digest.update(sys.version.encode())
    for module in (lark, yaml, jsonschema):  # (installed anew on an upgrade: a new time)
        digest.update(f"{module.__name__} {os.stat(module.__file__).st_mtime_ns}".encode())
    for path in sorted([*COMPILER.rglob("*.py"), *GRAMMAR.glob("*.lark")]):
        digest.update(str(path.relative_to(COMPILER.parent)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def card_cache() -> Path | None:
    """The folder of parsed cards for this compiler (by its fingerprint); the folders of other
    versions of it are removed when a new one is made."""
    folder = cache_dir()
    if folder is None:
        return None
    cards = folder / "cards"
    mine = cards / _compiler_fingerprint()[:16]
    if mine.is_dir():
        return mine
    try:
        mine.mkdir(parents=True)
    except FileExistsError:
        return mine
    except OSError:
        return None
    for other in cards.iterdir():
        if other != mine:
            shutil.rmtree(other, ignore_errors=True)
    return mine


def prune(folder: Path, pattern: str, keep: Path) -> None:
    """Remove the files of `folder` matching `pattern` but `keep` (older cache entries)."""
    for path in folder.glob(pattern):
        if path != keep:
            with contextlib.suppress(OSError):
                path.unlink()


def parse_card_cached(file: Path, set_name: str | None, folder: Path | None
                      ) -> ParsedCard | list[Diagnostic]:
    """`parse_card`, its result kept in `folder` (a cache) by the file's path, set and
    content and the compiler's fingerprint; without a folder, or on any problem, parsed anew."""
    if folder is None:
        return parse_card(file, set_name)
    try:
        data = file.read_bytes()
    except OSError:
        return parse_card(file, set_name)  # (it reports the unreadable file)
    digest = hashlib.sha256()
    for part in (str(file), str(set_name)):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(data)
    entry = folder / f"{digest.hexdigest()[:32]}.pickle"
    try:
        with open(entry, "rb") as f:
            return pickle.load(f)
    except Exception:  # none yet, or damaged: parse again and replace it
        pass
    result = parse_card(file, set_name)
    try:
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        with open(temporary, "wb") as f:
            pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)  # (whole, even with other processes writing)
    except Exception:
        pass  # (not cacheable, or the folder is read-only: no matter)
    return result


def card_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file())


def compile_folders(folders: list[Path], strict: bool = True) -> tuple[Library, list[Diagnostic]]:
    """Compile every card file under `folders`. With `strict`, raise CompileError on errors;
    a broken expansion (a problem `discover` met, or a manifest refused) is then only warned
    about, and its cards skipped, so it does not stop every command."""
    parsed: list[ParsedCard] = []
    diagnostics: list[Diagnostic] = []
    cached = card_cache()
    broken = list(getattr(folders, "problems", ()))  # (discover's Folders)
    for folder in folders:
        files, problems = folder_cards(folder)  # manifests: K401 too new, K402 invalid
        broken.extend(problems)
        for file, set_name in files:
            result = parse_card_cached(file, set_name, cached)
            if isinstance(result, list):
                diagnostics.extend(result)
            else:
                parsed.append(result)
    if strict:
        warn_once(broken)
    else:
        diagnostics[:0] = broken
    owners: dict[str, str] = {}
    for card in parsed:
        if card.name in owners:
            line, col = card.doc.where(("name",))
            diagnostics.append(Diagnostic("K400", f"card name '{card.name}' is already defined "
                                          f"in {owners[card.name]}", card.doc.file, line, col))
        owners.setdefault(card.name, card.doc.file)
    diagnostics.extend(check_library_names(parsed))  # look-alike names, former names
    names = set(owners) | {n for c in parsed for n in c.data.get("former_names", ())}
    piles = {c.name for c in parsed if c.data.get("kind") == "split-pile"}
    piles |= {  # roles that setup rules give piles ("its cards are Banes"): named like piles
        n.pile_role for c in parsed for section in (c.play, c.triggers) if section is not None
        for n in section.walk() if getattr(n, "pile_role", "")}

    def resolve(name: str) -> str | None:
        if name in names:
            return name
        return next((s for s in singular_forms(name) if s in names), None)

    # A type is one of Dominion's, or one a loaded card declares (a custom expansion's "Tide").
    types = set(CARD_TYPES) | {t for c in parsed for t in c.data.get("types", ())}
    library = Library()
    split_piles = [card for card in parsed if card.data.get("kind") == "split-pile"]
    for card in parsed:
        if card.data.get("kind") == "split-pile":
            continue
        env = Env(card.doc, names, piles, types, resolve, _suggester(names | types))
        definition = compile_card(card, env)
        diagnostics.extend(env.diagnostics)
        if definition is not None:
            library.add(definition)
    diagnostics.extend(add_split_piles(library, split_piles, names, _suggester(names)))
    if strict and diagnostics:
        raise CompileError(diagnostics)
    return library, diagnostics


def _suggester(names: set[str]):
    import difflib

    def suggest(name: str) -> str | None:
        match = difflib.get_close_matches(name, list(names), n=1, cutoff=0.7)
        return match[0] if match else None

    return suggest


def builtin_library() -> Library:
    library, _ = compile_folders([BUILTIN_CARDS])
    return library
