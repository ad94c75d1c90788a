"""Bots that answer the decision interface: a generic default player, Big Money and a random
player for fuzzing. Data-driven strategies (kingdom/lab/strategies/*.yaml) live in kingdom.lab.strategy.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from kingdom.lab import policy
from kingdom.lab.values import SILVER_VALUE, card_value, plus_actions
from kingdom.runtime.decisions import (
    BUY,
    CARDS,
    CHOOSE,
    COST,
    GAIN,
    NAME,
    NAME_CARD,
    NUMBER,
    OPPONENT,
    OPTION,
    ORDER,
    ORDER_EFFECTS,
    OVERPAY,
    PILE,
    PLAY,
    REACT,
    TOPDECK,
    TRASH,
    TREASURES,
    YES_NO,
    Decision,
)
from kingdom.runtime.tokens import BY_TOPIC, TokenKind


class DefaultAgent:
    """Answers any decision with a reasonable default; plays +Actions before terminals.

    It plays every Treasure, so the engine need not ask it (`plays_all_treasures`); a subclass
    that answers Treasure decisions otherwise must set it to False. It spends the tokens the turn
    offers as their kind says (`spend`): Coffers when that reaches the next price it wants
    (`price_targets`: Province at $8, Gold at $6), a Villager to play a waiting Action card; and
    it overpays when the card's Overpay ability helps it (`overpay`).
    """

    plays_all_treasures = True
    price_targets: tuple[int, ...] = (8, 6)

    def decide(self, decision: Decision) -> Any:
        kind = decision.kind
        if kind == PLAY:
            options = decision.options
            for card in options:
                if mandatory_trash(card.d):  # (rare: no list is made for the others)
                    options = [c for c in options if safe_to_play(c, decision.player)]
                    break
            return max(options, key=_action_priority) if options else None
        if kind == TREASURES:
            return list(decision.options)
        if kind == BUY:
            return self.buy(decision)
        if kind == CARDS:
            answer = self.pick(decision)
        elif kind == ORDER:
            answer = self.order(decision)
        elif kind == YES_NO:
            answer = policy.answer_yes_no(decision)
        elif kind == NUMBER and (decision.topic == OVERPAY or decision.topic in BY_TOPIC):
            if decision.topic == OVERPAY:
                return self.overpay(decision)
            return self.spend(BY_TOPIC[decision.topic], decision)  # the turn offers these
        elif kind == PILE and decision.game is not None:
            game = decision.game
            if decision.topic == GAIN and decision.options:
                answer = max(decision.options, key=lambda n: _gain_rank(decision, n))
            else:
                answer = max(decision.options, key=lambda n: _pile_cost(game, n))
        elif kind == OPTION and decision.topic == CHOOSE:
            answer = policy.answer_option(decision)
        elif kind == OPTION and decision.topic == ORDER_EFFECTS:
            answer = policy.effect_first(decision)
        elif kind == NAME and decision.topic == NAME_CARD:
            answer = policy.name_card(decision)
        elif kind in (OPTION, PILE, NAME, NUMBER):
            answer = decision.options[0]
        else:
            return None
        if self.tally is not None and decision.card is not None:
            note_decision(self.tally, decision, answer)
        return answer

    tally: Counter | None = None  # (card, ability, "asked"/"taken") -> decisions, or None

    def pick(self, decision: Decision) -> list:
        """Cards for a card's CARDS decision, by its topic (runtime/decisions.py)."""
        topic = decision.topic
        if topic == GAIN:  # free cards: the best, as many as allowed, Curses only if made to
            ranked = sorted(decision.options, key=lambda c: (
                c.d.has_type("Curse"), -policy.deck_worth(c.d), -c.d.cost))
            wanted = [c for c in ranked if not c.d.has_type("Curse")]
            return wanted[: decision.max] if len(wanted) >= decision.min else ranked[
                : max(decision.min, 1)]
        if topic == REACT:
            return self.react(decision)
        if topic == TRASH and decision.purpose != OPPONENT:
            return self.trash(decision)
        picks = policy.pick_cards(decision)
        if picks is None:
            picks = sorted(decision.options, key=_junk_first)[: decision.min]
        return picks

    def trash(self, decision: Decision) -> list:
        """Junk first (`trash_picks`); a trash that pays for something (Moneylender's +$3,
        Mine's better Treasure) is made when that beats what the cards are worth in hand."""
        player = decision.player
        if decision.purpose == COST and decision.min == 0 and decision.reward is not None:
            count = decision.max if decision.exact else max(1, decision.min)
            picks = trash_picks(decision.options, player, min(count, len(decision.options)))
            fixed, per_card = policy.reward_value(decision.reward, player, decision.game)
            worth = policy.hand_worths(list(player.hand), player, decision.game)
            lost = sum(worth.get(id(c), policy.deck_worth(c.d)) for c in picks)
            if picks and fixed + per_card * len(picks) > lost and all(
                    not c.d.is_victory or c.d.is_action or (policy.is_junk(c.d) and c.d.vp <= 1)
                    for c in picks):
                return picks
        picks = trash_picks(decision.options, player, decision.min, decision.max)
        # "you may trash 2 cards": none or both, so both only when both are junk
        return picks[: decision.min] if decision.exact and len(picks) < decision.max else picks

    def react(self, decision: Decision) -> list:
        """A Reaction to reveal, once per Reaction and event (`policy.reactions_to_reveal`)."""
        key = (id(decision.card), getattr(decision.game, "turn_number", None))
        if self._reacting[0] != key:
            self._reacting = (key, set())
        revealed = self._reacting[1]
        picked = policy.reactions_to_reveal(decision, revealed)
        revealed.update(id(c) for c in picked)
        return picked

    _reacting: tuple = (None, set())

    def order(self, decision: Decision) -> list:
        """Cards put back on the deck: the best on top; other orders as offered."""
        if decision.topic == TOPDECK:
            return sorted(decision.options, key=lambda c: -policy.deck_worth(c.d))
        return list(decision.options)

    def spend(self, kind: TokenKind, decision: Decision) -> int:
        """How many tokens of `kind` to spend now: the answer its declaration names (a method
        of this class: `reach_price`, `play_waiting`), which a subclass may answer its own way."""
        return getattr(self, kind.spend.policy)(decision)

    def reach_price(self, decision: Decision) -> int:
        """Tokens worth +$1 each (Coffers) to spend now: enough to reach the highest of
        `price_targets` in reach, else none."""
        return spend_to_reach(decision.game.coins, max(decision.options), self.price_targets)

    def play_waiting(self, decision: Decision) -> int:
        """Tokens worth +1 Action each (Villagers), asked only when an Action card waits and no
        Action is left: one, to play it."""
        return 1

    def overpay(self, decision: Decision) -> int:
        """On the turn's last Buy (else the coins may buy something more), as the card's Overpay
        ability reads (`overpay_use`): all the coins left for a draw (Farrier), the most at which
        an Action in the Supply costs exactly that for a gain "costing the amount overpaid"
        (Stonemason); nothing otherwise (Herald, Infirmary: what follows, topdecking from the
        discard pile or trashing, this bot's generic answers would not use well)."""
        game = decision.game
        if game.buys > 1:
            return 0
        use = overpay_use(decision.card.d)
        spare = max(decision.options)
        if use == "draw":
            return spare
        if use == "exact_cost":
            costs = set()
            for pile in game.piles.values():
                if pile.in_supply and pile.cards and pile.cards[-1].d.is_action:
                    costs.add(game.cost(pile.cards[-1].d))
            for amount in range(spare, 0, -1):
                if amount in costs:
                    return amount
        return 0

    def buy(self, decision: Decision) -> str | None:
        """Big Money, plus at $3-5 the Kingdom Action of most value (`card_value`) while it has
        few Actions and that value beats a Silver's; a
        Duchy at $5+ when Big Money buys nothing (the last Province would lose, no Gold or
        Silver is left), so that the game goes on towards its end."""
        choice = big_money_buy(decision)
        game, player = decision.game, decision.player
        if choice is None and game is not None and game.coins >= 5 and "Duchy" in decision.options:
            return "Duchy"
        if choice not in (None, "Silver") or game is None:
            return choice
        owned = player.owned()
        actions = sum(1 for c in owned if c.d.is_action)
        if actions * 8 >= len(owned):
            return choice
        kingdom = [
            n for n in decision.options
            if n in game.library and game.library[n].is_action
            and game.library[n].kind in ("kingdom", "split-member")
        ]
        best = max(kingdom, key=lambda n: (card_value(game.library[n]), game.cost(game.library[n]),
                                            n), default=None)
        if best is None or card_value(game.library[best]) < SILVER_VALUE:
            return choice
        return best


def note_decision(tally: Counter, decision: Decision, answer: Any) -> None:
    """Count a card's decision in `tally`: (card, ability, "asked") and, when the bot took the
    optional ability (picked cards, said yes, chose an option), (card, ability, "taken"). The
    ability is the topic ("discard", "react", ...); a choice counts each option apart."""
    card = decision.card
    topic = decision.topic or decision.kind
    if topic == REACT:  # about the Reaction offered, not the Attack that asks
        card = answer[0] if answer else decision.options[0]
    name = card.d.name if hasattr(card, "d") else str(card)
    if decision.kind == OPTION and decision.topic == CHOOSE:
        for option in decision.options:
            tally[(name, f"choose: {option}", "asked")] += 1
        if answer is not None:
            tally[(name, f"choose: {answer}", "taken")] += 1
        return
    tally[(name, topic, "asked")] += 1
    if answer is True or (isinstance(answer, list) and answer) or (
            answer is not None and not isinstance(answer, (bool, list))):
        tally[(name, topic, "taken")] += 1


def spend_to_reach(coins: int, tokens: int, targets: tuple[int, ...] | list[int]) -> int:
    """The tokens worth +$1 each (Coffers) that bring `coins` up to the highest target above
    them that `tokens` can reach (0 if none can: nothing is spent just to have more of the same)."""
    best = 0
    for target in targets:
        if coins < target <= coins + tokens and target - coins > best:
            best = target - coins
    return best


def overpay_use(definition: Any) -> str | None:
    """What a card's Overpay ability does with the amount, read from its compiled tree: "draw"
    (+Cards), "exact_cost" (gains cards costing the amount overpaid), else None."""
    if definition in _OVERPAY_USE:
        return _OVERPAY_USE[definition]
    use = None
    triggers = getattr(getattr(definition, "tree", None), "triggers", None)
    if triggers is not None and hasattr(triggers, "walk"):
        for ability in triggers.walk():
            if getattr(ability, "when", None) != "overpay" or not hasattr(ability, "body"):
                continue
            for node in ability.body.walk():
                if getattr(node, "kind", None) == "cost_overpaid":
                    use = "exact_cost"
                elif getattr(node, "resource", None) == "Card" and use is None:
                    use = "draw"
    _OVERPAY_USE[definition] = use
    return use


_OVERPAY_USE: dict[Any, str | None] = {}


def _gain_rank(decision: Decision, name: str) -> tuple[int, float]:
    """Which card to gain for free, highest first: a Province (unless it ends the game with
    this player losing), Gold, the Kingdom Action of most value or a Silver (`card_value`, a
    Silver's $2), another Treasure, a Victory card by its VP, a Curse last."""
    game = decision.game
    pile = game.piles.get(name)
    top = pile.top if pile is not None else None
    if top is None:
        if name not in game.library:
            return (0, 0.0)
        top = game.library[name]
    if name == "Province":
        return (-1, 0.0) if would_lose_by_gaining(game, decision.player, name) else (5, 0.0)
    if name == "Gold":
        return (4, 0.0)
    if top.is_action or name == "Silver":
        return (3, SILVER_VALUE if name == "Silver" else card_value(top))
    if top.has_type("Curse"):
        return (-2, 0.0)
    if top.is_treasure:
        return (2, float(game.cost(top)))
    return (1, float(top.vp))


def _pile_cost(game: Any, name: str) -> int:
    """The cost of a card, or of the top card of a pile named `name` (a split pile)."""
    if name in game.library:
        return game.cost(game.library[name])
    pile = game.piles.get(name)
    return game.cost(pile.top) if pile is not None and pile.top is not None else 0


def would_lose_by_gaining(game: Any, player: Any, name: str) -> bool:
    """True if gaining `name` now would end the game (its pile's last Province or Colony, or
    the pile that makes too many empty) with `player` losing: another player scoring more, or
    as much with fewer turns taken (the tie-breaker)."""
    pile = game.piles.get(name)  # (not `or`: Pile.__bool__ is a Python call)
    if pile is None:
        pile = game.pile_of.get(name)
    if pile is None or len(pile.cards) != 1:
        return False
    if pile.name not in ("Province", "Colony"):
        limit = 4 if len(game.players) >= 5 else 3
        if game.empty_supply_piles() + 1 < limit:
            return False
    card = pile.cards[-1]
    player.discard.append(card)  # score as if gained; no trigger runs
    try:
        mine = game.score(player)
    finally:
        player.discard.pop()
    turns = player.turns_taken
    for other in game.players:
        if other is not player:
            theirs = game.score(other)
            if theirs > mine or (theirs == mine and other.turns_taken < turns):
                return True
    return False


def big_money_buy(decision: Decision) -> str | None:
    """Province at $8+, Gold at $6-7, Silver at $3-5; never buy the losing last Province."""
    game = decision.game
    coins = game.coins
    options = decision.options
    if coins >= 8 and "Province" in options and not would_lose_by_gaining(
        game, decision.player, "Province"
    ):
        return "Province"
    if coins >= 6 and "Gold" in options:
        return "Gold"
    if coins >= 3 and "Silver" in options:
        return "Silver"
    return None


class BigMoney(DefaultAgent):
    def buy(self, decision: Decision) -> str | None:
        return big_money_buy(decision)


class RandomAgent:
    """Picks uniformly among the legal answers (seeded), for fuzzing the engine."""

    REVEALS = 3  # times it reveals the same Reaction to one Attack (they may be offered again)

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._reacting: tuple = (None, {})  # (the Attack and turn, reveals per Reaction)

    def decide(self, decision: Decision) -> Any:
        rng, kind, options = self.rng, decision.kind, decision.options
        if decision.topic == REACT:
            return self._react(decision)
        if kind in (PLAY, BUY):
            return rng.choice([None, *options])
        if kind in (TREASURES, CARDS):
            low = decision.min if kind == CARDS else 0
            high = min(decision.max, len(options)) if kind == CARDS else len(options)
            count = rng.randint(low, max(low, high))
            if kind == CARDS and decision.exact:  # "you may discard 2 cards": none or all
                count = rng.choice((0, high))
            return rng.sample(list(options), count)
        if kind == ORDER:
            return rng.sample(list(options), len(options))
        if kind == YES_NO:
            return rng.random() < 0.5
        if not options:
            return None
        return rng.choice([*options, *([None] if decision.min == 0 else [])])

    def _react(self, decision: Decision) -> list:
        """Reveal a random Reaction or none, each at most REVEALS times to the same Attack."""
        key = (id(decision.card), getattr(decision.game, "turn_number", None))
        if self._reacting[0] != key:
            self._reacting = (key, {})
        counts = self._reacting[1]
        fresh = [c for c in decision.options if counts.get(id(c), 0) < self.REVEALS]
        picked = self.rng.sample(fresh, self.rng.randint(0, min(1, len(fresh))))
        for card in picked:
            counts[id(card)] = counts.get(id(card), 0) + 1
        return picked


def _action_priority(card) -> tuple:
    d = card.d
    return (1 if plus_actions(d) > 0 else 0, d.cost, d.name)


def _junk_first(card) -> tuple:
    d = card.d
    return (0 if d.name == "Curse" else 1 if d.is_victory and not d.is_action else 2, d.cost)


# ------------------------------------------------------------------------------ trashing
KEEP_MONEY = 8  # $ in Treasures (each at its +$, else $1) that trashing keeps: a Province
YOUNG_TURNS = 10  # turns a player has taken while its cheap Victory cards are worth trashing


def trash_picks(options: list, player: Any, count: int, most: int = 0) -> list:
    """The `count` cards to trash when made to (Remake, Trading Post): Curses first, then
    the cheapest cards that neither score nor leave the player's Treasures short of KEEP_MONEY;
    only when nothing else is left such Treasures, and last the Victory cards that score.
    Then, up to `most` (a trash the player may make: Chapel's "up to 4"), only junk
    (`_junk_rank`): Curses, Estates while the game is young, Coppers the money can spare."""
    plan = _trash_plan(options, player, count)
    picks = [card for card, _rank in plan]
    money = _owned_money(player) - sum(_money(c.d) for c in picks if c.d.is_treasure)
    young = player.turns_taken < YOUNG_TURNS
    left = [c for c in options if not any(c is p for p in picks)]
    junk = [(rank, c) for c in left if (rank := _junk_rank(c.d, young)) is not None]
    for _rank, card in sorted(junk, key=lambda rc: rc[0]):
        if len(picks) >= most:
            break
        if card.d.is_treasure:
            if money - _money(card.d) < KEEP_MONEY:
                continue
            money -= _money(card.d)
        picks.append(card)
    return picks


def _junk_rank(d: Any, young: bool) -> int | None:
    """How gladly a card is trashed when nothing forces it (lowest first), None if never:
    0 a Curse, 1 a cheap card that only scores (Estate) while the game is `young`, 2 a
    Treasure worth $1 that costs nothing (Copper; only while the money can spare it).
    Gold, Provinces and any Action are never trashed by choice."""
    if d.has_type("Curse"):
        return 0
    if d.is_action or d.worth is not None:
        return None
    if d.is_victory and not d.is_treasure and d.cost <= 2:
        return 1 if young else None
    if d.is_treasure and not d.is_victory and _money(d) <= 1 and d.cost == 0:
        return 2
    return None


def safe_to_play(card: Any, player: Any) -> bool:
    """Whether playing `card` is safe for the deck: a card that must trash cards from hand is
    played only when the rest of the hand has that many cards worth trashing (so the bot never
    trashes its way out of the game: down to its Provinces, or to no money)."""
    count = mandatory_trash(card.d)
    if not count:
        return True
    plan = _trash_plan([c for c in player.hand if c is not card], player, count)
    return len(plan) == count and all(rank[0] <= 1 for _card, rank in plan)


def _trash_plan(options: list, player: Any, count: int) -> list[tuple[Any, tuple[int, int]]]:
    """The cards trash_picks picks, one at a time (the money left changes what may go), each
    with its rank (see _trash_rank)."""
    money = _owned_money(player)
    young = player.turns_taken < YOUNG_TURNS
    left, plan = list(options), []
    for _ in range(min(count, len(left))):
        rank, card = min(((_trash_rank(c.d, money, young), c) for c in left),
                         key=lambda rc: rc[0])
        left = [c for c in left if c is not card]
        plan.append((card, rank))
        if card.d.is_treasure:
            money -= _money(card.d)
    return plan


def _trash_rank(d: Any, money: int, young: bool = False) -> tuple[int, int]:
    """Trash the lowest first: 0 Curses, 1 cards to spare (a cheap card that only scores, while
    the game is `young`), 2 Treasures the money needs, 3 cards that score."""
    if d.has_type("Curse"):
        return (0, d.cost)
    if young and _junk_rank(d, young) == 1:
        return (1, -1)
    if d.vp > 0 or d.worth is not None:
        return (3, d.vp)
    if d.is_treasure and money - _money(d) < KEEP_MONEY:
        return (2, d.cost)
    return (1, d.cost)


def _money(d: Any) -> int:
    return d.coins if d.coins is not None else 1


def _owned_money(player: Any) -> int:
    """The $ in all the player's Treasures (each at its +$, else $1)."""
    return sum(_money(c.d) for c in player.owned() if c.d.is_treasure)


def mandatory_trash(definition: Any) -> int:
    """Cards from hand that playing the card must trash (Remodel 1, Trading Post and Remake 2;
    Chapel's "up to" and any "you may" none), read from its compiled tree; what a "choose one"
    option would trash does not count (the bot chooses)."""
    cached = _MANDATORY_TRASH.get(definition)
    if cached is None:
        play = getattr(getattr(definition, "tree", None), "play", None)
        cached = _MANDATORY_TRASH[definition] = _trashes(play) if play is not None else 0
    return cached


def _trashes(node: Any) -> int:
    kind = type(node).__name__
    if kind in ("Choose", "MayStep", "Otherwise") or not hasattr(node, "children"):
        return 0  # (an "otherwise" is counted with its "if", the branch that trashes more)
    if kind == "If":
        otherwise = getattr(node, "otherwise", None)
        return max(_trashes(node.body), _trashes(otherwise.body) if otherwise is not None else 0)
    selection = getattr(node, "selection", None)
    if kind == "Move" and node.verb == "trash" and selection is not None:
        how, count = selection.quantity
        forced = (selection.kind == "pick" and selection.source == "hand"
                  and not selection.optional and how in ("one", "exact"))
        return count if forced else 0
    total = sum(_trashes(child) for child in node.children())
    if kind == "Repeat":
        total *= getattr(node.amount, "constant", None) or 1
    return total


_MANDATORY_TRASH: dict[Any, int] = {}
