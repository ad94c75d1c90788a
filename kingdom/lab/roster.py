"""Every bot a `--bots` spec names: a built-in strategy, a strategy file, `default`, `random`,
or `big-money+CARD[*K]` / `big-money-ultimate+CARD[*K]`.

Above both strategy.py (bots as data) and autobots.py (bots made from a card, which are
strategies too): a spec may name either, so the lookup cannot live in one of them without that
one importing the other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kingdom.lab import autobots
from kingdom.lab.bots import DefaultAgent, RandomAgent
from kingdom.lab.strategy import Strategy, builtin_strategies, load_strategy
from kingdom.runtime.library import Library


class _Generic:
    """`default` and `random` as bot specs, next to strategy files."""

    def __init__(self, name: str, factory: Callable[[int | None], Any]) -> None:
        self.name = name
        self.factory = factory

    def agent(self, seed: int | None = None) -> Any:
        return self.factory(seed)


def resolve_bot(spec: str, library: Library) -> Strategy | _Generic:
    """A bot spec: a built-in strategy name, a path to a strategy file, `default`, `random`, or
    `big-money+CARD[*K]` / `big-money-ultimate+CARD[*K]` (kingdom/lab/autobots.py)."""
    if autobots.is_spec(spec):
        return autobots.resolve_auto_bot(spec, library)
    if spec == "default":
        return _Generic("default", lambda seed: DefaultAgent())
    if spec == "random":
        return _Generic("random", lambda seed: RandomAgent(seed))
    builtin = builtin_strategies()
    if spec in builtin:
        return load_strategy(builtin[spec], library)
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") or path.exists():
        return load_strategy(path, library)
    known = ", ".join([*builtin, "default", "random", "big-money+CARD", "big-money+CARD*K"])
    raise ValueError(f"unknown bot '{spec}'; expected a strategy file or one of: {known}")
