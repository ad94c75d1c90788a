"""The nouns of the DSL: card references, card descriptions, counts, money, conditions and
selections. Each compiles to a small function of the runtime context; one module per kind:

- `zones`: the acting player's zones, the cards an effect holds apart (revealed, looked at),
  `bind` and `Ref` ("it", "them", "this", "the trashed cards"); a picked card travels with
  the list it is in now (`Placed`), so that the step that moves it can honour Stop-Moving.
- `filters`: card descriptions (`Noun`, `Qualifier`, `Filter`: "a non-Victory card costing up
  to $4"), each compiled to `pred(ctx, carddef) -> bool`.
- `amounts`: numbers (`Amount`), costs to compare with (`Money`) and what can be counted
  (`Countable`: "Action cards in play"), compiled to `f(ctx) -> int`.
- `conditions`: the tests of "if" and "unless" (`Condition`), compiled to `f(ctx) -> bool`.
- `selection`: which cards a step acts on and how many (`Selection`), compiled to
  `select(ctx, prompt) -> [(card, zone)]`.

Their grammar is in grammar/effect.lark (sections "selections", "numbers and money",
"conditions"), their builders in compiler/transform/.
"""
