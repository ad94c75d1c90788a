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
from kingdom.runtime.decisions import BUY
from kingdom.runtime.setup import RANDOM, standard_game
from kingdom.runtime.stepwise import GameFailed, IllegalAnswer, Pending, Session
from kingdom.runtime.tokens import BY_KEY
from kingdom.table.answers import AnswerError, decision_lines, how_to_answer, parse
from kingdom.table.narrate import Narrator
from kingdom.table.save import Record, SaveError, remove_stale
from kingdom.table.spoken import count, grouped, money, one_line, words


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
                          else checker.wrap([next(bots).agent(self.record.seed + seat - 1)],
                                            (BUY,))[0])
        # each buy that no card is doubled or lost: a violation fails the game, and the
        # person's last answer is taken back)
        record = self.record
        ally = {"random": RANDOM, "none": None}.get(record.ally, record.ally)
        game = standard_game(self.library, record.kingdom, agents, seed=record.seed,
                             colonies=record.colonies, ally=ally, choices=record.setup_choices())
        checker.attach(game)
        self.narrator = Narrator(self.plain, hearer=self.me).attach(game)
        self.ally_text = game.ally.text if game.ally is not None else ""
        self.notes = game_notes(game)
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

    def seating(self) -> str:
        """Who plays the other seats: 'p2 is big-money, p3 is default'."""
        bots = iter(self.record.bots)
        return ", ".join(f"p{seat} is {next(bots)}" for seat in range(1, len(self.record.bots) + 2)
                         if seat != self.record.seat)

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


def game_notes(game) -> list[str]:
    """The accessibility notes (shipped with the cards, kingdom/print/rulings.py) that concern
    this game's cards: what the narration will say aloud, read to the person at setup."""
    from kingdom.print.notes import relevant_access
    from kingdom.print.rulings import load_accessibility
    from kingdom.print.selection import Selection

    cards = list({id(c.d): c.d for pile in game.piles.values() for c in pile.cards}.values())
    piles = {name: members for name, members in game.library.split_piles.items() if name in game.piles}
    selection = Selection("this game", cards, piles, game.ally, is_kingdom=True)
    return relevant_access(game.library, selection, load_accessibility())


# ---------------------------------------------------------------------------- describing
def status(pending: Pending, plain: bool) -> list[str]:
    """What the person may know now, in two lines: the turn and their hand; the others."""
    view = pending.view
    me = next(p for p in view.players if p.name == view.player)
    whose = "Your" if view.current == view.player else f"{view.current}'s"
    turn = next(p.turns_taken for p in view.players if p.name == view.current)
    hand = ", ".join(grouped(list(view.hand))) or "empty"
    lines = [f"{whose} turn {turn}, {view.phase} phase: {count(view.actions, 'Action')}, "
             f"{count(view.buys, 'Buy')}, {money(view.coins, plain)}. Your hand: {hand}."
             + _tokens(me)]
    if view.set_aside:
        lines.append("Set aside: " + ", ".join(grouped(list(view.set_aside))) + ".")
    others = [f"{p.name} {p.hand_size} in hand, {p.deck_size} in deck, {p.discard_size} in "
              f"discard{_tokens(p, ',')}" for p in view.players if p.name != view.player]
    lines.append("Others: " + "; ".join(others) + ".")
    return lines


def _tokens(player: Any, lead: str = " You have") -> str:
    held = [BY_KEY[key].count(n) for key, n in player.tokens if n]
    if not held:
        return ""
    return f"{lead} {', '.join(held)}" + ("." if lead.endswith("have") else "")


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
            + f", {count(p.turns_taken, 'turn')} taken" for p in pending.view.players]


def card_lines(library, name: str, plain: bool) -> tuple[list[str], bool]:
    """`? NAME`: the card's (or each card of a split pile's) cost, types and text; or, for a
    name that is none, the closest names. (lines, whether a card was found)"""
    import difflib

    from kingdom.runtime.library import find_card

    found = find_card(library, name)
    if found is None:
        known = sorted({*library.cards, *library.split_piles})
        close = difflib.get_close_matches(name.lower(), [n.lower() for n in known], n=3, cutoff=0.6)
        said = [n for n in known if n.lower() in close]
        return [f"No card named '{printable(name)}'" + (f"; did you mean {' or '.join(said)}?"
                                                         if said else ".")], False
    members = library.split_piles.get(found)
    lines = [f"The {found} pile, top first: {', '.join(members)}."] if members else []
    for card in (library[m] for m in (members or [found])):
        text = one_line(card.text) if plain else " ".join(card.text.split())
        types = ", ".join(card.types) if plain else " - ".join(card.types)
        line = f"{card.name} ({money(card.cost, plain)}; {types}): {words(text) if plain else text}"
        lines.append(printable(line))
    return lines, True


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
        self.start()
        try:
            return self._play()
        except (EOFError, KeyboardInterrupt):
            return self.stop()
        finally:
            self.table.close()

    def start(self) -> None:
        """Before the game: remove what killed games left beside the save, save it."""
        remove_stale(self.save_path.resolve().parent)
        self._save()

    def stop(self) -> int:
        """The person stops before the end: say where the game is saved (1: it is not)."""
        self.write("", None)
        if self.unsaved:
            self.write(f"The game could NOT be saved to {self.save_path} ({self.unsaved}); "
                       "it ends here, unsaved.", "red")
            return 1
        self.write(f"Game saved to {self.save_path}; continue it with: kingdom play "
                   f"--resume {self.save_path}", None)
        return 0

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
            self.write(f"You are {table.me}; {table.seating()}. Type ? for help.", None)
            if table.notes:
                self.write("Said aloud in this game: " + " ".join(table.notes), None)
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
        for line in decision_lines(pending, self.table.ally_text, self.table.plain):
            self.write(line, None)
        while not self.submit(pending, self.read("> ")):
            pass

    def submit(self, pending: Pending, text: str) -> bool:
        """One line typed at a decision: a command (said, False; undo: True) or an answer
        (True once legal, else said why not). EOFError for 'quit'."""
        text = text.strip()
        command, _, rest = text.partition(" ")
        command = command.lower()
        if not text:
            return False
        if command in ("?", "help"):
            self._help(rest.strip())
        elif command == "save" and rest.strip():
            self._save_to(Path(rest.strip()))
        elif text.lower() in COMMANDS:
            return COMMANDS[text.lower()](self, pending)
        else:
            try:
                self.table.answer(parse(pending, text))
                return True
            except (AnswerError, IllegalAnswer) as refused:
                self.write(f"Not accepted: {refused}. {how_to_answer(pending)}", "red")
        return False

    def _help(self, name: str) -> None:
        if not name:
            self.write(HELP, None)
            return
        lines, found = card_lines(self.table.library, name, self.table.plain)
        for line in lines:
            self.write(line, None if found else "red")

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
    "hand": lambda t, p: t._lines(["Your hand: " + (", ".join(grouped(list(p.view.hand)))
                                                     or "empty") + "."]),
    "supply": lambda t, p: t._lines(supply_lines(p, t.table.plain)),
    "score": lambda t, p: t._lines(score_lines(p)),
    "state": lambda t, p: t._lines(status(p, t.table.plain)),
    "log": lambda t, p: t._lines([line.text for line in t.table.narrator.lines[-40:]]),
    "log all": lambda t, p: t._lines([line.text for line in t.table.narrator.lines]),
    "undo": Terminal._undo,
    "quit": Terminal._quit,
}
