"""Seeded games stay the same: a digest of 1,500 seeded games' results and end states.

    .venv/bin/python bench/seeded.py            # print the digest
    .venv/bin/python bench/seeded.py --check    # compare with bench/seeded.txt (exit 1 if not)
    .venv/bin/python bench/seeded.py --save     # record the digest (when games are meant to change)

A speed-up of the engine must not change any game: each game's scores, turns, winners, every
player's cards, the shuffles and the state of its random generator after the game (which counts
every draw from it) go into the digest. Kinds: Big Money mirror, Smithy-BM vs Big Money, and the
generic bots on random Base kingdoms, 500 each, seats alternating.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.setup import standard_game

from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import game_seed, random_kingdom

RECORDED = Path(__file__).with_name("seeded.txt")


def game_record(game) -> str:
    """What one finished game is: results, each player's cards and the generator's state."""
    players = [
        f"{p.turns_taken}:{game.score(p)}:{','.join(sorted(c.d.name for c in p.owned()))}"
        for p in game.players
    ]
    winners = ",".join(p.name for p in game.winners())
    return f"{game.turn_number}|{game.shuffles}|{winners}|{'|'.join(players)}|{game.rng.getrandbits(64)}"


def digest(games: int = 500) -> str:
    library, _ = compile_folders([BUILTIN_CARDS / "base"], strict=False)
    bm, smithy = resolve_bot("big-money", library), resolve_bot("smithy-big-money", library)
    generic = resolve_bot("default", library)
    kinds = [(["Smithy"], [bm, bm]), (["Smithy"], [smithy, bm]),
             (random_kingdom(library), [generic, generic])]
    sha = hashlib.sha256()
    for kind, (kingdom, bots) in enumerate(kinds):
        for i in range(games):
            seed = game_seed(kind + 1, i)
            order = bots if i % 2 == 0 else bots[::-1]
            cards = kingdom(seed) if callable(kingdom) else kingdom
            game = standard_game(library, cards, [b.agent(seed + n) for n, b in enumerate(order)],
                                 seed=seed)
            game.run()
            sha.update(game_record(game).encode() + b"\n")
    return sha.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help=f"compare with {RECORDED.name}")
    parser.add_argument("--save", action="store_true", help=f"record the digest in {RECORDED.name}")
    args = parser.parse_args()
    found = digest()
    print(found)
    if args.save:
        RECORDED.write_text(found + "\n")
    if args.check:
        expected = RECORDED.read_text().strip()
        if found != expected:
            print(f"seeded games changed: expected {expected}", file=sys.stderr)
            return 1
        print("seeded games unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
