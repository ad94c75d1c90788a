"""Collect scenario files (tests/scenarios/**/*.yaml) as pytest items, one per scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdom.scenarios import load_scenarios, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".yaml" and SCENARIOS in file_path.parents:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        for spec in load_scenarios(self.path):
            yield ScenarioItem.from_parent(self, name=str(spec.get("name")), spec=spec)


class ScenarioItem(pytest.Item):
    def __init__(self, *, spec: dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spec = spec

    def runtest(self) -> None:
        outcome = run_scenario(self.spec, self.path)
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
