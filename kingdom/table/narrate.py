"""The narrator: a game's events as sentences, for `kingdom play`, `simulate --log` and `demo`.

It listens to the engine's events (Game.listen) and says what everyone at the table may know,
following the accessibility notes of the rules files for mixed blind and sighted play:

- setup: the Kingdom, the Ally read aloud (name and text), the Bane, a pile a card's setup sets
  aside (Ferryman's), the Rewards and other piles outside the Supply, each split pile in order;
- every token gained or spent (each kind runtime/tokens declares: Favors, Coffers, VP tokens,
  Villagers), with the new total; Favor tokens on piles;
- a split pile's rotation: the pile, the group moved to the bottom, the new top card, the order;
- revealed cards in the order revealed, then where each one went;
- before an extra or skipped turn, the turn order from there on;
- every card discarded (outside Clean-up) and set aside, what each token spent was for, a card
  played before any Reaction to it, the reason the game ended and each player's final deck.

Nothing hidden is said to the table: never the cards drawn, looked at or in a deck. The cards
a player draws are told to that player alone (`hearer`: lines whose `to` is their name). Plain
sentences (the default) are words only ("3 coins", "minus 7 VP", an Ally's text with its
symbols said: kingdom/table/spoken.py); `plain=False` writes money as "$3" for sighted readers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kingdom.lab import simulate
from kingdom.runtime.game import Listener
from kingdom.runtime.tokens import KINDS, TokenKind
from kingdom.table.spoken import count, counted, money, names, one_line, tallied, words

if TYPE_CHECKING:
    from kingdom.lab.simulate import Setup
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game, Pile
    from kingdom.runtime.player import Player

ZONE_WORDS = {"hand": "into {who} hand", "deck": "onto {who} deck",
              "discard": "to {who} discard pile", "in_play": "into play",
              "set_aside": "aside", "trash": "to the trash", "pile": "back to its pile"}
FROM_WORDS = {"hand": "", "deck": " from the top of {who} deck", "in_play": " from play",
              "set_aside": " that {who} set aside", "discard": " from {who} discard pile"}


@dataclass(frozen=True)
class Line:
    """One narrated event: `actor` (a player's name, or "" for the table) did `phrase`."""

    kind: str  # "setup", "turn", "play", "buy", "gain", "trash", "shuffle", "reveal",
    #            "rotate", "turn_order", "tokens", "discard", "set_aside", "draw", "end"
    turn: int  # the turn it happened in (0: setup)
    current: str  # whose turn that is ("" at setup)
    actor: str
    phrase: str
    to: str = ""  # said to this player alone ("": to the table)

    @property
    def text(self) -> str:
        return f"{self.actor} {self.phrase}" if self.actor else self.phrase


EVENTS = ("turn", "announce", "buy", "gain", "trashed", "shuffle", "reveal", "rotate",
          "turn_order", "discarded", "set_aside", "draw")


class Narrator:
    """Narrates one game: `attach(game)` before it is played, then read `lines` (or give `sink`,
    called with each Line as it is said). Listening costs the game only while attached."""

    def __init__(self, plain: bool = True, sink: Callable[[Line], None] | None = None,
                 hearer: str | None = None) -> None:
        self.plain = plain
        self.sink = sink
        self.hearer = hearer  # the player told their own draws (None: nobody)
        self.lines: list[Line] = []
        self.game: Game | None = None
        self._listeners: list[Listener] = []
        self._tokens: dict[str, tuple[int, ...]] = {}
        self._pile_tokens: dict[str, int] = {}
        self._treasures: list[str] = []  # Treasures played in a row, said as one sentence
        self._treasures_at: tuple[int, str] = (0, "")  # ... in this turn, of this player
        self._bought: Card | None = None  # the card just bought: its gain is not said again
        self._revealed: list[tuple[Player, Card, str]] = []  # (whose, card, from where): where
        #                                                        each goes is not said yet
        self._discards: list[tuple[Player, str, str]] = []  # (whose, card, from where) in a row
        self._discards_at: tuple[int, str] = (0, "")  # ... in this turn, of this player
        self.finished = False

    # ------------------------------------------------------------------ attaching
    def attach(self, game: Game) -> Narrator:
        """Say the setup and listen to `game` from now on."""
        self.game = game
        self._setup(game)
        handlers = {"turn": self._turn, "announce": self._play, "buy": self._buy,
                    "gain": self._gain, "trashed": self._trashed, "shuffle": self._shuffle,
                    "reveal": self._reveal, "rotate": self._rotate, "turn_order": self._turn_order,
                    "discarded": self._discarded, "set_aside": self._set_aside, "draw": self._draw}
        for event in EVENTS:
            self._listeners.append(game.listen(Listener(event, None, self._handler(handlers[event]),
                                                         source=None)))
        self._listeners.append(game.listen(Listener("tokens", None, self._tokens_event)))
        return self

    def detach(self) -> None:
        """Stop listening (the game is as fast as before)."""
        if self.game is not None:
            for listener in self._listeners:
                self.game.unlisten(listener)
        self._listeners = []

    def _handler(self, handle: Callable) -> Callable:
        def on_event(game: Game, player: Player, card: Card | None, data: Any) -> None:
            self._check_tokens()
            handle(game, player, card, data)

        return on_event

    def finish(self) -> None:
        """Say what is left unsaid, why the game ended, the final scores and decks (once the
        game is over)."""
        game = self.game
        self.finished = True
        self.flush()
        self._check_tokens()
        self._say("end", "", f"The game ends: {end_reason(game)}.")
        scores = [f"{p.name} {count(game.score(p), 'VP')}" for p in game.players]
        self._say("end", "", "Game over. Scores: " + ", ".join(scores) + ".")
        for p in game.players:
            self._say("end", "", f"{p.name}'s final deck, {len(p.owned())} cards: "
                      f"{counted([c.d.name for c in p.owned()])}.")
        winners = [p.name for p in game.winners()]
        self._say("end", "", (f"{winners[0]} wins." if len(winners) == 1
                              else f"{names(winners)} share the win."))
        self.detach()

    # ------------------------------------------------------------------ saying
    def _say(self, kind: str, actor: str, phrase: str, at: tuple[int, str] | None = None,
             to: str = "") -> None:
        """Say a sentence, in the turn now (or `at`: (turn number, its player)); `to`: to that
        player alone."""
        self._flush_treasures()  # (Treasures played before this are said first)
        self._flush_discards()
        game = self.game
        turn, current = at or (game.turn_number, game.player.name if game.turn_number else "")
        line = Line(kind, turn, current, actor, phrase, to)
        self.lines.append(line)
        if self.sink is not None:
            self.sink(line)

    def flush(self) -> None:
        """Say what waits for the next event: Treasures played in a row, cards discarded in a
        row, where revealed cards went (call it before showing the state to a player)."""
        self._flush_treasures()
        self._flush_discards()
        self._flush_revealed()

    def _flush_discards(self) -> None:
        if self._discards:
            done, self._discards = self._discards, []
            player = done[0][0]
            runs: dict[str, list[str]] = {}
            for _player, name, origin in done:
                runs.setdefault(origin, []).append(name)
            said = "; ".join(names(tallied(cards)) + FROM_WORDS.get(origin, "").format(who="their")
                             for origin, cards in runs.items())
            self._say("discard", player.name, f"discards {said}.", self._discards_at)

    def _flush_treasures(self) -> None:
        if self._treasures:
            played, self._treasures = self._treasures, []
            at = self._treasures_at
            self._say("play", at[1], "plays " + names(tallied(played)) + ".", at)

    # ------------------------------------------------------------------ setup
    def _setup(self, game: Game) -> None:
        say = self._say
        kingdom = [p.name for p in game.piles.values() if p.in_supply and p.name not in BASICS]
        say("setup", "", f"Kingdom: {names(kingdom)}.")
        say("setup", "", f"Players in turn order: {names([p.name for p in game.players])}; "
            f"{game.players[0].name} goes first.")
        colony = game.piles.get("Colony")
        if colony is not None and colony.in_supply:
            say("setup", "", "Platinum and Colony are in the Supply; the game also ends when the "
                "Colony pile is empty.")
        if game.ally is not None:
            text = words(one_line(game.ally.text)) if self.plain else " ".join(game.ally.text.split())
            say("setup", "", f"The Ally is {game.ally.name}: {text}")
        for pile in game.piles.values():
            for role in sorted(pile.roles):
                say("setup", "", f"The {role} pile is {pile.name}.")
        for source, pile_name in game.setup_piles.items():
            pile = game.piles[pile_name]
            if not pile.roles:
                where = "in the Supply" if pile.in_supply else "set aside outside the Supply"
                say("setup", "", f"{source}'s pile is {pile_name}, {where}.")
        chosen = set(game.setup_piles.values())
        outside = [p for p in game.piles.values() if not p.in_supply and p.name not in chosen]
        for kind, group in _by_kind(outside).items():
            say("setup", "", f"Outside the Supply ({kind}): "
                f"{names([f'{p.name} ({len(p.cards)})' for p in group])}.")
        for pile in game.piles.values():
            order = _groups(pile)
            if len(order) > 1:
                say("setup", "", f"The {pile.name} pile, top first: {names(order)}.")
        for kind in KINDS:
            held = {getattr(p, kind.key) for p in game.players}
            if held != {0}:
                start = ("Each player starts with " + kind.count(held.pop())) if len(held) == 1 \
                    else f"Starting {kind.plural}: " + ", ".join(
                        f"{p.name} {getattr(p, kind.key)}" for p in game.players)
                say("setup", "", start + ".")
        self._snapshot_tokens()

    # ------------------------------------------------------------------ events
    def _turn(self, game: Game, player: Player, _card: Any, extra: bool) -> None:
        self.flush()
        self._say("turn", "", f"{player.name}'s extra turn." if extra
                  else f"{player.name}'s turn {player.turns_taken}.")

    def _play(self, game: Game, player: Player, card: Card, _ctx: Any) -> None:
        self._flush_revealed()
        if card.d.coins is not None and card.d.is_treasure and player is game.player:
            if not self._treasures:
                self._treasures_at = (game.turn_number, player.name)
            self._treasures.append(card.d.name)
            return
        self._say("play", player.name, f"plays {card.d.name}.")

    def _buy(self, game: Game, player: Player, card: Card, overpay: int) -> None:
        self.flush()
        self._bought = card
        extra = f", overpaying {money(overpay, self.plain)}" if overpay else ""
        self._say("buy", player.name, f"buys {card.d.name}{extra}.")

    def _gain(self, game: Game, player: Player, card: Card, _data: Any) -> None:
        self.flush()
        if card is self._bought:
            self._bought = None
            return
        owner, zone = game.zone_of(card)
        where = "" if zone == "discard" else " " + _place(owner or player, zone, player)
        self._say("gain", player.name, f"gains {card.d.name}{where}.")

    def _trashed(self, game: Game, player: Player, _card: Any, cards: list[Card]) -> None:
        self._flush_revealed()
        if cards:
            self._say("trash", player.name, f"trashes {names([c.d.name for c in cards])}.")

    def _shuffle(self, game: Game, player: Player, _card: Any, _cards: Any) -> None:
        self._say("shuffle", player.name, "shuffles their discard pile into their deck.")

    def _reveal(self, game: Game, player: Player, card: Card | None, cards: list[Card]) -> None:
        self._flush_revealed()
        why = f" (for {card.d.name})" if card is not None else ""
        revealed = [c.d.name for c in cards]
        self._say("reveal", player.name, f"reveals {names(revealed)}{why}"
                  + (", in this order." if len(cards) > 1 else "."))
        self._revealed = [(player, c, game.zone_of(c)[1]) for c in cards]
        if card is not None and game.zone_of(card)[0] is not player:
            self._flush_revealed()  # a Reaction to another's card: where it is, said now

    def _flush_revealed(self) -> None:
        """Where each revealed card is now, in the order revealed; a card still held apart by
        the effect waits for the next event."""
        game, waiting = self.game, []
        for player, card, origin in self._revealed:
            owner, zone = game.zone_of(card)
            if zone == "pile" and not any(c is card for p in game.piles.values() for c in p.cards):
                waiting.append((player, card, origin))  # (still revealed: not moved yet)
                continue
            if zone == origin and owner is player:
                where = f"stays in {player.name}'s {zone.replace('_', ' ')}"
            else:
                where = "goes " + _place(owner or player, zone)
            self._say("reveal", "", f"The revealed {card.d.name} {where}.")
        self._revealed = waiting

    def _rotate(self, game: Game, _player: Player, _card: Any, data: tuple) -> None:
        pile, moved = data
        order = _groups(pile)
        self._say("rotate", "", f"The {pile.name} pile rotates: the {len(moved)} {moved[0]} "
                  f"cards go to the bottom; {pile.cards[-1].d.name} is now on top. Top first: "
                  f"{names(order)}.")

    def _turn_order(self, game: Game, player: Player, _card: Any, skipped: list[Player]) -> None:
        self.flush()
        n = len(game.players)
        after = [game.players[(player.index + i) % n].name for i in range(1, n + 1)]
        if skipped:
            head = f"{names([p.name for p in skipped])} {'skips' if len(skipped) == 1 else 'skip'}" \
                   f" a turn. Turn order: {player.name} now"
        else:
            head = f"{player.name} takes an extra turn. Turn order: {player.name} again now"
        self._say("turn_order", "", f"{head}, then {', '.join(after)}.")

    def _tokens_event(self, game: Game, player: Player, _card: Any, why: Any) -> None:
        """A token total changed: say it, with what a spend was for (`why`)."""
        self._check_tokens(why)

    def _discarded(self, game: Game, player: Player, card: Card, source: list[Card]) -> None:
        """Every discard but Clean-up's (which no one needs to hear), with the cards named:
        a discard pile is face up. Discards in a row are said as one sentence."""
        if game.phase == "cleanup" and player is game.player:
            return
        if any(c is card for _p, c, _z in self._revealed):
            return  # (where a revealed card went is said with the reveal)
        if self._discards and self._discards[0][0] is not player:
            self._flush_discards()
        if not self._discards:
            self._discards_at = (game.turn_number, game.player.name)
        self._discards.append((player, card.d.name, _zone_name(player, source)))

    def _set_aside(self, game: Game, player: Player, card: Card, source: list[Card]) -> None:
        origin = _zone_name(player, source)
        if origin == "deck" and not any(c is card for _p, c, _z in self._revealed):
            self._say("set_aside", player.name, "sets aside a card from the top of their deck.")
            return
        self._revealed = [r for r in self._revealed if r[1] is not card]
        self._say("set_aside", player.name, f"sets aside {card.d.name}"
                  + FROM_WORDS.get(origin, "").format(who="their") + ".")

    def _draw(self, game: Game, player: Player, _card: Any, drawn: list[Card]) -> None:
        """Told to the drawing player alone, when they are the hearer."""
        if drawn and player.name == self.hearer:
            self._say("draw", "", f"You draw {names(tallied([c.d.name for c in drawn]))}.",
                      to=player.name)

    # ------------------------------------------------------------------ tokens
    def _snapshot_tokens(self) -> None:
        game = self.game
        self._tokens = {p.name: tuple(getattr(p, k.key) for k in KINDS) for p in game.players}
        self._pile_tokens = {name: pile.tokens.get("cost", 0) for name, pile in game.piles.items()
                             if pile.tokens}

    def _check_tokens(self, why: Any = None) -> None:
        """Say every change of a player's tokens (of each kind declared) since the last look, with
        the new total and what a spend was for (`why`: a card's name, or (kind, n) spent by
        the turn), and Favor tokens put on piles."""
        game = self.game
        for player in game.players:
            before = self._tokens.get(player.name)
            now = tuple(getattr(player, kind.key) for kind in KINDS)
            if before == now:
                continue
            for kind, old, new in zip(KINDS, before, now, strict=True):
                if new != old:
                    verb = "gains" if new > old else "spends" if kind.spent else "loses"
                    bought = self._bought_with(kind, why) if new < old else ""
                    self._say("tokens", player.name, f"{verb} {kind.count(abs(new - old))}"
                              f"{bought}, and now has {kind.count(new)}.")
            self._tokens[player.name] = now
        for name, pile in game.piles.items():
            tokens = pile.tokens.get("cost", 0) if pile.tokens else 0
            if tokens != self._pile_tokens.get(name, 0):
                self._pile_tokens[name] = tokens
                self._say("tokens", "", f"The {name} pile now has {count(tokens, 'Favor token')}"
                          f" on it: its cards cost {money(tokens, self.plain)} less.")

    def _bought_with(self, kind: TokenKind, why: Any) -> str:
        """What a spend bought: ' for 2 coins', ' for Cave Dwellers'."""
        if isinstance(why, tuple) and why[0] is kind:
            n = why[1]
            gives = kind.spend.each if kind.spend is not None else ""
            return " for " + (money(n, self.plain) if gives == "$" else count(n, gives))
        return f" for {why}" if isinstance(why, str) else ""

    # ------------------------------------------------------------------ summaries
    def turn_summaries(self) -> list[str]:
        """One line per turn ("p1's turn 3: plays Copper and Silver; buys Silver"), for the
        demo; the turn's player is not repeated, others are named."""
        out: list[str] = []
        for line in self.lines:
            if line.kind == "turn":
                out.append(line.phrase.rstrip(".") + ":")
            elif out and line.kind != "end":
                said = line.phrase if line.actor == line.current else line.text
                out[-1] += (" " if out[-1].endswith(":") else "; ") + said.rstrip(".")
        return [t + " nothing" if t.endswith(":") else t for t in out]


BASICS = {"Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse", "Platinum", "Colony"}


def _place(owner: Player, zone: str, actor: Player | None = None) -> str:
    """Where a card went: 'into p2's hand', or 'onto their deck' when it is the actor's own."""
    who = "their" if owner is actor else f"{owner.name}'s"
    return ZONE_WORDS.get(zone, zone).format(who=who)


def _zone_name(player: Player, zone: list[Card]) -> str:
    """The name of the player's zone that is the list `zone` ("" if none of theirs)."""
    for name in ("hand", "deck", "in_play", "discard", "set_aside"):
        if getattr(player, name) is zone:
            return name
    return ""


def end_reason(game: Game) -> str:
    """Why the game ended: the Province (or Colony) pile, the empty Supply piles, or the limit
    on turns."""
    for name in ("Province", "Colony"):
        pile = game.piles.get(name)
        if pile is not None and pile.in_supply and not pile.cards:
            return f"the {name} pile is empty"
    empty = [p.name for p in game.piles.values() if p.in_supply and not p.cards]
    if len(empty) >= (4 if len(game.players) >= 5 else 3):
        return f"{len(empty)} Supply piles are empty ({names(empty)})"
    return "the limit on turns was reached, before the rules ended it"


def _groups(pile: Pile) -> list[str]:
    """The names in a pile top first, each run of same-named cards once."""
    order: list[str] = []
    for card in reversed(pile.cards):
        if not order or order[-1] != card.d.name:
            order.append(card.d.name)
    return order


def _by_kind(piles: list[Pile]) -> dict[str, list[Pile]]:
    """Piles outside the Supply by their cards' kind ("Rewards")."""
    groups: dict[str, list[Pile]] = {}
    for pile in piles:
        top = pile.top
        kind = "Rewards" if top is not None and top.kind == "reward" else "other piles"
        groups.setdefault(kind, []).append(pile)
    return groups


def narrate(game: Game, max_turns: int = 500, plain: bool = True) -> Narrator:
    """Play `game` (all seats bots) to its end with a narrator attached; the narration is in
    the returned narrator's `lines`."""
    narrator = Narrator(plain).attach(game)
    game.run(max_turns)
    narrator.finish()
    return narrator


def narrate_simulated(setup: Setup, seed: int, index: int, plain: bool = True) -> Narrator:
    """Game `index` of a `kingdom simulate` run with base seed `seed`, played again (the same
    seed, seats and bots: the same game) with a narrator."""
    game_seed = simulate.game_seed(seed, index)
    order = simulate.seats(len(setup.bots), index, setup.players)
    agents = [setup.bots[b].agent(game_seed + seat) for seat, b in enumerate(order)]
    kingdom = setup.kingdom(game_seed) if callable(setup.kingdom) else setup.kingdom
    game = setup.start(kingdom, agents, game_seed)
    return narrate(game, setup.max_turns, plain)
