"""Author-facing diagnostics: `file:line:col: error[CODE]: message`, the line and a caret."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from kingdom.compiler.files import read_text

QUOTED_BYTES = 1024 * 1024  # the largest file whose lines a diagnostic quotes

# Error codes, one per kind of mistake a card author can make.
CODES = {
    "K100": "the file is not valid YAML",
    "K101": "the file does not match the card schema",
    "K102": "unknown key",
    "K103": "missing required key",
    "K104": "a value has the wrong type",
    # limits of the shared YAML loader, names, expansions
    "K105": "the file is not UTF-8 text",
    "K106": "the file cannot be read or is larger than the limit",
    "K107": "lists or mappings nested too deeply",
    "K108": "a YAML alias (*name), which Kingdom files do not use",
    "K109": "a key given twice in one mapping",
    "K110": "a value of a YAML type Kingdom does not read (a date, binary data, a complex key)",
    "K111": "a number written the YAML 1.1 way (010, 0x10, 1_000, 1:30)",
    "K112": "a number too long",
    "K113": "a name that is blank or has invisible or control characters",
    "K114": "an effect nested too deeply",
    "K115": "an effect the grammar accepts but Kingdom cannot build or compile",
    "K116": "a text with a control character, a bidi override or a lone surrogate ('\\ud800')",
    "K117": "a printed name or text longer than its limit, or a name written on several lines",
    "K410": "a name that differs from another card's only by case or a look-alike letter",
    "K411": "a card name that is a word of the effect language",
    "K412": "a former name that is another card's name or former name",
    "K130": "a card's printed text (text:) that its tree renders in other words (a warning)",
    "K200": "DSL syntax error",
    "K201": "unknown primitive or keyword",
    "K202": "a phrase whose parts do not fit together ('gain two' without a card)",
    "K300": "unknown card, type or pile name",
    "K301": "a reference that nothing bound",
    "K302": "a construct in the wrong place",
    # compile-time checks that keep a compiled card playable (compiler/checks.py)
    "K303": "a choice offers the same option twice",
    "K304": "a 'per 0' that divides by zero (a vp formula, '+1 VP per $0 it costs')",
    "K305": "a split pile's member is not a loaded card",
    "K306": "a split pile lists a split pile (itself or another) as a member",
    "K307": "a split pile has no members",
    "K308": "a pile over the size limit (pile_size, or copies times members)",
    "K309": "a repeat over the limit on repeated steps",
    "K310": "a setup rule outside a setup ability",
    "K311": "a bonus over the limit ('+N Coffers')",
    "K312": "a card that plays itself while it is being played ('play this' in its play)",
    "K313": "'play it again' of a card the effect did not play",
    # text and behaviour agree (compiler.references, Ability.place)
    "K320": "an ability that does not say where its card must be for it to work",
    "K321": "a reference that could mean two things ('it' after a trash and a gain)",
    "K322": "several cards ('the trashed cards') where a cost compares with one card",
    "K323": "'this' in a game-wide ability, where it is no particular card",
    # computed worths and cost changes (compiler.checks: check_money)
    "K365": "'when you play this, it's worth ...' outside a Treasure's play",
    "K366": "a cost change ('this costs $2 less') outside the card's triggers list",
    "K367": "a cost change that depends on costs itself (it would never settle)",
    # phrasings that would print one thing and do another
    "K370": "'your next turn' inside 'each other player', which would print 'their next turn'",
    # turn history and turn shape
    "K355": "'you would discard from play this turn' outside 'at the start of clean-up'",
    "K360": "'the Nth time you ... this turn' of an event the turn does not count",
    "K361": "'gain two cards, one ... and one ...' with a number unlike the descriptions",
    # Reactions in hand (Ability, Lasting: compiler.structure.ability.check_reaction)
    "K350": "a Reaction in hand to an event about the card itself ('when you gain this')",
    "K351": "a Reaction in hand that does nothing (no block, and it does not play the card)",
    "K352": "'you may first ...' on a Reaction to an event that is not an Attack",
    "K353": "a Reaction in hand outside `triggers:` (in `play:`, or a lasting effect)",
    # printed wordings (compiler/card.py, structure/ability.py)
    "K375": "an ability (a trigger) inside a block, where it would be done at once",
    "K376": "a rule about buying this card ('you can't buy this if ...') outside 'triggers:'",
    "K377": "'choose a card' without where it is ('you have in play')",
    # printed wordings of other expansions
    "K380": "'exchange ... for' names something other than one card",
    "K400": "two cards share a name",
    "K401": "written for a newer DSL version",
    "K402": "an expansion folder or manifest is not valid",
    # scenario files (kingdom/scenarios/runner.py, check.py, scenario.schema.json)
    "K500": "a scenario file cannot be read (missing, a folder, not UTF-8 text)",
    "K501": "a scenario does not have the scenario format's shape",
    "K502": "unknown key in a scenario",
    "K503": "a scenario misses a required key",
    "K504": "a scenario value has the wrong type",
    "K505": "a scenario value is out of range (players, card counts, lengths)",
    "K506": "a scenario names a player the game does not have (p0, p9)",
    "K507": "a scenario names an unknown card or pile",
    "K508": "two scenarios in one file share a name",
    "K509": "a scenario's expansion folder does not exist",
    # kingdom test --cards, card folders holding other files
    "K510": "a scenario names a card whose file did not compile",
    "K511": "a scenario file among the card files of a card folder",
    # strategy files (kingdom/lab/strategy.py)
    "K550": "a strategy file cannot be read (missing, a folder, not UTF-8 text)",
    "K551": "a number in a strategy file is out of range",
}


@dataclass
class Diagnostic:
    code: str
    message: str
    file: str
    line: int = 1
    column: int = 1
    hint: str = ""
    suggestion: str = ""  # the statement (or name) that would be right there, for editors

    def format(self, source_lines: list[str] | None = None, severity: str = "error") -> str:
        head = f"{self.file}:{self.line}:{self.column}: {severity}[{self.code}]: {self.message}"
        parts = [head]
        if source_lines is not None and 1 <= self.line <= len(source_lines):
            text = source_lines[self.line - 1].rstrip("\n")
            gutter = f"{self.line:>4} | "
            parts.append(gutter + text)
            parts.append(" " * (len(gutter) + max(self.column - 1, 0)) + "^")
        if self.hint:
            parts.append(f"     = help: {self.hint}")
        return visible("\n".join(parts))


def visible(text: str) -> str:
    """`text` safe to print on a terminal: control and format characters (an escape sequence
    that clears the screen, a right-to-left override) become U+FFFD, one character for one so
    a caret below a source line still points at its column."""
    return "".join(c if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cf") else "\ufffd"
                   for c in text)


class PhraseError(ValueError):
    """Raised by a phrase's builder when the words the grammar read do not fit together
    ("gain two" without a card): reported as K202 at the phrase, with `hint`."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


class CompileError(Exception):
    """Raised with every diagnostic of a load, so an author sees all faults at once."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{len(diagnostics)} error(s)")
        self.diagnostics = diagnostics

    def report(self, severity: str = "error") -> str:
        """Every diagnostic with its source line; `severity` "warning" for errors of cards a
        command could do without (another card's, for `kingdom show`)."""
        cache: dict[str, list[str] | None] = {}
        out = []
        for d in self.diagnostics:
            if d.file not in cache:
                cache[d.file] = _source_lines(Path(d.file))
            out.append(d.format(cache[d.file], severity))
        return "\n\n".join(out)


def _source_lines(file: Path) -> list[str] | None:
    """The lines of a file to quote under its diagnostics; None for one that is unreadable, no
    regular file (a named pipe would never end) or too large to be a card (refused for that: no
    need to read gigabytes to say so)."""
    try:
        return read_text(file, QUOTED_BYTES).splitlines()
    except OSError:
        return None
