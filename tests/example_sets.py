"""The example expansions in examples/, and what the tests that load them need to know about each:
tests parametrised over EXAMPLES cover every example through the same routes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Example:
    folder: Path
    title: str  # the manifest's name, as `kingdom check` and rule summaries print it
    set: str  # its set id, which is also its entry point's name
    cards: frozenset[str]
    sample: str  # one of its card files, for tests that copy or clash a single card
    priced: tuple[str, dict]  # one card and its cost as `kingdom list --json` prints it

    @property
    def package(self) -> str:
        """The module `pip install` makes of the folder (its pyproject.toml says so)."""
        return f"kingdom_{self.set}"

    @property
    def sample_card(self) -> str:
        return self.sample.removesuffix(".yaml").replace("-", " ").title()


HARBOR = Example(
    ROOT / "examples" / "harbor", "Harbor Towns", "harbor",
    frozenset({"Dockhand", "Beacon", "Toll Bridge", "Press Gang", "Warehouse District", "Low Tide",
               "High Tide", "Lighthouse Keepers", "Tide Pool"}),
    "dockhand.yaml", ("Toll Bridge", {"coins": 4, "overpay": True}))
FOUNDRY = Example(
    ROOT / "examples" / "foundry", "Foundry", "foundry",
    frozenset({"Stoker", "Smelter", "Scrap Merchant", "Bronze Ingot", "Assayer", "Foreman",
               "Whetstone", "Banked Fire", "Recaster", "Sluice Box", "Patternmaker", "Cold Furnace",
               "Casting Mold", "Ore Sampler", "Ember Tongs", "Slag Guard", "Salvage Crew", "Cinder",
               "Pattern Rack", "Trip Hammer", "Ledger Clerk", "Drop Forge", "Recasting Pit",
               "Company Scrip", "Slag Ingot", "Bellows", "Crowded Forge",
               "Sorting Chute", "Ore Crusher", "Eternal Flame", "Pilot Light",
               "Second Shift", "Odd Lot", "Assay Office",
               "Rolling Mill", "Pour Line", "Quench Tank",
               "Forge Rivalry", "Casting Run"}),
    "casting-mold.yaml", ("Stoker", {"coins": 5}))
EXAMPLES = [HARBOR, FOUNDRY]
EXAMPLE_IDS = [e.set for e in EXAMPLES]
