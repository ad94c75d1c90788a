"""Every corpus line cut at each token: the syntax error says, in the designer's words, at most
a dozen things that may come there, always with a help line, and a suggestion that compiles.
(bench/error_cuts.py prints the figures.)"""

from __future__ import annotations

import re
from functools import cache

import pytest
from compiled import compile_statement
from corpus_lines import CorpusLine, corpus_lines, cut_points
from kingdom.compiler.parser import DSLSyntaxError, parse
from kingdom.compiler.syntax_errors import MOST_EXPECTED, shown_labels


@cache
def internal_names() -> re.Pattern[str]:
    """A Lark terminal or rule name ("_AND_ALSO", "COMMA", "head_only", "$END") as a word."""
    from kingdom.compiler.grammar import parser

    names = {t.name for t in parser().terminals if len(t.name) > 1}
    names |= {r.origin.name for r in parser().rules if "_" in r.origin.name} | {"$END"}
    alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(rf"(?<![\w$'])({alternatives})(?![\w'])")


@cache
def cut_errors() -> tuple[tuple[CorpusLine, str, DSLSyntaxError], ...]:
    """(line, cut text, error) for every cut of every corpus line that does not parse."""
    out = []
    for line in corpus_lines():
        for cut in cut_points(line):
            text = line.text[:cut]
            try:
                parse(text, line.start, where=line.where)
            except DSLSyntaxError as error:
                out.append((line, text, error))
    return tuple(out)


def test_the_internal_name_finder_finds_them() -> None:
    assert internal_names().search("expected a sign: VP_TOKEN")
    assert internal_names().search("expected _AND_ALSO or COMMA")
    assert not internal_names().search("expected 'and', ',' or a card or type name")


def test_every_cut_is_told_in_the_designers_words() -> None:
    errors = cut_errors()
    assert len(errors) > 3000
    internal = [(text, m.group(0)) for _line, text, e in errors
                if (m := internal_names().search(f"{e.message} {e.hint}"))]
    assert internal == []
    assert [text for _line, text, e in errors if not e.hint.strip()] == []
    assert [text for _line, text, e in errors
            if len(shown_labels(e.expected)) > MOST_EXPECTED] == []




@pytest.mark.parametrize("part", range(4))
def test_every_suggestion_of_a_cut_compiles(part: int) -> None:
    errors = cut_errors()
    failing = [(text, e.suggestion, problem) for line, text, e in errors[part::4]
               if e.suggestion and (problem := compile_statement(
                   e.suggestion, line.section, line.start, line.file, line.text))]
    assert failing == []
