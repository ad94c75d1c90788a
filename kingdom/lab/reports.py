"""The figures of a run as a terminal shows them: the tables and lines of `kingdom simulate` (win
rates with their 95% intervals, game length, seats, per-card figures, with/without, the round
robin's matrix, the setup drawn) and the table of `kingdom rate`.

The lab's work, not the command line's: the commands (kingdom/cli) parse, run and print what
these return, and anything else (a script, a notebook) can print the same tables.
"""

from __future__ import annotations

from dataclasses import asdict

from rich.console import RenderableType
from rich.table import Table

from kingdom.compiler.texts import printable
from kingdom.lab.cluster import RunSpec
from kingdom.lab.rate import Rating, place
from kingdom.lab.results import FAILURES, BotStats, Results, wilson, with_without
from kingdom.runtime.setup import RANDOM


# ------------------------------------------------------------------------------ simulate
def results_report(results: Results, players: int, kingdom_text: str, seed: int, max_turns: int,
                   elapsed: float, where: str) -> list[RenderableType]:
    """The run's tables and lines, in order: per bot, failures, game length and speed (`where`
    the games were played, in words), seats, per card."""
    def pct(k: int, n: int) -> str:
        low, high = wilson(k, n)
        return f"{100 * k / n:5.1f}% [{100 * low:.1f}-{100 * high:.1f}]" if n else "-"

    table = Table(title=f"{results.games} games, {players} players, Kingdom: {kingdom_text}, "
                  f"seed {seed}")
    for column in ("Bot", "Wins (95% CI)", "Losses (95% CI)", "Ties (95% CI)", "Avg score"):
        table.add_column(column, justify="left" if column == "Bot" else "right")
    for bot in results.bots:
        table.add_row(bot.name, pct(bot.wins, bot.games), pct(bot.losses, bot.games),
                      pct(bot.ties, bot.games),
                      f"{bot.score_total / bot.games:.1f}" if bot.games else "-")
    report: list[RenderableType] = [table]
    if results.failures:
        report.append("Not in the figures: " + ", ".join(
            f"{results.count(kind)} game(s) {kind}" for kind in FAILURES if results.count(kind))
            + " (listed on stderr)")
    report.append(f"Turns per player: average {results.mean_turns(players):.2f}, median "
                  f"{results.median_turns(players):g}"
                  + _unfinished_note(results, max_turns)
                  + f"  ({results.games / elapsed:,.0f} games/s {where})")
    if results.games:
        report.append("Sole wins by seat: " + ", ".join(
            f"seat {seat + 1} {100 * results.seat_wins[seat] / results.games:.1f}%"
            for seat in range(players)))
    cards = Table(title="Per card (per game; win rate of games that ended with the card owned)")
    cards.add_column("Bot")
    cards.add_column("Card")
    for column in ("Bought", "Played", "Owned in", "Win rate when owned (ties half)"):
        cards.add_column(column, justify="right")
    for bot in results.bots:
        names = sorted(set(bot.bought) | set(bot.played))
        for name in names:
            owned = bot.owned_games[name]
            cards.add_row(bot.name, name, f"{bot.bought[name] / bot.games:.2f}",
                          f"{bot.played[name] / bot.games:.2f}",
                          f"{100 * owned / bot.games:.0f}%",
                          f"{100 * bot.owned_wins[name] / 2 / owned:.1f}%" if owned else "-")
    report.append(cards)
    return report


def _unfinished_note(results: Results, max_turns: int) -> str:
    """Which games the turn limit stopped (by seed), for the line on game length."""
    if not results.unfinished:
        return ""
    seeds = ", ".join(str(seed) for _index, seed in results.unfinished_games[:5])
    more = ", ..." if results.unfinished > 5 else ""
    return (f"; {results.unfinished} game(s) hit the limit of {max_turns} turns per player "
            f"(seeds {seeds}{more})")


def setup_choices(spec: RunSpec) -> dict:
    """Every setup choice of the run, as given (a pile or Ally drawn per game: "random")."""
    chosen = dict(spec.choices)
    return {"colonies": spec.colonies,
            "ally": "none" if spec.ally is None else "random" if spec.ally == RANDOM else spec.ally,
            "bane": chosen.get("bane", "random"), "ferryman": chosen.get("ferryman", "random"),
            "sets": list(spec.sets) or None}


def setup_line(choices: dict, drawn: dict, games: int) -> str:
    """The setup choices in words, with how often each drawn one came up."""
    def said(what: str, given: str) -> str:
        counts = drawn.get(what.capitalize() if what != "bane" else "Bane", {})
        tally = ", ".join(f"{name} {100 * n / games:.0f}%" for name, n in
                          sorted(counts.items(), key=lambda kv: -kv[1])[:4]) if games else ""
        return f"{what.capitalize()} {given}" + (f" (drawn: {tally})" if tally else "")

    return ("Setup: Colonies " + ("yes" if choices["colonies"] else "no") + "; "
            + "; ".join(said(what, choices[what]) for what in ("ally", "bane", "ferryman")))


def percent_ci(k: int, n: int) -> str:
    """k/n as a percentage with its 95% interval; "-" for no games (never a 100% of nothing)."""
    if not n:
        return "-"
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"


def with_without_table(results: Results) -> Table:
    """Per card: the sole-win rate of the players who bought it against those who did not."""
    table = Table(title="With and without (sole wins of the players who bought the card, and of "
                  "those who did not)")
    for column in ("Card", "Bought by", "Wins with (95% CI)", "Not bought by",
                   "Wins without (95% CI)"):
        table.add_column(column, justify="left" if column == "Card" else "right")
    for row in with_without(results):
        table.add_row(printable(row.card), str(row.games_with),
                      percent_ci(row.wins_with, row.games_with), str(row.games_without),
                      percent_ci(row.wins_without, row.games_without))
    return table


# ------------------------------------------------------------------------------ round robin
def _cell(pairs: dict[tuple[int, int], Results], row: int, column: int) -> tuple[int, int, int]:
    """(wins, ties, games) of bot `row` against bot `column`, from the pairs' Results."""
    results = pairs[(min(row, column), max(row, column))]
    stats = results.bots[0 if row < column else 1]
    return stats.wins, stats.ties, stats.games


def round_robin_json(pairs: dict[tuple[int, int], Results], names: list[str], games: int,
                     seed: int) -> dict:
    return {"games": games, "seed": seed, "bots": names, "pairs": [
        {"bot": names[r], "against": names[c], "wins": w, "ties": t, "games": n,
         "win_ci95": wilson(w, n)}
        for r in range(len(names)) for c in range(len(names)) if r != c
        for w, t, n in [_cell(pairs, r, c)]]}


def round_robin_table(pairs: dict[tuple[int, int], Results], names: list[str], games: int,
                      seed: int) -> Table:
    """The matrix of the row bot's win rates against the column's."""
    table = Table(title=f"Round robin: wins of the row's bot against the column's, "
                  f"{games} games a pair (95% CI), seed {seed}")
    table.add_column("Bot")
    for name in names:
        table.add_column(printable(name), justify="right")
    for r, name in enumerate(names):
        row = []
        for c in range(len(names)):
            wins, _ties, played = _cell(pairs, r, c) if r != c else (0, 0, 0)
            row.append("-" if r == c else percent_ci(wins, played))
        table.add_row(printable(name), *row)
    return table


def decisions_table(bots: list[BotStats]) -> Table:
    """Per bot and card, each optional ability offered: how often, and how often taken."""
    table = Table(title="Decisions (each card's optional abilities: offered, and taken)")
    for column in ("Bot", "Card", "Ability", "Offered", "Taken"):
        table.add_column(column, justify="right" if column in ("Offered", "Taken") else "left")
    for bot in bots:
        for card, ability, asked, taken in bot.decision_rows():
            table.add_row(bot.name, printable(card), ability, f"{asked:,}",
                          f"{taken:,} ({_percent(taken, asked)})")
    return table


# ------------------------------------------------------------------------------ rate
def rating_record(rating: Rating, table: list[Rating]) -> dict:
    rank, of, percentile = place(rating, table)
    low, high = rating.interval
    return {**asdict(rating), "win_rate": rating.win_rate, "win_ci95": [low, high],
            "rank_among_official": rank, "official_cards": of, "percentile": percentile}


def _percent(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def rating_decisions_table(ratings: list[Rating]) -> Table:
    """What each rated card's bot was offered and took, per card and ability."""
    table = Table(title="Decisions of each card's bot (optional abilities: offered, and taken)")
    for column in ("Bot", "Card", "Ability", "Offered", "Taken"):
        table.add_column(column, justify="right" if column in ("Offered", "Taken") else "left")
    for rating in ratings:
        for card, ability, asked, taken in rating.decisions:
            table.add_row(printable(rating.bot), printable(card), ability, f"{asked:,}",
                          f"{taken:,} ({_percent(taken, asked)})")
    return table


def rating_table(ratings: list[Rating], table: list[Rating], games: int, seed: int,
                 sets: tuple[str, ...]) -> Table:
    out = Table(title=f"big-money+CARD against Big Money, {games} games each, seed "
                f"{seed}; placed among the official cards of {', '.join(sets)}")
    for column in ("Card", "Cost", "Copies", "Wins (95% CI)", "Ties", "Losses", "Among official"):
        out.add_column(column, justify="left" if column == "Card" else "right")
    for rating in ratings:
        rank, of, percentile = place(rating, table)
        low, high = rating.interval
        out.add_row(printable(rating.card), f"${rating.cost}",
                    rating.bot.rpartition("*")[2],
                    f"{100 * rating.win_rate:.1f}% [{100 * low:.1f}-{100 * high:.1f}]",
                    _percent(rating.ties, rating.games), _percent(rating.losses, rating.games),
                    f"#{rank} of {of}, percentile {percentile:.0f}")
    return out
