"""Structural nodes: blocks, "you may", "if", "choose", "each other player", repetition,
Durations, effects lasting this turn, and triggered abilities."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from compiler.nodes import Env, Node, join_and, sentence, third_person
from compiler.selections import Amount, Condition, Countable, Filter, Selection
from runtime.cards import Trigger
from runtime.context import Ctx
from runtime.decisions import OPTION, YES_NO, Decision, ask
from runtime.game import Listener

if TYPE_CHECKING:
    from runtime.cards import Card
    from runtime.game import Game
    from runtime.player import Player

MERGED = ("trashed", "gained", "discarded", "revealed_all")


def return_revealed(ctx: Ctx) -> None:
    """Revealed cards nothing moved go back where they came from (the top of the deck)."""
    zone = ctx.vars.get("revealed")
    if zone:
        ctx.player.deck.extend(reversed(zone))
        zone.clear()


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
                env.error("K302", "'otherwise' must follow an 'if'", node)
            steps.append(node.compile(env))
            i += 1
        if len(steps) == 1:
            return steps[0]

        def run(ctx: Ctx) -> None:
            for step in steps:
                step(ctx)

        return run

    def render(self, they: bool = False) -> str:
        if they:
            parts = [s.render(they=True) if isinstance(s, MayStep | If | Each | Choose)
                     else third_person(s.render()) for s in self.statements]
            return join_and(parts)
        parts = [s.render() for s in self.statements]
        return self.joiner.join(parts)

    def render_lines(self) -> list[str]:
        """One text line per author line, each statement a sentence."""
        out = []
        for line in self.lines:
            out.append(" ".join(sentence(s.render()) for s in line))
        return out


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
        supply_gain = type(step).__name__ == "Gain" and selection is None
        if pickable:
            selection.optional = True
        if supply_gain:
            step.optional = True
        run_step = step.compile(env)
        reward = self.reward.compile(env) if self.reward is not None else None
        prompt = sentence(f"you may {step.render()}")

        def may(ctx: Ctx) -> None:
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
        text = f"you may {self.step.render()}"
        if self.reward is not None:
            sep = f" {self.word} " if self.word != ":" else ", "
            text += sep + self.reward.render()
        return third_person(text.removeprefix("you ")) if they else text


class If(Node):
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
        text = f"if {self.condition.render()}, {self.body.render(they)}"
        if self.otherwise is not None:
            text += f". Otherwise, {self.otherwise.body.render(they)}"
        return text


class Otherwise(Node):
    def __init__(self, body: Block) -> None:
        self.body = body

    def compile(self, env: Env):
        return lambda ctx: None  # run by the If it follows

    def render(self, they: bool = False) -> str:
        return ""


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
        effects = [o.compile(env) for o in self.options]
        count = self.amount.compile_amount()
        by_you = self.by_you
        prompt = "Choose one: " + "; or ".join(labels)
        # Options that only move bound cards ("discard it | put it back") are no real choice
        # when nothing is bound: then nobody is asked.
        selections = [getattr(s, "selection", None) for o in self.options for s in o.statements]
        refs = [sel.ref for sel in selections if isinstance(sel, Selection) and sel.kind == "ref"]
        refs_only = len(refs) == len(selections)

        def choose(ctx: Ctx) -> None:
            if refs_only and not any(ref.resolve(ctx) for ref in refs):
                return
            remaining = list(range(len(labels)))
            chooser = ctx.you if by_you else ctx.player
            for _ in range(count(ctx)):
                if not remaining:
                    break
                label = ask(Decision(OPTION, chooser, prompt, [labels[i] for i in remaining],
                                     card=ctx.card, game=ctx.game))
                index = labels.index(label)
                remaining.remove(index)
                effects[index](ctx)

        return choose

    def render(self, they: bool = False) -> str:
        if they and self.by_you and len(self.options) == 2:
            first, second = (third_person(o.render()) for o in self.options)
            return f"either {first} or {second}, your choice"
        if they and self.amount.constant == 1 and len(self.options) == 2:
            first, second = (third_person(o.render()) for o in self.options)
            return f"either {first} or {second}, their choice"
        n = self.amount.render()
        words = {"1": "one", "2": "two", "3": "three"}
        if self.by_you:
            head = "your choice: "
        elif self.amount.kind == "types_of":  # one choice per type of a card
            head = f"for each type {self.amount.value.render()} has, choose one: "
        elif self.amount.kind == "count":
            head = f"for each {self.amount.value.render()}, choose one: "
        else:
            head = f"choose {words.get(n, n)}: "
        text = head + "; or ".join(o.render() for o in self.options)
        if self.different:
            text += ". The choices must be different"
        return text


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

    def render(self, they: bool = False) -> str:
        subject = {"others": "each other player", "all": "each player (including you)",
                   "left": "the player to your left"}[self.who]
        if self.condition is not None:
            subject += f" with {self.condition.render()}".replace("you have ", "").replace(
                "in your hand", "in hand")
        return f"{subject} {self.body.render(they=True)}"


class Repeat(Node):
    def __init__(self, amount: Amount, body: Block) -> None:
        self.amount = amount
        self.body = body

    def compile(self, env: Env):
        count, body = self.amount.compile_amount(), self.body.compile(env)

        def repeat(ctx: Ctx) -> None:
            for _ in range(count(ctx)):
                body(ctx)

        return repeat

    def render(self, they: bool = False) -> str:
        if self.amount.constant == 2:
            return f"do this twice: {self.body.render(they)}"
        return f"do this {self.amount.render()} times: {self.body.render(they)}"


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
        return f"for each {self.selection.render()}, {self.body.render(they)}"


class NextTurn(Node):
    """"at the start of your next turn: ..." — a Duration; the card stays in play until then."""

    def __init__(self, body: Block) -> None:
        self.body = body

    def compile(self, env: Env):
        body = self.body.compile(env)

        def schedule(ctx: Ctx) -> None:
            later = Ctx(ctx.game, ctx.you, ctx.card, dict(ctx.vars))
            later.vars.pop("revealed", None)
            ctx.you.next_turn.append((ctx.card, body, later))

        return schedule

    def render(self, they: bool = False) -> str:
        return f"at the start of your next turn, {self.body.render(they)}"


# ------------------------------------------------------------------------------ triggers
class When(Node):
    """The head of a triggered ability: which event, whose, and which cards."""

    def __init__(self, event: str, filter: Filter | None = None, scope: str = "you",
                 phase: str = "", text: str = "", once: bool = False) -> None:
        self.event = event  # gain_this, trash_this, discard_from_play, attack, gain, play, ...
        self.filter = filter
        self.scope = scope
        self.phase = phase
        self.text = text
        self.once = once
        self.attack_type = ""
        self.min_hand = 0

    EVENTS = {"gain": "gain", "trash": "trash", "play": "play", "start_turn": "start_turn",
              "start_buy": "start_buy", "end_turn": "end_turn", "after_play": "after_play",
              "shuffle": "shuffle", "score": "score", "cleanup": "cleanup"}

    def matcher(self) -> Callable[[Game, Player, Card | None], bool] | None:
        pred = self.filter.compile_pred() if self.filter is not None else None
        phase = self.phase

        def match(game: Game, player: Player, card: Card | None) -> bool:
            if phase == "action" and game.phase != "action":
                return False
            if phase == "your_turn" and player is not game.player:
                return False
            return pred is None or (card is not None and pred(Ctx(game, player, card), card.d))

        return match

    def render(self, they: bool = False) -> str:
        return self.text


class Lasting(Node):
    """"this turn, when you gain a card: ..." / "the first time you play a Silver this turn"."""

    def __init__(self, when: When, body: Block, until: str = "turn") -> None:
        self.when = when
        self.body = body
        self.until = until

    def compile(self, env: Env):
        body = self.body.compile(env)
        when, until = self.when, self.until
        event = When.EVENTS[when.event]
        match = when.matcher()

        def install(ctx: Ctx) -> None:
            owner, source = ctx.you, ctx.card

            def fire(game: Game, player: Player, card: Card | None, data: Any) -> None:
                if player is not owner and until == "turn":
                    return
                if when.once:
                    game.unlisten(listener)
                run = Ctx(game, owner, source)
                if card is not None:
                    run.vars["it"] = [(card, player.discard)]
                body(run)

            listener = ctx.game.listen(Listener(event, owner, fire, match, source, until))

        return install

    def render(self, they: bool = False) -> str:
        if self.when.once:
            return f"{self.when.render()} this turn, {self.body.render()}"
        return f"this turn, {self.when.render()}, {self.body.render()}"


class Ability(Node):
    """A below-the-line ability of a card: compiled into `CardDef.triggers` or its setup."""

    def __init__(self, when: When | str, body: Block) -> None:
        self.when = when
        self.body = body

    def compile(self, env: Env):
        return self.body.compile(env)

    def trigger(self, env: Env) -> tuple[str, Trigger]:
        """(slot, Trigger): the slot is where the runtime looks for it."""
        effect = self.body.compile(env)
        if isinstance(self.when, str):  # setup / overpay
            return self.when, Trigger(self.when, effect)
        when = self.when
        label = "unaffected" if self.body.render() == "be unaffected by it" else when.event
        if when.event == "attack":
            min_hand = when.min_hand
            condition = (lambda ctx: len(ctx.player.hand) >= min_hand) if min_hand else None
            return "attack", Trigger("attack", effect, condition, where="hand", label=label)
        if when.event in ("gain_this", "trash_this", "discard_from_play"):
            slot = when.event.removesuffix("_this")
            return slot, Trigger(slot, effect, label=label)
        return "game", Trigger(When.EVENTS[when.event], effect, label=label)

    def render(self, they: bool = False) -> str:
        if self.when == "setup":
            return f"Setup: {sentence(self.body.render())}"
        if self.when == "overpay":
            return f"Overpay: {sentence(self.body.render())}"
        body = self.body.render()
        return f"{self.when.render()}, {body}"


def make_compound(head: tuple, body: Block, env_error: Callable[[str, str, Any], None]) -> Node:
    """Build the node for a `{head: body}` statement."""
    kind, args = head[0], head[1:]
    if kind == "if":
        return If(args[0], body)
    if kind == "otherwise":
        return Otherwise(body)
    if kind == "may":
        return MayStep(args[0], body, word="to")
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
        return NextTurn(body)
    if kind == "lasting":
        return Lasting(args[0], body, args[1])
    if kind == "ability":
        return Ability(args[0], body)
    raise ValueError(kind)


def _option_block(line: list[Node]) -> Block:
    return Block([line])

