"""`kingdom simulate --plot FILE.png`: the win rate as games accumulate, and game length."""

from __future__ import annotations

from pathlib import Path

from kingdom.simulate import Results, wilson


def plot_results(results: Results, players: int, path: Path) -> None:
    """Two panels: each bot's running win rate with its 95% interval; turns per player."""
    try:
        import matplotlib
    except ImportError as exc:  # an optional dependency: say how to get it
        raise SystemExit("--plot needs matplotlib: pip install 'kingdom[plot]'") from exc
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, (rates, lengths) = pyplot.subplots(1, 2, figsize=(11, 4.2))
    games = list(range(1, len(results.timeline) + 1))
    for i, bot in enumerate(results.bots):
        wins, running, low, high = 0, [], [], []
        for n, (points, _turns) in enumerate(results.timeline, start=1):
            wins += points[i] == 2 and 1
            running.append(wins / n)
            lo, hi = wilson(wins, n)
            low.append(lo)
            high.append(hi)
        line = rates.plot(games, running, label=f"{bot.name} wins")[0]
        rates.fill_between(games, low, high, color=line.get_color(), alpha=0.15)
    rates.set_xlabel("games played")
    rates.set_ylabel("win rate (95% interval shaded)")
    rates.set_ylim(0, 1)
    rates.legend()
    rates.grid(alpha=0.3)
    per_player = [turns / players for _points, turns in results.timeline]
    lengths.hist(per_player, bins=range(int(min(per_player, default=0)),
                                        int(max(per_player, default=1)) + 2), edgecolor="black")
    lengths.set_xlabel("turns per player")
    lengths.set_ylabel("games")
    lengths.set_title(f"game length (mean {results.mean_turns(players):.2f})")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
