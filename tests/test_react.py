"""Reactions in hand to events other than an Attack listen through one dispatcher per event,
installed only in a game with such a card: a game without one pays nothing for them."""

from pathlib import Path

from kingdom.runtime.reactions import HandReactions

from kingdom.scenarios.runner import build_game, library_for, run_step

CARDS = Path(__file__).parent / "dsl-cards"


def _hand_listeners(game) -> dict[str, int]:
    return {event: sum(isinstance(x.effect, HandReactions) for x in group)
            for event, group in game.listeners.items()
            if any(isinstance(x.effect, HandReactions) for x in group)}


def test_a_game_without_hand_reactions_has_no_gain_or_trash_listener() -> None:
    game = build_game({"kingdom": ["Smithy", "Moat"], "setup": {"p1": {"coins": 3}}},
                      library_for([CARDS]))
    run_step(game, {"buy": "Silver"})
    assert not {"gain", "trash", "buy"} & set(game.listeners)


def test_one_dispatcher_per_event_however_many_cards_answer_it() -> None:
    """Gate Warden and Swap Stall both answer gains: one "gain" dispatcher between them."""
    game = build_game({"kingdom": ["Gate Warden", "Swap Stall", "Square Fair", "Market Spy"],
                       "setup": {"p1": {"coins": 3}}}, library_for([CARDS]))
    assert _hand_listeners(game) == {"gain": 1, "trash": 1, "buy": 1}
    run_step(game, {"buy": "Silver"})  # nobody holds one: nobody is asked
    assert [c.d.name for c in game.players[0].discard] == ["Silver"]
