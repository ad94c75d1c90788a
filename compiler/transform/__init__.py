"""The transformer from parse trees to nodes, assembled from one mixin per area of the grammar
(heads, steps, triggers, selections, references, filters, amounts, conditions); rules a
primitive registers go to its builder."""

from __future__ import annotations

from typing import Any

from kingdom.compiler import primitives
from kingdom.compiler.lexicon import POSSESSIVES
from kingdom.compiler.nodes import Node
from kingdom.compiler.transform.amounts import AmountRules
from kingdom.compiler.transform.conditions import ConditionRules
from kingdom.compiler.transform.filters import FilterRules
from kingdom.compiler.transform.heads import HeadRules
from kingdom.compiler.transform.references import ReferenceRules
from kingdom.compiler.transform.selections import SelectionRules
from kingdom.compiler.transform.steps import StepRules
from kingdom.compiler.transform.triggers import TriggerRules
from lark import Token, Tree, v_args
from lark.exceptions import VisitError


@v_args(meta=True)
class ToNodes(HeadRules, StepRules, TriggerRules, SelectionRules, ReferenceRules, FilterRules,
              AmountRules, ConditionRules):
    """Parse tree -> nodes. Primitive rules are looked up in the primitive registry."""

    @staticmethod
    def THEIR(token: Token) -> Token:  # (Lark calls it by the terminal's name)
        """"their" where a rule keeps its words ("into their hand") is read as "your"
        (compiler/lexicon.py): the same place, said of another player."""
        return token.update(value=next(k for k, v in POSSESSIVES.items() if v == token))

    def __default__(self, data: str, children: list, meta: Any) -> Any:
        builder = primitives.BUILDERS.get(data)
        if builder is None:
            return Tree(data, children, meta)
        try:  # (Lark calls this outside the code that wraps errors in VisitError)
            node = builder(*children)
        except Exception as exc:  # a builder's refusal ("gain two" needs a card), or its fault
            raise VisitError(data, Tree(data, children, meta), exc) from exc
        return node.at(meta) if isinstance(node, Node) else node

