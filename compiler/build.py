"""Compile whole folders of card files into a `Library`, reporting every error at once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from kingdom.compiler import primitives
from kingdom.compiler.cache import Store, allowed, card_store, digest
from kingdom.compiler.card import ParsedCard, compile_card, parse_card
from kingdom.compiler.checks import add_split_piles
from kingdom.compiler.errors import CompileError, Diagnostic
from kingdom.compiler.expansions import BUILTIN_CARDS, MANIFEST, discover, folder_cards, warn_once
from kingdom.compiler.files import read_bytes
from kingdom.compiler.grammar import grammar_key
from kingdom.compiler.loader import MAX_BYTES, Located, decode_utf8, load_yaml
from kingdom.compiler.names import check_library_names, check_library_types
from kingdom.compiler.nodes import Env, Node
from kingdom.runtime.library import CARD_TYPES, Library, singular_forms


@cache
def _tree_classes() -> dict[str, type]:
    """What a parsed card is made of, besides plain data: the classes the card cache may
    rebuild (every node class, once all primitives are loaded)."""
    primitives.load_all()
    return allowed([ParsedCard, Located, Diagnostic, Node])


def parse_card_cached(file: Path, set_name: str | None, store: Store | None
                      ) -> ParsedCard | list[Diagnostic]:
    """`parse_card`, its result kept in `store` by the file's path, set and content and the
    grammar (the store is the compiler's own; the grammar holds the token kinds' words); without
    a store, or on any problem, parsed anew. The file is read once."""
    if store is None:
        return parse_card(file, set_name)
    try:
        data = read_bytes(file, MAX_BYTES)
    except OSError:
        data = b""
    text = decode_utf8(str(file), data) if data else None
    if not isinstance(text, str):
        return parse_card(file, set_name)  # (it reports the unreadable, large or binary file)
    name = digest(str(file), str(set_name), data, grammar_key())[:32]
    result = store.get(name)
    if result is not None:
        return result
    result = parse_card(file, set_name, text)
    store.put(name, result)
    return result


def card_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file())


def compile_folders(folders: list[Path], strict: bool = True,
                    texts: Mapping[Path, str] | None = None) -> tuple[Library, list[Diagnostic]]:
    """Compile every card file under `folders`. With `strict`, raise CompileError on errors;
    a broken expansion (a problem `discover` met, or a manifest refused) is then only warned
    about, and its cards skipped, so it does not stop every command. `texts` (resolved path:
    text) stands for files as an editor holds them, unsaved: read in place of the file on disk,
    or as one more card file (of the folder it would be in, if any)."""
    parsed: list[ParsedCard] = []
    diagnostics: list[Diagnostic] = []
    cached = card_store(_tree_classes())
    broken = list(getattr(folders, "problems", ()))  # (discover's Folders)
    unsaved = dict(texts or {})
    to_parse: list[tuple[Path, str | None, str | None]] = []  # (file, set, unsaved text)
    for folder in folders:
        files, problems = folder_cards(folder)  # manifests: K401 too new, K402 invalid
        broken.extend(problems)
        files += [(file, Path(folder).name) for file in list(unsaved)
                  if file.is_relative_to(Path(folder).resolve()) and not file.exists()]
        to_parse.extend((file, set_name, unsaved.pop(Path(file).resolve(), None))
                        for file, set_name in files)
    # (an unsaved file in none of the folders: compiled among them)
    to_parse.extend((file, file.parent.name, text) for file, text in unsaved.items())
    for file, set_name, text in to_parse:
        result = (parse_card(file, set_name, text) if text is not None
                  else parse_card_cached(file, set_name, cached))
        if isinstance(result, list):
            diagnostics.extend(result)
        else:  # (one whose text did not all parse is still checked, never added)
            diagnostics.extend(result.diagnostics)
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
    diagnostics.extend(check_library_types(parsed, CARD_TYPES))  # "Acton": a misspelt type
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


def broken_cards(diagnostics: list[Diagnostic]) -> dict[str, str]:
    """The names (in lower case) of the cards whose files did not compile, each with its file:
    so a command needing one of them can say which file to fix, not just "unknown card"."""
    found: dict[str, str] = {}
    for file in dict.fromkeys(d.file for d in diagnostics):
        if Path(file).name == MANIFEST or not Path(file).is_file():
            continue  # (a refused manifest names an expansion, not a card)
        doc, _ = load_yaml(file)
        name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
        if isinstance(name, str):
            found.setdefault(name.lower(), file)
    return found


def _suggester(names: set[str]):
    import difflib

    def suggest(name: str) -> str | None:
        match = difflib.get_close_matches(name, list(names), n=1, cutoff=0.7)
        return match[0] if match else None

    return suggest


def builtin_library() -> Library:
    library, _ = compile_folders([BUILTIN_CARDS])
    return library


def load_library(extra: Iterable[str | Path] = (), strict: bool = True, **kwargs: Any):
    """Compile every discovered folder (built-in, `extra`, KINGDOM_PATH, installed packages):
    (Library, diagnostics)."""
    return compile_folders(discover(extra, **kwargs), strict=strict)
