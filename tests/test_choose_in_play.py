"""'choose a card' binds a card without moving it; it must say where the card is (K377)."""

from pathlib import Path

from compiler.build import BUILTIN_CARDS, compile_folders


def test_a_choice_that_does_not_say_where_is_refused(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_text(
        "dsl: 1\nname: Odd Plot\ncost: 3\ntypes: [Action]\nplay:\n"
        "  - \"choose an Action card; +1 action\"\n")
    _library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    assert [(d.code, d.line) for d in diagnostics] == [("K377", 6)]
