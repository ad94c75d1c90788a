"""Standard game setup: the Supply for 2-6 players, starting decks and first hands."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from kingdom.runtime.cards import CardDef
from kingdom.runtime.context import Ctx
from kingdom.runtime.game import Game, IllegalMove, Listener, NewCards, Pile, numbered_cards
from kingdom.runtime.library import Library
from kingdom.runtime.reactions import install_hand_reactions

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.player import Player

BASIC = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")


def pile_size(definition: CardDef, players: int) -> int:
    """How many cards a Supply pile starts with (gameplay.txt, Setup)."""
    size = _PILE_SIZES.get((definition, players))
    if size is None:
        if len(_PILE_SIZES) >= 4096:
            _PILE_SIZES.clear()
        size = _PILE_SIZES[definition, players] = _pile_size(definition, players)
    return size


_PILE_SIZES: dict[tuple[CardDef, int], int] = {}  # (definitions are not changed once compiled)


def _pile_size(definition: CardDef, players: int) -> int:
    name = definition.name
    if definition.pile_size is not None:  # the card file says (`pile_size:`)
        return definition.pile_size
    if definition.kind == "reward":  # Rewards: one of each with 2 players, two with more
        return 1 if players == 2 else 2
    if name == "Copper":
        return (60 if players <= 4 else 120) - 7 * players
    if name in ("Silver", "Gold"):
        return (40 if name == "Silver" else 30) * (1 if players <= 4 else 2)
    if name == "Curse":
        return 10 * (players - 1)
    if name == "Province":
        return {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}[players]
    if name == "Platinum":
        return 12
    if definition.is_victory:
        return 8 if players == 2 else 12
    return 10


def build_supply(game: Game, kingdom: list[str], colonies: bool = False,
                 sizes: dict[str, int] | None = None) -> bool:
    """Create the basic and Kingdom piles (split piles stack their members, top first).
    Without `sizes`, the piles' cards are planned once per library, Kingdom and player count
    (`Library.supplies`) and placed from that plan in later games. True if no card in them has
    a setup rule or a game-wide ability, brings a pile or is a Liaison: no setup rule to run."""
    library, players = game.library, len(game.players)
    key = None if sizes else (tuple(kingdom), players, colonies, game._next_uid)
    plan = library.supplies.get(key) if key is not None else None
    if plan is None:
        plan = _plan_supply(game, kingdom, colonies, sizes)
        if key is not None:
            if len(library.supplies) >= 1024:
                library.supplies.clear()
            library.supplies[key] = plan
    piles, inert = plan
    for name, made in piles:
        game.place_pile(name, made)
    add_brought_piles(game, sizes)
    return inert


def _plan_supply(game: Game, kingdom: list[str], colonies: bool,
                 sizes: dict[str, int] | None) -> tuple[list[tuple[str, NewCards]], bool]:
    """The Supply piles of build_supply, in order: each one's name and cards (`pile_cards`),
    numbered as placing them one after the other numbers them; and whether they are inert
    (what build_supply returns)."""
    library, players = game.library, len(game.players)
    names = [*BASIC, *(("Platinum", "Colony") if colonies else ()), *kingdom]
    split_piles, by_name = library.split_piles, library.cards
    plan = []
    uid = game._next_uid
    for name in names:
        if name in split_piles:
            members = [library[m] for m in split_piles[name]]
            copies = library.split_copies.get(name, 4)
            defs = [d for d in members for _ in range(copies)]
            plan.append((name, numbered_cards(uid, defs, True)))
            uid += len(defs)
            continue
        definition = by_name.get(name)  # (the name as printed: no need to resolve it)
        if definition is None:
            if name not in library:
                raise IllegalMove(f"unknown card '{name}'")
            definition = library[name]
        if sizes and definition.name in sizes:
            count = sizes[definition.name]
        else:
            count = pile_size(definition, players)
        plan.append((definition.name, numbered_cards(uid, [definition] * count, True)))
        uid += count
    inert = not any(d.setup is not None or "game" in d.triggers or "hand" in d.triggers
                    or d.brings or "Liaison" in d.type_set or d.cost_changes
                    for _name, (_cards, distinct, _discarded) in plan for d in distinct)
    return plan, inert


def add_setup_pile(game: Game, source: str, costs: tuple[int, ...], in_supply: bool,
                   role: str = "") -> Pile | None:
    """A card's setup rule adding one Kingdom pile: an unused Kingdom card with one of `costs`,
    in the Supply with a `role` ("Bane") or set aside outside it ("Ferryman's pile", found as
    `game.setup_piles[source]`). A preset choice (`game.setup_choices`, keyed by the role or the
    card's name in lower case: the scenario keys `bane:`, `ferryman:`) wins over a random one."""
    key = role.lower() if role else source.lower()
    name = game.setup_choices.get(key)
    if name is None:
        names = sorted(d.name for d in game.library
                       if d.kind == "kingdom" and d.name not in game.pile_of
                       and not d.special_cost and d.cost in costs)
        name = game.rng.choice(names) if names else None
    if name is None:
        return None
    definition = game.library[name]
    pile = game.piles.get(definition.name)
    if pile is None:
        size = pile_size(definition, len(game.players))
        pile = game.add_pile(definition.name, [definition] * size, in_supply)
    else:
        pile.in_supply = pile.in_supply and in_supply
    if role:
        pile.roles.add(role)
    if source:
        game.setup_piles[source] = pile.name
    return pile


def add_brought_piles(game: Game, sizes: dict[str, int] | None = None) -> None:
    """Non-Supply piles the cards in the game bring: a card that gains "any Reward" brings a
    pile of each card of that type that is not a Kingdom or basic card (outside the Supply)."""
    cards, library = game.library.cards, game.library
    if game.pile_of.keys() <= cards.keys() and library.bringing().isdisjoint(game.pile_of):
        return  # no card in the game brings a pile (tested without a loop)
    wanted = {t for name in list(game.pile_of) for t in (cards.get(name) or library[name]).brings}
    if not wanted:
        return
    players = len(game.players)
    for d in game.library:
        if d.kind in ("kingdom", "basic") or d.name in game.piles or not d.type_set & wanted:
            continue
        count = (sizes or {}).get(d.name, pile_size(d, players))
        game.add_pile(d.name, [d] * count, in_supply=False)


RANDOM = "random"  # standard_game(ally=RANDOM): an Ally at random when a Liaison is used


def standard_game(library: Library, kingdom: list[str], agents: list[Any], seed: int | None = None,
                  colonies: bool = False, ally: str | None = RANDOM,
                  choices: dict[str, str] | None = None) -> Game:
    """A new game ready for the first player's first turn. `ally`: the Ally's name, RANDOM
    (one chosen with the game's seeded RNG when a Liaison is used) or None (no Ally)."""
    game = Game(library, agents, seed)
    if choices:
        game.setup_choices.update(choices)  # preset setup choices ("bane": a pile)
    inert = build_supply(game, kingdom, colonies)
    estate = library.cards.get("Estate") or library["Estate"]
    copper = library.cards.get("Copper") or library["Copper"]  # (pile_size left them out)
    for player in game.players:
        player.discard.extend(game.new_cards([copper] * 7 + [estate] * 3))
        game.shuffle(player)
        game.draw(player, 5)
    if inert and ally in (RANDOM, None):
        return game  # no Liaison, so no Ally; no setup rule or game-wide ability to run
    liaisons = None  # whether a pile has a Liaison, once known
    allies: list[str] = []
    if ally == RANDOM:
        allies = library.names_of_kind("ally")
        if allies:
            liaisons = uses_liaisons(game)
        ally = game.rng.choice(allies) if liaisons else None
    if ally is not None:
        add_ally(game, library[ally])  # (moves no card: `liaisons` still holds)
    run_setup_rules(game, liaisons, allies if game.ally is None else ())
    return game


def uses_liaisons(game: Game) -> bool:
    return any("Liaison" in d.type_set
               for pile in game.piles.values() for d in _pile_definitions(pile))


def pile_definitions(pile) -> dict:
    """The card definitions in a pile, bottom first, each once (a dict used as an ordered set)."""
    return dict(_pile_definitions(pile))


def _pile_definitions(pile) -> dict:
    """pile_definitions, shared: not to be changed."""
    cards = tuple(pile.cards)
    found = _PILE_DEFINITIONS.get(cards)
    if found is None:
        if len(_PILE_DEFINITIONS) >= 4096:
            _PILE_DEFINITIONS.clear()
        found = _PILE_DEFINITIONS[cards] = dict.fromkeys(map(_definition, cards))
    return found


# By the cards themselves: piles set up alike hold the same (immutable, shared) Card objects.
_PILE_DEFINITIONS: dict[tuple, dict] = {}
_definition = attrgetter("d")


def add_ally(game: Game, definition: CardDef) -> None:
    """The game's Ally: not a pile, never in a deck; its abilities listen for every player."""
    if definition.kind != "ally":
        raise IllegalMove(f"{definition.name} is not an Ally")
    game.ally = definition
    game.keep_history((definition,))
    install_game_triggers(game, definition, late=True)


def run_setup_rules(game: Game, liaisons: bool | None = None,
                    allies: Sequence[str] = ()) -> None:
    """Card setup abilities ("Setup: each player gets +1 Coffers") and game-wide triggers.
    With a Liaison or an Ally in the game, each player starts with 1 Favor (`liaisons`:
    whether a pile has a Liaison, when the caller knows). A Liaison may come in with a pile a
    setup rule adds (the Bane): then the game's Ally is picked at random from `allies`."""
    # The piles' cards as they are before any setup rule runs: until one runs, they still are.
    before = [(pile, _pile_definitions(pile)) for pile in game.piles.values()]
    if liaisons is None and game.ally is None:
        liaisons = any("Liaison" in d.type_set for _pile, defs in before for d in defs)
    _run_pile_setups(game, before)
    if not liaisons and len(game.piles) > len(before):
        added = list(game.piles.values())[len(before):]
        liaisons = any("Liaison" in d.type_set for pile in added for d in _pile_definitions(pile))
        if liaisons and game.ally is None and allies:
            add_ally(game, game.library[game.rng.choice(allies)])
    if game.ally is not None or liaisons:
        for player in game.players:
            player.favors += 1


def _run_pile_setups(game: Game, before: list[tuple[Pile, dict]]) -> None:
    """The setup abilities and game-wide triggers of the cards in every pile, once per card
    name, including the piles those abilities add. `before`: each pile's cards to begin with."""
    seen: set[str] = set()
    done = 0
    ran = False  # whether a setup rule has run (it may have moved cards)
    while done < len(game.piles):  # a setup rule may add piles (a Bane): theirs run too
        piles = list(game.piles.values())[done:]
        first = done
        done += len(piles)
        for i, pile in enumerate(piles, first):
            if not ran and i < len(before) and before[i][0] is pile:
                definitions = before[i][1]
            else:
                definitions = pile_definitions(pile)  # (a copy: the rules may add piles)
            for d in definitions:
                if d.name in seen:
                    continue
                seen.add(d.name)
                if d.setup is not None:
                    ran = True
                    ctx = Ctx(game, game.players[0], None)
                    ctx.vars["source"] = d.name
                    d.setup(ctx)
                if "game" in d.triggers or "hand" in d.triggers or d.cost_changes:
                    install_game_triggers(game, d)
        add_brought_piles(game)


def _copies_in_play(player: Player, definition: CardDef) -> list[Card]:
    return [c for c in player.in_play if c.d is definition]


def install_game_triggers(game: Game, definition: CardDef, late: bool = False) -> None:
    """Listeners for a card's game-wide abilities ("In games using this, ...", an Ally's).
    `it` is the card the event is about, where it is now; the cards being shuffled are
    "those cards" of a when-shuffling ability, and a when-scoring ability adds to `score`.
    Its Reactions in hand to events other than an Attack listen too."""
    if "hand" in definition.triggers:
        install_hand_reactions(game, definition)
    for change in definition.cost_changes:  # Game.cost asks each how much less a card costs
        game.listen(Listener("cost", None, change, source=definition))
    for trigger in definition.triggers.get("game", ()):
        in_play = trigger.where == "in_play"
        for player in game.players:
            def fire(g, p, card, data, effect=trigger.effect, owner=player, event=trigger.event,
                     in_play=in_play):
                # "while this is in play": once for each copy its owner has in play
                for this in _copies_in_play(owner, definition) if in_play else (None,):
                    ctx = Ctx(g, owner, this)
                    ctx.vars["source"] = definition.name  # whose ability: "gain one" (its pile)
                    if card is not None:
                        where = g.zone_list(card)
                        ctx.vars["it"] = [(card, where if where is not None else owner.discard)]
                    if event == "shuffle" and isinstance(data, list):
                        ctx.vars["revealed"] = data
                    elif event == "score" and isinstance(data, list):
                        ctx.vars["score"] = data
                    asking, g.asking = g.asking, definition.name
                    try:
                        effect(ctx)
                    finally:
                        g.asking = asking

            def match(g, p, card, owner=player, test=trigger.match, in_play=in_play,
                      yours=trigger.who == "you"):  # (or another player's event)
                return (p is owner) == yours and (not in_play or bool(_copies_in_play(owner, definition))
                                       ) and (test is None or test(g, p, card))

            game.listen(Listener(trigger.event, player, fire, match, definition, late=late))
