"""Keywords match whole words only, in every lexer state, for a fresh parser and for one loaded
from the compile cache (whose postlexer must be passed again at load)."""

from __future__ import annotations

import re

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, card_files
from kingdom.compiler.cache import lark_parser
from kingdom.compiler.loader import load_yaml
from kingdom.compiler.parser import LARK_OPTIONS, DSLSyntaxError, grammar_text, parse
from kingdom.compiler.syntax_errors import shown_labels
from lark import Lark
from lark.lexer import LexerState, TextSlice


def _parsers(tmp_path, monkeypatch) -> list[Lark]:
    """A parser built anew and stored, then the same loaded from the stored tables."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("KINGDOM_NO_CACHE", raising=False)
    built = lark_parser(grammar_text(), LARK_OPTIONS)
    loaded = lark_parser(grammar_text(), LARK_OPTIONS)
    assert loaded.source_path == "<deserialized>", "the second parser was not read from the cache"
    return [built, loaded]


def _words(terminal) -> list[str]:
    """The lower-case words a keyword terminal stands for: "then", or card|cards."""
    pattern = terminal.pattern
    if pattern.type == "str":
        return [pattern.value] if re.fullmatch(r"[a-z][a-z'/-]*", pattern.value) else []
    listed = re.match(r"\(\?:([a-z|]+)\)", pattern.value)
    return listed.group(1).split("|") if listed else []


def test_every_keyword_with_a_letter_appended_is_one_unknown_word(tmp_path, monkeypatch) -> None:
    """In each state of the contextual lexer, "<keyword>x" lexes as one WORD, never as the
    keyword followed by the rest."""
    for lk in _parsers(tmp_path, monkeypatch):
        contextual = lk.parser.lexer.lexer
        probed, wrong = set(), []
        for state_lexer in {id(x): x for x in contextual.lexers.values()}.values():
            for terminal in state_lexer.terminals:
                for word in _words(terminal):
                    token = state_lexer.next_token(LexerState(TextSlice.cast_from(word + "x")))
                    probed.add(word)
                    if token.type != "WORD" or token != word + "x":
                        wrong.append(f"{word}x -> {token.type} {token!r}")
        assert not wrong, wrong[:20]
        assert len(probed) > 150  # (every keyword of the grammar, not a few)


def _card_lines() -> list[str]:
    """Every one-line statement text written in the built-in cards."""
    lines: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            lines.extend(line for line in value.splitlines() if line.strip())
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for file in card_files(BUILTIN_CARDS):
        doc, _ = load_yaml(str(file))
        for section in ("play", "triggers"):
            walk(doc.data.get(section))
    return lines


def test_a_keyword_run_into_a_letter_fails_at_the_word_start() -> None:
    """For each keyword used in a card line, that line with the keyword's first use lengthened
    by one letter fails, the caret at the start of the lengthened word."""
    lines = [line for line in _card_lines() if "(" not in line and _parses(line)]  # (no reminders)
    keywords = {w for line in lines for w in re.findall(r"(?<![\w$'/-])[a-z][a-z'/-]*", line)
                if not w.endswith("-")}  # ("non-Victory" is one word)
    assert len(keywords) > 100
    for word in sorted(keywords):
        line = next(x for x in lines if re.search(rf"(?<![\w$'/-]){re.escape(word)}(?![\w'/-])", x))
        start = re.search(rf"(?<![\w$'/-]){re.escape(word)}(?![\w'/-])", line).start()
        broken = line[:start] + word + "q" + line[start + len(word):]
        with pytest.raises(DSLSyntaxError) as caught:
            parse(broken)
        assert caught.value.column == start + 1, (broken, caught.value.column, caught.value.message)
        assert f"'{word}q'" in caught.value.message, (broken, caught.value.message)


def _parses(line: str) -> bool:
    try:
        parse(line)
    except DSLSyntaxError:
        return False
    return True


@pytest.mark.parametrize("text, word", [
    ("gain a Silver; there", "there"),
    ("at the start of then next turn: +1 card", "then"),
    ("reveal thex top card of your deck", "thex"),
    ("trasha card from your hand", "trasha"),
    ("trash acard from your hand", "acard"),
    ("gaina Silver", "gaina"),
    ("+2cards", "2cards"),
    ("+$2x", "$2x"),
    ("gain a cardsx costing up to $4", "cardsx"),
])
def test_the_caret_is_at_the_start_of_the_whole_word(text: str, word: str) -> None:
    with pytest.raises(DSLSyntaxError) as caught:
        parse(text)
    assert caught.value.column == text.index(word) + 1
    assert f"'{word}'" in caught.value.message


def test_keywords_lengthened_inside_alternation_terminals_fail() -> None:
    """"+2 cardsx", "+1 buys-" and "two-fold" are no longer a resource or number word."""
    for text in ("+2 cardsx", "+1 actionsz", "discard twos cards", "+1 favorx"):
        with pytest.raises(DSLSyntaxError):
            parse(text)


def test_a_syntax_error_lists_at_most_a_dozen_things_most_likely_first() -> None:
    """What may come after '|' is any step: the message names the likeliest (from how the
    reference statements go on), then the groups left ("another step"), twelve in all, and
    suggests a whole option."""
    with pytest.raises(DSLSyntaxError) as caught:
        parse("choose one: +1 card |")
    hint = caught.value.hint
    assert hint.startswith("did you mean: `choose one: +1 card | +1 action`?; expected ")
    listed = hint.split("expected ", 1)[1]
    for item in ("'+'", "'gain'", "another step"):
        assert item in listed
    assert len(shown_labels(caught.value.expected)) == 12
    assert "_" not in listed and "WORD" not in listed


def test_a_misspelt_keyword_is_matched_among_the_expected_ones() -> None:
    with pytest.raises(DSLSyntaxError) as caught:
        parse("if yo did: +1 card")
    assert caught.value.hint.startswith("did you mean 'you'? (`if you did: +1 card`); expected "
                                        "'you', ")
    assert caught.value.suggestion == "if you did: +1 card"
    with pytest.raises(DSLSyntaxError) as caught:
        parse("+1 acton")
    assert caught.value.hint.startswith("did you mean 'action'? (`+1 action`)")
