"""Checking scenario files against the scenario format (docs/scenario-format.md) before any is run.

Two stages, both reported as `file:line:col: error[K5xx]` diagnostics: the form of each
scenario against kingdom/scenario.schema.json (keys, types, ranges; no cards needed), then its
references once its cards are loaded (card and pile names, players beyond `players:`, the
setup-choice keys that cards declare, such as `bane:`). A scenario with a problem is not run.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from kingdom.compiler.documents import kind_of, read_yaml
from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.loader import Located, load_yaml
from kingdom.runtime import tokens
from kingdom.runtime.library import Library

SCHEMA_FILE = Path(__file__).with_name("scenario.schema.json")
PLAYER_KEY = re.compile(r"p-?\d+")
SETUP_ZONES = ("hand", "deck", "discard", "in_play", "set_aside")
RANGE_CHECKS = ("minimum", "maximum", "maxItems", "maxProperties", "maxLength", "minItems",
                "minLength")


@cache
def scenario_schema() -> dict[str, Any]:
    """The format: scenario.schema.json, where "$tokens" stands for a key per token kind
    (runtime/tokens: `coffers: 2` on a player, to set up or expect) and "$spent" for a key per
    kind the turn spends (a step, `villagers: 1`), in the order the kinds are declared."""
    keys = {"$tokens": [kind.key for kind in tokens.KINDS],
            "$spent": [kind.key for kind in tokens.SPENDABLE]}

    def expand(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: expand(v) for key, v in value.items() for k in keys.get(key, [key])}
        if isinstance(value, list):
            return [expand(item) for item in value]
        if isinstance(value, str) and "$spent" in value:
            return value.replace("$spent", ", ".join(keys["$spent"]))
        return value

    def steps(moves: list[dict]) -> list[dict]:  # "oneOf": one "required" per move
        return [{"required": [key]} for move in moves for key in keys.get(move["required"][0],
                                                                          move["required"])]

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    step = schema["$defs"]["step"]
    step["oneOf"] = steps(step["oneOf"])
    return expand(schema)


@cache
def _validator() -> jsonschema.Draft202012Validator:
    """Validates one scenario (the schema's root also allows a list of them)."""
    return jsonschema.Draft202012Validator({"$ref": "#/$defs/scenario",
                                            "$defs": scenario_schema()["$defs"]})


tokens.watch(scenario_schema.cache_clear, _validator.cache_clear)  # a kind's keys come or go


@dataclass
class Scenario:
    """One scenario of a file, where it is in the file, and what is wrong with its form."""

    file: Path
    doc: Located
    base: tuple  # the scenario's path in the file: () for a lone mapping, (index,) in a list
    spec: Any
    problems: list[Diagnostic] = field(default_factory=list)
    choice_keys: dict[str, Any] = field(default_factory=dict)  # unknown keys, maybe `bane:`-like

    @property
    def name(self) -> str:
        name = self.spec.get("name") if isinstance(self.spec, dict) else None
        if isinstance(name, str) and name:
            return name
        return f"(scenario {self.base[0] + 1})" if self.base else "(scenario)"

    def error(self, code: str, message: str, path: tuple = (), key: bool = False,
              hint: str = "") -> Diagnostic:
        line, col = self.doc.where((*self.base, *path), key=key)
        return Diagnostic(code, message, str(self.file), line, col, hint)


def load_file(file: Path, text: str | None = None) -> tuple[list[Scenario], list[Diagnostic]]:
    """The scenarios of a file with their form checked, or the problems of the file as a whole;
    `text`: the file as an editor holds it, unsaved."""
    doc, problems = read_yaml(file, "K500") if text is None else load_yaml(str(file), text)
    if doc is None:
        return [], problems
    data = doc.data
    if isinstance(data, dict):
        scenarios = [Scenario(file, doc, (), data)]
    elif isinstance(data, list) and data:
        scenarios = [Scenario(file, doc, (i,), item) for i, item in enumerate(data)]
    else:
        what = "the file holds nothing" if data in (None, []) else f"not {kind_of(data)}"
        return [], [Diagnostic("K501", f"a scenario file holds a scenario (a mapping) or a list "
                               f"of them; {what}", str(file), *doc.where(()),
                               hint="see docs/scenario-format.md")]
    seen: set[str] = set()
    for scenario in scenarios:
        scenario.problems = check_form(scenario)
        name = scenario.spec.get("name") if isinstance(scenario.spec, dict) else None
        if not isinstance(name, str):
            continue
        if name in seen:
            scenario.problems.append(scenario.error(
                "K508", f"another scenario in this file is named '{name}'", ("name",)))
        seen.add(name)
    return scenarios, []


def from_data(spec: Any, file: Path) -> Scenario:
    """A scenario written as data in code (no positions), its form checked; `file` places it."""
    scenario = Scenario(file, Located(str(file), spec, ""), (), spec)
    scenario.problems = check_form(scenario)
    return scenario


# ------------------------------------------------------------------------------ the form
def check_form(scenario: Scenario) -> list[Diagnostic]:
    """The schema's verdict on one scenario, one diagnostic per place, in file order."""
    if not isinstance(scenario.spec, dict):
        return [scenario.error("K501", "a scenario is a mapping (name:, setup:, steps:, "
                               f"expect:), not {kind_of(scenario.spec)}")]
    keys = [scenario.error("K502", f"unknown key '{path[-1]}' ({kind_of(path[-1])}; the keys of a "
                           "scenario are names)", path, key=True)
            for path in _keys_not_text(scenario.spec, ())]
    if keys:  # (the schema's key patterns would fail on them)
        return keys
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for error in sorted(_validator().iter_errors(scenario.spec), key=lambda e: list(map(str, e.path))):
        for diag in _diagnose(error, scenario):
            if (diag.line, diag.column, diag.code) not in seen:
                seen.add((diag.line, diag.column, diag.code))
                out.append(diag)
    if not out:
        out = _missing_folders(scenario)
    return sorted(out, key=lambda d: (d.line, d.column))


def _diagnose(error: jsonschema.ValidationError, scenario: Scenario) -> list[Diagnostic]:
    path = tuple(error.absolute_path)
    where = ".".join(map(str, path)) or "the scenario"
    check, schema = error.validator, error.schema
    expected = schema.get("description", "")
    if check == "additionalProperties":
        return [d for key in _extra_keys(error) if (d := _unknown_key(scenario, path, key, schema))]
    if check == "required":
        missing = error.message.split("'")[1]
        return [scenario.error("K503", f"{where}: missing required key '{missing}'", path)]
    if check == "dependentRequired":
        needed = next(k for k, v in error.validator_value.items() if k in error.instance
                      and any(n not in error.instance for n in v))
        return [scenario.error("K503", f"{where}: '{needed}' goes with "
                               f"'{error.validator_value[needed][0]}' in the same step", path)]
    if check == "oneOf":
        moves = [branch["required"][0] for branch in error.validator_value]
        if not isinstance(error.instance, dict):
            return [scenario.error("K504", f"{where}: {_short(error.instance)} is not valid here; "
                                   "a step is a mapping holding one of " + ", ".join(moves), path)]
        present = [m for m in moves if m in error.instance]
        found = "no move" if not present else "more than one move (" + ", ".join(present) + ")"
        return [scenario.error("K501", f"{where}: {found}; a step holds exactly one of "
                               + ", ".join(moves), path)]
    if check == "pattern" and "player" in expected:
        return [scenario.error("K506", f"{where}: {error.instance!r} is not a player; expected "
                               f"{expected}", path)]
    if check in RANGE_CHECKS:
        limit = error.validator_value
        what = {"maxItems": f"at most {limit} items", "maxProperties": f"at most {limit} entries",
                "maxLength": f"at most {limit} characters", "minItems": "at least one item",
                "minLength": "not empty"}.get(check, expected)
        value = (f"{len(error.instance)} entries" if isinstance(error.instance, list | dict)
                 else _short(error.instance))
        return [scenario.error("K505", f"{where}: {value} is out of range; expected {what}", path)]
    if check in ("type", "const", "enum"):
        return [scenario.error("K504", f"{where}: {_short(error.instance)} is not valid here; "
                               f"expected {expected or error.message}", path)]
    return [scenario.error("K501", f"{where}: {error.message}", path)]


def _keys_not_text(value: Any, path: tuple) -> Iterator[tuple]:
    """The paths of the mapping keys under `value` that are not text (`5:`, `true:`)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                yield (*path, key)
            yield from _keys_not_text(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _keys_not_text(item, (*path, i))


def _extra_keys(error: jsonschema.ValidationError) -> list[Any]:
    schema = error.schema
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    return [k for k in error.instance if k not in schema.get("properties", {})
            and not any(isinstance(k, str) and p.search(k) for p in patterns)]


def _unknown_key(scenario: Scenario, path: tuple, key: Any, schema: dict) -> Diagnostic | None:
    """A key the format does not know; None for a top-level `name: CARD` a card may declare."""
    here = (*path, key)
    if not path and isinstance(key, str) and isinstance(scenario.spec[key], str):
        scenario.choice_keys[key] = scenario.spec[key]  # checked once the cards are loaded
        return None
    if schema.get("patternProperties") and isinstance(key, str) and PLAYER_KEY.fullmatch(key):
        return scenario.error("K506", f"no player '{key}': players are p1 to p6", here, key=True)
    known = list(schema.get("properties", {}))
    hint = _did_you_mean(str(key), known, "p1, p2, ..., " if schema.get("patternProperties") else "")
    if key in scenario_schema()["$defs"]["scenario"]["properties"]:
        hint = f"'{key}' belongs at the top level of the scenario, beside 'name'"
    return scenario.error("K502", f"unknown key '{key}'", here, key=True, hint=hint)


def _did_you_mean(word: str, known: list[str], more: str = "") -> str:
    match = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else f"expected one of {more}{', '.join(known)}"


def _missing_folders(scenario: Scenario) -> list[Diagnostic]:
    """`expansions:` folders that do not exist (relative to the scenario file)."""
    return [scenario.error("K509", f"expansion folder '{folder}' not found "
                           f"(looked in {scenario.file.parent / folder})", ("expansions", i))
            for i, folder in enumerate(scenario.spec.get("expansions", []))
            if not (scenario.file.parent / folder).is_dir()]


# ------------------------------------------------------------------------------ references
def check_references(scenario: Scenario, library: Library,
                     broken: Mapping[str, str] | None = None) -> list[Diagnostic]:
    """Players, cards, piles and setup-choice keys a well-formed scenario names, checked.
    `broken`: the cards whose files did not compile (lower-case name: file), named as such."""
    spec = scenario.spec
    players = spec.get("players", 2)
    out = []
    for path, name, is_key in _player_references(spec):
        if int(name[1:]) > players:
            out.append(scenario.error(
                "K506", f"{'.'.join(map(str, path))}: this scenario has {players} players "
                f"(p1 to p{players}), not {name}", path, key=is_key,
                hint=f"add 'players: {name[1:]}' to the scenario"))
    choice_keys = sorted({k for d in library if d.setup is not None for k in d.setup_keys})
    for key in scenario.choice_keys:
        if key not in choice_keys:
            known = [*scenario_schema()["$defs"]["scenario"]["properties"], *choice_keys]
            out.append(scenario.error("K502", f"unknown key '{key}'", (key,), key=True,
                                      hint=_did_you_mean(key, known)))
    for path, name, is_key, what in _card_references(spec, scenario.choice_keys):
        if library.resolve(name) is None and not (what != "card" and name in library.split_piles):
            out.append(_unknown_card(scenario, library, broken or {}, path, name, is_key, what))
    return sorted(out, key=lambda d: (d.line, d.column))


def _unknown_card(scenario: Scenario, library: Library, broken: Mapping[str, str], path: tuple,
                  name: str, is_key: bool, what: str) -> Diagnostic:
    """K507 for a name no loaded card has; K510 when a card file of that name did not compile."""
    file = broken.get(str(name).lower())
    if file is not None:
        return scenario.error("K510", f"card '{name}' did not compile ({file})", path, key=is_key,
                              hint=f"fix {file} (its errors follow; `kingdom check` shows "
                              "every card's)")
    suggestion = library.suggest(name)
    return scenario.error("K507", f"unknown {what} '{name}'", path, key=is_key,
                          hint=f"did you mean '{suggestion}'?" if suggestion
                          else "check the spelling, or `expansions:`")


def _player_references(spec: dict) -> Iterator[tuple[tuple, str, bool]]:
    """(path, player name, whether it is a key) for every player the scenario names."""
    for section in ("setup", "expect"):
        block = spec.get(section)
        if isinstance(block, dict):
            yield from (((section, k), k, True) for k in block if PLAYER_KEY.fullmatch(str(k)))
            if "turn" in block:
                yield (section, "turn"), block["turn"], False
    winner = (spec.get("expect") or {}).get("winner")
    if winner is not None:
        yield from ((("expect", "winner", i), w, False) for i, w in enumerate(winner)) \
            if isinstance(winner, list) else [(("expect", "winner"), winner, False)]
    for i, step in enumerate(spec.get("steps") or []):
        if "player" in step:
            yield ("steps", i, "player"), step["player"], False
        if isinstance(step.get("answers"), dict):
            yield from ((("steps", i, "answers", k), k, True) for k in step["answers"])


def _card_references(spec: dict, choices: dict[str, Any]) -> Iterator[tuple[tuple, str, bool, str]]:
    """(path, name, whether it is a key, "card" or where a pile name is allowed too) for each name."""
    yield from ((("kingdom", i), name, False, "card or pile")
                for i, name in enumerate(spec.get("kingdom", [])))
    for key in ("ally", "bane", "ferryman", *choices):
        if key in spec:
            yield (key,), spec[key], False, "card"
    setup = spec.get("setup")
    if isinstance(setup, dict):
        for key, block in setup.items():
            if PLAYER_KEY.fullmatch(key):
                for zone in SETUP_ZONES:
                    yield from _list_names(("setup", key, zone), block.get(zone))
        yield from _list_names(("setup", "trash"), setup.get("trash"))
        yield from _list_names(("setup", "played"), setup.get("played"))
        yield from ((("setup", "supply", k), k, True, "pile") for k in setup.get("supply") or {})
    expect = spec.get("expect") or {}
    for key in ("supply", "top"):
        yield from ((("expect", key, k), k, True, "pile") for k in expect.get(key) or {})


def _list_names(path: tuple, cards: Any) -> Iterator[tuple[tuple, str, bool, str]]:
    if isinstance(cards, dict):
        yield from (((*path, k), k, True, "card") for k in cards)
    elif isinstance(cards, list):
        yield from (((*path, i), name, False, "card") for i, name in enumerate(cards))


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
