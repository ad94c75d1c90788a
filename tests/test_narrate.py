"""The narrator says what the rules files' accessibility notes ask for (one test per note),
says nothing hidden, and leaves the game as it would be without it."""

from __future__ import annotations

from typing import Any

from kingdom.compiler.build import builtin_library
from kingdom.runtime.decisions import CARDS, GAIN, NUMBER, REACT, YES_NO, Decision
from kingdom.runtime.events import Listener
from kingdom.runtime.setup import standard_game
from kingdom.runtime.tokens import COFFERS

from kingdom.lab.bots import DefaultAgent
from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, empty_results, play_game
from kingdom.table import moves
from kingdom.table.narrate import Narrator, money, narrate, narrate_simulated
from kingdom.table.spoken import names, tallied

LIBRARY = builtin_library()


class Eager(DefaultAgent):
    """Says yes to every 'you may', reveals every Reaction, spends every Coffers; otherwise the
    generic bot."""

    def decide(self, decision: Decision) -> Any:
        if decision.topic == REACT:
            return decision.options[:1]
        if decision.kind == YES_NO:
            return True
        if decision.kind == NUMBER:
            return max(decision.options)
        return super().decide(decision)


def table(kingdom: list[str], players: int = 2, **options: Any):
    """A game of Eager bots with a narrator attached, and the narrator."""
    game = standard_game(LIBRARY, kingdom, [Eager() for _ in range(players)], seed=7, **options)
    return game, Narrator().attach(game)


def texts(narrator: Narrator) -> list[str]:
    narrator.flush()
    return [line.text for line in narrator.lines]


def put_in_hand(game, player, *names: str) -> list:
    cards = game.new_cards([LIBRARY[n] for n in names])
    player.hand.extend(cards)
    return cards


def test_ally_is_read_aloud_at_setup_with_its_text() -> None:
    _game, narrator = table(["Underling"], ally="Mountain Folk")
    said = texts(narrator)
    assert ("The Ally is Mountain Folk: At the start of your turn, you may spend 5 Favors for "
            "plus 3 Cards.") in said  # (plain: words only; for sighted readers "+3 Cards")
    game = standard_game(LIBRARY, ["Underling"], [Eager(), Eager()], seed=7, ally="Mountain Folk")
    assert any(line.text.endswith("for +3 Cards.") for line in Narrator(plain=False).attach(game).lines)
    assert "Each player starts with 1 Favor." in said


def test_every_favor_gained_or_spent_is_announced_with_the_total() -> None:
    game, narrator = table(["Underling"], ally="Mountain Folk")
    p1 = game.players[0]
    put_in_hand(game, p1, "Underling")
    moves.play(game, "Underling")
    assert texts(narrator)[-1] == "p1 gains 1 Favor, and now has 2 Favors."
    p1.favors = 5
    narrator._snapshot_tokens()  # (set by hand, as a scenario would)
    game.end_turn()
    game.end_turn()  # p2's turn ends; p1's starts: Mountain Folk spends 5 Favors
    game.start_turn()
    assert "p1 spends 5 Favors for Mountain Folk, and now has 0 Favors." in texts(narrator)


def test_every_coffers_change_is_announced_with_the_total() -> None:
    game, narrator = table(["Baker"])
    assert "Each player starts with 1 Coffers." in texts(narrator)
    p1 = game.players[0]
    put_in_hand(game, p1, "Baker")
    moves.play(game, "Baker")
    assert texts(narrator)[-1] == "p1 gains 1 Coffers, and now has 2 Coffers."
    game.start_buy_phase()
    game.offer_tokens(p1, [COFFERS])  # Eager spends them all
    assert texts(narrator)[-1] == "p1 spends 2 Coffers for 2 coins, and now has 0 Coffers."


def test_a_rotation_names_the_pile_the_group_moved_and_the_new_top() -> None:
    game, narrator = table(["Wizards"])
    put_in_hand(game, game.players[0], "Student")
    moves.play(game, "Student")  # "you may rotate the Wizards": yes
    assert ("The Wizards pile rotates: the 4 Student cards go to the bottom; Conjurer is now on top. Top "
            "first: Conjurer, Sorcerer, Lich and Student.") in texts(narrator)


def test_split_piles_are_read_in_order_at_setup() -> None:
    _game, narrator = table(["Augurs"])
    assert ("The Augurs pile, top first: Herb Gatherer, Acolyte, Sorceress and Sibyl."
            in texts(narrator))


def test_revealed_cards_are_read_in_order_then_where_each_goes() -> None:
    game, narrator = table(["Carnival"])
    p1 = game.players[0]
    p1.deck.extend(game.new_cards([LIBRARY[n] for n in ("Duchy", "Copper", "Gold", "Copper")]))
    put_in_hand(game, p1, "Carnival")
    moves.play(game, "Carnival")
    said = texts(narrator)
    at = said.index("p1 reveals Copper, Gold, Copper and Duchy (for Carnival), in this order.")
    assert said[at + 1:at + 5] == [
        "The revealed Copper goes into p1's hand.",
        "The revealed Gold goes into p1's hand.",
        "The revealed Copper goes to p1's discard pile.",
        "The revealed Duchy goes into p1's hand.",
    ]


def test_a_reaction_revealed_is_named_and_stays_in_hand() -> None:
    game, narrator = table(["Militia", "Moat"])
    put_in_hand(game, game.players[1], "Moat")
    put_in_hand(game, game.players[0], "Militia")
    moves.play(game, "Militia")
    said = texts(narrator)
    at = said.index("p2 reveals Moat (for Militia).")
    assert said[at + 1] == "The revealed Moat stays in p2's hand."


def test_the_turn_order_is_stated_before_an_extra_turn() -> None:
    game, narrator = table(["Odysseys"], players=3)
    put_in_hand(game, game.players[0], "Voyage")
    moves.play(game, "Voyage")
    game.end_turn()
    said = texts(narrator)
    assert said[-1] == "p1 takes an extra turn. Turn order: p1 again now, then p2, p3, p1."
    game.start_turn()
    assert texts(narrator)[-1] == "p1's extra turn."


def test_the_turn_order_is_stated_before_a_skipped_turn() -> None:
    game, narrator = table(["Wizards"], players=3)
    put_in_hand(game, game.players[0], "Lich")
    moves.play(game, "Lich")  # p1 skips their next turn
    game.end_turn()  # to p2
    game.start_turn()
    game.end_turn()  # to p3
    game.start_turn()
    game.end_turn()  # p1 skipped: to p2
    assert texts(narrator)[-1] == "p1 skips a turn. Turn order: p2 now, then p3, p1, p2."


def test_the_bane_is_named_at_setup() -> None:
    _game, narrator = table(["Young Witch"], choices={"bane": "Moat"})
    assert "The Bane pile is Moat." in texts(narrator)


def test_ferrymans_pile_is_named_at_setup() -> None:
    _game, narrator = table(["Ferryman"], choices={"ferryman": "Moat"})
    assert "Ferryman's pile is Moat, set aside outside the Supply." in texts(narrator)


def test_the_rewards_are_named_at_setup() -> None:
    _game, narrator = table(["Joust"])
    line = next(t for t in texts(narrator) if t.startswith("Outside the Supply (Rewards): "))
    assert "Coronet (1)" in line and "Renown (1)" in line


def test_favor_tokens_on_a_pile_are_announced() -> None:
    game, narrator = table(["Underling", "Smithy"], ally="Family of Inventors")
    game.start_buy_phase()  # Family of Inventors: Eager puts its Favor on a pile
    said = texts(narrator)
    assert "p1 spends 1 Favor for Family of Inventors, and now has 0 Favors." in said
    assert any(t.startswith("The ") and t.endswith("pile now has 1 Favor token on it: its "
                                                   "cards cost 1 coin less.") for t in said)


def test_nothing_hidden_is_said() -> None:
    """Draws and what is looked at are never named; a game narrated has the same outcome."""
    kingdom = ["Cellar", "Moat", "Militia", "Smithy", "Sentry", "Library", "Witch", "Village",
               "Harbinger", "Vassal"]
    bots = [resolve_bot("default", LIBRARY), resolve_bot("big-money", LIBRARY)]
    setup = Setup(LIBRARY, kingdom, bots)
    narrator = narrate_simulated(setup, 5, 0)
    said = [line.text for line in narrator.lines]
    assert not any(" draws " in t or " looks at " in t for t in said)
    played = play_game(setup, 5, 0, empty_results(setup))
    scores = ", ".join(f"{p.name} {played.score(p)} VP" for p in played.players)
    assert f"Game over. Scores: {scores}." in said


def test_plain_money_reads_aloud_and_the_demo_summary_joins_a_turn() -> None:
    assert money(3) == "3 coins" and money(1) == "1 coin" and money(3, plain=False) == "$3"
    game = standard_game(LIBRARY, ["Witch"], [Eager(), Eager()], seed=3)
    summaries = narrate(game).turn_summaries()
    assert summaries[0].startswith("p1's turn 1: plays ")
    assert all("gains" not in s for s in summaries[:2])  # a bought card is said once
    assert any("; p2 gains Curse" in s for s in summaries)  # others are named


# ------------------------------------------------------------------ a whole game, counted
class Keen(Eager):
    """Eager, and takes what a 'you may ... a card' offers (Cave Dwellers' discard, Cellar's)."""

    def decide(self, decision: Decision) -> Any:
        if decision.kind == CARDS and decision.min == 0 and decision.options and \
                decision.topic not in (REACT, GAIN):
            return decision.options[:1]
        return super().decide(decision)


class Counter:
    """What the engine did that the table may know, counted from its events."""

    def __init__(self, game) -> None:
        self.discards = self.reveals = self.set_asides = self.spends = 0
        self.revealed: set[int] = set()
        self.totals = {p.name: p.favors + p.coffers for p in game.players}
        for event, effect in (("discarded", self.discarded), ("reveal", self.reveal),
                              ("set_aside", self.set_aside), ("tokens", self.tokens)):
            game.listen(Listener(event, None, effect))

    def discarded(self, game, player, card, _zone) -> None:
        if not (game.phase == "cleanup" and player is game.player) and id(card) not in self.revealed:
            self.discards += 1

    def reveal(self, game, player, card, cards) -> None:
        self.reveals += len(cards)
        if card is None or game.zone_of(card)[0] is player:  # (not a Reaction to another's card:
            self.revealed |= {id(c) for c in cards}        # where they go is said with them)

    def set_aside(self, *_args) -> None:
        self.set_asides += 1

    def tokens(self, game, player, _card, _why) -> None:
        total = player.favors + player.coffers
        self.spends += total < self.totals[player.name]
        self.totals[player.name] = total


def named_count(listing: str) -> int:
    """How many cards 'Estate, 2 Copper and Silver' names."""
    items = listing.replace(" and ", ", ").split(", ")
    return sum(int(i.split(" ", 1)[0]) if i.split(" ", 1)[0].isdigit() else 1 for i in items)


def test_a_3_player_game_says_every_discard_reveal_set_aside_and_spend_and_nothing_hidden() -> None:
    kingdom = ["Militia", "Moat", "Cellar", "Joust", "Young Witch"]
    game = standard_game(LIBRARY, kingdom, [Keen() for _ in range(3)], seed=3,
                         ally="Cave Dwellers", choices={"bane": "Moat"})
    for player in game.players:  # (each deck holds every card of the Kingdom from the start)
        player.deck.extend(game.new_cards([LIBRARY[n] for n in [*kingdom, "Province", "Moat"]]))
        game.rng.shuffle(player.deck)
    counter = Counter(game)
    narrator = Narrator(hearer="p1").attach(game)
    game.run(100)
    narrator.finish()
    public = [line.text for line in narrator.lines if not line.to]
    discards = [t.split(" discards ", 1)[1].rstrip(".") for t in public if " discards " in t]
    said_discards = sum(named_count(part.split(" from ")[0]) for text in discards
                        for part in text.split("; "))
    assert said_discards == counter.discards >= 20
    assert sum(t.startswith("The revealed ") for t in public) == counter.reveals >= 5
    assert sum(" sets aside " in t for t in public) == counter.set_asides >= 1
    assert sum(" spends " in t for t in public) == counter.spends >= 3
    assert all(" for Cave Dwellers, " in t for t in public if " spends 1 Favor" in t)
    # your own draws to you alone, nobody else's; nothing drawn said to the table
    assert {line.to for line in narrator.lines} == {"", "p1"}
    assert all(line.kind == "draw" for line in narrator.lines if line.to)
    assert not any(t.startswith("You draw") or " draws " in t for t in public)
    assert any(t.startswith("p2 discards ") for t in public)  # Militia's victims, named


def test_a_played_attack_is_said_before_the_reactions_to_it() -> None:
    game, narrator = table(["Militia", "Moat"])
    put_in_hand(game, game.players[1], "Moat")
    put_in_hand(game, game.players[0], "Militia")
    moves.play(game, "Militia")
    said = texts(narrator)
    assert said.index("p1 plays Militia.") < said.index("p2 reveals Moat (for Militia).")


def test_your_own_draws_are_told_to_you_alone() -> None:
    game = standard_game(LIBRARY, ["Smithy"], [Eager(), Eager()], seed=7)
    mine, table_only = Narrator(hearer="p1").attach(game), Narrator().attach(game)
    put_in_hand(game, game.players[0], "Smithy")
    top = [c.d.name for c in reversed(game.players[0].deck[-3:])]
    moves.play(game, "Smithy")
    drawn = [line for line in mine.lines if line.kind == "draw"]
    assert [(line.to, line.text) for line in drawn] == [("p1", f"You draw {names(tallied(top))}.")]
    assert not any(line.kind == "draw" for line in table_only.lines)


def test_the_end_says_why_the_game_ended_and_each_final_deck() -> None:
    game = standard_game(LIBRARY, ["Smithy"], [Eager(), Eager()], seed=7)
    narrator = narrate(game)
    said = [line.text for line in narrator.lines]
    assert any(t.startswith("The game ends: the Province pile is empty") or
               t.startswith("The game ends: 3 Supply piles are empty") for t in said)
    for player in game.players:
        deck = next(t for t in said if t.startswith(f"{player.name}'s final deck, "))
        assert f"{len(player.owned())} cards: " in deck and "Copper" in deck


def test_a_negative_score_is_said_in_words() -> None:
    game, narrator = table(["Witch"])
    game.players[0].hand[:] = game.new_cards([LIBRARY["Curse"]] * 12)
    game.players[0].deck.clear()
    game.players[0].discard.clear()
    game.game_over = True
    narrator.finish()
    assert any("p1 minus 12 VP" in t for t in texts(narrator))


def test_the_differently_named_cards_a_card_counts_are_named() -> None:
    """Horn of Plenty counts the differently named cards in play: each was named as played."""
    game, narrator = table(["Horn of Plenty", "Village"])
    p1 = game.players[0]
    put_in_hand(game, p1, "Village", "Copper", "Silver", "Horn of Plenty")
    moves.play(game, "Village")
    moves.play(game, "Copper")
    moves.play(game, "Silver")
    moves.play(game, "Horn of Plenty")
    said = " ".join(texts(narrator))
    assert "p1 plays Village. p1 plays Copper and Silver. p1 plays Horn of Plenty." in said


# Each accessibility note shipped with the cards (cards/<set>/accessibility.txt), by its key, and
# the test above that finds its announcement.
NOTE_TESTS = {
    "favors": test_every_favor_gained_or_spent_is_announced_with_the_total,
    "ally": test_ally_is_read_aloud_at_setup_with_its_text,
    "rotation": test_a_rotation_names_the_pile_the_group_moved_and_the_new_top,
    "split-order": test_split_piles_are_read_in_order_at_setup,
    "inventors": test_favor_tokens_on_a_pile_are_announced,
    "turn-order": test_the_turn_order_is_stated_before_a_skipped_turn,
    "coffers": test_every_coffers_change_is_announced_with_the_total,
    "card-names": test_the_differently_named_cards_a_card_counts_are_named,
    "bane": test_the_bane_is_named_at_setup,
    "ferryman": test_ferrymans_pile_is_named_at_setup,
    "rewards": test_the_rewards_are_named_at_setup,
    "reveals": test_revealed_cards_are_read_in_order_then_where_each_goes,
}


def test_every_accessibility_note_has_a_test_of_its_announcement() -> None:
    from kingdom.print.rulings import shipped_accessibility

    keys = {key for _names, notes in shipped_accessibility() for key in notes}
    assert keys == set(NOTE_TESTS)
