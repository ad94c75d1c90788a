"""`kingdom play`: a person plays against bots in the terminal, on the step-wise API alone.

The game is a `Session` (runtime/stepwise.py) with one seat for the person, bots in the others,
and a `Narrator` (kingdom/narrate.py) saying what happens. It is kept as its seed and setup plus
every answer given, in a small JSON file rewritten (atomically) after each answer: resuming, or
undoing an answer, plays the game again from the start with the answers kept, which gives the
same game because everything is seeded.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kingdom.compiler.texts import printable
from kingdom.lab.invariants import InvariantChecker
from kingdom.runtime.setup import standard_game
from kingdom.runtime.stepwise import GameFailed, IllegalAnswer, Pending, Session
from kingdom.runtime.tokens import BY_KEY
from kingdom.table.narrate import Narrator, money
from kingdom.table.save import Record, SaveError, remove_stale


# ---------------------------------------------------------------------------- the game
class Table:
    """A game in progress on the step-wise API: the session, the narrator, the record. Every
    legal answer is recorded (and `on_answer` called, to save it); `undo` plays the game again
    without the last one. An answer after which the game fails (an engine fault) is taken back,
    live or when resuming a save that holds it, and `failure` says so: the person can answer
    differently or undo further, and no save is left that cannot be resumed."""

    def __init__(self, library, record: Record, bots: list[Any], plain: bool = True,
                 on_answer: Callable[[Record], None] | None = None) -> None:
        self.library = library
        self.record = record
        self.bots = bots  # resolved bots (objects with .agent(seed)), one per record.bots
        self.plain = plain
        self.on_answer = on_answer
        self.session: Session | None = None
        self.narrator: Narrator | None = None
        self.failure = ""  # what failed after the answer taken back, until it is said
        self.me = f"p{record.seat}"
        self._replay(record.answers)

    def _replay(self, answers: list[Any]) -> None:
        """A new game from the seed, given `answers` one by one; stopped before an answer after
        which the game fails."""
        given = self._start_replay(answers)
        if given is not None:
            self._start_replay(answers[:given - 1])

    def _start_replay(self, answers: list[Any]) -> int | None:
        """Play `answers` in a new game: None, or how many were given when the game failed."""
        self.close()
        session = Session()
        checker = InvariantChecker()
        agents: list[Any] = []
        bots = iter(self.bots)
        for seat in range(1, len(self.bots) + 2):
            agents.append(session.seat() if seat == self.record.seat  # (the bots check before
                          else checker.wrap([next(bots).agent(self.record.seed + seat - 1)])[0])
        # each of their moves that no card is doubled or lost: a violation fails the game, and
        # the person's last answer is taken back)
        game = standard_game(self.library, self.record.kingdom, agents, seed=self.record.seed)
        checker.attach(game)
        self.narrator = Narrator(self.plain).attach(game)
        self.session = session
        session.start(game)
        given = 0
        try:
            for answer in answers:
                if session.pending() is None:
                    raise SaveError("the game ended before all the saved answers were used")
                session.answer(answer)
                given += 1
            session.pending()  # (the game plays on to the next decision: its narration is said)
        except GameFailed as exc:
            if not given:
                raise SaveError(f"the game fails before your first decision ({exc})") from None
            self.failure = (f"The game stopped with an error after your answer "
                            f"{printable(str(answers[given - 1]))!r} ({exc}); that answer is "
                            "taken back: answer differently, or 'undo'. Please report the error.")
            return given
        except IllegalAnswer as exc:
            raise SaveError(f"the saved answers do not fit this game ({exc}); were the cards "
                            "changed since it was saved?") from None
        self.record.answers = list(answers)
        return None

    def pending(self) -> Pending | None:
        """The person's decision now, or None once the game is over (then the narration of
        the end is said). A game that failed after the last answer is played again without it
        (and saved so)."""
        try:
            pending = self.session.pending()
        except GameFailed:
            self._replay(self.record.answers)
            self._saved()
            pending = self.session.pending()
        if pending is None and not self.narrator.finished:
            self.narrator.finish()
        elif pending is not None:
            self.narrator.flush()
        return pending

    def answer(self, value: Any) -> None:
        """Answer the pending decision (IllegalAnswer, with nothing changed, if not legal)."""
        self.session.answer(value)
        self.record.answers.append(value)
        self._saved()

    def undo(self) -> bool:
        """Back to the person's previous decision; False if there is none."""
        if not self.record.answers:
            return False
        self._replay(self.record.answers[:-1])
        self._saved()
        return True

    def _saved(self) -> None:
        if self.on_answer is not None:
            self.on_answer(self.record)

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
        if self.narrator is not None:
            self.narrator.detach()


# ---------------------------------------------------------------------------- answers
class AnswerError(Exception):
    """Text that is no answer to the decision: says what would be accepted."""


NONE_WORDS = ("0", "none", "done", "stop")


def choices(pending: Pending) -> list[tuple[str, Any]]:
    """What the person picks from, numbered from 1: (label, plain value). Picks of several
    cards list every card (two Coppers are two lines); one pick lists each name once."""
    kind, options = pending.kind, pending.options
    if kind == "yes_no":
        return [("yes", True), ("no", False)]
    if kind == "number":
        return [(str(n), n) for n in options]
    if _many(pending):
        return [(name, name) for name in options]
    seen = dict.fromkeys(str(o) for o in options)
    return [(label, label) for label in seen]


def _many(pending: Pending) -> bool:
    return pending.kind in ("cards", "treasures", "order")


def _optional(pending: Pending) -> bool:
    return pending.kind in ("play", "buy") or (pending.min == 0 and not _many(pending)
                                               and pending.kind not in ("yes_no", "number"))


def parse(pending: Pending, text: str) -> Any:
    """The plain answer `text` stands for: numbers of the listed choices or names (any case,
    a unique beginning is enough); several, for picks of cards, separated by commas or spaces;
    'all'; 0 or 'none' for nothing. AnswerError says what would be accepted."""
    listed = choices(pending)
    words = text.strip()
    if pending.kind == "number":
        if words.isdigit() and int(words) in pending.options:
            return int(words)
        raise AnswerError(f"answer a number from {pending.options[0]} to {pending.options[-1]}")
    if _many(pending):
        return _parse_many(pending, words, listed)
    if _optional(pending) and words.lower() in NONE_WORDS:
        return None
    return _one(words, listed)


def _one(words: str, listed: list[tuple[str, Any]]) -> Any:
    if words.isdigit():
        index = int(words)
        if 1 <= index <= len(listed):
            return listed[index - 1][1]
        raise AnswerError(f"there is no choice {index}: {_accepted(listed)}")
    lower = words.lower()
    exact = [value for label, value in listed if label.lower() == lower]
    if exact:
        return exact[0]
    starts = [(label, value) for label, value in listed if label.lower().startswith(lower)]
    if len(starts) == 1:
        return starts[0][1]
    if starts:
        raise AnswerError(f"'{words}' could be {', '.join(label for label, _ in starts)}: "
                          "type more of the name")
    raise AnswerError(f"'{words}' is not a choice: {_accepted(listed)}")


def _parse_many(pending: Pending, words: str, listed: list[tuple[str, Any]]) -> list[str]:
    lower = words.lower()
    if lower == "all":
        picked = [value for _label, value in listed]
    elif lower in NONE_WORDS or not words:
        picked = []
    else:
        parts = words.replace(",", " ").split() if all(
            p.isdigit() for p in words.replace(",", " ").split()) else words.split(",")
        free = list(range(len(listed)))
        picked = []
        for part in (p.strip() for p in parts if p.strip()):
            index = _index(part, listed, free)
            free.remove(index)
            picked.append(listed[index][1])
    if pending.kind == "order":  # the cards not named keep their order, after those named
        named = list(picked)
        rest = [value for _label, value in listed]
        for name in named:
            rest.remove(name)
        picked = named + rest
    return picked


def _index(part: str, listed: list[tuple[str, Any]], free: list[int]) -> int:
    """The position of the listed choice `part` names among those not picked yet."""
    if part.isdigit():
        index = int(part) - 1
        if index not in range(len(listed)):
            raise AnswerError(f"there is no choice {part}: {_accepted(listed)}")
        if index not in free:
            raise AnswerError(f"choice {part} is named twice")
        return index
    value = _one(part, [(listed[i][0], listed[i][1]) for i in free] or listed)
    for i in free:
        if listed[i][1] == value:
            return i
    raise AnswerError(f"'{part}' is named more often than there are such cards")


def _accepted(listed: list[tuple[str, Any]]) -> str:
    return f"answer 1 to {len(listed)} or a name ({', '.join(label for label, _ in listed)})"


def how_to_answer(pending: Pending) -> str:
    """One line saying what an answer looks like for this decision."""
    if pending.kind == "number":
        return f"Answer a number from {pending.options[0]} to {pending.options[-1]}."
    if pending.kind == "order":
        return "Answer the order, top first: numbers or names separated by commas (the rest " \
               "follow in the order listed)."
    if _many(pending):
        low, high = pending.min, pending.max
        amount = (f"0 or {high}" if pending.exact else str(low) if low == high
                  else f"{low} to {high}")
        return f"Pick {amount}: numbers or names separated by commas, 'all', or 0 for none."
    return "Answer a number or a name" + (", or 0 for none." if _optional(pending) else ".")


# ---------------------------------------------------------------------------- describing
def status(pending: Pending, plain: bool) -> list[str]:
    """What the person may know now, in a few lines."""
    view = pending.view
    lines = [f"Turn {view.turn}, {view.current}'s {view.phase} phase: {view.actions} "
             f"Action{'s' * (view.actions != 1)}, {view.buys} Buy{'s' * (view.buys != 1)}, "
             f"{money(view.coins, plain)}."]
    lines.append("Your hand: " + (", ".join(view.hand) or "empty") + ".")
    if view.set_aside:
        lines.append("Set aside: " + ", ".join(view.set_aside) + ".")
    for p in view.players:
        tokens = ", ".join(f"{n} {BY_KEY[key].plural}" for key, n in p.tokens if n)
        who = "You" if p.name == view.player else p.name
        lines.append(f"{who}: {p.hand_size} in hand, {p.deck_size} in deck, {p.discard_size} "
                     f"in discard" + (f", {tokens}" if tokens else "") + ".")
    return lines


def supply_lines(pending: Pending, plain: bool) -> list[str]:
    view = pending.view
    lines = []
    for pile in view.supply:
        where = "" if pile.in_supply else " (outside the Supply)"
        top = f"{pile.top}, costs {money(pile.cost, plain)}" if pile.top else "empty"
        tokens = "".join(f", {n} {kind} token(s)" for kind, n in pile.tokens)
        lines.append(f"{pile.name}: {pile.count} left; {top}{tokens}{where}.")
    lines.append("Trash: " + (", ".join(view.trash) or "empty") + ".")
    if view.ally:
        lines.append(f"Ally: {view.ally}.")
    return lines


def score_lines(pending: Pending) -> list[str]:
    """Each player's score where the view has it (yours; the others' are hidden until the game
    ends, VP tokens aside)."""
    return [f"{p.name}: " + (f"{p.score} VP" if p.score is not None else
                             f"score hidden, {p.vp_tokens} VP tokens")
            + f", {p.turns_taken} turns taken" for p in pending.view.players]


def decision_lines(pending: Pending) -> list[str]:
    about = f" ({pending.card})" if pending.card and pending.card not in pending.prompt else ""
    lines = [f"{pending.prompt}{about}"]
    for number, (label, _value) in enumerate(choices(pending), 1):
        lines.append(f"  {number}. {label}")
    if _optional(pending):
        lines.append("  0. none")
    lines.append(how_to_answer(pending))
    return lines


HELP = """Commands: a number or name answers; '? CARD' shows a card's text; 'hand', 'supply'
(piles, costs, trash), 'score', 'log' (what happened; 'log all'), 'undo' (back to your previous
decision), 'save FILE' (save to another file from now on), 'quit' (saved: resume later). End of
input or Ctrl-C saves and stops too."""



# ---------------------------------------------------------------------------- the terminal
class Terminal:
    """The person's side of a Table: shows the narration and each decision, reads answers and
    commands. `read` is input() (raising EOFError at the end of input), `write` prints a line
    (`style`: a hint for colour, ignored in plain mode)."""

    def __init__(self, table: Table, save_path: Path, read: Callable[[str], str],
                 write: Callable[[str, str | None], None], pause: bool = False) -> None:
        self.table = table
        self.save_path = save_path
        self.read = read
        self.write = write
        self.pause = pause
        self.shown = 0  # narration lines shown so far
        self.turn_shown = -1  # the turn whose state was last shown
        self.unsaved = ""  # why the last save failed ("" once saved)
        table.on_answer = lambda _record: self._save()

    def run(self) -> int:
        """Play to the end, or until the input ends or Ctrl-C (saved: resumable); 0 either way,
        1 if the game could not be saved (said, with what was lost)."""
        remove_stale(self.save_path.resolve().parent)
        self._save()
        try:
            return self._play()
        except (EOFError, KeyboardInterrupt):
            self.write("", None)
            if self.unsaved:
                self.write(f"The game could NOT be saved to {self.save_path} ({self.unsaved}); "
                           "it ends here, unsaved.", "red")
                return 1
            self.write(f"Game saved to {self.save_path}; continue it with: kingdom play "
                       f"--resume {self.save_path}", None)
            return 0
        finally:
            self.table.close()

    def _save(self) -> None:
        """Save the record; a failure (the folder became read-only, the disk is full) is said
        and the game goes on in memory, saved again after the next answer or to the file
        'save FILE' names."""
        reason = self._write(self.save_path)
        if reason and reason != self.unsaved:
            self.write(f"Could not save the game to {self.save_path}: {reason}. The game goes on "
                       "and is saved after your next answer; 'save FILE' saves it to another "
                       "file.", "red")
        elif not reason and self.unsaved:
            self.write(f"Saved to {self.save_path} again.", None)
        self.unsaved = reason

    def _write(self, path: Path) -> str:
        """Write the save file: "" or why it could not be written."""
        try:
            self.table.record.save(path)
        except SaveError as exc:
            return str(exc)
        except OSError as exc:
            return exc.strerror or str(exc)
        return ""

    def _play(self) -> int:
        table = self.table
        if table.record.answers:  # resumed: what happened is in the log, the last turn shown
            lines = table.narrator.lines
            last = max((i for i, line in enumerate(lines) if line.kind == "turn"), default=0)
            self.write(f"Resumed after {len(table.record.answers)} answers ('log' shows the "
                       "whole game).", None)
            self.shown = last
        else:
            self.write(f"You are {table.me}. Type ? for help.", None)
        while True:
            pending = table.pending()
            if table.failure:
                self.write(table.failure, "red")
                table.failure = ""
            self._narrate()
            if pending is None:
                return 0
            if pending.view.turn != self.turn_shown:
                self.turn_shown = pending.view.turn
                for line in status(pending, table.plain):
                    self.write(line, None)
            self._decide(pending)

    def _narrate(self) -> None:
        lines = self.table.narrator.lines
        for line in lines[self.shown:]:
            if (line.kind == "turn" and self.pause and self.shown and lines[self.shown - 1].current
                    not in ("", self.table.me)):
                self.read("(Enter to go on) ")
            self.write(line.text, "bold" if line.kind in ("turn", "end") else None)
            self.shown += 1

    def _decide(self, pending: Pending) -> None:
        """Ask until a legal answer is given (or the game is rewound by undo)."""
        for line in decision_lines(pending):
            self.write(line, None)
        while True:
            text = self.read("> ").strip()
            command, _, rest = text.partition(" ")
            command = command.lower()
            if command in ("?", "help"):
                self._help(rest.strip())
            elif command == "save" and rest.strip():
                self._save_to(Path(rest.strip()))
            elif text.lower() in COMMANDS:
                if COMMANDS[text.lower()](self, pending):
                    return
            else:
                try:
                    self.table.answer(parse(pending, text))
                    return
                except (AnswerError, IllegalAnswer) as refused:
                    self.write(f"Not accepted: {refused}. {how_to_answer(pending)}", "red")

    def _help(self, name: str) -> None:
        if not name:
            self.write(HELP, None)
            return
        from kingdom.compiler.texts import printable
        from kingdom.runtime.library import find_card

        found = find_card(self.table.library, name)
        if found is None or found in self.table.library.split_piles:
            self.write(f"No card named '{name}'.", "red")
            return
        card = self.table.library[found]
        self.write(printable(f"{card.name} ({money(card.cost, self.table.plain)}, "
                             f"{' - '.join(card.types)}): " + " ".join(card.text.split())), None)

    def _save_to(self, path: Path) -> None:
        """`save FILE`: save there now and after every answer from now on."""
        reason = self._write(path)
        if reason:
            self.write(f"Could not save to {path}: {reason}.", "red")
            return
        self.save_path, self.unsaved = path, ""
        self.write(f"Saved to {path}; the game is saved there from now on.", None)

    def _lines(self, lines: list[str]) -> bool:
        for line in lines:
            self.write(line, None)
        return False

    def _undo(self, _pending: Pending) -> bool:
        if not self.table.undo():
            self.write("Nothing to undo: this is your first decision.", None)
            return False
        self.write("Undone: back to your previous decision.", None)
        self.shown = len(self.table.narrator.lines)
        self.turn_shown = -1
        return True

    def _quit(self, _pending: Pending) -> bool:
        raise EOFError


COMMANDS: dict[str, Callable[[Terminal, Pending], bool]] = {
    "hand": lambda t, p: t._lines(status(p, t.table.plain)[1:2]),
    "supply": lambda t, p: t._lines(supply_lines(p, t.table.plain)),
    "score": lambda t, p: t._lines(score_lines(p)),
    "state": lambda t, p: t._lines(status(p, t.table.plain)),
    "log": lambda t, p: t._lines([line.text for line in t.table.narrator.lines[-40:]]),
    "log all": lambda t, p: t._lines([line.text for line in t.table.narrator.lines]),
    "undo": Terminal._undo,
    "quit": Terminal._quit,
}
