"""The language service (kingdom/editor/service.py) on card and scenario files as an editor
holds them: problems on their words with fixes, completion, hover and definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdom.editor.service import Workspace

CARD = "dsl: 1\nname: Smelter\ncost: 4\ntypes: [Action]\nplay: +1 card; +1 action; +$1\n"
SCENARIO = """- name: Smelter draws
  setup:
    p1:
      hand: [Smelter, Silvr]
  steps:
    - play: Smelter
"""


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Workspace, Path]:
    (tmp_path / "smelter.yaml").write_text(CARD)
    (tmp_path / "scenarios").mkdir()
    return Workspace([tmp_path]), tmp_path


def test_a_misspelt_step_is_marked_on_its_word_with_its_fix(workspace) -> None:
    service, root = workspace
    text = CARD.replace("+1 card; +1 action", "+1 card; drow 2 cards")
    [problem] = service.problems(root / "smelter.yaml", text)
    line = text.splitlines()[problem.range.line]
    assert line[problem.range.column:problem.range.end_column] == "drow"
    assert problem.code == "K201" and [f.text for f in problem.fixes] == ["draw"]


def test_an_unknown_key_and_an_unknown_card_get_their_did_you_mean(workspace) -> None:
    service, root = workspace
    [problem] = service.problems(root / "smelter.yaml", CARD.replace("cost: 4", "cots: 4"))
    assert problem.code == "K102" and (problem.range.line, problem.range.column) == (2, 0)
    assert problem.range.end_column == 4 and [f.text for f in problem.fixes] == ["cost"]
    text = CARD.replace("+$1", "gain a Slver")
    [problem] = service.problems(root / "smelter.yaml", text)
    lines = text.splitlines()
    assert lines[problem.range.line][problem.range.column:problem.range.end_column] == "Slver"
    assert [f.text for f in problem.fixes] == ["Silver"]


def test_a_scenario_file_is_checked_against_the_cards(workspace) -> None:
    service, root = workspace
    file = root / "scenarios" / "smelter.yaml"
    [problem] = service.problems(file, SCENARIO)
    assert problem.code == "K507"
    line = SCENARIO.splitlines()[problem.range.line]
    assert line[problem.range.column:problem.range.end_column] == "Silvr"
    assert [f.text for f in problem.fixes] == ["Silver"]
    # a card named in a scenario: its definition is its file, at its name
    found = service.definition(file, SCENARIO, 3, SCENARIO.splitlines()[3].index("Smelter") + 2)
    assert found.file.resolve() == (root / "smelter.yaml").resolve() and found.range.line == 1
    names = [c.label for c in service.complete(file, SCENARIO, 3, len("      hand: [Sm"))]
    assert "Smelter" in names and "Smithy" in names


def test_completion_of_keys_types_and_numbers(workspace) -> None:
    service, root = workspace
    file = root / "smelter.yaml"
    keys = [c.label for c in service.complete(file, "dsl: 1\nname: X\n", 2, 0)]
    assert "cost" in keys and "dsl" not in keys and "name" not in keys
    assert [c.label for c in service.complete(file, "types: [Ac", 0, 10)] == ["Action"]
    vp = [c.label for c in service.complete(file, "vp: 1 per 10 ", 0, 13)]
    assert "cards" in vp or "card" in vp


def test_hover_on_a_phrase_shows_its_reference_entry(workspace) -> None:
    service, root = workspace
    text = CARD.replace("+$1", "trash a card from your hand")
    hover = service.hover(root / "smelter.yaml", text, 4, text.splitlines()[4].index("trash") + 1)
    assert "e.g." in hover.markdown and "trash" in hover.markdown.lower()
    assert hover.range.column == text.splitlines()[4].index("trash")
