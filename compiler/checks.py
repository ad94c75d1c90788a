"""Compile-time checks that keep "it compiles" meaning "it can be played": limits on pile sizes
and repeats, split piles whose members exist, scoring that cannot divide by zero, and setup
rules only where setup runs. Each fault is a diagnostic (K303-K319), never a crash in a game.
The checks of one statement run from its node's `check` (Repeat, SetupPile; Choose checks its
options as it compiles); `check_card` and `add_split_piles` look at the card file's keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.errors import Diagnostic

if TYPE_CHECKING:
    from kingdom.compiler.card import ParsedCard
    from kingdom.compiler.nodes import Env, Node
    from kingdom.runtime.library import Library

PILE_LIMIT = 200  # cards in one pile (the largest printed pile, 6-player Copper, has 78)
REPEAT_LIMIT = 100  # times one "repeat N" (and nested repeats together) may run its steps
BONUS_LIMIT = 100  # "+N Coffers", "+$N": a count a player is later asked to choose from


def check_card(card: ParsedCard, env: Env) -> None:
    """Card-wide limits: `pile_size` and a vp formula's divisor."""
    size = card.data.get("pile_size")
    if isinstance(size, int) and size > PILE_LIMIT:
        _error(env, "K308", f"pile_size {size:,} is over the limit of {PILE_LIMIT} cards in a pile",
               ("pile_size",), f"use at most {PILE_LIMIT}")
    if card.worth is not None and card.worth[1] == 0:
        _error(env, "K304", "'per 0' divides by zero: the vp formula needs a count of 1 or more",
               ("vp",), "write '1 per 1 card' or a larger count")
    check_money(card, env)
    check_leaving_play(card, env)


def check_leaving_play(card: ParsedCard, env: Env) -> None:
    """K355: "a card you would discard from play this turn" is known only at the start of
    Clean-up, before any card leaves play; elsewhere (even "when you discard this from play")
    it would pick from nothing."""
    for section in (card.play, card.triggers):
        if section is None:
            continue
        allowed = {id(n) for head in section.walk()
                   if getattr(getattr(head, "when", None), "event", "") == "cleanup"
                   for n in head.walk()}
        for node in section.walk():
            if getattr(node, "leaving_play", False) is True and id(node) not in allowed:
                env.error("K355", "'you would discard from play this turn' is known only at "
                          "the start of Clean-up", node, "write 'at the start of clean-up: ...' "
                          "around the step that picks the card")


# ----------------------------------------------------------------- worths and cost changes
def check_money(card: ParsedCard, env: Env) -> None:
    """K365: "it's worth" only as a statement of a Treasure's `play:`; K366: a cost change
    only as an item of `triggers:` (it is no step); K367: nor one that looks at costs."""
    treasure = "Treasure" in card.data.get("types", ())
    for section in (card.play, card.triggers):
        if section is None:
            continue
        top = section.statements
        for node in section.walk():
            if hasattr(node, "worth_when_played") and not (
                    treasure and section is card.play and any(node is n for n in top)):
                env.error("K365", "'when you play this, it's worth ...' is what a Treasure "
                          "gives when played", node, "write it as a statement of a Treasure's "
                          "play:, or write '+$1 per ...'")
            if type(node).__name__ != "CostChange":
                continue
            if section is not card.triggers or not any(node is n for n in top):
                env.error("K366", f"'{node.render()}' is a cost change, not a step", node,
                          "write it as an item of the card's triggers: list, on its own")
            if any(_looks_at_costs(n) for n in node.walk()):
                env.error("K367", f"'{node.render()}' depends on what cards cost, which it "
                          "changes", node, "describe the cards by name or type, not by cost")


def _looks_at_costs(node: Node) -> bool:
    """Whether a node of a description or count compares costs ("costing up to $4", "cheaper",
    "$1 it costs")."""
    kind = getattr(node, "kind", "")
    adjectives = getattr(node, "adjectives", ())
    if isinstance(kind, str) and ("cost" in kind or "cheaper" in kind):
        return True
    return any(a[0] == "cheaper" for a in adjectives)


def check_setup_rule(node: Node, env: Env) -> None:
    """K310 for a statement only setup can do ("add an extra kingdom card pile ...") outside a
    setup ability (`env.context`, which each ability sets as the check reaches it)."""
    if env.context != "setup":
        env.error("K310", f"'{node.render()}' is a setup rule: it can only run before the game",
                  node, "put it in a setup ability: triggers: [\"setup: ...\"]")


def check_divisor(node: Node, divisor: int, env: Env) -> None:
    """K304 for a "per N" that divides by N = 0 ("+1 Favor per $0 it costs", "+$1 per 0 cards
    in your hand (round down)"), as for a vp formula."""
    if divisor == 0:
        env.error("K304", "'per 0' divides by zero: a count per 1 or more is needed", node,
                  "write 'per $1', 'per 2 cards' or a larger count")


def check_bonus(bonus: Node, env: Env) -> None:
    """K311 for "+N Coffers" (or Cards, $, ...) over BONUS_LIMIT: a player holding that many is
    asked how many to spend, one option per number."""
    if bonus.amount > BONUS_LIMIT:
        env.error("K311", f"'{bonus.render()}' is over the limit of +{BONUS_LIMIT} in one bonus",
                  bonus, f"give at most +{BONUS_LIMIT}")


def _error(env: Env, code: str, message: str, path: tuple, hint: str) -> None:
    line, column = env.doc.where(path)
    env.diagnostics.append(Diagnostic(code, message, env.doc.file, line, column, hint))


def check_repeat(repeat: Node, env: Env) -> None:
    """K309 at the repeat where the times its steps run (with the repeats nested in it) go over
    REPEAT_LIMIT: "repeat 20: repeat 20: ..." at the outer one, "twice: repeat 999: ..." at
    the inner one."""
    inner = max((repeat_product(child) for child in repeat.body.children()), default=1)
    total = _repeat_count(repeat) * inner
    if total > REPEAT_LIMIT >= inner:
        env.error("K309", f"this repeats its steps {total:,} times; the limit is {REPEAT_LIMIT}",
                  repeat, f"repeat at most {REPEAT_LIMIT} times (nested repeats multiply)")


def repeat_product(node: Node) -> int:
    """Times the innermost steps run: the repeat counts along the deepest path multiplied."""
    inner = max((repeat_product(child) for child in node.children()), default=1)
    return inner * (_repeat_count(node) if type(node).__name__ == "Repeat" else 1)


def _repeat_count(repeat: Node) -> int:
    """The largest number its count is written with (a count the text does not fix, "the number
    of ...", as 1: the game state bounds it)."""
    numbers = [n.value for n in repeat.amount.walk()
               if getattr(n, "kind", None) == "number" and isinstance(n.value, int)]
    return max(max(numbers, default=1), 1)


def split_pile_problems(card: ParsedCard, known: set[str], piles: set[str],
                        suggest) -> list[Diagnostic]:
    """K305-K308 for a split pile: members that are not loaded cards, the pile itself or another
    split pile as a member, no members, more than PILE_LIMIT cards."""
    doc, name = card.doc, card.name
    members = card.data.get("members") or []
    problems: list[Diagnostic] = []
    if not members:
        line, column = doc.where(("members",) if "members" in card.data else ("name",))
        problems.append(Diagnostic("K307", f"split pile '{name}' has no members", doc.file, line,
                                   column, "list its cards: members: [First, Second]"))
    for i, member in enumerate(members):
        line, column = doc.where(("members", i))
        if member in piles:  # (itself included)
            problems.append(Diagnostic(
                "K306", f"'{member}' is a split pile, not a card: a split pile holds cards",
                doc.file, line, column, "list the cards of the pile"))
        elif member not in known:
            guess = suggest(member)
            problems.append(Diagnostic(
                "K305", f"unknown card '{member}' in split pile '{name}'", doc.file, line, column,
                f"did you mean '{guess}'?" if guess else "each member needs its own card file"))
    copies = card.data.get("copies", 4)
    if isinstance(copies, int) and copies * len(members) > PILE_LIMIT:
        line, column = doc.where(("copies",) if "copies" in card.data else ("members",))
        problems.append(Diagnostic(
            "K308", f"{copies:,} copies of {len(members)} members make {copies * len(members):,} "
            f"cards, over the limit of {PILE_LIMIT} cards in a pile", doc.file, line, column,
            f"use at most {PILE_LIMIT // max(len(members), 1)} copies"))
    return problems


def add_split_piles(library: Library, cards: list[ParsedCard], known: set[str],
                    suggest) -> list[Diagnostic]:
    """Add the split piles whose members compiled; the problems of the others."""
    piles = {card.name for card in cards}
    diagnostics: list[Diagnostic] = []
    for card in cards:
        problems = split_pile_problems(card, known, piles, suggest)
        diagnostics.extend(problems)
        members = list(card.data.get("members", ()))
        if not problems and all(m in library for m in members):  # (a member's own error: no pile)
            library.split_piles[card.name] = members
            library.split_copies[card.name] = card.data.get("copies", 4)
    return diagnostics
