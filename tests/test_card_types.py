"""A misspelt type in `types:` is an error with a did-you-mean; a custom expansion's new type
is not (compiler.names.check_library_types)."""

from __future__ import annotations

from pathlib import Path

import pytest
from example_sets import EXAMPLE_IDS, EXAMPLES, HARBOR, Example
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.names import _edits


def _card(folder: Path, name: str, types: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{name.lower()}.yaml").write_text(
        f"dsl: 1\nname: {name}\ncost: 3\ntypes: [{types}]\nplay: +1 card\n")


def _type_errors(*folders: Path) -> list[tuple[str, int, int, str]]:
    _, diagnostics = compile_folders([BUILTIN_CARDS, *folders], strict=False)
    return [(d.message, d.line, d.column, d.hint) for d in diagnostics]


@pytest.mark.parametrize("types, wrong, meant, column", [
    ("Acton", "Acton", "Action", 9),
    ("Action, Atack", "Atack", "Attack", 17),
    ("action", "action", "Action", 9),
    ("Treasure, Fortt", "Fortt", "Fort", 19),
])
def test_a_near_miss_of_a_known_type_is_refused(tmp_path: Path, types: str, wrong: str,
                                                 meant: str, column: int) -> None:
    _card(tmp_path / "set", "Boat", types)
    [(message, line, col, hint)] = _type_errors(tmp_path / "set")
    assert message == f"unknown card type '{wrong}'"
    assert (line, col) == (4, column)
    assert hint.startswith(f"did you mean '{meant}'?")


def test_a_new_type_unlike_any_known_one_is_accepted(tmp_path: Path) -> None:
    _card(tmp_path / "set", "Boat", "Action, Spaceship")
    assert _type_errors(tmp_path / "set") == []


def test_a_new_type_used_by_several_cards_is_accepted_even_if_near_a_known_one(tmp_path) -> None:
    """"Fortune" is three letters from "Fort"; "Forts" is one, but two cards use it."""
    _card(tmp_path / "set", "Boat", "Action, Forts")
    _card(tmp_path / "set", "Raft", "Action, Forts")
    assert _type_errors(tmp_path / "set") == []


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_the_example_expansions_types_are_accepted(example: Example) -> None:
    assert _type_errors(example.folder) == []


def test_a_typo_of_the_harbor_expansion_type_is_refused(tmp_path) -> None:
    _card(tmp_path / "set", "Boat", "Action, Tdie")
    [(message, *_, hint)] = _type_errors(HARBOR.folder, tmp_path / "set")
    assert message == "unknown card type 'Tdie'" and "'Tide'" in hint


def test_edit_distance() -> None:
    assert [_edits(a, b) for a, b in [("Acton", "Action"), ("kitten", "sitting"), ("", "ab"),
                                      ("Tide", "Tide"), ("Tdie", "Tide")]] == [1, 3, 2, 0, 2]
