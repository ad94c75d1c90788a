"""What the generic bot answers to a card's decision, by its topic, for any card (no card names):
the decision says what it is about as data (runtime/decisions.py: `topic`, `purpose`, `reward`,
`source`, `gives`, set by the construct that asks), and the bot weighs it with what it knows.

- A card in hand is worth what it gives this turn (`hand_worth`): a Treasure its coins, an
  Action its play value (kingdom/lab/values.py `card_value`) while an Action is left for it, a
  card that only scores or a Curse nothing.
- A card drawn is worth the mean of the cards the draw pile holds (`draw_worth`): what the bot
  may expect, without peeking at the order.
- What a decision leads to (`reward_value`) is valued from its tree: +Cards at the draw worth,
  +$ a coin, +Actions while an Action card waits, a card gained, "discard your hand" the hand's
  worth lost; a step counted per card picked ("+1 Card per card discarded") per card.

An option is taken only when it gains more than it loses, so ties decline whatever the order.
"""

from __future__ import annotations

from typing import Any

from kingdom.lab.values import card_value, plus_actions
from kingdom.runtime.decisions import (
    ATTACK,
    COST,
    DISCARD,
    KEEP,
    LIMIT,
    OPPONENT,
    PASS,
    PAY,
    PLAY_CARD,
    RETURN,
    REVEAL,
    SET_ASIDE,
    SKIP,
    TAKE,
    TOPDECK,
    TRASH,
    Decision,
)
from kingdom.runtime.tokens import BY_RESOURCE

GAINED = 2.0  # a card gained by an effect (a Silver's worth)
TO_HAND = 1.0  # more for a card gained to hand: it is used this turn
UNAFFECTED = 1.5  # an Attack blocked (kingdom/lab/values.py ATTACK_VALUE)
EXTRA_TURN = 6.0  # a whole turn: a hand's worth and its buy
BUY = 0.3  # a +Buy the bot seldom uses
SPARE_ACTION = 0.1  # a +Action with no Action card waiting for it
PRICES = (8, 6)  # prices a hand's coins are counted against (Province, Gold)
SPARE_COIN = 0.25
REACHED = 1.0  # more for coins that reach a price the hand misses  # a coin the buy does not need this turn
KEPT_HAND = 6  # $ in Treasures of a hand never given up for a redraw (a Gold's price)
JUNK = -0.5  # a card that only scores, or a Curse, drawn next turn instead of another


# ------------------------------------------------------------------------------ worth
def money(d: Any) -> int:
    return d.coins if d.coins is not None else 1


def is_junk(d: Any) -> bool:
    """A card that does nothing in hand: only scores, or a Curse."""
    return not d.is_action and not d.is_treasure


def deck_worth(d: Any) -> float:
    """A card's worth on top of the deck, for the next hand: a Treasure its coins, an Action its
    play value, a card that only scores or a Curse less than nothing (it takes a slot)."""
    if d.is_treasure:
        return float(money(d))
    if d.is_action:
        return card_value(d)
    return JUNK


def actions_left(player: Any, game: Any) -> int:
    """The Actions the player can still use: this turn's (none once its Action phase is over),
    else (another player's turn) a turn's 1."""
    if game is not None and game.player is player:
        return game.actions if game.phase == "action" else 0
    return 1


def hand_worths(cards: list, player: Any, game: Any, leaving: Any = None) -> dict[int, float]:
    """Each card's worth in hand this turn (by id): Treasures their coins, Actions their play
    value while an Action is left for them (those that give +Actions first), others nothing.
    `leaving` (a card) is the one whose play asks: it is not counted."""
    worth: dict[int, float] = {}
    actions = actions_left(player, game)
    in_hand = [c for c in cards if c is not leaving]
    playable = sorted((c for c in in_hand if c.d.is_action),
                      key=lambda c: (-plus_actions(c.d), -card_value(c.d)))
    for card in playable:
        if actions > 0:
            worth[id(card)] = card_value(card.d)
            actions += plus_actions(card.d) - 1
        else:
            worth[id(card)] = 0.0
    spent = game is not None and game.player is player and game.phase == "buy" and (
        game.buys <= 0)  # no Buy left: a Treasure's coins buy nothing more this turn
    for card in in_hand:
        if id(card) not in worth:
            paying = card.d.is_treasure and not spent
            worth[id(card)] = float(money(card.d)) if paying else 0.0
    if game is not None and game.player is player:
        _spare_coins(in_hand, worth, game.coins)
    return worth


def _spare_coins(hand: list, worth: dict[int, float], coins: int) -> None:
    """Treasures whose coins this turn's buy does not need (a $10 hand buys what $9 does):
    worth SPARE_COIN each, the cheapest first, while the rest still reach the same price."""
    treasures = sorted((c for c in hand if c.d.is_treasure), key=lambda c: money(c.d))
    total = coins + sum(money(c.d) for c in treasures)
    reached = max((p for p in PRICES if p <= total), default=None)
    if reached is None:
        return
    for card in treasures:
        if total - money(card.d) < reached:
            break
        total -= money(card.d)
        worth[id(card)] = SPARE_COIN


def draw_worth(player: Any, game: Any) -> float:
    """What a card drawn now is worth on average: the mean of the draw pile (and of the discard
    pile, which is shuffled in when the deck runs short)."""
    pile = list(player.deck)
    if len(pile) < 3:
        pile += list(player.discard)
    if not pile:
        return 0.0
    actions = actions_left(player, game)
    total = 0.0
    for card in pile:
        d = card.d
        if d.is_treasure:
            total += money(d)
        elif d.is_action:
            total += card_value(d) if actions > 0 or plus_actions(d) else 0.0
    return total / len(pile)


def waiting_action(player: Any, game: Any) -> float:
    """What one more Action is worth now: the play value of the best Action card in hand that
    no Action is left for (SPARE_ACTION when none waits)."""
    worth = hand_worths(list(player.hand), player, game)
    values = [card_value(c.d) for c in player.hand if c.d.is_action and not worth[id(c)]]
    return max(values, default=SPARE_ACTION)


# ------------------------------------------------------------------------------ rewards
def reward_value(node: Any, player: Any, game: Any, drawn: list | None = None
                 ) -> tuple[float, float]:
    """(fixed, per card picked): what a decision's `reward` node gives, valued now; the steps
    of a block in order (`drawn`: the worths of the cards its draws have added to the hand, so
    "+3 Cards, then discard 3 cards" discards the worst of the bigger hand)."""
    if node is None or not hasattr(node, "children"):
        return 0.0, 0.0
    if drawn is None:
        drawn = []
    kind = type(node).__name__
    if kind == "Bonus":
        one = _bonus_worth(node, player, game)
        if node.resource == "Card" and isinstance(node.amount, int):
            drawn.extend([draw_worth(player, game)] * node.amount)
        per = getattr(node, "per", None)
        if per is not None and str(getattr(per, "place", "")).startswith("in_"):
            return 0.0, one  # "+1 Card per card discarded"
        return one, 0.0
    if kind == "Draw":
        count = node.count if isinstance(node.count, int) else 1
        if node.until:
            count = max(0, count - len(player.hand))
        drawn.extend([draw_worth(player, game)] * count)
        return count * draw_worth(player, game), 0.0
    if kind.startswith("Gain"):  # Gain, GainFrom, GainOneEach
        if _names_curses(node, game):
            return -GAINED - (TO_HAND if getattr(node, "to", "") == "hand" else 0.0), 0.0
        to_hand = getattr(node, "to", "") == "hand"
        return GAINED + (TO_HAND if to_hand else 0.0), 0.0
    if kind == "Rule" and getattr(node, "kind", "") == "unaffected":
        return UNAFFECTED, 0.0
    if kind == "TurnControl":  # a turn of one's own more (or less)
        return {"extra": EXTRA_TURN, "skip": -EXTRA_TURN}.get(node.kind, 0.0), 0.0
    if kind == "Spend":
        token = BY_RESOURCE.get(node.what)
        return -(token.value if token is not None else 1.0) * node.amount, 0.0
    if kind == "Move" and node.verb in ("discard", "trash", "set aside") and (
            node.selection.kind == "hand"):
        worths = hand_worths(player.hand, player, game)
        return -sum(worths.values()), 0.0  # "discard your hand"
    if kind == "Move" and node.verb == "put" and node.place == "discard" and (
            node.selection.kind == "deck"):  # "put your deck into your discard pile"
        return _mean_worth(player.discard) - _mean_worth(player.deck), 0.0
    if kind == "Move" and node.verb == "discard" and node.selection.kind == "pick" and (
            node.selection.source in (None, "hand")) and node.selection.quantity[0] == "exact":
        worths = sorted([*hand_worths(player.hand, player, game).values(), *drawn])
        count = node.selection.quantity[1]
        lost = worths[:count]
        for worth in lost:
            if worth in drawn:
                drawn.remove(worth)
        return -sum(lost), 0.0  # "discard 2 cards"
    if kind == "Each" and node.who == "others":  # what the other players get counts against
        fixed, per_card = reward_value(node.body, player, game)
        return -fixed, -per_card
    if kind == "Choose":
        options = [reward_value(o, player, game, list(drawn)) for o in node.options]
        return max(options, key=lambda v: v[0] + v[1], default=(0.0, 0.0))
    fixed = per_card = 0.0
    for child in node.children():
        if type(child).__name__ == "Condition":
            continue
        f, p = reward_value(child, player, game, drawn)
        fixed, per_card = fixed + f, per_card + p
    return fixed, per_card


def _mean_worth(cards: list) -> float:
    return sum(deck_worth(c.d) for c in cards) / len(cards) if cards else 0.0


def _reaches_price(player: Any, game: Any, amount: int) -> bool:
    """Whether +$`amount` now brings the hand's coins up to a price (PRICES) it misses."""
    if game is None or game.player is not player:
        return False
    coins = game.coins + sum(money(c.d) for c in player.hand if c.d.is_treasure)
    return any(coins < price <= coins + amount for price in PRICES)


def _names_curses(node: Any, game: Any) -> bool:
    """Whether a gain is of Curses (by the cards its filter names)."""
    names = [n for f in node.walk() if type(f).__name__ == "Noun" for n in f.names]
    library = getattr(game, "library", None)
    return bool(names) and library is not None and all(
        n in library.cards and library[n].has_type("Curse") for n in names)


def _bonus_worth(node: Any, player: Any, game: Any) -> float:
    amount = node.amount if isinstance(node.amount, int) else 1
    resource = node.resource
    if resource == "Card":
        return amount * draw_worth(player, game)
    if resource == "Action":
        return waiting_action(player, game) + SPARE_ACTION * (amount - 1)
    if resource == "Buy":
        return BUY * amount
    if resource == "$":
        return float(amount) + (REACHED if _reaches_price(player, game, amount) else 0.0)
    token = BY_RESOURCE.get(resource)
    return (token.value if token is not None else 0.0) * amount


# ------------------------------------------------------------------------------ answers
def pick_cards(decision: Decision) -> list | None:
    """The cards to pick for a card's decision by its topic and purpose; None for a topic this
    policy leaves to the caller (trashing, gains)."""
    topic, purpose = decision.topic, decision.purpose
    player, game = decision.player, decision.game
    options = list(decision.options)
    if purpose == OPPONENT:  # another's cards: take away (or take for yourself) the best
        ranked = sorted(options, key=lambda c: -deck_worth(c.d))
        return ranked[: max(decision.min, min(1, decision.max))]
    if topic in (TRASH,) or topic is None:
        return None
    if (topic in (DISCARD, PASS, RETURN, REVEAL) and purpose in (ATTACK, LIMIT)) or (
            decision.min == decision.max and topic in (DISCARD, PASS, RETURN)):
        return _worst(options, decision.min, player, game)
    if topic == TOPDECK:
        return _topdeck(decision, options)
    if topic == KEEP and decision.min == 0:  # kept for the next hand: what beats a card drawn
        expected = draw_worth(player, game)
        return [c for c in _best(options, decision.max, player, game)
                if deck_worth(c.d) > expected]
    if topic == DISCARD and decision.reward is None and decision.source not in (None, "hand"):
        junk = [c for c in options if deck_worth(c.d) < 0]  # off the deck, for nothing: junk
        return sorted(junk, key=lambda c: deck_worth(c.d))[: decision.max]
    if topic in (REVEAL, PLAY_CARD, TAKE) and decision.min == 0 and decision.reward is None:
        return _best(options, decision.max, player, game)  # free: the best
    if topic in (REVEAL, TAKE, PLAY_CARD):
        return _best(options, max(decision.min, 1) if decision.max else 0, player, game)
    if topic in (DISCARD, SET_ASIDE) or decision.reward is not None:
        return _for_reward(decision, options)
    return _worst(options, decision.min, player, game)


def _worst(options: list, count: int, player: Any, game: Any) -> list:
    """The `count` cards worth least in hand (cards that only score or Curses first)."""
    worth = hand_worths(options if game is None else list(player.hand), player, game)
    ranked = sorted(options, key=lambda c: (worth.get(id(c), 0.0), not is_junk(c.d),
                                            not c.d.has_type("Curse"), c.d.cost))
    return ranked[:count]


def _best(options: list, count: int, player: Any, game: Any) -> list:
    ranked = sorted(options, key=lambda c: (-deck_worth(c.d), -c.d.cost))
    return ranked[:count]


def _topdeck(decision: Decision, options: list) -> list:
    """Onto the deck: from the hand (made to), the card worth least now and most next turn;
    from elsewhere (Harbinger's discard pile), the best card if it beats a random draw."""
    player, game = decision.player, decision.game
    if decision.source == "hand" or decision.min > 0:
        worth = hand_worths(list(player.hand), player, game)
        ranked = sorted(options, key=lambda c: (worth.get(id(c), 0.0) - deck_worth(c.d),
                                                worth.get(id(c), 0.0)))
        return ranked[: max(decision.min, 0)] if decision.min else []
    expected = draw_worth(player, game)
    ranked = [c for c in _best(options, decision.max, player, game)
              if deck_worth(c.d) > expected]
    return ranked[: decision.max]


def _for_reward(decision: Decision, options: list) -> list:
    """Cards given up for what the decision leads to: per card when it pays per card (Cellar:
    each card worth less than a card drawn), else the cheapest `max` when the reward beats what
    they are worth (Mill's two cards for +$2, Joust's Province for a Reward)."""
    player, game = decision.player, decision.game
    fixed, per_card = reward_value(decision.reward, player, game)
    worth = hand_worths(list(player.hand), player, game, leaving=None)
    if decision.source not in (None, "hand"):
        worth = {id(c): deck_worth(c.d) for c in options}
    ranked = sorted(options, key=lambda c: (worth.get(id(c), 0.0), not is_junk(c.d), c.d.cost))
    if _plays_it(decision.reward):  # set aside to be played later (Contract): the card's play
        later = {id(c): max(card_value(c.d), deck_worth(c.d)) for c in options}
        picks = sorted((c for c in options if later[id(c)] > worth.get(id(c), 0.0)),
                       key=lambda c: -later[id(c)])
        return picks[: max(decision.min, min(1, decision.max))] or ranked[: decision.min]
    if per_card > 0:
        picks = [c for c in ranked if worth.get(id(c), 0.0) < per_card][: decision.max]
        if decision.exact and len(picks) < decision.max:
            return []
        return picks if len(picks) >= decision.min else ranked[: decision.min]
    count = decision.max if decision.exact or decision.min == decision.max else max(
        decision.min, min(1, decision.max))
    picks = ranked[:count]
    lost = sum(worth.get(id(c), 0.0) for c in picks)
    if decision.min == 0 and not (fixed > lost):
        return []
    return picks


def _plays_it(node: Any) -> bool:
    return node is not None and hasattr(node, "walk") and any(
        type(n).__name__ == "Play" for n in node.walk())


def answer_yes_no(decision: Decision) -> bool:
    """A "you may" with no pick: yes when what it does and leads to is worth something."""
    topic, player, game = decision.topic, decision.player, decision.game
    if topic == SKIP:  # skip an Action drawn when no Action is left for it
        card = decision.reward
        return card is not None and actions_left(player, game) <= 0
    step = decision.gives[0] if decision.gives else None
    if topic == PAY:  # pay instead of suffering the step
        cost, _ = reward_value(step, player, game)
        suffered, _ = reward_value(decision.reward, player, game)
        return -cost < _suffered_loss(decision.reward, player, game, suffered)
    if step is None:
        return True
    if _gives_up_hand(decision.reward) and sum(
            money(c.d) for c in player.hand if c.d.is_treasure) >= KEPT_HAND:
        return False  # a hand that buys a Gold is not gambled away on a redraw
    done, _ = reward_value(step, player, game)
    led, _ = reward_value(decision.reward, player, game)
    if decision.purpose == COST or done < 0:
        return done + led > 0
    return done + led >= 0


def _gives_up_hand(node: Any) -> bool:
    """Whether a step discards (or trashes, sets aside) the whole hand."""
    return node is not None and hasattr(node, "walk") and any(
        type(n).__name__ == "Move" and n.verb in ("discard", "trash", "set aside")
        and n.selection.kind == "hand" for n in node.walk())


def _suffered_loss(step: Any, player: Any, game: Any, value: float) -> float:
    """What suffering a step costs: a discard down to N loses the worst cards' worth."""
    selection = getattr(step, "selection", None)
    if selection is not None and getattr(selection, "kind", "") == "down_to":
        keep = selection.quantity[1]
        worth = sorted(hand_worths(list(player.hand), player, game).values())
        return sum(worth[: max(0, len(worth) - keep)])
    return max(0.0, -value)


def answer_option(decision: Decision) -> str | None:
    """A card's printed options: the one worth most now (what each `gives`, valued)."""
    options, gives = decision.options, decision.gives
    if not gives or len(gives) != len(options):
        return options[0] if options else None
    player, game = decision.player, decision.game
    if decision.purpose == OPPONENT:  # what acts on the other player counts against: "as you"
        values = []
        for g in gives:
            mine = sum(sum(reward_value(n, player, game)) for n in g.walk()
                       if type(n).__name__ == "AsYou")
            values.append(2 * mine - sum(reward_value(g, player, game)))
    else:  # their own, or (ATTACK) the option of another's card that hurts them least
        values = [sum(reward_value(g, player, game)) for g in gives]
    bound = decision.reward if hasattr(decision.reward, "d") else None
    if bound is not None:  # what an option does with the one card it is about
        for i, g in enumerate(gives):
            values[i] += _bound_worth(g, bound, player, game, decision.purpose == OPPONENT)
    best = max(range(len(options)), key=lambda i: (values[i], -i))
    if decision.min == 0 and values[best] <= 0:
        return None
    return options[best]


def _bound_worth(option: Any, card: Any, player: Any, game: Any, theirs: bool) -> float:
    """An option's worth from what it does with one card: "discard it" a card drawn instead of
    it (against another's, for them); "play it (again)" or "put it into your hand" its use now."""
    worth = 0.0
    for node in option.walk():
        kind = type(node).__name__
        if kind == "Move" and node.verb == "discard":
            lost = draw_worth(player, game) - deck_worth(card.d)
            worth += -lost if theirs else lost
        elif kind == "Play" or (kind == "Move" and getattr(node, "place", "") == "hand"):
            worth += max(0.0, deck_worth(card.d))
    return worth


def reactions_to_reveal(decision: Decision, revealed: set[int]) -> list:
    """A Reaction in hand is revealed when doing so costs nothing (it stays in hand) and what
    it does is worth something, once per Reaction and event; one that leaves the hand (discard,
    trash, play) only when what it gives beats the card's worth in hand."""
    player, game = decision.player, decision.game
    for card in decision.options:
        if id(card) in revealed:
            continue
        value = 0.0
        verb = "reveal"
        for ability in _reaction_abilities(card.d):
            fixed, per = reward_value(ability.body, player, game)
            value += fixed + per
            verb = getattr(getattr(ability, "when", None), "react", "") or verb
        if verb == "reveal" and value >= 0:
            return [card]
        worth = hand_worths(list(player.hand), player, game).get(id(card), 0.0)
        if verb != "reveal" and value > worth:
            return [card]
    return []


def _reaction_abilities(d: Any) -> list:
    triggers = getattr(getattr(d, "tree", None), "triggers", None)
    if triggers is None or not hasattr(triggers, "walk"):
        return []
    return [node for node in triggers.walk() if type(node).__name__ == "Ability"
            and getattr(getattr(node, "when", None), "react", "")]


def name_card(decision: Decision) -> str:
    """The name most common in the draw pile (else among the cards owned): the likeliest to be
    the card a guess is about."""
    player = decision.player
    counts: dict[str, int] = {}
    for card in player.deck or player.owned():
        counts[card.d.name] = counts.get(card.d.name, 0) + 1
    named = [n for n in sorted(counts, key=lambda n: -counts[n]) if n in decision.options]
    return named[0] if named else decision.options[0]


def effect_first(decision: Decision) -> str:
    """Which of the effects waiting at once resolves first (options: the cards' or Ally's
    names): one that gives up the hand for a new one first (a redraw), so that what the others
    draw or give is not thrown away with it; else as offered."""
    library = getattr(decision.game, "library", None)
    for name in decision.options:
        d = library.cards.get(name) if library is not None else None
        triggers = getattr(getattr(d, "tree", None), "triggers", None)
        if triggers is not None and _gives_up_hand(triggers):
            return name
    return decision.options[0]
