"""What Studio runs for a card besides checking it: its scenarios, its rating among the
official cards (in a thread, with progress), and a game against a bot on the step-wise API
(the `Table` of `kingdom play`, its narrator and its way of reading answers)."""

from __future__ import annotations

import itertools
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdom.lab import roster
from kingdom.lab.rate import official_cards, place, rate_card, reference_table
from kingdom.lab.simulate import random_kingdom
from kingdom.runtime.library import Library
from kingdom.runtime.stepwise import IllegalAnswer
from kingdom.scenarios.runner import forget_libraries, run_file
from kingdom.table.answers import AnswerError, choices, how_to_answer, many, optional, parse, question
from kingdom.table.play import Table
from kingdom.table.save import Record
from kingdom.table.spoken import count, money

AMONG = ("base",)  # the official cards a rating is placed among
MAX_GAMES = 200  # games a rating from the page may ask for
OPPONENT = "big-money"
_ids = itertools.count(1)


# ------------------------------------------------------------------------------ scenarios
def scenario_files(root: Path, card: str) -> list[Path]:
    """The scenario files under `root` that name `card`."""
    found = []
    for file in sorted(root.rglob("*.yaml")):
        if "scenarios" not in file.relative_to(root).parts[:-1] or not file.is_file():
            continue
        try:
            if card in file.read_text(encoding="utf-8"):
                found.append(file)
        except (OSError, UnicodeError):
            continue
    return found


def run_scenarios(root: Path, card: str) -> list[dict[str, Any]]:
    """Every scenario of the files naming `card`, run with the cards as saved now."""
    forget_libraries()
    return [{"file": str(Path(o.file).relative_to(root)) if Path(o.file).is_relative_to(root)
             else o.file, "name": o.name, "passed": o.passed, "message": o.message}
            for file in scenario_files(root, card) for o in run_file(file, [root])]


# ------------------------------------------------------------------------------ rating
@dataclass
class RatingJob:
    """A rating running in its own thread; `done` of `total` cards rated so far."""

    card: str
    games: int
    total: int = 1
    done: int = 0
    result: dict[str, Any] | None = None
    error: str = ""
    id: int = field(default_factory=lambda: next(_ids))

    def run(self, library: Library) -> None:
        def rated(_name: str) -> None:
            self.done += 1

        try:
            self.total = len(official_cards(library, AMONG)) + 1
            table = reference_table(library, AMONG, self.games, 1, done=rated)
            self.done = self.total - 1
            rating = rate_card(library, self.card, self.games, 1)
            rank, of, percentile = place(rating, table)
            self.result = {"card": self.card, "games": rating.games, "wins": rating.wins,
                           "win_rate": rating.win_rate, "bot": rating.bot, "rank": rank, "of": of,
                           "percentile": percentile,
                           "table": sorted([{"card": r.card, "win_rate": r.win_rate} for r in
                                            [*table, rating] if r.card != self.card or r is rating],
                                           key=lambda r: -r["win_rate"])}
        except Exception as exc:  # (an engine fault ends this rating, said on the page)
            self.error = f"{type(exc).__name__}: {exc}"
        self.done = self.total

    def state(self) -> dict[str, Any]:
        return {"id": self.id, "card": self.card, "done": self.done, "total": self.total,
                "finished": self.result is not None or bool(self.error), "result": self.result,
                "error": self.error}


def start_rating(library: Library, card: str, games: int) -> RatingJob:
    job = RatingJob(card, max(1, min(games, MAX_GAMES)))
    threading.Thread(target=job.run, args=(library,), daemon=True, name="studio-rate").start()
    return job


# ------------------------------------------------------------------------------ a game
class Game:
    """The person in seat 1 against Big Money, on a Kingdom of the card and nine others."""

    def __init__(self, library: Library, card: str, seed: int | None = None) -> None:
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        others = [n for n in random_kingdom(library)(seed) if n != card]
        record = Record([card, *others[:9]], [OPPONENT], seed, 1, [])
        self.id = next(_ids)
        self.table = Table(library, record, [roster.resolve_bot(OPPONENT, library)], plain=True)
        self.said = 0  # narration lines sent so far
        self.lock = threading.Lock()

    def answer(self, text: str) -> str:
        """Answer the pending decision with `text` as `kingdom play` reads it ("1", "1,3",
        "0" for none); what was wrong with it, or ""."""
        with self.lock:
            pending = self.table.pending()
            if pending is None:
                return "the game is over"
            try:
                self.table.answer(parse(pending, text))
            except (AnswerError, IllegalAnswer) as exc:
                return str(exc)
            return ""

    def state(self) -> dict[str, Any]:
        """The new narration, the decision now (numbered choices) or the final result."""
        with self.lock:
            pending = self.table.pending()
            lines = self.table.narrator.lines
            new, self.said = [line.text for line in lines[self.said:]], len(lines)
            out: dict[str, Any] = {"id": self.id, "narration": new, "over": pending is None,
                                   "kingdom": self.table.record.kingdom}
            if self.table.failure:
                out["narration"].append(self.table.failure)
                self.table.failure = ""
            if pending is None:
                result = self.table.session.result()
                out["result"] = {"scores": [list(s) for s in result.scores],
                                 "winners": list(result.winners), "turns": result.turns}
                return out
            view = pending.view
            numbers = pending.options if pending.kind == "number" else ()
            out["pending"] = {
                "prompt": question(pending, self.table.ally_text), "kind": pending.kind, "min": pending.min,
                "max": pending.max, "many": many(pending), "optional": optional(pending),
                "choices": [{"label": c.label, "name": c.name, "count": c.count}
                            for c in choices(pending)],
                "numbers": [min(numbers), max(numbers)] if numbers else None,
                "how": how_to_answer(pending),
                "status": f"Turn {view.turn}: {count(view.actions, 'Action')}, "
                          f"{count(view.buys, 'Buy')}, {money(view.coins)}. "
                          f"Hand: {', '.join(view.hand) or 'empty'}."}
            return out

    def close(self) -> None:
        self.table.close()
