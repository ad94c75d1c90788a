"""Each deliberately broken card in tests/broken gives one precise error, and no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kingdom.cli.main import main

BROKEN = Path(__file__).parent / "broken"

EXPECTED = {
    "bad-yaml.yaml": ("K100", 5, "invalid YAML"),
    "missing-field.yaml": ("K103", 1, "missing required key: 'types'"),
    "wrong-type.yaml": ("K104", 3, "cost: 'three' is not valid"),
    "unknown-key.yaml": ("K102", 5, "unknown key 'plya'"),
    "dsl-syntax.yaml": ("K200", 7, "unexpected '4'"),
    "unknown-card.yaml": ("K300", 5, "unknown card, type or pile name 'Silvr'"),
    "unknown-primitive.yaml": ("K201", 7, "unknown primitive 'smash'"),
}


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> str:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["check", str(BROKEN)])
    assert status == 1
    return err.getvalue()


def test_no_traceback(report: str) -> None:
    assert "Traceback" not in report
    assert f"{len(EXPECTED)} error(s)" in report


@pytest.mark.parametrize("file", sorted(EXPECTED))
def test_one_precise_error_per_file(report: str, file: str) -> None:
    code, line, message = EXPECTED[file]
    pattern = rf"{re.escape(file)}:(\d+):(\d+): error\[(K\d+)\]: (.*)"
    found = [m for m in re.finditer(pattern, report)]
    assert len(found) == 1, report
    got_line, _col, got_code, got_message = found[0].groups()
    assert (got_code, int(got_line)) == (code, line)
    assert message in got_message


def test_did_you_mean(report: str) -> None:
    assert "did you mean 'Silver'?" in report
    assert "did you mean 'play'?" in report
    assert "did you mean 'trash'?" in report


def test_caret_points_at_the_fault(report: str) -> None:
    block = report.split("unknown-card.yaml:5:14")[1].splitlines()
    source, caret = block[1], block[2]
    assert source.index("Silvr") == caret.index("^")


def test_builtin_cards_compile_cleanly() -> None:
    assert main(["check"]) == 0


def test_newer_dsl_version_is_refused(tmp_path: Path) -> None:
    (tmp_path / "future.yaml").write_text("dsl: 99\nname: Future\ncost: 1\ntypes: [Action]\n")
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(tmp_path)]) == 1
    assert "error[K401]" in err.getvalue()


def test_duplicate_name_names_both_files(tmp_path: Path) -> None:
    (tmp_path / "village.yaml").write_text("dsl: 1\nname: Village\ncost: 1\ntypes: [Action]\n")
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(tmp_path)]) == 1
    text = err.getvalue()
    assert "error[K400]" in text and "base/village.yaml" in text


def test_misspelt_keyword_gets_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "boat.yaml").write_text(
        "dsl: 1\nname: Boat\ncost: 3\ntypes: [Action]\nplay:\n  - +1 acton\n")
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(tmp_path)]) == 1
    text = err.getvalue()
    assert "boat.yaml:6:8: error[K200]: unexpected 'acton'" in text
    assert "did you mean 'action'?" in text


# Hints that misled a designer (trial 2): each says what would be accepted, and where to look.
def _syntax_hint(text: str) -> tuple[str, str, str]:
    from kingdom.compiler.parser import parse
    from kingdom.compiler.syntax_errors import DSLSyntaxError

    with pytest.raises(DSLSyntaxError) as caught:
        parse(text)
    return caught.value.code, caught.value.message, caught.value.hint


def test_a_comma_after_a_trigger_asks_for_a_colon() -> None:
    code, message, hint = _syntax_hint("+1 card; at the start of your turn, +1 card")
    assert (code, message) == ("K200", "unexpected ','")
    assert hint.startswith("did you mean ':'? (`+1 card; at the start of your turn: +1 card`)")
    assert ("write ':' here, not ',': a trigger or an opening such as 'at the start of your "
            "turn' is followed by a colon") in hint


def test_a_comma_after_a_when_trigger_asks_for_a_colon_or_a_reaction() -> None:
    """After 'when you gain a card,' the comma is right only for a Reaction in hand."""
    code, message, hint = _syntax_hint("+1 card; when you gain a card, +$1")
    assert (code, message) == ("K200", "unexpected '+$1'")
    assert "after 'when you gain a card,' only a Reaction in hand goes on" in hint
    assert "any other ability takes ':' after its trigger ('when you gain a card: ...')" in hint


def test_a_non_reaction_after_you_may_asks_for_a_colon() -> None:
    _, message, hint = _syntax_hint("when you discard this other than during clean-up, you may "
                                    "set it aside")
    assert message == "unexpected 'set'"
    assert hint.startswith("after 'when you discard this other than during clean-up,' only a "
                           "Reaction in hand goes on")


def test_while_in_play_keeps_its_comma() -> None:
    """'while this is in play,' is right as it is: no advice to write ':' there."""
    _, _, hint = _syntax_hint("while this is in play, at the end of your buy phase: +$1")
    assert "only a Reaction" not in hint and "write ':'" not in hint


def test_an_english_word_gets_no_did_you_mean_of_another_word() -> None:
    _, message, hint = _syntax_hint("reveal the top 3 cards of your deck; put them back in any "
                                    "order they choose")
    assert message == "unexpected 'they'" and "did you mean" not in hint
    assert hint.startswith("expected ") and "`kingdom phrases they`" in hint


def test_a_phrase_that_does_not_go_on_so_points_to_the_phrases() -> None:
    _, message, hint = _syntax_hint("if this is the only Copper: +$1")
    assert message == "unexpected 'only'"
    assert hint.endswith("expected 'first', 'named', 'second' or 'third'; no phrase goes on "
                         "with 'only' here: `kingdom phrases only` lists those using it")


def test_an_unknown_opening_lists_what_a_statement_starts_with() -> None:
    code, message, hint = _syntax_hint("perhaps now: +3 cards")
    assert (code, message) == ("K201", "unknown primitive 'perhaps': no statement starts with it")
    assert hint.startswith("a statement starts with ") and "'+'" in hint and "'gain'" in hint
    assert "another step" in hint and "primitives:" not in hint
    assert hint.endswith("no phrase has the word 'perhaps': `kingdom phrases` lists them all")
