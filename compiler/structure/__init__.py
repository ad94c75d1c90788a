"""Structural nodes: the constructs that hold other steps, one module each.

Listed low to high: a module imports only modules above it in this list.

- common.py: `unparse_compound`, `with_reminder` (how any construct writes itself)
- conditional.py: `If`, `Otherwise`, `Cases`, `Case` ("if ...:", "otherwise:", "if it is an...:")
- repeat.py: `Repeat`, `ForEach`, `RepeatAsDesired` ("repeat 2:", "per $1 overpaid,", "for
  each ...:", "repeat as desired")
- block.py: `Block` (statements in order), `compile_apart`, `return_revealed`, `unparse_steps`,
  `said_of_them`
- sequence.py: `Sequence`, `Then` ("A and B", "A, then B", "then X")
- as_you.py: `AsYou` ("you gain a copy of it" inside "each other player")
- choose.py: `Choose`, `option_block` ("choose one: A | B", "either A or B")
- may.py: `MayStep`, `Unless`, `first_choice` ("you may X to Y", "X unless you spend a Favor")
- next_turn.py: `NextTurn`, `Deferred` (Durations, "X at the end of this turn")
- each.py: `Each` ("each other player:", "each player:", "the player to your left:")
- when.py: `When` (trigger heads: "when you gain a card", "at the start of your turn")
- ability.py: `Ability`, `check_reaction` (abilities below the line, Reactions in hand)
- lasting.py: `Lasting`, `IfDiscardedFromPlay` ("this turn, when ...", "until your next turn")
- compound.py: `make_compound` (a `head: block` statement made into its node)

The grammar of these constructs is in grammar/effect.lark (`head`, `step`, `chain`, `trigger`)
and their builders in compiler/transform/ (heads.py, steps.py, triggers.py).
"""
