"""What the references of the effect DSL mean, and the check that each one means one thing.

A reference names cards an earlier step of the same effect dealt with: `it`, `them`, `those`,
`that card`, `those cards`, `the rest`, `the other one`, `the trashed card(s)` (and the other
participles), `in it`. `REFERENCES` says what each refers to after each kind of step; the
docs print it. Rules that hold for all of them:

- A plural reference ("them", "the trashed cards") means all of the cards: "the total cost of
  the trashed cards" is their sum; a cost compared with one card's ("costing exactly the
  trashed cards") is K322.
- A reference that nothing before it bound ("trash it" as the first step) is K301.
- A step that both uses `it` and binds new cards ("gain a card costing $1 more than it")
  leaves `it` meaning either: a later `it` is K321, naming the choices ("the trashed card"
  or "the gained card").
- Lose track: a card a step moved (trashed, discarded, put, returned) is no longer one of
  the cards a later step refers to, so a later step does not move it again; set-aside cards
  are the exception (kept track of: "set it aside; ... put it into your hand").
- Last known: a card a step could not move (it had left: "trash it" of a card that trashed
  itself) is not moved by a later step either, but its cost, name and types are still read
  as they were ("trash it; gain a card costing exactly $1 more than it" gains by its cost).

`check_references` runs this over each effect before it is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kingdom.compiler.selections.conditions import Condition
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import Ref
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.as_you import AsYou
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.choose import Choose
from kingdom.compiler.structure.conditional import Cases, If, Otherwise
from kingdom.compiler.structure.each import Each
from kingdom.compiler.structure.lasting import Lasting
from kingdom.compiler.structure.may import MayStep, Unless
from kingdom.compiler.structure.next_turn import Deferred, NextTurn
from kingdom.compiler.structure.repeat import ForEach, Repeat
from kingdom.compiler.structure.sequence import Sequence, Then

if TYPE_CHECKING:
    from kingdom.compiler.nodes import Env, Node

# (after this kind of step, what the references mean)
REFERENCES: tuple[tuple[str, str], ...] = (
    ("reveal X / look at X",
     "it, them, those: the cards revealed or looked at; the revealed cards; those cards, the "
     "rest: those of them still where they were (revealing and looking move nothing, so a card "
     "drawn since is not one of them), or still held apart (revealed 'until' one turns up)"),
    ("trash / discard / put / return / set aside X",
     "it, them: the cards moved; the trashed (discarded, put, returned, set aside) card(s). A "
     "later step does not move them again (lose track), except set-aside cards; a card the "
     "step could not move (it had left) is not moved later either, but its cost, name and "
     "types are still read as last known"),
    ("trash (discard, put, ...) one of them / up to N of them",
     "it: the cards picked; them, the other one, the rest: the set they were picked from, "
     "without the cards moved out of it"),
    ("gain X", "it: the gained card, where it was gained (a later step can move it while it "
     "is still there); the gained card(s)"),
    ("play X", "it: the played card; the played card"),
    ("for each X: ...", "it: the card the body is for"),
    ("if you revealed any X: ...", "them: the revealed cards that are X"),
    ("when you gain (trash, play) a X: ...", "it: that card, where it is now"),
    ("when you gain (trash) this / discard this from play: ...", "it, this: this card, "
     "wherever it is now"),
    ("when shuffling: ...", "them, those cards: the cards being shuffled"),
    ("at the end of your Buy phase: ...", "in it: that phase ('cards you gained in it')"),
    ("X costing $1 more than it, then another step using it",
     "either card: write 'the trashed card' or 'the gained card' (K321)"),
)

SETS = ("revealed", "shuffled")  # what `it` means after a step that binds a set held apart


@dataclass(frozen=True)
class Bound:
    """What the references can mean at one point of an effect."""

    it: str = ""  # what `it` means: a participle ("trashed"), "revealed", "event", "this", ...
    choices: tuple[str, ...] = ()  # `it` could mean any of these (K321)
    names: frozenset[str] = frozenset()  # participles bound so far ("the trashed card")
    held: bool = False  # cards revealed or looked at ("those cards", "the rest")
    playing: bool = False  # `this` is the card being played now (its `play:`, not later)


def check_references(block: Block, env: Env, playing: bool = False) -> None:
    """Report every reference of `block` that means nothing (K301) or could mean two (K321);
    `playing`: `block` is the card's `play:`, during which `this` is being played."""
    _flow(block, Bound(playing=playing), env)


def trigger_start(ability: Ability) -> Bound:
    """What the references mean when an ability starts: the event's card, or this card."""
    when = ability.when
    if isinstance(when, str):  # setup, overpay
        return Bound()
    if when.event in Ability.SELF_EVENTS:
        return Bound(it="this")
    if when.event == "shuffle":
        return Bound(it="shuffled", held=True)
    if when.event in ("play", "after_play"):
        return Bound(it="played")  # (a card played: "play it again" replays it)
    if when.event in ("gain", "trash"):
        return Bound(it="event")
    return Bound()


def _flow(node: Node, bound: Bound, env: Env) -> Bound:
    """The references of `node` checked against `bound`; what they mean after it."""
    if isinstance(node, Block):
        return _flow_block(node.statements, bound, env)
    if isinstance(node, Sequence):
        return _flow_block(node.steps, bound, env)
    if isinstance(node, MayStep):
        after = _flow(node.step, bound, env)
        return _flow(node.reward, after, env) if node.reward is not None else after
    if isinstance(node, If):
        return _flow_if(node, None, bound, env)
    if isinstance(node, Choose):
        return _merge(bound, [_flow(option, bound, env) for option in node.options])
    if isinstance(node, Cases):
        _check_refs(node.ref, bound, env)
        return _merge(bound, [_flow(case.body, bound, env) for case in node.body.statements
                              if hasattr(case, "body")])
    if isinstance(node, Each | Repeat):
        if isinstance(node, Each) and node.condition is not None:
            _check_refs(node.condition, bound, env)
        after = _flow(node.body, bound, env)
        return replace(bound, names=after.names) if isinstance(node, Each) else after
    if isinstance(node, ForEach):
        _check_refs(node.selection, bound, env)
        return replace(_flow(node.body, replace(bound, it="each", choices=()), env), it="each")
    if isinstance(node, NextTurn | Deferred):  # later, with what is bound now
        later = replace(bound, playing=False)
        _flow(node.body if isinstance(node, NextTurn) else node.step, later, env)
        return bound
    if isinstance(node, Lasting):
        event = node.when.event
        start = Bound(it="played") if event == "play" else Bound(it="event") if event in (
            "gain", "trash") else Bound()
        _flow(node.body, start, env)
        return bound
    if isinstance(node, Ability):
        _flow(node.body, trigger_start(node), env)
        return bound
    if isinstance(node, Unless):
        return _flow(node.payment, _flow(node.step, bound, env), env)
    if isinstance(node, AsYou | Then):
        return _flow(node.step, bound, env)
    return _flow_step(node, bound, env)


def _flow_block(statements: list[Node], bound: Bound, env: Env) -> Bound:
    i = 0
    while i < len(statements):
        node = statements[i]
        otherwise = statements[i + 1] if i + 1 < len(statements) else None
        if isinstance(node, If) and isinstance(otherwise, Otherwise):
            bound = _flow_if(node, otherwise, bound, env)
            i += 2
            continue
        bound = _flow(node.body, bound, env) if isinstance(node, Otherwise) else (
            _flow(node, bound, env))
        i += 1
    return bound


def _flow_if(node: If, otherwise: Otherwise | None, bound: Bound, env: Env) -> Bound:
    _check_refs(node.condition, bound, env)
    if any(isinstance(r, Ref) and r.kind == "bound" and r.name == bound.it
           for r in node.condition.walk()):
        bound = replace(bound, choices=())  # "if the gained card is ...": `it` is that card
    inside = bound
    if any(isinstance(c, Condition) and c.kind == "revealed_any" for c in node.condition.walk()):
        inside = replace(bound, it="revealed", choices=())  # "if you revealed any X": them
    other = otherwise if otherwise is not None else node.otherwise
    branches = [_flow(node.body, inside, env)]
    if other is not None:
        branches.append(_flow(other.body, bound, env))
    return _merge(bound, branches)


def _merge(before: Bound, branches: list[Bound]) -> Bound:
    """After one of several branches: the participles any bound; `it` as the last that
    changed it."""
    names, held, after = before.names, before.held, before
    for branch in branches:
        names, held = names | branch.names, held or branch.held
        if branch.it != before.it or branch.choices != before.choices:
            after = branch
    return replace(after, names=names, held=held)


def _flow_step(step: Node, bound: Bound, env: Env) -> Bound:
    """A primitive: its references checked, then what it binds."""
    acted_on = _acted_on(step)
    uses_it = False
    for node in step.walk():
        if isinstance(node, Ref):
            _check_ref(node, bound, env)
            uses_it = uses_it or (node.kind == "it" and node is not acted_on)
        elif isinstance(node, Selection) and node.kind == "rest" and not bound.held:
            env.error("K301", f"'{node.render()}' refers to nothing here", node,
                      "'the rest' means the cards an earlier step revealed or looked at and "
                      "no step moved since; reveal or look at cards first")
    check_bound = getattr(step, "check_bound", None)  # a step's own rule on what is bound
    if check_bound is not None:
        check_bound(bound, env)
    binds = step.binds
    if not binds:
        return bound
    names = bound.names | {binds}
    held = bound.held or (binds == "revealed" and _from_deck(step))
    choices: tuple[str, ...] = ()
    if uses_it and bound.it and bound.it != binds and bound.it in bound.names:
        choices = (f"the {bound.it} card", f"the {binds} card")
    return Bound(binds, choices, names, held, bound.playing)


def _from_deck(step: Node) -> bool:
    selection = getattr(step, "selection", None)
    return isinstance(selection, Selection) and selection.from_deck


def _acted_on(step: Node) -> Ref | None:
    """The reference a step acts on ("discard it", "trash one of them"), if any."""
    selection = getattr(step, "selection", None)
    if (isinstance(selection, Selection) and selection.kind == "ref") or (
            isinstance(selection, Selection) and selection.source == "ref"):
        return selection.ref
    return None


def _check_refs(node: Node, bound: Bound, env: Env) -> None:
    for child in node.walk():
        if isinstance(child, Ref):
            _check_ref(child, bound, env)


def _check_ref(ref: Ref, bound: Bound, env: Env) -> None:
    word = ref.render()
    if ref.kind == "this":
        return
    if ref.kind == "revealed":
        if not (bound.held or bound.it in SETS):
            env.error("K301", f"'{word}' refers to nothing here", ref,
                      "'those cards' means cards an earlier step revealed or looked at")
        return
    if ref.kind == "bound":
        if ref.name not in bound.names and not (ref.name == "revealed" and bound.held):
            known = ", ".join(f"'the {n} card'" for n in sorted(bound.names))
            env.error("K301", f"'{word}': no step before this one {ref.name} a card", ref,
                      f"bound here: {known}" if known else "nothing is bound here yet: a "
                      "reference names cards an earlier step of this effect moved or gained")
        return
    if not bound.it:
        env.error("K301", f"'{word}' refers to nothing here", ref,
                  "no earlier step of this effect revealed, moved, gained or played a card; "
                  "write what to pick instead ('a card from your hand')")
    elif bound.choices:
        env.error("K321", f"'{word}' could mean {' or '.join(bound.choices)}", ref,
                  f"say {' or '.join(repr(c) for c in bound.choices)}")
