"""The registry of DSL primitives.

A primitive is one class: its grammar (the alternatives it adds to `primitive` in
grammar/effect.lark), a `build_<alias>` constructor per alternative, `compile` (its behaviour,
calling runtime.game) and `render` (its English phrase). Adding a primitive is adding one
module here and naming it in `MODULES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

GRAMMAR: dict[str, str] = {}  # rule name -> its Lark text
BUILDERS: dict[str, Callable] = {}  # alias -> constructor taking the parse children

MODULES = (
    "bonus", "buy_limits", "choosing", "cleanup", "costs", "draw", "exchange", "from_play",
    "gain", "gain_one_each", "move", "passing", "phases", "piles", "play", "play_per", "produce", "reveal",
    "setup_piles", "tokens", "turn",
)


def primitive(rule: str, grammar: str) -> Callable[[type], type]:
    """Register a primitive class: `grammar` defines rule `rule`, with `-> alias` names that
    match the class's `build_<alias>` static methods."""

    def register(cls: type) -> type:
        GRAMMAR[rule] = f"{rule}: {grammar.strip()}"
        for attr in dir(cls):
            if attr.startswith("build_"):
                BUILDERS[attr[len("build_") :]] = getattr(cls, attr)
        return cls

    return register


def load_all() -> None:
    for name in MODULES:
        importlib.import_module(f"kingdom.compiler.primitives.{name}")
