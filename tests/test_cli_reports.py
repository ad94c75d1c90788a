"""Reports for CI and editors: `kingdom check --json` (the diagnostics with file, line and column)
and `kingdom test --junit FILE` (JUnit XML, a testcase per scenario), read back as they would be."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

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


def test_check_json_has_every_diagnostic_with_its_place(capsys) -> None:
    assert main(["check", str(ROOT / "broken"), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    files = sorted(p.name for p in (ROOT / "broken").glob("*.yaml"))
    assert report["errors"] == len(report["diagnostics"]) >= len(files)
    assert sorted({Path(d["file"]).name for d in report["diagnostics"]}) == files
    for diagnostic in report["diagnostics"]:
        assert list(diagnostic) == ["file", "line", "column", "code", "severity", "message", "hint"]
        assert diagnostic["severity"] == "error" and diagnostic["code"].startswith("K")
        assert diagnostic["line"] >= 1 and diagnostic["column"] >= 1 and diagnostic["message"]
    syntax = next(d for d in report["diagnostics"] if d["file"].endswith("dsl-syntax.yaml"))
    assert (syntax["line"], syntax["column"]) == (7, 31) and "amount" in syntax["hint"]
    assert main(["check", "--json"]) == 0
    clean = json.loads(capsys.readouterr().out)
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
    assert int(root.get("failures")) == len(failed) == 2
    assert f"{len(cases) - 2} passed, 2 failed" in printed
    smithy = suites["smithy.yaml"]
    assert (smithy.get("tests"), smithy.get("failures")) == ("2", "1")
    wrong = next(c for c in smithy if c.find("failure") is not None)
    assert wrong.get("name") == "Smithy draws four, wrongly" and wrong.find("failure").text
    assert suites["adventurer.yaml"].get("failures") == "0"
    assert suites["unreadable.yaml"].find("testcase/failure") is not None
