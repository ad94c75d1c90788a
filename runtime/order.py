"""Whose turn is next (extra and skipped turns), when the game ends, and who won."""

from __future__ import annotations

from typing import Any

from kingdom.runtime.errors import GameStalled
from kingdom.runtime.player import Player
from kingdom.runtime.tokens import SCORED


class TurnOrder:
    """The part of Game that passes turns, ends the game and scores it."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    def advance(self) -> None:
        """Pass the turn: to an extra turn of this player if one is waiting (never a third turn
        in a row), else to the next player to the left, skipping the turns players must skip."""
        self.hand_play_limit = None
        if self.extra_turns:
            player = self.player
            extra = [options for p, options in self.extra_turns if p is player]
            self.extra_turns = [(p, o) for p, o in self.extra_turns if p is not player]
            if extra and self.turns_in_a_row < 2:  # (never a 3rd turn in a row)
                if self.skips.get(player.index):
                    self.skips[player.index] -= 1  # the extra turn is the one skipped
                else:
                    self.extra_turn = True
                    self.hand_play_limit = extra[0].get("hand_plays")
                    self.turns_in_a_row += 1
                    if "turn_order" in self.listeners:
                        self.emit("turn_order", player, None, [])
                    return
        self.extra_turn = False
        n, index = len(self.players), self.current
        if not self.skips:
            self.current = (index + 1) % n
            self.turns_in_a_row = 1
            return
        skipped = []
        while True:
            index = (index + 1) % n
            if self.skips.get(index):
                self.skips[index] -= 1
                self.note(f"{self.players[index].name} skips a turn")
                skipped.append(self.players[index])
                continue
            break
        if skipped and "turn_order" in self.listeners:  # who skips, then who plays next
            self.emit("turn_order", self.players[index], None, skipped)
        # the others' turns all skipped: this player's next turn follows on in a row
        self.turns_in_a_row = self.turns_in_a_row + 1 if index == self.current else 1
        self.current = index

    def extra_turn_allowed(self, player: Player) -> bool:
        """Whether an extra turn for `player` after this one would not be a 3rd turn in a row
        (counting the turns taken, whatever made them follow on: extra or skipped turns)."""
        return player is not self.player or self.turns_in_a_row < 2

    def schedule_extra_turn(self, player: Player, **options: Any) -> bool:
        """An extra turn for `player` after this one; False if it would be a 3rd in a row."""
        if not self.extra_turn_allowed(player):
            return False
        self.extra_turns.append((player, options))
        return True

    def skip_turn(self, player: Player) -> None:
        self.skips[player.index] = self.skips.get(player.index, 0) + 1

    def run(self, max_turns: int = 500) -> None:
        """Play turns until the game ends, or until each player has had `max_turns` turns (a
        safety bound, per player as the turn statistics count; extra turns don't count)."""
        players = self.players
        while not self.game_over and players[self.current].turns_taken < max_turns:
            self.take_turn()
        self.game_over = True
        self._affordable = None  # (it refers to the game)

    def stalled(self, doing: str) -> None:
        """Raise GameStalled: the step budget is used up (`doing` is the step that used it)."""
        raise GameStalled(f"used up its budget of steps (turns, card plays, buys, Reactions revealed) "
                          f"in turn {self.turn_number} without ending; stopped while {doing}")

    def is_over(self) -> bool:
        piles = self.piles
        for pile in piles.values():
            if not pile.cards:
                break
        else:
            return False  # no pile is empty: the usual case
        for name in ("Province", "Colony"):
            pile = piles.get(name)
            if pile is not None and pile.in_supply and not pile.cards:
                return True
        return self.empty_supply_piles() >= (4 if len(self.players) >= 5 else 3)

    def empty_supply_piles(self) -> int:
        piles = self.piles.values()
        for pile in piles:
            if not pile.cards:
                break
        else:
            return 0  # none is empty: the usual case
        return len([p for p in piles if not p.cards and p.in_supply])

    def score(self, player: Player) -> int:
        total = 0
        for kind in SCORED:  # tokens worth 1 VP each (VP tokens)
            total += getattr(player, kind.key)
        for card in player.owned():
            d = card.d
            total += d.vp
            if d.worth is not None:
                total += d.worth(self, player)
        if "score" in self.listeners:
            box = [total]
            self.emit("score", player, None, box)
            total = box[0]
        return total

    def winners(self) -> list[Player]:
        """Most points; a tie goes to whoever had fewer turns; still tied players share it."""
        scores = {p: self.score(p) for p in self.players}
        best = max(scores.values())
        tied = [p for p in self.players if scores[p] == best]
        fewest = min(p.turns_taken for p in tied)
        return [p for p in tied if p.turns_taken == fewest]
