"""Moving cards a player has: trash, discard, put (into hand, onto the deck, ...), set aside,
return to its pile. Each honours the Stop-Moving rule: a card no longer where the step expects
it stays where it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, article
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import Ref, bind, still_where_bound
from kingdom.runtime.decisions import (
    DISCARD,
    KEEP,
    NUMBER,
    ORDER,
    RETURN,
    SET_ASIDE,
    TAKE,
    TOPDECK,
    TRASH,
    Decision,
    ask,
)

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx

VERBS = {"trash": "trashed", "discard": "discarded", "set aside": "set aside",
         "return": "returned", "put": "put", "keep": "kept", "shuffle": "shuffled"}

TOPICS = {"trash": TRASH, "discard": DISCARD, "set aside": SET_ASIDE, "return": RETURN,
          "keep": KEEP, "shuffle": TOPDECK}

PLACES = {
    "hand": "into your hand",
    "deck": "onto your deck",
    "bottom": "on the bottom of your deck",
    "discard": "into your discard pile",
    "back": "back in any order",
    "back_top": "back on top in any order",
    "anywhere": "anywhere in your deck",
}
PUT_WORDS = PLACES | {"back": "back"}  # "put them back" (in any order: the same step)


@primitive(
    "move_step",
    r"""
      "trash" selection                            -> trash
    | "discard" selection                          -> discard
    | "trash" "and/or" "discard" selection         -> trash_and_or_discard
    | "discard" "this" "from" "play"               -> discard_from_play
    | "set" "aside" selection                      -> set_aside
    | "set" ref_selection_aside "aside"            -> set_aside
    | "return" selection "to" "its" "pile"         -> return_to_pile
    | "put" selection put_place                    -> put
    | "put" selection put_place "," "and" "another" another_place  -> put_and_another
    | "from" "those" "cards" "," "put" each_noun ("," each_noun)* "," "and" each_noun put_place -> put_each
    | "pick" selection "to" "go" "on" "top"        -> pick_on_top
    | "pick" selection "to" "put" put_place        -> pick_to_put
    | "keep" selection "in" "hand" "for" "next" "turn" -> keep_in_hand
    | "shuffle" selection "into" "your" "deck" -> shuffle_into_deck  // e.g. shuffle your hand into your deck
ref_selection_aside: ref                        -> ref_selection
each_noun: article noun
!another_place: "on" "the" "bottom" | "on" "top" | "into" "your" "hand"
!put_place: "into" "your" "hand" | "onto" "your" "deck" | "on" "top" "of" "your" "deck"
          | "on" "the" "bottom" "of" "your" "deck" | "into" "your" "discard" "pile"
          | "back" "in" "any" "order" | "back" "on" "top" "in" "any" "order" | "back"
          | "anywhere" "in" "your" "deck" | "on" "top" "of" "your" "deck" "in" "any" "order"
          | "back" "on" "top" "of" "your" "deck"  // e.g. put the other one back on top of your deck
          | "back" "in" "any" "order" "you" "choose"  // e.g. put the rest back in any order you choose
""",
)
class Move(Node):
    def __init__(self, verb: str, selection: Selection, place: str = "") -> None:
        self.verb = verb
        self.selection = selection
        self.place = place

    @property
    def binds(self) -> str:
        return VERBS[self.verb]

    @staticmethod
    def build_trash(selection) -> Move:
        """Moves the cards to the trash."""
        return Move("trash", selection)

    @staticmethod
    def build_discard(selection) -> Move:
        """Moves the cards to their owner's discard pile."""
        return Move("discard", selection)

    @staticmethod
    def build_trash_and_or_discard(selection) -> TrashOrDiscard:
        return TrashOrDiscard(Move("trash", selection), Move("discard", selection))

    @staticmethod
    def build_discard_from_play() -> Move:
        """"discard this from play" (a Duration leaving play early): only from play."""
        move = Move("discard", Selection("ref", ref=Ref("this")))
        move.from_play = True
        return move

    @staticmethod
    def build_set_aside(selection) -> Move:
        """Moves the cards out of the way, set aside, until something moves them on."""
        return Move("set aside", selection)

    @staticmethod
    def build_return_to_pile(selection) -> Move:
        """Puts the card back on its Supply pile."""
        return Move("return", selection)

    @staticmethod
    def build_put(selection, place) -> Move:
        """Moves the cards to a place: your hand, the top or bottom of your deck, your discard pile."""
        words = " ".join(str(t) for t in place.children)
        key = {
            "into your hand": "hand", "onto your deck": "deck", "on top of your deck": "deck",
            "on the bottom of your deck": "bottom", "into your discard pile": "discard",
            "back in any order": "back", "back on top in any order": "back_top", "back": "back",
            "anywhere in your deck": "anywhere", "on top of your deck in any order": "back_top",
            "back on top of your deck": "back_top", "back in any order you choose": "back",
        }[words]
        move = Move("put", selection, key)
        if words.startswith(("on top of your deck", "back on top of your deck")) or (
                words.endswith("you choose")):  # printed as written
            move.written = words
        return move

    @staticmethod
    def build_put_and_another(selection, place, another) -> PutTwo:
        """"put a card from your hand on top of your deck, and another on the bottom": two
        picks from the same place, one after the other."""
        first = Move.build_put(selection, place)
        words = " ".join(str(t) for t in another.children)
        key = {"on the bottom": "bottom", "on top": "deck", "into your hand": "hand"}[words]
        return PutTwo(first, Move("put", selection, key),
                      " ".join(str(t) for t in place.children), words)

    @staticmethod
    def build_put_each(*parts) -> PutEach:
        """"from those cards, put an Action, a Treasure, and a Victory card into your hand":
        one of each, picked in that order from the revealed cards."""
        *nouns, place = parts
        nouns = [n.children[-1] for n in nouns]
        moves = [Move.build_put(Selection("pick", ("one", 1), Filter([], n, []), "revealed"), place)
                 for n in nouns]
        return PutEach(moves, nouns)

    @staticmethod
    def build_pick_on_top(selection) -> Move:
        """The player picks cards to go on top of the deck."""
        move = Move("put", selection, "deck")
        move.picked = "to go on top"  # "pick one card per Favor you spend to go on top"
        return move

    @staticmethod
    def build_pick_to_put(selection, place) -> Move:
        """The player picks cards and puts them in the place named."""
        move = Move.build_put(selection, place)
        move.picked = f"to put {PLACES[move.place]}"
        return move

    @staticmethod
    def build_keep_in_hand(selection) -> Move:
        """Cards kept in hand through this turn's Clean-up (which still draws 5)."""
        return Move("keep", selection)

    @staticmethod
    def build_shuffle_into_deck(selection) -> Move:
        """Puts the cards into your deck, then shuffles the whole deck."""
        return Move("shuffle", selection, "deck")

    def feasibility(self):
        """Moving a whole zone that is empty ("put your deck into your discard pile"), or cards
        no longer where the step expects them ("trash this" once it is trashed: Stop-Moving),
        changes nothing, so a "you may" of it is no real choice and is not asked."""
        selection = self.selection
        zone = selection.kind
        if zone == "ref":
            return still_where_bound(selection.ref)
        if zone not in ("hand", "deck"):
            return None
        return lambda ctx: bool(getattr(ctx.player, zone))

    @property
    def topic(self) -> str:
        """What the step does with the cards it picks, as decisions name it."""
        if self.verb == "put":
            # (the bottom of the deck is out of the way: the card least wanted goes there)
            return {"hand": TAKE, "discard": DISCARD, "bottom": DISCARD}.get(self.place, TOPDECK)
        return TOPICS.get(self.verb, self.verb)

    def compile(self, env: Env):
        verb, place = self.verb, self.place
        select = self.selection.compile_select("hand", self.topic, env.reward_of(self))
        prompt = self.render()[0].upper() + self.render()[1:]
        participle = VERBS[verb]
        expected = self.selection.quantity
        # "did" counts the cards a step asked for; a group ("your hand") asks for all it holds
        counted = self.selection.kind in ("pick", "top")
        exact = expected[1] if counted and expected[0] in ("one", "exact") else None
        ref = self.selection.ref
        from_set = ref if ref is not None and ref.plural and self.selection.source == "ref" else None
        tracks = verb == "set aside"  # set-aside cards are kept track of; moved ones are lost

        def move(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            the_set = from_set.resolve(ctx) if from_set is not None else None
            placed = select(ctx, prompt)
            lost = ctx.vars.get("lost")
            if lost and ref is not None:  # lose track: a card this effect moved stays put
                placed = [(c, z) for c, z in placed if id(c) not in lost]
            moved = []
            if place in ("back", "back_top") and len(placed) > 1:
                cards = ask(Decision(ORDER, player, prompt, [c for c, _ in placed],
                                     card=ctx.card, game=game, topic=TOPDECK))
                order = {id(c): i for i, c in enumerate(cards)}
                placed.sort(key=lambda cz: -order[id(cz[0])])  # bottom-most first
            elif place == "deck" and len(placed) > 1:
                placed.reverse()  # cards picked for the deck are listed top first
            # trashed together: all are in the trash before any of their abilities resolves
            trashed = {id(c) for c in game.trash_cards(player, placed)} if verb == "trash" else ()
            for card, zone in placed:
                if verb == "trash":
                    ok = id(card) in trashed
                    target = game.trash
                elif verb == "discard":
                    ok = game.discard_card(player, card, zone)
                    target = player.discard
                elif verb == "set aside":
                    ok = game.move(card, zone, player.set_aside)
                    target = player.set_aside
                    if ok and "set_aside" in game.listeners:
                        game.emit("set_aside", player, card, zone)
                elif verb == "return":
                    ok = game.return_to_pile(card, zone)
                    target = []
                elif verb == "keep":
                    ok = any(c is card for c in zone)
                    if ok:
                        game.kept_in_hand.append(card)
                    target = zone
                else:
                    target = _target(player, place)
                    ok = game.move(card, zone, target, bottom=place == "bottom")
                    if ok and place == "anywhere":
                        _reposition(ctx, card, target, prompt)
                if ok:
                    moved.append((card, target))
            if verb == "shuffle":
                game.rng.shuffle(player.deck)
            bind(ctx, participle, moved, the_set, [c for c, _z in placed])
            if not tracks and moved:
                ctx.vars["lost"] = (lost or frozenset()) | {id(c) for c, _z in moved}
            if verb == "discard":
                ctx.vars.setdefault("discarded_all", []).extend(moved)
            ctx.did = bool(moved) and (exact is None or len(moved) == exact)

        return move

    def render(self, they: bool = False) -> str:
        what = self.selection.render()
        if getattr(self, "picked", ""):
            return f"pick {what} {self.picked}"
        if self.verb == "keep":
            return f"keep {what} in hand for next turn (you still draw 5)"
        if getattr(self, "written", "") == "draw the rest":
            return self.written  # "draw the rest": put into your hand, printed as written
        if self.verb == "put":
            if self.place in ("back", "back_top") and self.selection.kind == "rest":
                return f"put {what} {getattr(self, 'written', '') or PLACES[self.place]}"
            if self.place == "back" and self.selection.kind == "ref" and what in (
                    "it", "the other one"):
                return f"put {what} back"  # one card: no order to choose
            return f"put {what} {getattr(self, 'written', '') or PLACES[self.place]}"
        if self.verb == "set aside" and self.selection.kind == "ref":
            return f"set {what} aside"
        if getattr(self, "from_play", False):
            return "discard this from play"
        if self.verb == "return":
            return f"return {what} to its pile"
        if self.verb == "shuffle":
            return f"shuffle {what} into your deck"
        return f"{self.verb} {what}"

    def unparse(self) -> str:
        what = self.selection.unparse()
        if getattr(self, "from_play", False):
            return "discard this from play"
        if getattr(self, "picked", ""):
            return f"pick {what} {self.picked}"
        if self.verb == "keep":
            return f"keep {what} in hand for next turn"
        if getattr(self, "written", "") == "draw the rest":
            return self.written
        if self.verb == "put":
            return f"put {what} {getattr(self, 'written', '') or PUT_WORDS[self.place]}"
        if self.verb == "set aside":
            return f"set aside {what}"
        if self.verb == "return":
            return f"return {what} to its pile"
        if self.verb == "shuffle":
            return f"shuffle {what} into your deck"
        return f"{self.verb} {what}"


def _reposition(ctx: Ctx, card, deck: list, prompt: str) -> None:
    """A card just put on top of the deck goes under as many cards as its player picks."""
    deck.pop()
    depth = ask(Decision(NUMBER, ctx.player, f"{prompt}: how many cards above it?",
                         list(range(len(deck) + 1)), card=ctx.card, game=ctx.game))
    deck.insert(len(deck) - depth, card)


class TrashOrDiscard(Node):
    """"trash and/or discard any number of them": some are trashed, then some of the others
    (still where they were) discarded."""

    binds = "discarded"

    def __init__(self, trash: Move, discard: Move) -> None:
        self.trash = trash
        self.discard = discard

    def compile(self, env: Env):
        trash, discard = self.trash.compile(env), self.discard.compile(env)

        def trash_or_discard(ctx: Ctx) -> None:
            bound = ctx.vars.get("it")
            trash(ctx)
            if bound is not None:  # "them" are still the cards before trashing
                ctx.vars["it"] = bound
            discard(ctx)

        return trash_or_discard

    def render(self, they: bool = False) -> str:
        return f"trash and/or discard {self.trash.selection.render()}"

    def unparse(self) -> str:
        return f"trash and/or discard {self.trash.selection.unparse()}"


class PutTwo(Node):
    """Two puts of the same kind of card to two places ("..., and another on the bottom")."""

    binds = "put"

    def __init__(self, first: Move, second: Move, first_words: str, second_words: str) -> None:
        self.first = first
        self.second = second
        self.first_words = first_words
        self.second_words = second_words

    def compile(self, env: Env):
        first, second = self.first.compile(env), self.second.compile(env)

        def put_two(ctx: Ctx) -> None:
            first(ctx)
            second(ctx)

        return put_two

    def render(self, they: bool = False) -> str:
        return (f"put {self.first.selection.render()} {self.first_words}, "
                f"and another {self.second_words}")

    def unparse(self) -> str:
        return (f"put {self.first.selection.unparse()} {self.first_words}, "
                f"and another {self.second_words}")


class PutEach(Node):
    """Puts of one card of each description, in order ("an Action, a Treasure, and a ...")."""

    binds = "put"

    def __init__(self, moves: list[Move], nouns: list) -> None:
        self.moves = moves
        self.nouns = nouns

    def compile(self, env: Env):
        steps = [m.compile(env) for m in self.moves]

        def put_each(ctx: Ctx) -> None:
            for step in steps:
                step(ctx)

        return put_each

    def render(self, they: bool = False) -> str:
        names = [n.render() for n in self.nouns]
        listed = ", ".join(f"{article(n)} {n}" for n in names[:-1])
        return (f"from those cards, put {listed}, and {article(names[-1])} {names[-1]} "
                f"{PLACES[self.moves[-1].place]}")

    def unparse(self) -> str:
        listed = [f"a {n.unparse()}" for n in self.nouns]
        return (f"from those cards, put {', '.join(listed[:-1])}, and {listed[-1]} "
                f"{PLACES[self.moves[-1].place]}")


def _target(player, place: str) -> list:
    if place == "hand":
        return player.hand
    if place == "discard":
        return player.discard
    return player.deck  # deck, bottom, back
