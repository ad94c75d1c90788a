"""Reports for CI and editors: `kingdom check --json` (the diagnostics with file, line and column)
and `kingdom test --junit FILE` (JUnit XML, a testcase per scenario), read back as they would be."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import jsonschema

from kingdom.cli.main import main

ROOT = Path(__file__).resolve().parent
FAILING = """\
- name: Smithy draws three
  setup: {p1: {hand: [Smithy], deck: [Copper, Copper, Copper]}}
  steps: [{play: Smithy}]
  expect: {p1: {hand: [Copper, Copper, Copper]}}
- name: Smithy draws four, wrongly
  setup: {p1: {hand: [Smithy], deck: [Copper, Copper, Copper, Copper]}}
  steps: [{play: Smithy}]
  expect: {p1: {hand: [Copper, Copper, Copper, Copper]}}
"""


# What an editor or CI job may rely on in `check --json`: written here, apart from the code.
CHECK_REPORT = {
    "type": "object", "required": ["cards", "errors", "diagnostics"], "additionalProperties": False,
    "properties": {
        "cards": {"type": "integer", "minimum": 0},
        "errors": {"type": "integer", "minimum": 0},
        "diagnostics": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["file", "line", "column", "code", "severity", "message", "hint",
                         "suggestion"],
            "properties": {
                "file": {"type": "string", "minLength": 1},
                "line": {"type": "integer", "minimum": 1},
                "column": {"type": "integer", "minimum": 1},
                "code": {"type": "string", "pattern": "^K[0-9]{3}$"},
                "severity": {"enum": ["error", "warning"]},
                "message": {"type": "string", "minLength": 1},
                "hint": {"type": ["string", "null"]},
                "suggestion": {"type": "string"},
            }}},
    },
}


def test_check_json_has_every_diagnostic_with_its_place(capsys) -> None:
    assert main(["check", str(ROOT / "broken"), "--json"]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert captured.err == ""  # the JSON alone, nothing for a reader of stdout to skip
    jsonschema.validate(report, CHECK_REPORT)
    files = sorted(p.name for p in (ROOT / "broken").glob("*.yaml"))
    assert report["errors"] == len(report["diagnostics"]) >= len(files)
    assert sorted({Path(d["file"]).name for d in report["diagnostics"]}) == files
    for diagnostic in report["diagnostics"]:
        assert list(diagnostic) == ["file", "line", "column", "code", "severity", "message", "hint",
                                    "suggestion"]
        assert diagnostic["severity"] == "error" and diagnostic["code"].startswith("K")
        assert diagnostic["line"] >= 1 and diagnostic["column"] >= 1 and diagnostic["message"]
    syntax = next(d for d in report["diagnostics"] if d["file"].endswith("dsl-syntax.yaml"))
    assert (syntax["line"], syntax["column"]) == (7, 31) and "amount" in syntax["hint"]
    assert syntax["suggestion"] == "gain a card costing up to $4"
    assert main(["check", "--json"]) == 0
    clean = json.loads(capsys.readouterr().out)
    jsonschema.validate(clean, CHECK_REPORT)
    assert clean["errors"] == 0 and clean["diagnostics"] == [] and clean["cards"] > 100


def test_junit_has_a_testcase_per_scenario_and_the_failures(tmp_path, capsys) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "smithy.yaml").write_text(FAILING)
    shutil.copy(ROOT / "scenarios" / "base" / "adventurer.yaml", folder)
    (folder / "unreadable.yaml").write_bytes(b"\xff\xfe not text")
    report = tmp_path / "junit.xml"
    assert main(["test", str(folder), "--junit", str(report), "-q"]) == 1
    printed = capsys.readouterr().out
    root = ElementTree.parse(report).getroot()
    assert root.tag == "testsuites"
    suites = {Path(s.get("name")).name: s for s in root.iter("testsuite")}
    assert sorted(suites) == ["adventurer.yaml", "smithy.yaml", "unreadable.yaml"]
    cases = list(root.iter("testcase"))
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(root.get("tests")) == len(cases) == 7 + 2 + 1
    assert int(root.get("failures")) == len(failed) == 1 and root.get("errors") == "1"
    assert f"{len(cases) - 2} passed, 2 failed" in printed
    smithy = suites["smithy.yaml"]
    assert (smithy.get("tests"), smithy.get("failures")) == ("2", "1")
    wrong = next(c for c in smithy if c.find("failure") is not None)
    assert wrong.get("name") == "Smithy draws four, wrongly" and wrong.find("failure").text
    assert suites["adventurer.yaml"].get("failures") == "0"
    assert suites["unreadable.yaml"].find("testcase/error") is not None


# JUnit XML as its readers (Jenkins, GitLab, Ant's schema) take it: each element's required
# attributes, numeric ones as numbers, and the children it may hold.
JUNIT = {
    "testsuites": ({"name", "tests", "failures", "errors", "time"}, {"testsuite"}),
    "testsuite": ({"name", "tests", "failures", "errors", "skipped", "time"}, {"testcase"}),
    "testcase": ({"name", "classname", "time"}, {"failure", "error"}),
    "failure": ({"message", "type"}, set()),
    "error": ({"message", "type"}, set()),
}
COUNTS = {"tests", "failures", "errors", "skipped"}


def _valid_junit(element: ElementTree.Element) -> None:
    required, children = JUNIT[element.tag]
    assert required <= set(element.attrib), (element.tag, element.attrib)
    for key, value in element.attrib.items():
        if key in COUNTS:
            assert re.fullmatch(r"\d+", value), (element.tag, key, value)
        if key == "time":
            assert re.fullmatch(r"\d+(\.\d+)?", value), (element.tag, value)
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        _valid_junit(child)
    if element.tag in ("testsuites", "testsuite"):
        cases = list(element.iter("testcase"))
        assert int(element.get("tests")) == len(cases)
        for kind in ("failure", "error"):
            assert int(element.get(f"{kind}s")) == sum(c.find(kind) is not None for c in cases)
    if element.tag == "testcase":
        assert len(element) <= 1  # a case fails or errs once, or passes
    if element.tag in ("failure", "error"):
        assert element.get("message") and element.text


def test_junit_is_valid_for_its_readers(tmp_path, capsys) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "smithy.yaml").write_text(FAILING)
    (folder / "unreadable.yaml").write_bytes(b"\xff\xfe not text")
    (folder / "not-yaml.yaml").write_text("- name: [unclosed\n")
    shutil.copy(ROOT / "scenarios" / "base" / "adventurer.yaml", folder)
    report = tmp_path / "junit.xml"
    assert main(["test", str(folder), "--junit", str(report), "-q"]) == 1
    capsys.readouterr()
    assert report.read_bytes().startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ElementTree.parse(report).getroot()
    _valid_junit(root)
    assert (root.get("failures"), root.get("errors")) == ("1", "2")  # two files are not read as YAML
    # each case is timed, to the millisecond (a quick scenario may take less: 0.000)
    assert all(re.fullmatch(r"\d+\.\d{3}", c.get("time") or "") for c in root.iter("testcase"))
    for broken in ("unreadable.yaml", "not-yaml.yaml"):
        suite = next(s for s in root if s.get("name").endswith(broken))
        assert suite.find("testcase/error") is not None and suite.get("errors") == "1"
    assert main(["test", str(ROOT / "scenarios" / "base" / "adventurer.yaml"), "--junit",
                 str(report), "-q"]) == 0
    passing = ElementTree.parse(report).getroot()
    _valid_junit(passing)
    assert (passing.get("failures"), passing.get("errors")) == ("0", "0")
