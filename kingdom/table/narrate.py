"""The narrator: a game's events as sentences, for `kingdom play`, `simulate --log` and `demo`.

It listens to the engine's events (Game.listen) and says what everyone at the table may know,
following the accessibility notes of the rules files for mixed blind and sighted play:

- setup: the Kingdom, the Ally read aloud (name and text), the Bane, a pile a card's setup sets
  aside (Ferryman's), the Rewards and other piles outside the Supply, each split pile in order;
- every token gained or spent (each kind runtime/tokens declares: Favors, Coffers, VP tokens,
  Villagers), with the new total; Favor tokens on piles;
- a split pile's rotation: the pile, the group moved to the bottom, the new top card, the order;
- revealed cards in the order revealed, then where each one went;
- before an extra or skipped turn, the turn order from there on.

Nothing hidden is said: never the cards drawn, looked at or in a deck. Sentences are plain
words by default ("3 coins"); `plain=False` writes money as "$3" for sighted readers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kingdom.lab import simulate
from kingdom.runtime.game import Listener
from kingdom.runtime.tokens import KINDS

if TYPE_CHECKING:
    from kingdom.lab.simulate import Setup
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game, Pile
    from kingdom.runtime.player import Player

ZONE_WORDS = {"hand": "into {who}'s hand", "deck": "onto {who}'s deck",
              "discard": "to {who}'s discard pile", "in_play": "into play",
              "set_aside": "aside", "trash": "to the trash", "pile": "back to its pile"}


@dataclass(frozen=True)
class Line:
    """One narrated event: `actor` (a player's name, or "" for the table) did `phrase`."""

    kind: str  # "setup", "turn", "play", "buy", "gain", "trash", "shuffle", "reveal",
    #            "rotate", "turn_order", "tokens", "end"
    turn: int  # the turn it happened in (0: setup)
    current: str  # whose turn that is ("" at setup)
    actor: str
    phrase: str

    @property
    def text(self) -> str:
        return f"{self.actor} {self.phrase}" if self.actor else self.phrase


def money(amount: int, plain: bool = True) -> str:
    """'3 coins' (read well aloud), or '$3'."""
    if not plain:
        return f"${amount}"
    return f"{amount} coin" if amount == 1 else f"{amount} coins"


def count(n: int, word: str) -> str:
    """'1 Favor token', '2 Favor tokens'; VP is the same in both numbers. (A token kind says
    its own: TokenKind.count.)"""
    plural = word if word == "VP" or n == 1 else word + "s"
    return f"{n} {plural}"


def names(items: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(items) <= 1:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


EVENTS = ("turn", "play", "buy", "gain", "trashed", "shuffle", "reveal", "rotate", "turn_order",
          "tokens")


class Narrator:
    """Narrates one game: `attach(game)` before it is played, then read `lines` (or give `sink`,
    called with each Line as it is said). Listening costs the game only while attached."""

    def __init__(self, plain: bool = True, sink: Callable[[Line], None] | None = None) -> None:
        self.plain = plain
        self.sink = sink
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
        self.finished = False

    # ------------------------------------------------------------------ attaching
    def attach(self, game: Game) -> Narrator:
        """Say the setup and listen to `game` from now on."""
        self.game = game
        self._setup(game)
        handlers = {"turn": self._turn, "play": self._play, "buy": self._buy, "gain": self._gain,
                    "trashed": self._trashed, "shuffle": self._shuffle, "reveal": self._reveal,
                    "rotate": self._rotate, "turn_order": self._turn_order,
                    "tokens": self._tokens_event}
        for event in EVENTS:
            self._listeners.append(game.listen(Listener(event, None, self._handler(handlers[event]),
                                                         source=None)))
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
        """Say what is left unsaid and the final scores (once the game is over)."""
        game = self.game
        self.finished = True
        self.flush()
        self._check_tokens()
        scores = [f"{p.name} {count(game.score(p), 'VP')}" for p in game.players]
        self._say("end", "", "Game over. Scores: " + ", ".join(scores) + ".")
        winners = [p.name for p in game.winners()]
        self._say("end", "", (f"{winners[0]} wins." if len(winners) == 1
                              else f"{names(winners)} share the win."))
        self.detach()

    # ------------------------------------------------------------------ saying
    def _say(self, kind: str, actor: str, phrase: str, at: tuple[int, str] | None = None) -> None:
        """Say a sentence, in the turn now (or `at`: (turn number, its player))."""
        self._flush_treasures()  # (Treasures played before this are said first)
        game = self.game
        turn, current = at or (game.turn_number, game.player.name if game.turn_number else "")
        line = Line(kind, turn, current, actor, phrase)
        self.lines.append(line)
        if self.sink is not None:
            self.sink(line)

    def flush(self) -> None:
        """Say what waits for the next event: Treasures played in a row, where revealed cards
        went (call it before showing the state to a player)."""
        self._flush_treasures()
        self._flush_revealed()

    def _flush_treasures(self) -> None:
        if self._treasures:
            played, self._treasures = self._treasures, []
            runs: dict[str, int] = {}
            for name in played:
                runs[name] = runs.get(name, 0) + 1
            at = self._treasures_at
            self._say("play", at[1], "plays " + names(
                [name if n == 1 else f"{n} {name}" for name, n in runs.items()]) + ".", at)

    # ------------------------------------------------------------------ setup
    def _setup(self, game: Game) -> None:
        say = self._say
        kingdom = [p.name for p in game.piles.values() if p.in_supply and p.name not in BASICS]
        say("setup", "", f"Kingdom: {names(kingdom)}.")
        say("setup", "", f"Players in turn order: {names([p.name for p in game.players])}; "
            f"{game.players[0].name} goes first.")
        if game.ally is not None:
            text = " ".join(game.ally.text.split())
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
        self._say("turn", "", f"Turn {game.turn_number}: {player.name}"
                  + (", an extra turn." if extra else "."))

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
        where = "" if zone == "discard" else " " + _place(owner or player, zone)
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

    def _tokens_event(self, *_args: Any) -> None:
        """Totals were already compared (every event compares them)."""

    # ------------------------------------------------------------------ tokens
    def _snapshot_tokens(self) -> None:
        game = self.game
        self._tokens = {p.name: tuple(getattr(p, k.key) for k in KINDS) for p in game.players}
        self._pile_tokens = {name: pile.tokens.get("cost", 0) for name, pile in game.piles.items()
                             if pile.tokens}

    def _check_tokens(self) -> None:
        """Say every change of a player's tokens (of each kind declared) since the last look, with
        the new total, and Favor tokens put on piles."""
        game = self.game
        for player in game.players:
            before = self._tokens.get(player.name)
            now = tuple(getattr(player, kind.key) for kind in KINDS)
            if before == now:
                continue
            for kind, old, new in zip(KINDS, before, now, strict=True):
                if new != old:
                    verb = "gains" if new > old else "spends" if kind.spent else "loses"
                    self._say("tokens", player.name, f"{verb} {kind.count(abs(new - old))}, "
                              f"and now has {kind.count(new)}.")
            self._tokens[player.name] = now
        for name, pile in game.piles.items():
            tokens = pile.tokens.get("cost", 0) if pile.tokens else 0
            if tokens != self._pile_tokens.get(name, 0):
                self._pile_tokens[name] = tokens
                self._say("tokens", "", f"The {name} pile now has {count(tokens, 'Favor token')}"
                          f" on it: its cards cost {money(tokens, self.plain)} less.")

    # ------------------------------------------------------------------ summaries
    def turn_summaries(self) -> list[str]:
        """One line per turn ("Turn 3, p1: plays Copper and Silver; buys Silver"), for the
        demo; the turn's player is not repeated, others are named."""
        out: list[str] = []
        for line in self.lines:
            if line.kind == "turn":
                out.append(line.phrase.rstrip(".").replace(": ", ", ", 1) + ":")
            elif out and line.kind != "end":
                said = line.phrase if line.actor == line.current else line.text
                out[-1] += (" " if out[-1].endswith(":") else "; ") + said.rstrip(".")
        return [t + " nothing" if t.endswith(":") else t for t in out]


BASICS = {"Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse", "Platinum", "Colony"}


def _place(owner: Player, zone: str) -> str:
    return ZONE_WORDS.get(zone, zone).format(who=owner.name)


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
