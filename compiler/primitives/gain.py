"""Gaining: from the Supply ("gain a card costing up to $4", "gain a Silver onto your deck"),
or particular cards ("gain the trashed cards", "gain an Action card from the trash")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.nodes import Env, Node, article, plural
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.amounts import Amount
from kingdom.compiler.selections.filters import Filter, Noun
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import bind
from kingdom.compiler.structure.choose import Choose, option_block
from kingdom.compiler.structure.sequence import Sequence
from kingdom.runtime.decisions import ATTACK, CARDS, FORCED, GAIN, PILE, Decision, ask
from lark import Tree

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx

DESTINATIONS = {"hand": "to your hand", "deck": "onto your deck", "discard": ""}


@primitive(
    "gain_step",
    r"""
      "gain" quantity adjective* noun gain_to? qualifier* gain_from? gain_to? chooser?  -> gain_cards
    | "gain" gain_to quantity adjective* noun qualifier*                  -> gain_to_first
    | "gain" ref gain_to?                                          -> gain_ref  // e.g. gain it
    | "gain" quantity noun "per" countable                         -> gain_per
    | "gain" "any" "number" "of" ref                               -> gain_ref_any
    | "gain" quantity noun "," qualifier+                          -> gain_cards_comma
    | "gain" gain_item _AND_ALSO gain_item              -> gain_both  // e.g. gain a Silver and a Gold
    | "gain" gain_item _OR_ELSE gain_item               -> gain_either  // e.g. gain two Silvers or a Gold
    | "gain" gain_item _PUTTING_ONE putting_to          -> gain_putting_one  // e.g.
      // gain 2 Silvers, putting one onto your deck
!gain_to: "to" "your" "hand" | "to" "their" "hand" | "onto" "your" "deck"
!putting_to: "onto" "your" "deck" | "into" "your" "hand"
gain_from: source  // where the gained card is: the Supply (as without it), the trash, revealed
gain_item: quantity adjective* noun qualifier*
// "and" before a second card to gain ("gain a card and a Gold"): told apart from the "and" of
// "gain a card and +1 action" by the count after it, seen with it as one token
_AND_ALSO.2: /and(?=[\t \r\n]+(?:a|an|two|three|four|\d+)[\t \r\n])/
_OR_ELSE.2: /or(?=[\t \r\n]+(?:a|an|two|three|four|\d+)[\t \r\n])/  // "gain A or B"
// ", putting one" as one token: a lone "," after the card could start its description
_PUTTING_ONE.2: /,[\t \r\n]*putting[\t \r\n]+one(?![a-z'\/-])/
""",
)
class Gain(Node):
    binds = "gained"

    def __init__(self, what: Filter | Selection, count: int = 1, to: str = "discard") -> None:
        self.what = what
        self.count = count
        self.to = to

    @staticmethod
    def _split(parts):
        adjectives, noun, to, qualifiers = [], None, "discard", []
        for part in parts:
            if isinstance(part, tuple):
                adjectives.append(part)
            elif isinstance(part, Noun):
                noun = part
            elif part in ("hand", "deck"):
                to = part
            else:
                qualifiers.append(part)
        return Filter(adjectives, noun, qualifiers), to

    @staticmethod
    def build_gain_to_first(to, quantity, *parts) -> Gain:
        """"gain to your hand a different Action costing up to $5": the place written first."""
        gain = Gain.build_gain_cards(quantity, *parts, to)
        gain.to_first = True
        gain.to_last = False
        return gain

    @staticmethod
    def build_gain_cards_comma(quantity, *parts) -> Gain:
        """"gain a card, costing up to ...": the description after a comma, as printed."""
        gain = Gain.build_gain_cards(quantity, *parts)
        gain.comma = True
        return gain

    @staticmethod
    def build_gain_cards(quantity, *parts) -> Gain:
        """Gains cards: from the Supply by description, or particular cards from the trash or those
        revealed."""
        source = next((p.children[0] for p in parts if isinstance(p, Tree)), None)
        if source in ("hand", "discard", "deck"):
            zone = {"hand": "hand", "discard": "discard pile", "deck": "deck"}[source]
            raise PhraseError(f"a card is gained from the Supply, the trash or cards revealed, not "
                              f"from your {zone}: a card you have is not gained",
                              f"to move it write 'put a card from your {zone} into your hand' "
                              "(or 'onto your deck'); to gain one from the Supply leave out 'from'")
        by_you = "you" in parts  # "... that you choose": the player of the card picks
        parts = tuple(p for p in parts if p != "you" and not isinstance(p, Tree))
        filter_, to = Gain._split(parts)
        if source in ("trash", "revealed", "revealed_it"):
            chooser = "you" if by_you else "player"
            return Gain(Selection("pick", quantity, filter_, source, chooser), 1, to)
        gain = Gain(filter_, quantity[1] if quantity[0] in ("one", "exact") else 1, to)
        if source == "supply":  # as without it, said as written
            gain.from_supply = True
        if getattr(quantity, "word", ""):  # "gain two Silvers": the count as written
            gain.count_word = quantity.word
        gain.by_you = by_you
        gain.to_last = bool(parts) and parts[-1] in ("hand", "deck") and bool(filter_.qualifiers)
        return gain

    @staticmethod
    def build_gain_both(first, second) -> Sequence:
        """"gain a cheaper card and a Gold": two gains, in the order written, "gain" said once."""
        both = Sequence([Gain.build_gain_cards(*first.children),
                         Gain.build_gain_cards(*second.children)], "and")
        both.verb_once = True
        return both

    @staticmethod
    def build_gain_either(first, second) -> Choose:
        """"gain two Silvers or a card costing up to $4": the player gains one of the two."""
        options = [option_block([Gain.build_gain_cards(*item.children)]) for item in (first, second)]
        either = Choose(Amount("number", 1), options)
        either.style = "gain or"
        return either

    @staticmethod
    def build_gain_putting_one(item, to) -> Gain:
        """"gain 2 Silvers, putting one onto your deck": one gain of several cards, the first
        gained going there and the rest to your discard pile (the player picks which is first)."""
        gain = Gain.build_gain_cards(*item.children)
        to = "deck" if "deck" in [str(t) for t in to.children] else "hand"
        if not isinstance(gain.what, Filter) or gain.count < 2:
            raise PhraseError("'putting one' there needs two or more cards gained from the Supply",
                              "write 'gain 2 Silvers, putting one onto your deck'")
        gain.first_to = to
        return gain

    @staticmethod
    def build_gain_per(quantity, noun, per) -> Gain:
        """"gain a Gold per empty Supply pile": as many as counted when it happens."""
        gain = Gain(Filter([], noun, []), quantity[1] if quantity[0] in ("one", "exact") else 1)
        gain.per = per
        return gain

    @staticmethod
    def build_gain_ref(ref, to="discard") -> Gain:
        """Gains the card referred to (from the trash, from those revealed, ...)."""
        return Gain(Selection("ref", ref=ref), 1, to)

    @staticmethod
    def build_gain_ref_any(ref) -> Gain:
        """You gain any or all of the cards referred to."""
        return Gain(Selection("ref", ref=ref), -1)

    @property
    def selection(self) -> Selection | None:
        return self.what if isinstance(self.what, Selection) else None

    def compile(self, env: Env):
        to = self.to
        if isinstance(self.what, Selection):
            return self._compile_cards(to)
        pred = self.what.compile_pred()
        count = self.count
        per = self.per.compile_count() if getattr(self, "per", None) is not None else None
        prompt = f"Gain {self.render_what()}"
        optional = getattr(self, "optional", False)
        by_you = getattr(self, "by_you", False)
        first_to = getattr(self, "first_to", to)  # "..., putting one onto your deck"

        def gain(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            chooser = ctx.you if by_you else player
            gained = []
            wanted = count if per is None else count * per(ctx)
            for _ in range(wanted):
                options = [
                    pile.cards[-1].d.name
                    for pile in game.piles.values()
                    if pile.cards and pile.in_supply and pred(ctx, pile.cards[-1].d)
                ]
                name = ask(Decision(PILE, chooser, prompt, options, 0 if optional else 1, 1,
                                    card=ctx.card, game=game, topic=GAIN, source="supply",
                                    purpose=FORCED if chooser is ctx.you else ATTACK))
                ctx.commit(name is not None)  # pays for "you may spend ... to gain ..."
                if name is None:
                    break
                gain_named(game, player, name, first_to if not gained else to, gained)
            bind(ctx, "gained", gained)
            ctx.did = len(gained) == wanted

        return gain

    def _compile_cards(self, to: str):
        select = self.what.compile_select("trash", topic=GAIN)
        any_number = self.count == -1
        prompt = f"Gain {self.what.render()}"

        def gain_cards(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            placed = [(c, z) for c, z in select(ctx, prompt) if c in z]
            if any_number and placed:
                picked = ask(Decision(CARDS, ctx.you, prompt, [c for c, _ in placed], 0,
                                      len(placed), card=ctx.card, game=game, topic=GAIN))
                placed = [(c, z) for c, z in placed if c in picked]
            gained = []
            for card, zone in placed:
                if game.move(card, zone, []):
                    game.receive(ctx.you if any_number else player, card, to)
                    gained.append((card, _zone(player, to)))
            bind(ctx, "gained", gained)
            ctx.did = bool(gained)

        return gain_cards

    def render_what(self) -> str:
        if isinstance(self.what, Selection):
            return self.what.render()
        noun = self.what.render(many=self.count > 1)
        if self.count == 1:
            return f"{article(noun)} {noun}"
        return f"{self.count} {noun}"

    def render(self, they: bool = False) -> str:
        if self.count == -1:  # `they`: by you, in "each other player" ("You may gain any or
            ref = self.what.ref  # all of these trashed cards": theirs, one player at a time)
            verb = "may gain" if they else "gain"
            return f"{verb} any or all of {'these' if they else 'the'} {ref.name} cards" if (
                ref.kind == "bound") else f"{verb} any or all of {ref.render()}"
        if isinstance(self.what, Selection):
            text = f"gain {self.what.render()}"
            return f"{text} {DESTINATIONS[self.to]}".strip()
        where = DESTINATIONS[self.to]
        before = [q for q in self.what.qualifiers if q.render() == "cheaper"]  # "a cheaper card"
        quals = " ".join(q.render() for q in self.what.qualifiers if q not in before)
        head = Filter(self.what.adjectives, self.what.noun, []).render(many=self.count > 1)
        if before:
            head = f"cheaper {head}"
        if self.count == 1:
            head = f"{article(head)} {head}"
            head += "," if getattr(self, "comma", False) and quals else ""
        else:
            count = getattr(self, "count_word", "") or self.count
            head = f"{count} {plural(head) if not head.endswith('s') else head}"
        if getattr(self, "per", None) is not None:
            head += f" per {self.per.render()}"
        if getattr(self, "from_supply", False):
            quals = f"{quals} from the Supply".strip()
        if getattr(self, "first_to", None):  # "gain 2 Silvers, putting one onto your deck"
            return " ".join(p for p in ("gain", head, quals) if p) + putting_one(self.first_to)
        if getattr(self, "to_last", False):  # "gain a card costing up to $4 onto your deck"
            return " ".join(p for p in ("gain", head, quals, where) if p)
        chooser = "that you choose" if getattr(self, "by_you", False) else ""
        if getattr(self, "to_first", False):
            return " ".join(p for p in ("gain", where, head, quals, chooser) if p)
        return " ".join(p for p in ("gain", head, where, quals, chooser) if p)

    def unparse(self) -> str:
        if self.count == -1:
            return f"gain any number of {self.what.ref.unparse()}"
        where = {"hand": "to your hand", "deck": "onto your deck", "discard": ""}[self.to]
        if isinstance(self.what, Selection):  # the place goes before "that you choose"
            picked, chooser, _ = self.what.unparse().partition(" that you choose")
            return " ".join(p for p in ("gain", picked, where, chooser.strip()) if p)
        what = self.what
        many = self.count > 1
        head = Filter(what.adjectives, what.noun, []).unparse(many)
        quantity = article(head) if self.count == 1 else getattr(self, "count_word", "") or str(
            self.count)
        quals = " ".join(q.unparse() for q in what.qualifiers)
        if getattr(self, "from_supply", False):
            quals = f"{quals} from the supply".strip()
        if getattr(self, "per", None) is not None:
            return f"gain {quantity} {what.noun.unparse(many)} per {self.per.unparse()}"
        if getattr(self, "comma", False) and quals:
            return f"gain {quantity} {head}, {quals}"
        chooser = "that you choose" if getattr(self, "by_you", False) else ""
        if getattr(self, "first_to", None):
            return " ".join(p for p in ("gain", quantity, head, quals) if p) + putting_one(
                self.first_to)
        if getattr(self, "to_first", False):
            order = ("gain", where, quantity, head, quals, chooser)
        elif getattr(self, "to_last", False):
            order = ("gain", quantity, head, quals, where, chooser)
        else:
            order = ("gain", quantity, head, where, quals, chooser)
        return " ".join(p for p in order if p)


def putting_one(to: str) -> str:
    """The tail of "gain 2 Silvers, putting one onto your deck"."""
    return f", putting one {'into your hand' if to == 'hand' else DESTINATIONS[to]}"


def gain_named(game, player, name: str, to: str, gained: list) -> None:
    """`player` gains the top card of the pile `name` to `to`; listed in `gained` if it was."""
    card = game.gain(player, name, to)
    if card is not None:
        gained.append((card, _zone(player, to)))


def _zone(player, to: str) -> list:
    return {"hand": player.hand, "deck": player.deck}.get(to, player.discard)
