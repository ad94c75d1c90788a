"""Benchmarks (`make bench`): games per second, card compile time, peak memory of a run.

    .venv/bin/python bench/run.py [--games N] [--profile]

Games are played on one core, in this process, by the engine's own loop (`Game.run`), and
timed in CPU time (time.process_time), so other load on the machine matters less;
"simulate" adds the statistics that `kingdom simulate` records.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.setup import standard_game

from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, game_seed, random_kingdom, simulate


def play(library, kingdom, bots, games: int) -> float:
    """Games per second of `games` games, seats alternating, each seeded like `simulate`."""
    start = time.process_time()
    for i in range(games):
        seed = game_seed(1, i)
        order = bots if i % 2 == 0 else bots[::-1]
        cards = kingdom(seed) if callable(kingdom) else kingdom
        game = standard_game(library, cards, [b.agent(seed + n) for n, b in enumerate(order)], seed=seed)
        game.run()
    return games / (time.process_time() - start)


def best_of(runs: int, fn, *args) -> float:
    return max(fn(*args) for _ in range(runs))


# The yardstick: Big Money mirror games by a minimal hand-written loop, no engine. Cards are ints
# (Copper, Silver, Gold, Estate, Duchy, Province) in flat lists; the same rules as the engine's
# game for this pair of bots: draw 5, play every Treasure, buy Province at $8, Gold at $6-7,
# Silver at $3-5, Clean-up, shuffle the discard pile when the deck runs out; the game ends when
# the Provinces are gone or 3 piles are.
COIN_VALUES = (1, 2, 3, 0, 0, 0)
SILVER, GOLD, PROVINCE = 1, 2, 5


def plain_loop_game(rng: random.Random) -> int:
    """One Big Money mirror game; returns the number of turns."""
    shuffle = rng.shuffle
    supply = [46, 40, 30, 8, 8, 8]  # (Copper, Estate and Duchy piles are never bought from)
    decks, discards, hands = [], [], []
    for _ in range(2):
        deck = [0] * 7 + [3] * 3
        shuffle(deck)
        hands.append([deck.pop() for _ in range(5)])
        decks.append(deck)
        discards.append([])
    turns, seat, empty = 0, 0, 0
    while supply[PROVINCE] and empty < 3:
        hand, deck, discard = hands[seat], decks[seat], discards[seat]
        coins = 0
        for card in hand:
            coins += COIN_VALUES[card]
        buy = PROVINCE if coins >= 8 else GOLD if coins >= 6 else SILVER if coins >= 3 else -1
        if buy >= 0 and supply[buy]:
            supply[buy] -= 1
            discard.append(buy)
            if not supply[buy]:
                empty += 1
        discard.extend(hand)
        hand.clear()
        for _ in range(5):
            if not deck:
                if not discard:
                    break
                shuffle(discard)
                deck, discard = discard, []
                decks[seat], discards[seat] = deck, discard
            hand.append(deck.pop())
        turns += 1
        seat = 1 - seat
    return turns


def plain_loop(games: int) -> float:
    """Games per second of the yardstick loop, each game seeded."""
    start = time.process_time()
    for i in range(games):
        plain_loop_game(random.Random(game_seed(1, i)))
    return games / (time.process_time() - start)


def yardstick(library, bots, games: int, rounds: int) -> str:
    """The engine's Big Money mirror against the plain loop: alternating runs in this process
    (so drift in the machine's load falls on both alike), each side's best."""
    engine = loop = 0.0
    for _ in range(rounds):
        engine = max(engine, play(library, ["Smithy"], bots, games))
        loop = max(loop, plain_loop(games))
    return (f"{'plain Big Money loop (yardstick)':36s} {loop:8,.0f} games/s\n"
            f"{'engine / yardstick (BM mirror)':36s} {engine / loop:8.2f}  "
            f"({engine:,.0f} / {loop:,.0f} games/s, {games} games, best of {rounds} alternating)")


COMPILE = """
import sys, time
sys.path.insert(0, {root!r})
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
start = time.process_time()
library, diagnostics = compile_folders([BUILTIN_CARDS], strict=False)
print(len(library), len(diagnostics), time.process_time() - start)
"""


def compile_time(env: dict[str, str]) -> tuple[int, int, float]:
    """(cards, errors, CPU seconds) of compiling every built-in card in a new process
    (the parser built or loaded, the files read, parsed or loaded, the cards compiled)."""
    root = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-c", COMPILE.format(root=root)], env={**os.environ, **env},
                          capture_output=True, text=True, check=True)
    cards, errors, seconds = done.stdout.split()
    return int(cards), int(errors), float(seconds)


def compile_times() -> str:
    """Cold (no cache) and cached (Lark's tables and the parsed cards in a warm cache folder)."""
    cards, errors, cold = compile_time({"KINGDOM_NO_CACHE": "1"})
    with tempfile.TemporaryDirectory() as folder:
        compile_time({"XDG_CACHE_HOME": folder})  # fills the cache
        cached = min(compile_time({"XDG_CACHE_HOME": folder})[2] for _ in range(3))
    return (f"compile all cards: {cards} cards in {cold * 1000:.0f} ms cold, {cached * 1000:.0f} ms "
            f"cached (each in a new process)" + (f" ({errors} error(s))" if errors else ""))


def _cpu_seconds(setup: Setup, games: int) -> float:
    start = time.process_time()
    simulate(setup, games, seed=1)
    return time.process_time() - start


def count_cost(library, games: int) -> str:
    """The count alone (CardCount made at setup and checked at the end), timed on finished Big
    Money games against the games themselves: steadier than the difference of two runs."""
    from kingdom.lab.invariants import CardCount

    bm = resolve_bot("big-money", library)
    start = time.process_time()
    finished = []
    for i in range(games):
        game = standard_game(library, ["Smithy"], [bm.agent(i), bm.agent(i + 1)], seed=i)
        game.run()
        finished.append(game)
    per_game = (time.process_time() - start) / games
    start = time.process_time()
    for game in finished:
        CardCount(game).check(game)
    per_count = (time.process_time() - start) / games
    return (f"the count: {per_count * 1e6:.1f} us a game, {100 * per_count / per_game:.1f}% of a "
            f"Big Money mirror game ({per_game * 1e6:.0f} us, played by Game.run)")


def play_check_cost(games: int = 5) -> str:
    """What `kingdom play`'s check (its bots check the cards before each buy) costs a game
    played through the table, the person's answers automatic (Smithy when offered, all
    Treasures, else the first choice): the checks' CPU time against the game's."""
    from kingdom.compiler.build import builtin_library

    from kingdom.cli import common
    from kingdom.lab import invariants
    from kingdom.table.answers import parse
    from kingdom.table.play import Table
    from kingdom.table.save import Record

    library = builtin_library()
    spent = [0.0, 0]
    check = invariants.InvariantChecker.check

    def timed(self, game, when: str) -> None:
        start = time.process_time()
        check(self, game, when)
        spent[0] += time.process_time() - start
        spent[1] += 1

    invariants.InvariantChecker.check = timed
    start = time.process_time()
    try:
        for seed in range(games):
            record = Record(["Smithy", "Village", "Militia", "Moat", "Witch"], ["big-money"], seed)
            table = Table(library, record, common.bots(library, record.bots))
            while (pending := table.pending()) is not None:
                text = ("smithy" if "Smithy" in pending.options else "0") if pending.kind in (
                    "play", "buy") else "all" if pending.kind == "treasures" else "1"
                table.answer(parse(pending, text))
            table.close()
    finally:
        invariants.InvariantChecker.check = check
    total = time.process_time() - start
    return (f"play's check: {spent[1] / games:.0f} checks a game, {100 * spent[0] / total:.1f}% "
            f"of the CPU time of a game through the table ({1e3 * total / games:.0f} ms)")


def invariant_costs(library, games: int, runs: int):
    """CPU time of `simulate` games without checks, with the count every game gets (CardCount:
    on in simulate, rate and play) and with the full check between moves (--check-invariants):
    a Big Money mirror (the cheapest games, so the largest share) and rate's pairing of
    big-money+CARD against Big Money (Smithy, Witch, Militia: the games `kingdom rate` plays)."""
    yield count_cost(library, games)
    yield play_check_cost()
    pairs = [("Big Money mirror", "Smithy", ["big-money", "big-money"])]
    pairs += [(f"rate's {c}", c, [f"big-money+{c}*1", "big-money"]) for c in ("Smithy", "Witch", "Militia")]
    for label, card, names in pairs:
        bots = [resolve_bot(name, library) for name in names]

        plain, counted, full = (min(_cpu_seconds(Setup(library, [card], bots, **checks), games)
                                    for _ in range(runs))
                                for checks in ({"count_cards": False}, {"count_cards": True},
                                               {"count_cards": False, "check_invariants": True}))
        yield (f"{label:22s} {games / plain:7,.0f} games/s unchecked; the count "
               f"{100 * (counted / plain - 1):+5.1f}%; the full check "
               f"{100 * (full / plain - 1):+6.1f}%")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3, help="take the best of this many runs")
    parser.add_argument("--profile", action="store_true", help="cProfile Big Money vs Big Money")
    parser.add_argument("--yardstick", action="store_true",
                        help="only the engine's Big Money mirror against the plain loop")
    parser.add_argument("--invariants", action="store_true",
                        help="only what the invariant checks cost simulate and rate's games")
    args = parser.parse_args()

    library, _ = compile_folders([BUILTIN_CARDS / "base"], strict=False)
    bm = resolve_bot("big-money", library)
    if args.yardstick:
        print(yardstick(library, [bm, bm], args.games, max(args.runs, 3)))
        return 0
    if args.invariants:
        for line in invariant_costs(library, args.games, args.runs):
            print(line, flush=True)
        return 0
    print(compile_times())
    smithy = resolve_bot("smithy-big-money", library)
    default = resolve_bot("default", library)
    n = args.games
    rows = [
        ("Big Money vs Big Money", ["Smithy"], [bm, bm], n),
        ("Smithy-BM vs Big Money", ["Smithy"], [smithy, bm], n),
        ("generic bots, random Base kingdoms", random_kingdom(library), [default, default], n // 4),
    ]
    for label, kingdom, bots, games in rows:
        rate = best_of(args.runs, play, library, kingdom, bots, games)
        print(f"{label:36s} {rate:8,.0f} games/s  ({games} games, best of {args.runs})")
    print(yardstick(library, [bm, bm], n, max(args.runs, 3)))

    start = time.process_time()
    simulate(Setup(library, ["Smithy"], [bm, bm]), n, seed=1)
    print(f"{'simulate BM vs BM (with statistics)':36s} {n / (time.process_time() - start):8,.0f} games/s")

    tracemalloc.start()
    simulate(Setup(library, ["Smithy"], [smithy, bm]), 1000, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak / 1024:.0f} KB allocated at most during a 1000-game simulate run; "
          f"process max RSS {rss:.0f} MB")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        play(library, ["Smithy"], [bm, bm], 1000)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
