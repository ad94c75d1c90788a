"""Collect scenario files (tests/scenarios/**/*.yaml) as pytest items, one per scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
from kingdom.compiler.errors import CompileError

from kingdom.scenarios.check import Scenario, load_file
from kingdom.scenarios.runner import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".yaml" and SCENARIOS in file_path.parents:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        scenarios, problems = load_file(self.path)
        if problems:
            raise ScenarioError(CompileError(problems).report())
        for scenario in scenarios:
            yield ScenarioItem.from_parent(self, name=scenario.name, scenario=scenario)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, **kwargs) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.funcargs: dict = {}  # (pytest-lsp's hook looks for a test's fixtures here)

    def runtest(self) -> None:
        outcome = run_scenario(self.scenario)
        if not outcome.passed:
            raise ScenarioError(outcome.message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioError):
            return f"scenario failed: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.name}"


class ScenarioError(Exception):
    pass
