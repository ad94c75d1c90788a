"""Structural nodes: blocks, "you may", "if", "choose", "each other player", repetition,
Durations, effects lasting this turn, and triggered abilities."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from kingdom.compiler.checks import check_repeat
from kingdom.compiler.nodes import (
    Env,
    Node,
    article,
    capitalised,
    join_and,
    sentence,
    their,
    they_do,
    third_person,
)
from kingdom.compiler.selections.amounts import Amount, Countable
from kingdom.compiler.selections.conditions import Condition
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import Ref
from kingdom.runtime.cards import Trigger
from kingdom.runtime.context import Ctx, Declined
from kingdom.runtime.decisions import OPTION, YES_NO, Decision, ask
from kingdom.runtime.game import Listener
from kingdom.runtime.history import VERBS, times_this_turn

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

MERGED = ("trashed", "gained", "discarded", "revealed_all")


def return_revealed(ctx: Ctx) -> None:
    """Revealed cards nothing moved go back where they came from (the top of the deck)."""
    zone = ctx.vars.get("revealed")
    if zone:
        ctx.player.deck.extend(reversed(zone))
        zone.clear()


def compile_apart(body: Node, env: Env) -> Callable[[Ctx], None]:
    """A block run on its own (a card's play, a trigger, a Duration's next turn, a lasting or
    deferred effect): the cards it revealed and did not move go back when it ends."""
    effect = body.compile(env)

    def run(ctx: Ctx) -> None:
        effect(ctx)
        return_revealed(ctx)

    return run


class Block(Node):
    """Statements run in order. `lines` keeps the author's line structure for rendering."""

    def __init__(self, lines: list[list[Node]], joiner: str = "; ") -> None:
        self.lines = lines
        self.joiner = joiner

    @property
    def statements(self) -> list[Node]:
        return [s for line in self.lines for s in line]

    def children(self):
        return iter(self.statements)

    def compile(self, env: Env) -> Callable[[Ctx], None]:
        steps: list[Callable] = []
        statements = self.statements
        i = 0
        while i < len(statements):
            node = statements[i]
            if isinstance(node, If) and i + 1 < len(statements) and isinstance(
                statements[i + 1], Otherwise
            ):
                node.otherwise = statements[i + 1]
                i += 1
            elif isinstance(node, Otherwise):
                env.error("K302", "'otherwise' must follow an 'if'", node,
                          "put 'otherwise: ...' on a line of its own right after its 'if': on "
                          "one line, 'if ...:' takes the rest of the line as its block")
            step = node.compile(env)
            if i + 1 < len(statements) and isinstance(statements[i + 1], RepeatAsDesired):
                step = statements[i + 1].repeating(step)
                i += 1
            steps.append(step)
            i += 1
        if len(steps) == 1:
            return steps[0]

        def run(ctx: Ctx) -> None:
            for step in steps:
                step(ctx)

        return run

    def render(self, they: bool = False) -> str:
        if they:
            parts = _and_joined(self.statements, they=True)
            if len(parts) == 2 and parts[1].startswith("if "):  # "gains a Curse, and if they did"
                return f"{parts[0]}, and {parts[1]}"
            return join_and(parts)
        if getattr(self, "listed", False):
            return join_and(_and_joined(self.statements))
        return self.joiner.join(_and_joined(self.statements))

    def render_lines(self) -> list[str]:
        """One text line per author line, each statement a sentence."""
        out = []
        for line in self.lines:
            for node in line:  # an "otherwise" on a line of its own is printed on its own line
                if isinstance(node, If) and node.otherwise is not None:
                    node.otherwise.apart = not any(s is node.otherwise for s in line)
            parts = [p for p in (sentence(p) for p in _and_joined(line)) if p]
            # a bonus sharing its line ends with a stop: "Discard a card. +1 Card.", "+1 Card. +1 Buy."
            parts = [p if len(parts) == 1 or p.endswith((".", ")", ":")) or "...\n" in p
                     else p + "." for p in parts]
            text = " ".join(t for t in parts if t)
            if text:  # an "otherwise" line is rendered by the "if" before it
                out.append(text)
        return out

    def unparse(self) -> str:
        return unparse_steps(self.statements)


def unparse_steps(statements: list[Node]) -> str:
    """Statements as one DSL line: "a; b", "a; and b" where b was joined to a, reminders kept."""
    parts = []
    for node in statements:
        if getattr(node, "joined", False):  # "if X: A, otherwise B"
            parts.append(f", otherwise {node.body.unparse()}")
            continue
        sep = "; and " if getattr(node, "and_before", False) else "; "
        reminder = getattr(node, "reminder", "")
        parts.append((sep if parts else "") + node.unparse() + (f" {reminder}" if reminder else ""))
    return "".join(parts)


def unparse_compound(node: Node, body: Node | None = None) -> str:
    """A `head: block` statement on one line: "if you did: +1 card; +$1"."""
    return f"{node.unparse_head()}: {(body or node.body).unparse()}"


def _is_compound(node: Node) -> bool:
    """Whether a node is written `head: block` (and so cannot follow "to" in one step); a
    choice may ("you may X to choose one: A | B")."""
    return (hasattr(node, "unparse_head") and getattr(node, "body", None) is not None
            and node.unparse() == unparse_compound(node))


def with_reminder(node: Node, text: str) -> str:
    """A statement's text and the reminder written after it: "... (after drawing)", or a
    sentence of its own when it is one: "... their choice. (They may pick ...)"."""
    reminder = getattr(node, "reminder", "")
    if not reminder:
        return text
    return f"{text}. {reminder}" if reminder[1:2].isupper() else f"{text} {reminder}"


def _and_joined(statements: list[Node], they: bool = False) -> list[str]:
    """Rendered statements (said of "they" with `they`); one written after "; and" joins the
    one before ("X and Y"), one after ", then" in an option too ("X, then Y")."""
    parts: list[str] = []
    before = None
    for s in statements:
        text = with_reminder(s, said_of_them(s) if they else s.render())
        if they and text.startswith("+"):  # "discards a card and gets +1 Card"
            text = f"gets {text}"
        if parts and isinstance(s, If) and isinstance(before, If) and before.otherwise is None \
                and not getattr(s, "own_sentence", False):
            parts[-1] += f"; {text}"  # "If A, X; if B, Y."
        elif parts and getattr(s, "semi_before", False):  # "Look through ...; you may ..."
            parts[-1] += f"; {text}"
        elif parts and getattr(s, "and_before", False):
            parts[-1] += f" and {text}"
        elif parts and getattr(s, "then_before", False):
            parts[-1] += f", then {text}"
        else:
            parts.append(text)
        before = s
    return parts


class MayStep(Node):
    """"you may X", "you may X for Y", "you may X to: ...". `did` tells whether X happened."""

    def __init__(self, step: Node, reward: Node | None = None, word: str = "for") -> None:
        self.step = step
        self.reward = reward
        self.word = word

    def compile(self, env: Env):
        step = self.step
        selection = getattr(step, "selection", None)
        pickable = isinstance(selection, Selection) and selection.kind == "pick"
        supply_gain = (type(step).__name__ == "Gain" and selection is None) or getattr(
            step, "chooses", False)
        if pickable:
            selection.optional = True
        if supply_gain:
            step.optional = True
        # "you may spend a Favor to gain a card ...": when what it pays for starts with a choice,
        # that choice is the one decision (declining it spends nothing).
        pays_for = (first_choice(self.reward) if getattr(step, "pays", False)
                    and self.reward is not None else None)
        possible = _feasibility(step)
        more_after_choice = pays_for is not None and _has_more(self.reward)
        whole_prompt = sentence(self.render())
        reward_possible = _feasibility(self.reward) if self.reward is not None else None
        run_step = step.compile(env)
        reward = self.reward.compile(env) if self.reward is not None else None
        prompt = sentence(f"you may {step.render()}")

        def may(ctx: Ctx) -> None:
            if (possible is not None and not possible(ctx)) or (
                reward_possible is not None and not reward_possible(ctx)
            ):
                ctx.did = False  # nothing to choose: it can't be done (too few Favors)
                return
            if pays_for is not None:
                ctx.vars["pay"] = run_step
                if more_after_choice:
                    ctx.vars["pay_anyway"] = whole_prompt
                try:
                    reward(ctx)
                    ctx.did = True
                except Declined:
                    ctx.did = False
                finally:
                    ctx.vars.pop("pay", None)
                    ctx.vars.pop("pay_anyway", None)
                return
            if not (pickable or supply_gain) and not ask(
                Decision(YES_NO, ctx.player, prompt, [True, False], card=ctx.card, game=ctx.game)
            ):
                ctx.did = False
                return
            run_step(ctx)
            did = ctx.did
            if did and reward is not None:
                reward(ctx)
            ctx.did = did

        return may

    def render(self, they: bool = False) -> str:
        adverb = getattr(self, "adverb", "")
        text = f"you may {adverb + ' ' if adverb else ''}{self.step.render()}"
        if self.reward is not None:
            sep = f" {self.word} " if self.word != ":" else ", "
            if self.word.startswith(","):  # "you may X, and Y"
                sep = f"{self.word} "
            reward = self.reward.render()
            bonuses = [s.render() for s in self.reward.statements]
            if self.word == "to" and all(b.startswith("+") for b in bonuses):
                sep, reward = " for ", join_and(bonuses)  # "for +1 Card", never "to +1 Card"
            elif self.word == "to" and reward.startswith(("you ", "then ")):  # not "to you may"
                sep, reward = ", and if you do, ", reward.removeprefix("then ")
                if they:  # "may trash a card, and if they do, they may gain a Silver"
                    return (f"{third_person(text.removeprefix('you '))}, and if they do, "
                            f"{they_do(reward.removeprefix('you '))}")
            text += sep + reward
        return third_person(text.removeprefix("you ")) if they else text

    def unparse_head(self) -> str:
        return f"you may {self.step.unparse()} to"

    def unparse(self) -> str:
        adverb = getattr(self, "adverb", "")
        text = f"you may {adverb + ' ' if adverb else ''}{self.step.unparse()}"
        if self.reward is None:
            return text
        reward = self.reward.statements
        if self.word == ", for":  # "you may X, for A, or B"
            return f"{text}, for " + ", or ".join(o.unparse() for o in reward[0].options)
        if self.word == "to" and (len(reward) != 1 or _is_compound(reward[0])):
            return unparse_compound(self, self.reward)
        sep = f"{self.word} " if self.word.startswith(",") else f" {self.word} "
        return text + sep + reward[0].unparse()


class If(Node):
    # `own_sentence`: written as its own string item of a line, so printed as its own sentence
    # after another "if" (the layout, not the tree)
    ATTRIBUTES = Node.ATTRIBUTES | {"own_sentence"}

    def __init__(self, condition: Condition, body: Block) -> None:
        self.condition = condition
        self.body = body
        self.otherwise: Otherwise | None = None

    def compile(self, env: Env):
        test = self.condition.compile_test()
        body = self.body.compile(env)
        other = self.otherwise.body.compile(env) if self.otherwise is not None else None

        def if_(ctx: Ctx) -> None:
            if test(ctx):
                body(ctx)
            elif other is not None:
                other(ctx)

        return if_

    def render(self, they: bool = False) -> str:
        condition = with_reminder(self.condition, self.condition.render())
        if they:  # "each other player gains a Curse, and if they did, draws a card"
            condition = their(condition.replace("you did", "they did"))
        text = f"if {condition}, {self.body.render(they)}"
        if self.otherwise is not None and getattr(self.otherwise, "joined", False):
            text += f", otherwise {self.otherwise.body.render(they)}"
        elif self.otherwise is not None and not getattr(self.otherwise, "apart", False):
            text += f". Otherwise, {self.otherwise.body.render(they)}"
        return text

    def unparse_head(self) -> str:
        return f"if {self.condition.unparse()}"

    def unparse(self) -> str:
        return unparse_compound(self)


class Otherwise(Node):
    # `joined`: written "if X: A, otherwise B" on one line (the layout, not the tree)
    ATTRIBUTES = Node.ATTRIBUTES | {"joined"}

    def __init__(self, body: Block) -> None:
        self.body = body

    def compile(self, env: Env):
        return lambda ctx: None  # run by the If it follows

    def render(self, they: bool = False) -> str:
        if getattr(self, "apart", False):  # on its own line, not after the "if" it follows
            return f"otherwise, {self.body.render(they)}"
        return ""

    def unparse_head(self) -> str:
        return "otherwise"

    def unparse(self) -> str:
        return unparse_compound(self)


class Choose(Node):
    """"choose one: A | B", "choose two different", by the player or ("you choose") by you."""

    def __init__(self, amount: Amount, options: list[Block], by_you: bool = False,
                 different: bool = False) -> None:
        self.amount = amount
        self.options = options
        self.by_you = by_you
        self.different = different

    def compile(self, env: Env):
        labels = [o.render() for o in self.options]
        for i, label in enumerate(labels):
            if label in labels[:i]:  # (a choice is answered by its label)
                env.error("K303", f"the choice offers '{label}' twice", self,
                          "make each option different, or drop the repeated one")
        effects = [o.compile(env) for o in self.options]
        count = self.amount.compile_amount()
        by_you = self.by_you
        prompt = "Choose one: " + "; or ".join(labels)
        # Options that only move bound cards ("discard it | put it back") are no real choice
        # when nothing is bound: then nobody is asked.
        bound = [_bound_ref(s) for o in self.options for s in o.statements]
        refs = [ref for ref in bound if ref is not None]
        refs_only = len(refs) == len(bound)
        optional = getattr(self, "optional", False)
        in_printed_order = self.different  # "choose two different": resolved in the order shown
        # Only a printed "choose" list takes an extra option (Elder): not "..., your choice"
        # (Jester, Spy), nor options joined by "or" ("+1 Card, or +1 Action, or +1 Buy").
        takes_extra = not by_you and getattr(self, "style", "") not in ("or", "either", "gain or")

        def choose(ctx: Ctx) -> None:
            if refs_only and not any(ref.resolve(ctx) for ref in refs):
                return
            remaining = list(range(len(labels)))
            chooser = ctx.you if by_you else ctx.player
            chosen: list[int] = []
            for _ in range(count(ctx)):
                if not remaining:
                    break
                label = ask(Decision(OPTION, chooser, prompt, [labels[i] for i in remaining],
                                     0 if optional else 1, card=ctx.card, game=ctx.game))
                ctx.commit(label is not None)
                if label is None:
                    break
                index = labels.index(label)
                remaining.remove(index)
                if in_printed_order:
                    chosen.append(index)
                else:
                    effects[index](ctx)
            for index in sorted(chosen):
                effects[index](ctx)
            # An extra (different) option a card was granted this turn ("when it gives you a
            # choice ..., you may choose an extra option"): only for your own choices.
            card = ctx.card
            extra = ctx.game.extra_choices.get(card.uid, 0) if card is not None else 0
            for _ in range(extra if takes_extra and chooser is ctx.you else 0):
                if not remaining:
                    break
                label = ask(Decision(OPTION, chooser, "You may choose an extra option",
                                     [labels[i] for i in remaining], 0, 1,
                                     card=ctx.card, game=ctx.game))
                if label is None:
                    break
                index = labels.index(label)
                remaining.remove(index)
                effects[index](ctx)

        return choose

    def render(self, they: bool = False) -> str:
        if getattr(self, "style", "") == "or":  # "+1 Card, or +1 Action, or +1 Buy"
            return ", or ".join(o.render() for o in self.options)
        if getattr(self, "style", "") == "either":  # "either trash it or put it onto your deck"
            first, second = (o.render(they=they) for o in self.options)
            return f"either {first} or {second}"
        if getattr(self, "style", "") == "gain or":  # "gain two Silvers or a Gold"
            first, second = (o.render(they=they) for o in self.options)
            return f"{first} or {second.split(' ', 1)[1]}"
        if they and self.by_you and len(self.options) == 2:
            first, second = (o.render(they=True) for o in self.options)
            return f"either {first} or {second}, your choice"
        if they and self.amount.constant == 1 and len(self.options) == 2:
            first, second = (o.render(they=True) for o in self.options)
            return f"either {first} or {second}, their choice"
        n = self.amount.render()
        words = {"1": "one", "2": "two", "3": "three"}
        if self.by_you:
            head = "your choice: "
        elif self.amount.kind == "types_of":  # one choice per type of a card
            head = f"for each type {self.amount.value.render()} has (Action, Attack, etc.), choose one: "
        elif self.amount.kind == "count":
            head = f"for each {self.amount.value.render()}, choose one: "
        else:
            head = f"choose {words.get(n, n)}: "
        rendered = [o.render() for o in self.options]  # (capitalised() opens a sentence)
        several = self.amount.kind == "number" and (self.amount.constant or 0) > 1
        # "Choose two: A; B; C; D" (not "or": two are chosen)
        text = self._laid_out(head, rendered, "; " if several else "; or ")
        if self.different == "options":  # "Choose two different options: A; B; C; D"
            return self._laid_out(f"choose {words.get(n, n)} different options: ",
                                  [o.render() for o in self.options], "; ")
        if self.different:  # a line of its own after a fixed number of choices
            text += ".\nThe choices must be different" if several else (
                ". The choices must be different")
        return third_person(text) if they else text  # "chooses one: discard a card; or ..."


    def _laid_out(self, head: str, options: list[str], sep: str) -> str:
        """The head and the options, with the line breaks the author wrote ("Choose one:" /
        "+1 Card and +2 Actions;" / "or +1 Buy and +$2.")."""
        breaks = getattr(self, "breaks", set())
        text = head.rstrip() + "\n" if 0 in breaks else head
        for i, option in enumerate(options):
            if i:
                text += sep.replace("; ", ";\n", 1) if i in breaks else sep
            text += option
        return text

    def unparse_head(self) -> str:
        different = {"options": " different options", True: " different"}.get(self.different, "")
        return f"{'you ' if self.by_you else ''}choose {self.amount.unparse()}{different}"

    def unparse(self) -> str:
        if getattr(self, "style", "") == "either":
            return " or ".join(_unparse_option(o) for o in self.options).join(("either ", ""))
        if getattr(self, "style", "") == "gain or":
            first, second = (_unparse_option(o) for o in self.options)
            return f"{first} or {second.split(' ', 1)[1]}"
        if len(self.options) == 1:  # "choose one: a; b" (its one line, the one option)
            option = self.options[0]
            text = option.unparse() if getattr(option, "listed", False) else _unparse_option(option)
            return f"{self.unparse_head()}: {text}"
        return f"{self.unparse_head()}: " + " | ".join(_unparse_option(o) for o in self.options)


def _unparse_option(option: Block) -> str:
    """An option of an inline choice: steps joined by "and" or ", then"."""
    parts = []
    for node in option.statements:
        sep = ", then " if getattr(node, "then_before", False) else " and "
        parts.append((sep if parts else "") + node.unparse())
    return "".join(parts)


def _bound_ref(step: Node):
    """The bound card a step only acts on ("discard it", "gain a copy of it"), or None."""
    if isinstance(step, AsYou):  # "you gain a copy of it"
        step = step.step
    selection = getattr(step, "selection", None)
    if isinstance(selection, Selection) and selection.kind == "ref":
        return selection.ref
    noun = getattr(getattr(step, "what", None), "noun", None)
    return noun.ref if getattr(noun, "kind", None) == "copy" else None


class Each(Node):
    """"each other player", "each player", "the player to your left" (in turn order)."""

    def __init__(self, who: str, body: Block, condition: Condition | None = None) -> None:
        self.who = who
        self.body = body
        self.condition = condition

    def compile(self, env: Env):
        body = self.body.compile(env)
        test = self.condition.compile_test() if self.condition is not None else None
        who = self.who

        def each(ctx: Ctx) -> None:
            game = ctx.game
            if who == "others":
                players = game.others(ctx.you)
            elif who == "all":
                players = game.in_turn_order(ctx.you)
            else:
                players = game.others(ctx.you)[:1]
            merged: dict[str, list] = {}
            for player in players:
                if player is not ctx.you and player in ctx.unaffected:
                    continue
                child = ctx.for_player(player)
                child.vars.pop("revealed", None)
                child.vars.pop("looked", None)
                for key in MERGED:
                    child.vars.pop(key, None)
                if test is not None and not test(child):
                    continue
                body(child)
                return_revealed(child)
                for key in MERGED:
                    merged.setdefault(key, []).extend(child.vars.get(key, ()))
            ctx.vars.update(merged)

        return each

    def check(self, env: Env) -> None:
        """"your next turn" inside "each other player" is said of them ("at the start of their
        next turn") but would be your next turn: the sentence could mean two things, so it is
        refused, with the order that says one."""
        for node in self.body.walk():
            if isinstance(node, NextTurn) or getattr(node, "when", "") == "next_turn":
                subject = self.unparse_head()
                env.error("K370", f"'at the start of your next turn' inside '{subject}' is "
                          "your next turn, not theirs, though it would print 'their next turn'",
                          node, "put the delay first, 'at the start of your next turn: "
                          f"{subject}: ...', or drop it for '{subject}: ...' now")
                return

    def render(self, they: bool = False) -> str:
        if getattr(self, "have", False):  # "have each other player gain a Curse"
            return f"have each other player {self.body.render()}"
        subject = {"others": "each other player", "all": "each player (including you)",
                   "left": "the player to your left"}[self.who]
        if they:  # said of another player: "has each other player gain a Curse"
            return third_person(f"have {subject.removesuffix(' (including you)')} "
                                f"{self.body.render()}")
        if self.condition is not None:
            subject += f" with {self.condition.render()}".replace("you have ", "").replace(
                "in your hand", "in hand")
        # The body's first line is said of the subject: "Each other player trashes ..."; each
        # further line is a sentence of its own, about "they": "If it costs $3 or more they
        # gain ...", "They discard the other revealed cards."
        lines = self.body.lines
        body = Block(lines[:1]).render(they=True) if len(lines) > 1 else (
            self.body.render(they=True))
        if body.startswith("+"):  # "each player gets +1 Coffers"
            body = f"gets {body}"
        text = f"{subject} {body}"
        if lines and lines[0] and isinstance(lines[0][0], ForEach):
            text = f"{subject}, {body}"  # "Each other player, for each ..., discards it"
        if lines and lines[0] and isinstance(lines[0][0], If):  # "Each other player: if they ..."
            text = f"{subject}: {_they_line([s for s in lines[0] if not isinstance(s, Otherwise)])}"
        for line in lines[1:]:
            clause = _they_line([s for s in line if not isinstance(s, Otherwise)])
            if clause:  # an "otherwise" is rendered by the "if" before it
                text += f". {clause[:1].upper()}{clause[1:]}"
        return text

    def unparse_head(self) -> str:
        subject = {"others": "each other player", "all": "each player",
                   "left": "the player to your left"}[self.who]
        return subject + (f" with {self.condition.unparse()}" if self.condition else "")

    def unparse(self) -> str:
        if getattr(self, "have", False):
            return f"have each other player {self.body.statements[0].unparse()}"
        return unparse_compound(self)


def _they_line(statements: list[Node]) -> str:
    """Steps of "each other player" as one sentence about "they": "they trash that card and
    may gain ..."."""
    text = ""
    for s in statements:
        clause = _they_clause(s)
        if not text:
            text = clause
        elif getattr(s, "and_before", False):
            text += " and " + clause.removeprefix("they ")
        else:
            text += ". " + clause[:1].upper() + clause[1:]
    return text


def _they_clause(node: Node) -> str:
    """A step of "each other player" as its own clause, about "they": "they gain a Curse",
    "if it costs $3 or more they gain ...; otherwise they gain a Curse"."""
    if isinstance(node, If):
        body = join_and([_they_clause(s) for s in node.body.statements])
        condition = their(with_reminder(node.condition, node.condition.render(they=True)))
        if node.otherwise is None:
            return f"if {condition}, {body}"
        other = join_and([_they_clause(s) for s in node.otherwise.body.statements])
        return f"if {condition} {body}; otherwise {other}"
    if isinstance(node, Choose) and node.by_you and len(node.options) == 2:
        first, second = node.options  # "they gain a copy of it or you do, your choice"
        mine = second.statements[0] if len(second.statements) == 1 else None
        if isinstance(mine, AsYou) and mine.step.render() == first.render():
            return f"{they_do(first.render())} or you do, your choice"
    if isinstance(node, Choose) and len(node.options) == 2 and (
            node.by_you or node.amount.constant == 1):  # "they either discard it or ..."
        first, second = (their(o.render()) for o in node.options)
        return f"they either {first} or {second}, {'your' if node.by_you else 'their'} choice"
    if isinstance(node, MayStep):
        return f"they {node.render(they=True)}"
    if isinstance(node, ForEach):  # "for each Treasure in their hand, they get +$1"
        body = join_and([_they_clause(s) for s in node.body.statements])
        return f"for each {their(node.selection.render())}, {body}"
    if isinstance(node, AsYou):  # "you may gain any or all of these trashed cards"
        return node.render(they=True)
    return they_do(node.render())


class Repeat(Node):
    def __init__(self, amount: Amount, body: Block) -> None:
        self.amount = amount
        self.body = body

    def check(self, env: Env) -> None:
        check_repeat(self, env)  # K309: a limit on repeated steps

    def compile(self, env: Env):
        count, body = self.amount.compile_amount(), self.body.compile(env)

        def repeat(ctx: Ctx) -> None:
            for _ in range(count(ctx)):
                body(ctx)

        return repeat

    def render(self, they: bool = False) -> str:
        if getattr(self.amount, "per", False):  # "per $1 overpaid, ..."
            return f"per {self.amount.value.render()}, {self.body.render(they)}"
        body = self.body.render(they)  # "Do this twice: Trash a card ..."
        times = {1: "once", 2: "twice"}.get(self.amount.constant, f"{self.amount.render()} times")
        return f"do this {times}: {capitalised(body)}"

    def unparse_head(self) -> str:
        if getattr(self.amount, "per", False):
            return f"per {self.amount.value.unparse()}"
        return f"repeat {self.amount.unparse()}"

    def unparse(self) -> str:
        return unparse_compound(self)


class ForEach(Node):
    """"for each differently named card revealed: ..." binds `it` to each card in turn."""

    def __init__(self, selection: Selection | Countable, body: Block) -> None:
        self.selection = selection
        self.body = body

    def compile(self, env: Env):
        if isinstance(self.selection, Countable):
            return self._compile_counted(env)
        select, body = self.selection.compile_select("hand"), self.body.compile(env)
        distinct = self.selection.filter is not None and self.selection.filter.distinct

        def for_each(ctx: Ctx) -> None:
            seen: set[str] = set()
            for card, zone in select(ctx, "For each"):
                if distinct and card.d.name in seen:
                    continue
                seen.add(card.d.name)
                ctx.vars["it"] = [(card, zone)]
                body(ctx)

        return for_each

    def _compile_counted(self, env: Env):
        """"for each differently named card revealed": the counted cards, one at a time."""
        cards, body = self.selection.compile_cards(), self.body.compile(env)
        distinct = self.selection.filter.distinct

        def for_each(ctx: Ctx) -> None:
            seen: set[str] = set()
            for card in cards(ctx):
                if distinct and card.d.name in seen:
                    continue
                seen.add(card.d.name)
                owner, zone = ctx.game.zone_of(card)
                where = getattr(owner, zone) if owner is not None else (
                    ctx.game.trash if zone == "trash" else [])
                ctx.vars["it"] = [(card, where)]
                body(ctx)

        return for_each

    def render(self, they: bool = False) -> str:
        each = their(self.selection.render()) if they else self.selection.render()
        return f"for each {each}, {self.body.render(they)}"

    def unparse_head(self) -> str:
        return f"for each {self.selection.unparse()}"

    def unparse(self) -> str:
        return unparse_compound(self)


class NextTurn(Node):
    """"at the start of your next turn: ..." — a Duration; the card stays in play until then."""

    def __init__(self, body: Block, now: bool = False) -> None:
        self.body = body
        self.now = now  # "now and at the start of your next turn": the block runs twice

    def compile(self, env: Env):
        body = compile_apart(self.body, env)
        now = body if self.now else None
        # A Duration stays in play while it has something to do: a step may say when it has
        # nothing left to do (tokens to remove, ...) through a `keep_while()` test.
        keep = next((n.keep_while() for n in self.body.walk() if hasattr(n, "keep_while")), None)

        def schedule(ctx: Ctx) -> None:
            later = Ctx(ctx.game, ctx.you, ctx.card, dict(ctx.vars))
            later.vars.pop("revealed", None)
            later.vars.pop("looked", None)
            later.vars["later"] = True  # (a card it plays then is played later)
            if keep is not None:
                later.vars["keep_while"] = keep
            ctx.you.next_turn.append((ctx.card, body, later))

        if getattr(self, "either", False):
            return self._now_or_schedule(body, schedule)
        if now is None:
            return schedule

        def now_and_schedule(ctx: Ctx) -> None:
            schedule(ctx)  # (the next turn's context is taken before "now" binds anything)
            now(ctx)

        return now_and_schedule

    @staticmethod
    def _now_or_schedule(body: Callable[[Ctx], None], schedule: Callable[[Ctx], None]):
        """Asks when: "now" does the block at once (the card leaves play in Clean-up), the
        other answer waits as a Duration. Each resolution asks on its own (Throne Room)."""
        later = "at the start of your next turn"

        def now_or_schedule(ctx: Ctx) -> None:
            when = ask(Decision(OPTION, ctx.you, "When?", ["now", later], 1,
                                card=ctx.card, game=ctx.game))
            (schedule if when == later else body)(ctx)

        return now_or_schedule

    def _when(self) -> str:
        if getattr(self, "either", False):
            return "either now or at the start of your next turn"
        if self.now:
            return "now and at the start of your next turn"
        return f"{'then ' if getattr(self, 'then', False) else ''}at the start of your next turn"

    def render(self, they: bool = False) -> str:
        mark = ":" if self.now or getattr(self, "either", False) else ","  # printed "Now and ...: ..."
        return f"{self._when()}{mark} {self.body.render(they)}"


# ------------------------------------------------------------------------------ triggers

    def unparse_head(self) -> str:
        return self._when()

    def unparse(self) -> str:
        return unparse_compound(self)
class When(Node):
    """The head of a triggered ability: which event, whose, and which cards."""

    def __init__(self, event: str, filter: Filter | None = None, scope: str = "you",
                 phase: str = "", text: str = "", once: bool = False, who: str = "you") -> None:
        self.event = event  # gain_this, trash_this, discard_from_play, attack, gain, play, ...
        self.filter = filter
        self.scope = scope
        self.phase = phase
        self.text = text
        self.once = once
        self.nth = 0  # "the third time you gain an Action this turn": 3 (0: every time)
        self.who = who  # whose event: "you" (the card's owner) or "other" (another player's)
        self.react = ""  # a Reaction in hand: reveal, trash, discard or play this for it
        self.first = False  # "you may first reveal this": before the Attack does anything
        self.attack_type = ""
        self.min_hand = 0

    @property
    def counted(self) -> bool:
        """Whether it fires on the Nth matching event of the whole turn (play, gain or buy)."""
        return bool(self.nth) and self.event in VERBS

    @property
    def records(self) -> tuple[str, ...]:
        """The turn history a game must keep for it (buys are kept only if asked)."""
        return ("buy",) if self.counted and self.event == "buy" else ()

    def check(self, env: Env) -> None:
        if self.nth and self.event not in VERBS and (self.nth > 1 or self.scope == "in_play"):
            env.error("K360", f"'{self.text}' counts events of the turn, but only plays, gains "
                      "and buys are counted", self, "write it of playing, gaining or buying "
                      "a card ('the second time you gain a card this turn')")

    EVENTS = {"gain": "gain", "trash": "trash", "play": "play", "start_turn": "start_turn",
              "start_buy": "start_buy", "end_turn": "end_turn", "after_play": "after_play",
              "shuffle": "shuffle", "score": "score", "cleanup": "cleanup",
              "end_buy": "end_buy", "buy": "buy"}

    def matcher(self) -> Callable[[Game, Player, Card | None], bool] | None:
        pred = self.filter.compile_pred() if self.filter is not None else None
        phase = self.phase
        nth, verb = (self.nth, self.event) if self.counted else (0, "")

        def match(game: Game, player: Player, card: Card | None) -> bool:
            if phase == "action" and game.phase != "action":
                return False
            if phase == "your_turn" and player is not game.player:
                return False
            if pred is not None and (card is None or not pred(Ctx(game, player, card), card.d)):
                return False
            # "the third time you gain an Action this turn": this one is the third of the turn
            return not nth or times_this_turn(game, player, verb, pred) == nth

        return match

    def render(self, they: bool = False) -> str:
        return self.text

    KEYWORDS = {"Buy phase": "buy phase", "Action phase": "action phase",
                "Clean-up": "clean-up"}  # printed capitalised, written in lower case

    def unparse(self) -> str:
        text = self.text
        if self.event == "attack":  # printed "an Attack card", written "an Attack"
            text = text.replace(f" {self.attack_type} card,", f" {self.attack_type},", 1)
        for printed, written in self.KEYWORDS.items():
            text = text.replace(printed, written)
        if self.filter is not None:
            text = text.replace(self.filter.render(), self.filter.unparse())
        return text


class IfDiscardedFromPlay(Node):
    """"if you discard it from play this turn: ...": the card bound as "it" now is watched
    until the end of this turn; if Clean-up discards it from play, the block is done with
    "it" being that card on its way to the discard pile ("put it onto your deck" takes it out
    of the cards leaving play). A card staying in play, or gone from play, does nothing."""

    def __init__(self, body: Block) -> None:
        self.body = body

    def compile(self, env: Env):
        body = compile_apart(self.body, env)

        def watch(ctx: Ctx) -> None:
            cards = [c for c, _zone in ctx.vars.get("it", ())]
            if not cards:
                return
            owner, source = ctx.you, ctx.card

            def fire(game: Game, player: Player, card: Card | None, leaving: Any) -> None:
                if player is not owner:
                    return
                game.unlisten(listener)
                run = Ctx(game, owner, source, dict(ctx.vars))
                run.vars["it"] = [(c, leaving) for c in cards if any(c is x for x in leaving)]
                if run.vars["it"]:
                    body(run)

            listener = ctx.game.listen(Listener("leave_play", owner, fire, None, source, "turn"))

        return watch

    def render(self, they: bool = False) -> str:
        return f"if you discard it from play this turn, {self.body.render()}"

    def unparse_head(self) -> str:
        return "if you discard it from play this turn"

    @staticmethod
    def sentences(block: Block) -> str:
        """The block's text, each "if you discard it ..." a sentence of its own, as printed
        ("... you have in play. If you discard it from play this turn, ...")."""
        text = ""
        for node in block.statements:
            part = node.render()
            if text:
                part = (". " + part[0].upper() + part[1:]) if isinstance(
                    node, IfDiscardedFromPlay) else "; " + part
            text += part
        return text

    def unparse(self) -> str:
        return unparse_compound(self)


class Lasting(Node):
    """"this turn, when you gain a card: ..." / "the first time you play a Silver this turn"."""

    def __init__(self, when: When, body: Block, until: str = "turn") -> None:
        self.when = when
        self.body = body
        self.until = until

    def check(self, env: Env) -> None:
        if self.when.react:
            check_reaction(self.when, self, env, lasting=True)

    def compile(self, env: Env):
        body = compile_apart(self.body, env)
        when, until = self.when, self.until
        event = When.EVENTS[when.event]
        match = when.matcher()

        scope, first_each_turn = when.scope, getattr(when, "first_each_turn", False)
        pred = when.filter.compile_pred() if first_each_turn else None

        def install(ctx: Ctx) -> None:
            owner, source, unaffected = ctx.you, ctx.card, ctx.unaffected

            def fire(game: Game, player: Player, card: Card | None, data: Any) -> None:
                if scope == "others":  # "each other player": not you, nor who was unaffected
                    if player is owner or player in unaffected:
                        return
                elif player is not owner and until == "turn":
                    return
                if first_each_turn and card is not None and next(
                    (c for c in game.played_this_turn if pred(Ctx(game, player, c), c.d)), None
                ) is not card:
                    return  # only the first such card that player plays each turn
                # (the match counts "the first time you play a Silver" over the whole turn,
                # from before this effect too: the play itself is already listed)
                if when.once:
                    game.unlisten(listener)
                run = Ctx(game, owner, source)
                run.unaffected = unaffected  # a Reaction to the Attack still protects
                if card is not None:
                    run.vars["it"] = [(card, game.zone_list(card) or player.discard)]
                if isinstance(data, Ctx):
                    run.vars["event"] = data  # the play being resolved ("it does nothing")
                body(run)

            listener = ctx.game.listen(Listener(event, owner, fire, match, source, until))

        return install

    def render(self, they: bool = False) -> str:
        body = self.body.render() if not any(  # "... in play. If you discard it ..."
            isinstance(n, IfDiscardedFromPlay) for n in self.body.statements) else (
            IfDiscardedFromPlay.sentences(self.body))
        if self.until == "next_turn":
            until = "until then" if getattr(self.when, "until_then", False) else (
                "until your next turn")
            if body == "it does nothing":
                return f"{until}, {self.when.render()} does nothing"
            return f"{until}, {self.when.render()}, {body}"
        if getattr(self.when, "this_turn_implied", False):  # "at the start of Clean-up, ..."
            return f"{self.when.render()}, {body}"
        if self.when.once or getattr(self.when, "this_turn_after", False):
            return f"{self.when.render()} this turn, {body}"
        return f"this turn, {self.when.render()}, {body}"

    def unparse_head(self) -> str:
        when = self.when.unparse()
        if self.until == "next_turn":
            return f"until {'then' if getattr(self.when, 'until_then', False) else 'your next turn'}, {when}"
        if getattr(self.when, "this_turn_implied", False):
            return when
        return f"{when} this turn" if getattr(self.when, "this_turn_after", False) else (
            f"this turn, {when}")

    def unparse(self) -> str:
        return unparse_compound(self)


class Ability(Node):
    """A below-the-line ability of a card: compiled into `CardDef.triggers` or its setup.

    Every ability says where its card must be for it to work (`place`): "self" (the card
    itself being gained, trashed or discarded from play: "when you gain this"), "hand" (a
    Reaction revealed from hand), "in_play" ("while this is in play, when you gain a card")
    or "game" ("in games using this, when you gain a card", and every ability of an Ally,
    whose place is being the game's Ally). One that says none is an error, not game-wide."""

    # `no_comma`: a Reaction written "... from your hand to gain a Gold" (the layout)
    ATTRIBUTES = Node.ATTRIBUTES | {"no_comma", "to_step"}
    SELF_EVENTS = ("gain_this", "trash_this", "gain_or_trash_this", "discard_from_play",
                   "buy_this", "discard_this")

    def __init__(self, when: When | str, body: Block) -> None:
        self.when = when
        self.body = body

    def check(self, env: Env) -> None:
        if env.path[:1] == ("triggers",):  # how its statements, checked next, will run
            env.context = "setup" if self.when == "setup" else "trigger"
        if getattr(self.when, "react", ""):
            check_reaction(self.when, self, env, empty=not self.body.statements)
        if getattr(self.when, "scope", "") == "game" and env.card_kind != "ally":
            for node in self.body.walk():  # no copy of the card is meant: "this" has no place
                if isinstance(node, Ref) and node.kind == "this":
                    env.error("K323", "'this' in a game-wide ability ('in games using this, "
                              "...') is no particular card, wherever its copies are", node,
                              "a game-wide ability acts on the player and the event's card "
                              "('it'); for a card that must be somewhere, write 'while this is "
                              "in play, when you ...'")

    def compile(self, env: Env):
        """Reached only for an ability inside a block (`play:`, an option, another ability's
        block), where it would be done at once instead of when its trigger fires."""
        head = self.when if isinstance(self.when, str) else self.when.render()
        env.error("K375", f"'{head}' is an ability, not a step: here it would be done at once, "
                  "not when it says", self,
                  "write it as its own item of 'triggers:' (below the line); above the line "
                  "only 'while this is in play, when you ...' works, as an item of 'play:' "
                  "itself; for this turn only, write 'this turn, when you ...'")
        return lambda ctx: None

    def trigger(self, env: Env) -> tuple[str, Trigger]:
        """(slot, Trigger): the slot is where the runtime looks for it."""
        # (when shuffling, "them" are the cards being shuffled, not cards revealed to go back)
        shuffling = getattr(self.when, "event", "") == "shuffle"
        effect = self.body.compile(env) if shuffling else compile_apart(self.body, env)
        if isinstance(self.when, str):  # setup / overpay
            return self.when, Trigger(self.when, effect)
        when = self.when
        if when.event in self.SELF_EVENTS:
            effect = _this_where_it_is(effect)
        label = "unaffected" if self.body.render() == "be unaffected by it" else when.event
        if when.react:  # a Reaction in hand: to an Attack, or to another event ("hand")
            min_hand = when.min_hand
            condition = (lambda ctx: len(ctx.player.hand) >= min_hand) if min_hand else None
            slot = "attack" if when.event == "attack" else "hand"
            return slot, Trigger(When.EVENTS.get(when.event, when.event), effect, condition,
                                 where="hand", label=label, react=when.react, who=when.who)
        if when.event == "gain_or_trash_this":  # compile_card files it under "trash" too
            return "gain", Trigger("gain", effect, label=label)
        if when.event in ("gain_this", "trash_this", "discard_from_play", "buy_this",
                          "discard_this"):
            slot = when.event.removesuffix("_this")
            return slot, Trigger(slot, effect, label=label)
        where = self.place(env)
        return "game", Trigger(When.EVENTS[when.event], effect, label=label,
                               where="in_play" if where == "in_play" else "game", who=when.who)

    def place(self, env: Env) -> str:
        """Where the card must be for this event ability to work; reports K320 when the
        text does not say. "gain one when you gain a Ferryman", on Ferryman: the card itself."""
        when = self.when
        if when.scope in ("game", "in_play"):
            return when.scope
        if env.card_kind == "ally":
            return "game"
        if when.event == "end_buy":  # "at the end of your Buy phase" on a card: a copy in play
            return "in_play"
        noun = when.filter.noun if when.filter is not None else None
        if noun is not None and [r[1] for r in noun.resolved] == [env.card_name]:
            return "self"
        text = when.render()
        event = text.removeprefix("when you ")
        env.error("K320", f"'{text}' does not say where this card must be for it to work",
                  self, f"write 'in games using this, when you {event}' for a game-wide "
                  f"ability, or 'while this is in play, when you {event}'"
                  if text.startswith("when you ") else f"'{text}' works on an Ally (kind: "
                  "ally); on this card write 'in games using this, when you ...' or 'while "
                  "this is in play, when you ...'")
        return "game"

    def render(self, they: bool = False) -> str:
        if self.when == "setup":
            text = " ".join(sentence(s.render()) for s in self.body.statements)
            return "Setup: " + text.replace("player (including you)", "player")  # no "you" yet
        if getattr(self, "trailing", False):  # "gain one when you gain a Ferryman"
            return f"{self.body.render()} {self.when.render()}"
        if self.when == "overpay":
            return f"Overpay: {sentence(self.body.render())}"
        statements = self.body.statements
        if getattr(self.when, "react", ""):  # "you may reveal this from your hand"
            body = self.body.render()  # what revealing it is for: "to draw ...", "If you do, +2"
            if not statements:  # "you may play this from your hand": that is all it does
                return self.when.render()
            comma = "" if getattr(self, "no_comma", False) else ","
            return f"{self.when.render()}. If you do, {body}" if body.startswith("+") else (
                f"{self.when.render()}{comma} to {body}")
        if len(statements) <= 1:
            return f"{self.when.render()}, {self.body.render()}"
        parts = [f"{self.when.render()}, {statements[0].render()}"]
        for before, node in pairwise(statements):
            short = _elided_if(before, node)
            if short:
                parts[-1] += f", and {short}"
            elif getattr(node, "and_before", False):  # "discard it; and gain ...": one sentence
                parts[-1] += f" and {node.render()}"
            else:
                parts.append(node.render())
        return " ".join(sentence(p) for p in parts)

    def unparse_head(self) -> str:
        return self.when if isinstance(self.when, str) else self.when.unparse()

    def unparse(self) -> str:
        if getattr(self, "trailing", False):  # "gain one when you gain a Ferryman"
            return f"{self.body.statements[0].unparse()} {self.when.unparse()}"
        if not self.body.statements:  # a Reaction that only plays this
            return self.when.unparse()
        if getattr(self, "to_step", ""):  # "... from your hand, to gain a Gold": its one step
            return f"{self.when.unparse()}{self.to_step} {self.body.unparse()}"
        return unparse_compound(self)


def check_reaction(when: When, node: Node, env: Env, empty: bool = False,
                   lasting: bool = False) -> None:
    """A Reaction in hand ("you may reveal this from your hand") must be able to happen:
    reported with K350-K353 when its event, its wording or its place rules it out."""
    head = when.render()
    if when.event in Ability.SELF_EVENTS:
        env.error("K350", f"'{head}': the event is about this card itself, which is not in "
                  "your hand then", node, "a Reaction in hand answers another card's event: "
                  "'when you gain a card, you may reveal this from your hand: ...'")
    elif empty and when.react != "play":
        env.error("K351", f"'{head}' does nothing by itself", node,
                  f"say what it is for: '{when.unparse()}: ...'; only 'you may play this "
                  "from your hand' stands alone")
    elif when.first and when.event != "attack":
        env.error("K352", f"'{head}': 'first' means before an Attack does anything, and "
                  "this event is not an Attack", node, "drop 'first'")
    if lasting or env.path[:1] != ("triggers",):
        env.error("K353", f"'{head}' is a Reaction in hand, an ability of the card below "
                  "the line", node, "write it as an item of `triggers:`, not in `play:` or "
                  "after 'this turn,' / 'until your next turn,'")


def _elided_if(before: Node, node: Node) -> str:
    """A second "if you have N or more X" after one about the same X: "and if 10 or more, ..."."""
    if not (isinstance(before, If) and isinstance(node, If) and before.otherwise is None):
        return ""
    first, second = before.condition, node.condition
    if first.kind != "at_least" or second.kind != "at_least":
        return ""
    if first.args[-1].render() != second.args[-1].render():
        return ""
    return f"if {second.args[-2].render()} or more, {node.body.render()}"


def _this_where_it_is(effect: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    """In an ability of the card itself ("when you trash this: discard it"), "this" and "it"
    are the card, wherever it is when the ability fires (the trash, the discard pile, ...)."""

    def run(ctx: Ctx) -> None:
        if ctx.card is not None and "this_zone" not in ctx.vars:
            zone = ctx.game.zone_list(ctx.card)
            if zone is not None:
                ctx.vars["this_zone"] = zone
                ctx.vars.setdefault("it", [(ctx.card, zone)])
        effect(ctx)

    return run


class Case(Node):
    """One line of a `Cases` list: "Action card: +1 action"."""

    def __init__(self, filter: Filter, body: Block) -> None:
        self.filter = filter
        self.body = body

    def compile(self, env: Env):
        env.error("K302", "a case ('Action card: ...') must be inside 'if it is a...:'", self)
        return lambda ctx: None

    def render(self, they: bool = False) -> str:
        return f"{self.filter.render()}, {self.body.render(they)}"

    def unparse_head(self) -> str:
        return self.filter.unparse()

    def unparse(self) -> str:
        return unparse_compound(self)


class Cases(Node):
    """"if the gained card is an...:" followed by one line per kind of card ("Action card:
    +1 action"); every line whose description fits the card applies, in order."""

    def __init__(self, ref: Any, body: Block) -> None:
        self.ref = ref
        self.body = body

    def compile(self, env: Env):
        cases = []
        for node in self.body.statements:
            if not isinstance(node, Case):
                env.error("K302", "each line under 'if it is a...:' is 'Description: steps'", node)
                continue
            cases.append((node.filter.compile_pred(), node.body.compile(env)))
        ref = self.ref

        def run(ctx: Ctx) -> None:
            for pred, body in cases:
                if any(pred(ctx, d) for d in ref.defs(ctx)):
                    body(ctx)

        return run

    def render(self, they: bool = False) -> str:
        lines = [case.render(they) for case in self.body.statements]
        first = lines[0] if lines else ""
        return f"if {self.ref.render()} is {article(first)}...\n" + "\n".join(lines)

    def unparse_head(self) -> str:
        return f"if {self.ref.unparse()} is an..."

    def unparse(self) -> str:
        return unparse_compound(self)


def make_compound(head: tuple, body: Block, env_error: Callable[[str, str, Any], None]) -> Node:
    """Build the node for a `{head: body}` statement."""
    kind, args = head[0], head[1:]
    if kind == "if":
        return If(args[0], body)
    if kind == "otherwise":
        return Otherwise(body)
    if kind == "may":
        return MayStep(args[0], body, word="to")
    if kind == "may_to":  # "you may X to choose one:": the head inside the offer takes the block
        return MayStep(args[0], Block([[make_compound(args[1], body, env_error)]]), word="to")
    if kind == "choose":
        return Choose(args[0], [_option_block(s) for s in body.lines], by_you=args[1],
                      different=args[2] if len(args) > 2 else False)
    if kind == "each":
        return Each(args[0], body, args[1])
    if kind == "repeat":
        return Repeat(args[0], body)
    if kind == "for_each":
        return ForEach(args[0], body)
    if kind == "next_turn":
        node = NextTurn(body, now=args == ("now",))  # "now and at the start of your next turn"
        node.then = args == ("then",)  # "then at the start of your next turn, ..."
        node.either = args == ("either",)  # "either now or at the start of your next turn"
        return node
    if kind == "lasting":
        return Lasting(args[0], body, args[1])
    if kind == "ability":
        return Ability(args[0], body)
    if kind == "nested":  # "at the end of your Buy phase, if ...": the second head inside
        return make_compound(args[0], Block([[make_compound(args[1], body, env_error)]]),
                             env_error)
    if kind == "if_discarded_from_play":
        return IfDiscardedFromPlay(body)
    if kind == "cases":
        return Cases(args[0], body)
    if kind == "case":
        return Case(args[0], body)
    raise ValueError(kind)


def option_block(steps: list[Node], listed: bool = False) -> Block:
    """An option of a choice: its steps in one line, a step after ", then" marked
    `then_before`. `listed`: several statements of a nested line, printed as a list
    ("discard your hand, +4 Cards, and ...")."""
    block = Block([steps], joiner=" and ")
    if listed:
        block.listed = True
    return block


def _option_block(line: list[Node]) -> Block:
    """A nested option line, built as the same option written on one line would be
    (`choose one: A, then B | C`): "A and B" and "A, then B" are its two steps, not one
    Sequence, so that a choice means the same tree in either layout."""
    if len(line) == 1 and isinstance(line[0], Sequence) and not hasattr(line[0], "reminder"):
        sequence = line[0]
        if len(sequence.steps) == 2 and sequence.word in ("and", ", then"):
            first, second = sequence.steps
            if sequence.word == ", then":
                second.then_before = True
            return option_block([first, second])
    return option_block(line, listed=len(line) > 1)


# ------------------------------------------------------------- offers, repeats, sequences
def first_choice(block: Node | None) -> Node | None:
    """The step holding the first choice of `block` (a card pick, a gain from the Supply, a
    choice among options), made optional; None if it starts with no choice."""
    node = block
    while isinstance(node, Block | Sequence):
        steps = node.statements if isinstance(node, Block) else node.steps
        if not steps:
            return None
        node = steps[0]
    if isinstance(node, Choose):
        node.optional = True
        return node
    selection = getattr(node, "selection", None)
    if isinstance(selection, Selection) and selection.kind == "pick":
        selection.optional = True
        return node
    if type(node).__name__ == "Gain" and selection is None:
        node.optional = True
        return node
    return None


def _has_more(block: Node) -> bool:
    """Whether `block` does more than its first step ("discard a card then draw a card")."""
    node = block
    while isinstance(node, Block | Sequence):
        steps = node.statements if isinstance(node, Block) else node.steps
        if len(steps) > 1:
            return True
        if not steps:
            return False
        node = steps[0]
    return False


def _feasibility(node: Node | None) -> Callable[[Ctx], bool] | None:
    """Whether a step can be done at all now (enough Favors to spend, an extra turn allowed);
    a "you may" that can't be done asks nothing. None: always."""
    while isinstance(node, Block | Sequence):
        steps = node.statements if isinstance(node, Block) else node.steps
        if not steps:
            return None
        node = steps[0]
    feasible = getattr(node, "feasibility", None)
    return feasible() if feasible is not None else None


class Sequence(Node):
    """Steps written as one phrase: "discard your hand and draw 5 cards", "A, B and C",
    "discard a card then draw a card"."""

    def __init__(self, steps: list[Node], word: str = "and") -> None:
        self.steps = steps
        self.word = word

    def compile(self, env: Env):
        steps = [s.compile(env) for s in self.steps]

        def run(ctx: Ctx) -> None:
            for step in steps:
                step(ctx)

        return run

    def render(self, they: bool = False) -> str:
        parts = [said_of_them(s) if they else s.render() for s in self.steps]
        if getattr(self, "verb_once", False):  # "gain a cheaper card and a Gold"
            parts[1:] = [p.split(" ", 1)[1] for p in parts[1:]]
        for i in range(1, len(parts)):  # "draw 2 cards then discard 3": the noun said once
            if parts[i - 1].endswith(" cards") and re.fullmatch(r"\w+ \d+ cards", parts[i]):
                parts[i] = parts[i].removesuffix(" cards")
        if self.word == "then":
            return " then ".join(parts)
        # "Trash a card from your hand, then gain ...", "A, B, and C" (the comma before "and")
        last = f"{self.word} {parts[-1]}" if self.word.startswith(",") else f" and {parts[-1]}"
        return ", ".join(parts[:-1]) + last

    def unparse(self) -> str:
        steps = [s.unparse() for s in self.steps]
        if getattr(self, "verb_once", False):
            steps[1:] = [s.split(" ", 1)[1] for s in steps[1:]]
        word = f" {self.word}" if self.word in ("and", "then") else self.word
        return ", ".join(steps[:-1]) + f"{word} {steps[-1]}"


def said_of_them(node: Node) -> str:
    """A step said of "each other player" (or "they"): "draws a card, then discards a card"."""
    if isinstance(node, MayStep | If | Each | Choose | AsYou | Sequence | Then | Block | ForEach):
        return node.render(they=True)
    return third_person(node.render())


class Then(Node):
    """"then X" as its own sentence ("Then you may trash a card from your hand."): X, printed
    after the word that orders it."""

    def __init__(self, step: Node) -> None:
        self.step = step

    def compile(self, env: Env):
        return self.step.compile(env)

    def render(self, they: bool = False) -> str:
        return f"then {said_of_them(self.step) if they else self.step.render()}"

    def unparse(self) -> str:
        return f"then {self.step.unparse()}"


class RepeatAsDesired(Node):
    """"repeat as desired": the statement before it is done again as long as the player takes
    it (its "you may" is accepted and can be done)."""

    LIMIT = 200  # a bound for agents that never stop

    def repeating(self, step: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
        limit = self.LIMIT

        def repeat(ctx: Ctx) -> None:
            for _ in range(limit):
                step(ctx)
                if not ctx.did:
                    break

        return repeat

    def compile(self, env: Env):
        env.error("K302", "'repeat as desired' must follow the step it repeats", self)
        return lambda ctx: None

    def render(self, they: bool = False) -> str:
        return "repeat as desired"

    def unparse(self) -> str:
        return "repeat as desired"


class Unless(Node):
    """"discard down to 4 cards in hand unless you spend a Favor": the player may pay instead;
    asked only when paying is possible and the step would do something."""

    def __init__(self, step: Node, payment: Node) -> None:
        self.step = step
        self.payment = payment

    def compile(self, env: Env):
        run, pay = self.step.compile(env), self.payment.compile(env)
        can_pay = _feasibility(self.payment)
        selection = getattr(self.step, "selection", None)
        keep = selection.quantity[1] if isinstance(selection, Selection) and (
            selection.kind == "down_to") else None
        text = f"{self.payment.render()} instead of: {self.step.render()}?"
        prompt = text[0].upper() + text[1:]

        def unless(ctx: Ctx) -> None:
            needed = keep is None or len(ctx.player.hand) > keep
            if needed and (can_pay is None or can_pay(ctx)) and ask(
                Decision(YES_NO, ctx.player, prompt, [True, False], card=ctx.card, game=ctx.game)
            ):
                pay(ctx)
                ctx.did = False
                return
            run(ctx)

        return unless

    def render(self, they: bool = False) -> str:
        return f"{self.step.render()} unless you {self.payment.render()}"

    def unparse(self) -> str:
        return f"{self.step.unparse()} unless you {self.payment.unparse()}"


class AsYou(Node):
    """"you gain a copy of it" inside "each other player: ...": the step is yours, not theirs."""

    def __init__(self, step: Node) -> None:
        self.step = step

    def compile(self, env: Env):
        run = self.step.compile(env)

        def as_you(ctx: Ctx) -> None:
            acting = ctx.player
            ctx.player = ctx.you
            try:
                run(ctx)
            finally:
                ctx.player = acting

        return as_you

    def render(self, they: bool = False) -> str:
        """`they`: said as a sentence of "each other player", about the cards of the player it
        is at ("these trashed cards")."""
        return f"you {self.step.render(they=they)}"

    def unparse(self) -> str:
        return f"you {self.step.unparse()}"


class Deferred(Node):
    """One step done later: "play it at the start of your next turn", "+1 Card at the end of
    this turn". What the step refers to ("it", "$1 overpaid") is kept from now."""

    TIMES = {"next_turn": "at the start of your next turn", "end_turn": "at the end of this turn",
             "end_of_turn": "at end of turn"}  # (the last as printed on Faithful Hound)

    def __init__(self, step: Node, when: str) -> None:
        self.step = step
        self.when = when

    def compile(self, env: Env):
        body = compile_apart(self.step, env)
        when = self.when

        def defer(ctx: Ctx) -> None:
            game, owner = ctx.game, ctx.you
            later = Ctx(game, owner, ctx.card, dict(ctx.vars))
            later.vars.pop("revealed", None)
            later.vars.pop("looked", None)
            later.vars["later"] = True  # (a card it plays then is played later)
            if when == "next_turn":
                # a Duration card stays in play while it has this to do; others stay nowhere
                card = ctx.card
                keep = card if card is not None and card.d.is_duration and any(
                    c is card for c in owner.in_play) else None
                owner.next_turn.append((keep, body, later))
                return

            def fire(g: Game, player: Player, card: Card | None, data: Any) -> None:
                g.unlisten(listener)
                body(later)

            listener = game.listen(Listener("end_turn", owner, fire, None, ctx.card, "game"))

        return defer

    def render(self, they: bool = False) -> str:
        text, time = self.step.render(), self.TIMES[self.when]
        if text.startswith("+") and " per " in text:  # "+1 Card at the end of this turn per $1"
            head, _, per = text.partition(" per ")
            return f"{head} {time} per {per}"
        return f"{text} {time}"

    def unparse(self) -> str:
        return f"{self.step.unparse()} {self.TIMES[self.when]}"
