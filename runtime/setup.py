"""Standard game setup: the Supply for 2-6 players, starting decks and first hands."""

from __future__ import annotations

from typing import Any

from runtime.cards import CardDef
from runtime.context import Ctx
from runtime.game import Game, IllegalMove
from runtime.library import Library

BASIC = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")


def pile_size(definition: CardDef, players: int) -> int:
    """How many cards a Supply pile starts with (gameplay.txt, Setup)."""
    name = definition.name
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
                 sizes: dict[str, int] | None = None) -> None:
    """Create the basic and Kingdom piles (split piles stack their members, top first)."""
    library, players = game.library, len(game.players)
    names = [*BASIC, *(("Platinum", "Colony") if colonies else ()), *kingdom]
    for name in names:
        if name in library.split_piles:
            members = [library[m] for m in library.split_piles[name]]
            defs = [d for d in members for _ in range(4)]
            game.add_pile(name, defs)
            continue
        if name not in library:
            raise IllegalMove(f"unknown card '{name}'")
        definition = library[name]
        count = (sizes or {}).get(definition.name, pile_size(definition, players))
        game.add_pile(definition.name, [definition] * count)


def standard_game(library: Library, kingdom: list[str], agents: list[Any], seed: int | None = None,
                  colonies: bool = False) -> Game:
    """A new game ready for the first player's first turn."""
    game = Game(library, agents, seed)
    build_supply(game, kingdom, colonies)
    estate = library["Estate"]
    copper = library["Copper"]  # pile_size already left out the starting Coppers
    for player in game.players:
        player.discard.extend(game.new_card(copper) for _ in range(7))
        player.discard.extend(game.new_card(estate) for _ in range(3))
        game.shuffle(player)
        game.draw(player, 5)
    run_setup_rules(game)
    return game


def run_setup_rules(game: Game) -> None:
    """Card setup abilities ("Setup: each player gets +1 Coffers") and game-wide triggers."""
    seen: set[str] = set()
    for pile in game.piles.values():
        for card in pile.cards:
            d = card.d
            if d.name in seen:
                continue
            seen.add(d.name)
            if d.setup is not None:
                d.setup(Ctx(game, game.players[0], None))
            install_game_triggers(game, d)


def install_game_triggers(game: Game, definition: CardDef) -> None:
    """Listeners for a card's game-wide abilities ("In games using this, ...")."""
    from runtime.game import Listener

    for trigger in definition.triggers.get("game", ()):
        for player in game.players:
            def fire(g, p, card, data, effect=trigger.effect, owner=player):
                ctx = Ctx(g, owner, None)
                if card is not None:
                    ctx.vars["it"] = [(card, owner.discard)]
                effect(ctx)

            def match(g, p, card, owner=player, test=trigger.match):
                return p is owner and (test is None or test(g, p, card))

            game.listen(Listener(trigger.event, player, fire, match, definition))
