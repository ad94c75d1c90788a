"""`kingdom simulate --plot FILE.png`: what designers look at, as DominionSim draws it.

VP and money per turn (each bot's mean, with a band of one standard deviation), when each card
was bought (per turn, per bot), the win rate as games accumulate (95% interval) and game length.
The per-turn figures are recorded only for such a run (`Setup.detail`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from kingdom.lab.results import Results, wilson

MAX_CARD_LINES = 8  # cards drawn in a bot's buys-per-turn panel (the most bought)


def plot_results(results: Results, players: int, path: Path, title: str = "") -> None:
    """Per-turn VP and money, buys per turn for each bot, running win rate, game length."""
    try:
        import matplotlib
    except ImportError as exc:  # an optional dependency: say how to get it
        raise SystemExit("--plot needs matplotlib: pip install 'kingdom[plot]'") from exc
    matplotlib.use("Agg")
    from matplotlib import pyplot

    bots = len(results.bots)
    rows = 2 + math.ceil(bots / 2)
    figure = pyplot.figure(figsize=(12, 3.6 * rows))
    grid = figure.add_gridspec(rows, 2)
    per_turn_panel(figure.add_subplot(grid[0, 0]), results, 1, "VP")
    per_turn_panel(figure.add_subplot(grid[0, 1]), results, 3, "money ($ of plain Treasures)")
    win_rate_panel(figure.add_subplot(grid[1, 0]), results)
    length_panel(figure.add_subplot(grid[1, 1]), results, players)
    for i in range(bots):
        buys_panel(figure.add_subplot(grid[2 + i // 2, i % 2]), results, i)
    if title:
        figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    pyplot.close(figure)


def per_turn_panel(axes: Any, results: Results, column: int, what: str) -> None:
    """Each bot's mean of one figure at the end of its turns, with a band of one standard
    deviation (over the games still going at that turn)."""
    for bot, figures in zip(results.bots, results.turn_figures, strict=True):
        turns = sorted(t for t, sums in figures.items() if sums[0] >= max(5, results.games // 100))
        means, lows, highs = [], [], []
        for turn in turns:
            n, total, squares = figures[turn][0], figures[turn][column], figures[turn][column + 1]
            mean = total / n
            spread = math.sqrt(max(0.0, squares / n - mean * mean))
            means.append(mean)
            lows.append(mean - spread)
            highs.append(mean + spread)
        line = axes.plot(turns, means, label=bot.name)[0]
        axes.fill_between(turns, lows, highs, color=line.get_color(), alpha=0.15)
    axes.set_xlabel("turn")
    axes.set_ylabel(what)
    axes.set_title(f"{what} at the end of each turn (mean, ±1 sd)")
    axes.legend()
    axes.grid(alpha=0.3)


def buys_panel(axes: Any, results: Results, index: int) -> None:
    """When a bot bought its most bought cards: copies per game bought on each turn."""
    bot, bought = results.bots[index], results.bought_by_turn[index]
    totals: dict[str, int] = {}
    for (_turn, name), copies in bought.items():
        totals[name] = totals.get(name, 0) + copies
    top = sorted(totals, key=lambda name: (-totals[name], name))[:MAX_CARD_LINES]
    last = max((turn for turn, _name in bought), default=1)
    turns = list(range(1, last + 1))
    for name in top:
        axes.plot(turns, [bought[turn, name] / max(1, bot.games) for turn in turns], label=name)
    axes.set_xlabel("turn")
    axes.set_ylabel("copies bought per game")
    axes.set_title(f"{bot.name}: when each card was bought")
    axes.legend(fontsize=8, ncol=2)
    axes.grid(alpha=0.3)


def win_rate_panel(axes: Any, results: Results) -> None:
    games = list(range(1, len(results.timeline) + 1))
    for i, bot in enumerate(results.bots):
        wins, running, low, high = 0, [], [], []
        for n, (points, _turns) in enumerate(results.timeline, start=1):
            wins += points[i] == 2 and 1
            running.append(wins / n)
            lo, hi = wilson(wins, n)
            low.append(lo)
            high.append(hi)
        line = axes.plot(games, running, label=f"{bot.name} wins")[0]
        axes.fill_between(games, low, high, color=line.get_color(), alpha=0.15)
    axes.set_xlabel("games played")
    axes.set_ylabel("win rate (95% interval shaded)")
    axes.set_title("win rate as games accumulate")
    axes.set_ylim(0, 1)
    axes.legend()
    axes.grid(alpha=0.3)


def length_panel(axes: Any, results: Results, players: int) -> None:
    per_player = [turns / players for _points, turns in results.timeline]
    axes.hist(per_player, bins=range(int(min(per_player, default=0)),
                                     int(max(per_player, default=1)) + 2), edgecolor="black")
    axes.set_xlabel("turns per player")
    axes.set_ylabel("games")
    axes.set_title(f"game length (mean {results.mean_turns(players):.2f})")
