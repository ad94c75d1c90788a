"""Plain narration is words only: letters, digits, spaces and `. , ; : ' ( ) - ? !`, since a
screen reader reads a symbol by its name or not at all. Scanned over 100 seeded games on random
Kingdoms of every set (with an Ally, and a hearer told their own draws) and over `simulate --log
all --plain` as a whole, its tables included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kingdom.compiler.build import builtin_library
from kingdom.runtime.setup import standard_game

from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import random_kingdom
from kingdom.table.narrate import Narrator
from kingdom.table.spoken import count, is_plain, words

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = builtin_library()
SETS = ("base", "intrigue", "prosperity-basic", "cornucopia-guilds", "allies")


def test_symbols_are_said_in_words() -> None:
    assert words("+$2 and +1 Card; $3 or -1 VP") == "plus 2 coins and plus 1 Card; 3 coins or minus 1 VP"
    assert words("Wins (95% CI) 33.3% [9.7-70.0] games/s \u2013 \u201cGold\u201d") == \
        "Wins (95 percent CI) 33.3 percent (9.7 to 70.0) games a second - Gold"
    assert count(-7, "VP") == "minus 7 VP" and count(1, "Favor") == "1 Favor"
    assert not is_plain("$2") and not is_plain("\u2502") and is_plain("p1's turn 3: 6 coins.")


def test_the_plain_narration_of_100_seeded_games_is_words_only() -> None:
    deal = random_kingdom(LIBRARY, sets=SETS)
    bot = resolve_bot("default", LIBRARY)
    said = 0
    for seed in range(100):
        agents = [bot.agent(seed * 3 + seat) for seat in range(2 + seed % 3)]
        game = standard_game(LIBRARY, deal(seed), agents, seed=seed)
        narrator = Narrator(plain=True, hearer="p1").attach(game)
        game.run(60)
        narrator.finish()
        bad = [line.text for line in narrator.lines if not is_plain(line.text)]
        assert not bad, f"seed {seed}: {bad[:3]}"
        said += len(narrator.lines)
    assert said > 10_000


def test_simulate_log_all_plain_is_words_only_tables_included() -> None:
    run = subprocess.run([sys.executable, "-m", "kingdom", "simulate", "--kingdom",
                          "Militia,Moat,Cellar,Joust,Young Witch", "--ally", "Cave Dwellers",
                          "--bots", "default,big-money,default", "--games", "4", "--log", "all",
                          "--plain", "--no-progress", "--seed", "3"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("Bot ") and "; Card " in line for line in lines)  # a table, by row
    assert [line for line in lines if not is_plain(line)] == []
