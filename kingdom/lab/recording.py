"""What one finished game adds to a run's Results: its winners, scores and turns, the cards each
seat bought, played and owned, the setup choices it drew, and (asked for: `Setup.detail`) its
figures turn by turn.

Buys are counted as the agents make them, by wrapping each agent (BuyRecorder); the rest is read
from the game at its end. Apart from kingdom/lab/simulate.py, which plays the games, so that a
game's bookkeeping can be read (and changed) without the worker processes around it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kingdom.lab.results import Results
from kingdom.runtime.decisions import BUY
from kingdom.runtime.game import Game


class BuyRecorder:
    """Counts what an agent buys, passing everything through (and keeping its fast paths)."""

    def __init__(self, agent: Any, bought: Counter) -> None:
        self.agent = agent
        self.bought = bought
        self.plays_all_treasures = getattr(agent, "plays_all_treasures", False)
        self._choose_buy = getattr(agent, "choose_buy", None)
        self.choose_buy = None if self._choose_buy is None else self._recorded_choose_buy

    def _recorded_choose_buy(self, game: Game, player: Any, options: Any) -> str | None:
        name = self._choose_buy(game, player, options)
        if name is not None:
            self.bought[name] += 1
        return name

    def decide(self, decision: Any) -> Any:
        answer = self.agent.decide(decision)
        if decision.kind == BUY and answer is not None:
            self.bought[answer] += 1
        return answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


class TurnBuyRecorder(BuyRecorder):
    """A BuyRecorder that also counts each buy by the turn it was made in (`Setup.detail`)."""

    def __init__(self, agent: Any, bought: Counter, by_turn: Counter) -> None:
        super().__init__(agent, bought)
        self.by_turn = by_turn

    def _recorded_choose_buy(self, game: Game, player: Any, options: Any) -> str | None:
        name = super()._recorded_choose_buy(game, player, options)
        if name is not None:
            self.by_turn[player.turns_taken + 1, name] += 1
        return name

    def decide(self, decision: Any) -> Any:
        answer = super().decide(decision)
        if decision.kind == BUY and answer is not None:
            self.by_turn[decision.player.turns_taken + 1, answer] += 1
        return answer


def money(player: Any) -> int:
    """The $ of the plain Treasures (+$N and nothing else) a player owns."""
    return sum(card.d.coins or 0 for card in player.owned() if card.d.is_treasure)


class GameDetail:
    """What `--plot` and `--csv` need of one game, followed only when asked: each seat's buys by
    turn, and its VP and money at the end of each of its turns (extra turns: the last counts)."""

    def __init__(self, players: int) -> None:
        self.bought_by_turn = [Counter() for _ in range(players)]
        self.figures: list[dict[int, tuple[int, int]]] = [{} for _ in range(players)]

    def after_turn(self, game: Game, seat: int) -> None:
        player = game.players[seat]
        self.figures[seat][player.turns_taken] = (game.score(player), money(player))

    def add_to(self, results: Results, game: Game, order: list[int], bought: list[Counter],
               index: int, gseed: int) -> None:
        winners = game.winners()
        for seat, player in enumerate(game.players):
            bot = order[seat]
            figures = results.turn_figures[bot]
            for turn, (vp, coins) in self.figures[seat].items():
                sums = figures.setdefault(turn, [0] * 5)
                for i, value in enumerate((1, vp, vp * vp, coins, coins * coins)):
                    sums[i] += value
            results.bought_by_turn[bot].update(self.bought_by_turn[seat])
            outcome = ("lost" if player not in winners else "won" if len(winners) == 1
                       else "tied")
            results.rows.append({"game": index, "seed": gseed, "seat": seat + 1,
                                 "bot": results.bots[bot].name, "score": game.score(player),
                                 "turns": player.turns_taken, "result": outcome,
                                 "bought": dict(bought[seat])})


def note_setup(game: Game, setups: Counter) -> None:
    """Count the setup choices a game drew: its Ally and the piles cards' setup rules added."""
    if game.ally is not None:
        setups["Ally", game.ally.name] += 1
    for source, pile in game.setup_piles.items():
        setups["Bane" if "Bane" in game.piles[pile].roles else source, pile] += 1


def record(game: Game, order: list[int], bought: list[Counter], played: list[Counter],
           results: Results) -> None:
    winners = game.winners()  # (first: scoring runs cards' code, which may raise)
    results.games += 1
    players = game.players
    results.turns[sum(p.turns_taken for p in players)] += 1
    if len(winners) == 1:
        results.seat_wins[winners[0].index] += 1
    bot_points = [0] * len(results.bots)
    for seat, player in enumerate(players):
        stats = results.bots[order[seat]]
        stats.games += 1
        stats.score_total += game.score(player)
        if player in winners:
            points = 2 if len(winners) == 1 else 1
            if len(winners) == 1:
                stats.wins += 1
            else:
                stats.ties += 1
        else:
            points = 0
            stats.losses += 1
        bot_points[order[seat]] += points
        stats.played.update(played[seat])
        stats.bought.update(bought[seat])
        record_bought(results, bought[seat], points == 2)
        for name in {c.d.name for c in player.owned()}:
            stats.owned_games[name] += 1
            stats.owned_wins[name] += points
    results.timeline.append((tuple(bot_points), sum(p.turns_taken for p in players)))
    if game.ally is not None or game.setup_piles:
        note_setup(game, results.setups)


def record_bought(results: Results, bought: Counter, won: bool) -> None:
    """One player's game for the with/without comparison: the cards it bought, and whether it
    won alone."""
    results.bought_in.update(bought.keys())
    if won:
        results.bought_and_won.update(bought.keys())
