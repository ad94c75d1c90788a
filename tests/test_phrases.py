"""The phrase reference (docs/dsl.md, `kingdom phrases`) is complete, true and up to date."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from kingdom.compiler import primitives
from kingdom.compiler.parser import grammar_text, parse
from kingdom.compiler.phrases import examples, forms, listing, markdown
from kingdom.compiler.structure.block import Block

from kingdom.cli.main import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "dsl.md"


@pytest.fixture(scope="module")
def reference() -> dict[str, forms.Phrase]:
    return listing.phrases()


def test_docs_dsl_md_is_up_to_date():
    written, generated = DOC.read_text(encoding="utf-8"), markdown.markdown()
    diff = "\n".join(list(difflib.unified_diff(written.splitlines(), generated.splitlines(),
                                               "docs/dsl.md", "generated", lineterm=""))[:20])
    assert written == generated, (
        f"docs/dsl.md is stale: regenerate it with `make docs` ({markdown.REGENERATE})\n{diff}")


def test_every_grammar_alias_is_a_phrase(reference):
    aliases = set(re.findall(r"->\s*(\w+)", grammar_text()))
    assert aliases == set(reference)
    assert set(primitives.BUILDERS) <= set(reference)
    doc = DOC.read_text(encoding="utf-8")
    for phrase in reference.values():
        for form in phrase.forms:
            assert f"`{form.text}`" in doc, phrase.alias


def test_every_phrase_has_an_example_that_parses_and_uses_it(reference):
    for phrase in reference.values():
        assert phrase.example is not None, f"no card uses '{phrase.alias}': add `// e.g. ...`"
        start = "worth" if phrase.rule == "worth" else "statements"
        source = phrase.example.source
        if phrase.example.card:  # a card's statement, maybe `head: block` as YAML
            assert phrase.alias in _card_unit_aliases(phrase)
        else:
            assert phrase.alias in examples.aliases_of(source, start), (phrase.alias, source)
            assert phrase.example.english == examples.english(source, start)


def _card_unit_aliases(phrase: forms.Phrase) -> set[str]:
    units = [u for u in examples.card_units() if u.source == phrase.example.source]
    return set().union(*(u.aliases for u in units))


def test_hand_written_examples_parse_as_written(reference):
    written = [f.example for p in reference.values() for f in p.forms if f.example]
    assert written, "the grammar's `// e.g.` examples were not found"
    for text in written:
        assert examples.english(text)


def test_every_phrase_says_what_it_does(reference):
    missing = sorted(a for a, p in reference.items() if not p.meaning)
    assert not missing, f"give these builders or node classes a docstring: {missing}"


def test_every_placeholder_is_explained():
    doc = DOC.read_text(encoding="utf-8")
    explained = {f"<{forms.PLACEHOLDERS.get(r, r.replace('_', ' '))}>" for r in markdown.placeholders_used()}
    explained |= {shown for shown, _ in markdown.terminal_meanings()}
    used = set(re.findall(r"<[^<>\s][^<>]*>", "\n".join(
        f.text for p in listing.phrases().values() for f in p.forms)))
    assert used <= explained, used - explained
    for name in explained - {s for s, _ in markdown.terminal_meanings()}:
        assert f"#### `{name}`" in doc or f"`{name}` is" in doc, name


def test_readable_forms():
    rules, _ = forms.grammar()
    readable = {alias: forms.readable(items) for r in rules.values() for items, alias, _ in r.alternatives}
    assert readable["draw_n"] == "draw <n> card/cards"
    assert readable["bonus_money"] == "+<$n> [per <countable>]"
    assert readable["choose_head"] == "choose <amount> [<different>]"
    assert readable["each_other_head"] == "each other player [with <condition>]"


def test_phrases_gain_lists_the_gain_phrases_only(capsys, reference):
    assert main(["phrases", "gain"]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert listed and all(re.search(r"\bgain", line) for line in listed), listed  # (word prefix)
    gain_forms = [f.text for p in reference.values() if p.rule in ("gain_step", "gain_from_pile_step")
                  for f in p.forms]
    for form in gain_forms:
        assert form in listed
    assert "draw <n> card/cards" not in out


def test_phrases_finds_a_word_in_meanings_when_no_form_has_it(capsys):
    """No form has the word "means": the references' phrase `the <participle> card/cards` is
    found by its meaning ("what each means after each kind of step")."""
    assert main(["phrases", "Means"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if line and line[0] != " "]
    assert "the <participle> card/cards" in listed


def test_phrases_unknown_word_fails(capsys):
    assert main(["phrases", "xyzzy"]) == 1
    assert "xyzzy" in capsys.readouterr().err


def test_markdown_lists_keys_and_codes(reference):
    from kingdom.compiler.errors import CODES
    from kingdom.compiler.schema import card_schema

    doc = markdown.markdown()
    for key in card_schema()["properties"]:
        assert f"| `{key}` |" in doc
    for code in CODES:
        assert f"| `{code}` |" in doc


def test_otherwise_is_printed_without_compiling_first():
    """The reference renders statements it never compiles: each "if" prints its "otherwise"."""
    assert examples.english("if you did: +$1, otherwise +$4") == "If you did, +$1, otherwise +$4."
    lines = Block([parse("if you have 5 or more cards in hand: +1 card"), parse("otherwise: +2 cards")])
    assert examples.block_english(lines) == ("If you have 5 or more cards in hand, +1 Card.\n"
                                             "Otherwise, +2 Cards.")
    doc = DOC.read_text(encoding="utf-8")
    assert "prints: If you did, +$1, otherwise +$4." in doc


@pytest.mark.parametrize("source", ["docs/dsl.md", "kingdom phrases"])
def test_docs_speak_no_internal_names(source, capsys):
    """No branch tag ("(h-gaps2)") of a grammar comment or docstring, no grammar terminal's own
    name ("VP_TOKEN", "< or else>" for _OR_ELSE) where the reader should see the words it
    stands for: in docs/dsl.md and in what `kingdom phrases` prints."""
    if source == "docs/dsl.md":
        doc = DOC.read_text(encoding="utf-8")
    else:
        assert main(["phrases"]) == 0
        doc = capsys.readouterr().out
    tags = re.findall(r"\bh-[a-z]+\d*\b", doc)
    assert not tags, tags
    _, terminals = forms.grammar()
    said = doc.replace("`kingdom phrases WORD`", "")  # the command's argument, not the terminal
    leaked = [n for n in terminals if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", said)]
    assert not leaked, leaked
    spelled = {f"<{n.lower().replace('_', ' ')}>" for n in terminals if n.startswith("_")}
    assert not [p for p in re.findall(r"<[^<>\n]*>", doc) if p in spelled or p.startswith("< ")]
