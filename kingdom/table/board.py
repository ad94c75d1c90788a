"""`kingdom play` full-screen: the board of a game in a terminal (Textual), for sighted players.

The same Table and Terminal as the line-by-line mode (kingdom/table/play.py) play the game; the
board only shows it: the Supply with costs and counts (the Bane, split piles and piles outside
the Supply marked), your hand, play area, set-aside cards, tokens, the other players' public
state, the narration in a scrolling log, and the pending decision with its numbered choices.
The answer line completes card names (Tab or the Right arrow) and keeps a history (Up, Down).
`--plain` and output that is not a terminal stay line by line, for screen readers.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.suggester import Suggester
from textual.widgets import Input, RichLog, Static

from kingdom.compiler.texts import printable
from kingdom.runtime.stepwise import Pending, PlayerView
from kingdom.runtime.tokens import BY_KEY
from kingdom.table.answers import choices, decision_lines
from kingdom.table.play import COMMANDS, Terminal
from kingdom.table.spoken import count, grouped, money

WORDS = ("hand", "supply", "score", "state", "log", "undo", "quit", "help", "save ")


class Names(Suggester):
    """Completes the last name being typed (after a comma) from the decision's choices, the
    Supply and the commands."""

    def __init__(self, board: Board) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.board = board

    async def get_suggestion(self, value: str) -> str | None:
        last = value.rpartition(",")[2]
        typed = last.lstrip()
        if not typed or typed.isdigit():
            return None
        for name in self.board.candidates():
            if name.lower().startswith(typed.lower()) and len(name) > len(typed):
                return value[:len(value) - len(typed)] + name
        return None


class Answer(Input):
    """The answer line: Tab takes the completion shown, Up and Down walk the history."""

    BINDINGS = [Binding("tab", "complete", "complete the name", priority=True),
                Binding("up", "history(-1)", "previous answer", show=False),
                Binding("down", "history(1)", "next answer", show=False)]

    def __init__(self, board: Board) -> None:
        super().__init__(placeholder="answer: a number or a name; ? for help",
                         suggester=Names(board), id="answer")
        self.history: list[str] = []
        self.at = 0

    def action_complete(self) -> None:
        if self._suggestion:
            self.value = self._suggestion
            self.cursor_position = len(self.value)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self.at = max(0, min(len(self.history), self.at + step))
        self.value = self.history[self.at] if self.at < len(self.history) else ""
        self.cursor_position = len(self.value)

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self.at = len(self.history)


class Board(App):
    """The game on one screen; `over` once it is played to its end."""

    TITLE = "Kingdom"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary; color: $text; padding: 0 1; }
    #middle { height: 1fr; }
    #supply { width: 46; border: round $secondary; padding: 0 1; }
    #centre { width: 1fr; }
    #you { height: auto; max-height: 50%; border: round $accent; padding: 0 1; }
    #others { height: 1fr; border: round $secondary; padding: 0 1; }
    #log { width: 1fr; border: round $secondary; }
    #decision { height: auto; max-height: 14; border: round $warning; padding: 0 1; }
    #answer { dock: bottom; }
    """
    BINDINGS = [Binding("ctrl+c", "leave", "save and quit", priority=True),
                Binding("ctrl+q", "leave", "save and quit", priority=True)]

    def __init__(self, terminal: Terminal) -> None:
        super().__init__()
        self.terminal = terminal
        self.table = terminal.table
        self.pending: Pending | None = None
        self.over = False
        self._said: list[tuple[str, str | None]] = []
        terminal.write = self._write  # (what the Terminal says goes to the log)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            with VerticalScroll(id="supply"):
                yield Static(id="supply-text")
            with Vertical(id="centre"):
                with VerticalScroll(id="you"):
                    yield Static(id="you-text")
                with VerticalScroll(id="others"):
                    yield Static(id="others-text")
            yield RichLog(id="log", wrap=True, markup=True, min_width=20)
        with VerticalScroll(id="decision"):
            yield Static(id="decision-text")
        yield Answer(self)

    def on_mount(self) -> None:
        self.query_one("#supply").border_title = "Supply"
        self.query_one("#you").border_title = f"You ({self.table.me})"
        self.query_one("#others").border_title = "Other players"
        self.query_one("#log").border_title = "What happens"
        self.query_one("#decision").border_title = "Your decision"
        for text, style in self._said:
            self._write(text, style)
        self._said = []
        self._write(f"You are {self.table.me}; {self.table.seating()}. Type ? for help.", None)
        if self.table.record.answers:
            self._write(f"Resumed after {len(self.table.record.answers)} answers.", "dim")
        if self.table.notes:
            self._write("Said aloud in this game: " + " ".join(self.table.notes), "dim")
        self.terminal.start()
        self.advance()
        self.query_one(Answer).focus()

    # ------------------------------------------------------------------ the game
    def advance(self) -> None:
        """Play on to the person's next decision (or the end) and show it."""
        self.pending = self.table.pending()
        if self.table.failure:
            self._write(self.table.failure, "red")
            self.table.failure = ""
        log = self.query_one(RichLog)
        lines = self.table.narrator.lines
        for line in lines[self.terminal.shown:]:
            style = "bold" if line.kind in ("turn", "end") else "italic" if line.to else None
            log.write(_styled(line.text, style))
        self.terminal.shown = len(lines)
        if self.pending is None:
            self.over = True
            self.show_state(self.table.session.view(self.table.me), "The game is over")
            self.query_one("#decision-text", Static).update(
                "The game is over: the log says why and each final deck. Press Enter to leave.")
            return
        self.show(self.pending)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        answer = self.query_one(Answer)
        text = event.value
        answer.remember(text.strip())
        answer.value = ""
        if self.over:
            self.exit()
            return
        self._write(f"> {text}", "dim")
        try:
            self.terminal.submit(self.pending, text)
        except EOFError:
            self.action_leave()
            return
        self.advance()

    def action_leave(self) -> None:
        """Ctrl-C, Ctrl-Q or 'quit': the game is saved; the Terminal says how to resume."""
        self.exit()

    def candidates(self) -> list[str]:
        names = [c.name for c in choices(self.pending)] if self.pending is not None else []
        supply = [p.name for p in self.pending.view.supply] if self.pending is not None else []
        return [*names, *supply, *WORDS, *COMMANDS]

    def _write(self, text: str, style: str | None) -> None:
        """What the Terminal says (a refusal, a command's answer): into the log at once, or
        once the board is up."""
        try:
            log = self.query_one(RichLog)
        except NoMatches:
            self._said.append((text, style))
            return
        log.write(_styled(text, style))

    # ------------------------------------------------------------------ showing
    def show_state(self, view: PlayerView, headline: str) -> None:
        self.query_one("#status", Static).update(escape(f"Kingdom - {headline}"))
        self.query_one("#supply-text", Static).update(
            supply_text(view, self.table.library, self.table.plain))
        self.query_one("#you-text", Static).update(you_text(view))
        self.query_one("#others-text", Static).update(others_text(view))

    def show(self, pending: Pending) -> None:
        view, plain = pending.view, self.table.plain
        turn = next(p.turns_taken for p in view.players if p.name == view.current)
        whose = "your" if view.current == view.player else f"{view.current}'s"
        self.show_state(view, f"{whose} turn {turn}, {view.phase} phase: "
                        f"{count(view.actions, 'Action')}, {count(view.buys, 'Buy')}, "
                        f"{money(view.coins, plain)}")
        lines = decision_lines(pending, self.table.ally_text, plain)
        listed = "   ".join(escape(line.strip()) for line in lines[1:-1])  # (side by side)
        self.query_one("#decision-text", Static).update(
            f"[b]{escape(lines[0])}[/b]\n{listed}\n[dim]{escape(lines[-1])}[/dim]")


def supply_text(view: PlayerView, library: Any, plain: bool) -> str:
    """Each pile with its cost and count (an empty one struck through), a split pile's top
    card, the Bane and tokens marked; the piles outside the Supply after those in it."""
    inside, outside = [], []
    for pile in view.supply:
        cost = money(pile.cost, plain) if pile.cost is not None else "-"
        marks = [*pile.roles]
        if pile.name in library.split_piles and pile.top:
            marks.append(f"{pile.top} on top")
        marks += [f"{n} {kind} token{'s' * (n != 1)}" for kind, n in pile.tokens]
        mark = f" [dim]({escape(', '.join(marks))})[/dim]" if marks else ""
        name = escape(pile.name) if pile.count else f"[strike]{escape(pile.name)}[/strike]"
        (inside if pile.in_supply else outside).append(f"{cost:>4} {pile.count:>3}  {name}{mark}")
    rows = ["[b]cost left  pile[/b]", *inside]
    if outside:
        rows += ["", "[b]Not in the Supply[/b]", *outside]
    if view.ally:
        rows += ["", f"[b]Ally:[/b] {escape(view.ally)}"]
    rows.append("[b]Trash:[/b] " + escape(", ".join(grouped(list(view.trash))) or "empty"))
    return "\n".join(rows)


def you_text(view: PlayerView) -> str:
    me = next(p for p in view.players if p.name == view.player)
    lines = ["[b]Hand:[/b] " + escape(", ".join(grouped(list(view.hand))) or "empty"),
             "[b]In play:[/b] " + escape(", ".join(grouped(list(me.in_play))) or "nothing")]
    if view.set_aside:
        lines.append("[b]Set aside:[/b] " + escape(", ".join(grouped(list(view.set_aside)))))
    tokens = [BY_KEY[key].count(n) for key, n in me.tokens if n]
    lines.append(f"[b]Deck:[/b] {me.deck_size}  [b]Discard:[/b] {me.discard_size}"
                 + (f" (top {escape(me.discard_top)})" if me.discard_top else "")
                 + (f"  [b]Tokens:[/b] {escape(', '.join(tokens))}" if tokens else "")
                 + (f"  [b]Score:[/b] {me.score} VP" if me.score is not None else ""))
    return "\n".join(lines)


def others_text(view: PlayerView) -> str:
    out = []
    for p in view.players:
        if p.name == view.player:
            continue
        tokens = ", ".join(BY_KEY[key].count(n) for key, n in p.tokens if n)
        out.append(f"[b]{escape(p.name)}[/b] ({count(p.turns_taken, 'turn')} taken): "
                   f"{p.hand_size} in hand, {p.deck_size} in deck, {p.discard_size} in discard"
                   + (f" (top {escape(p.discard_top)})" if p.discard_top else "")
                   + (f"; {escape(tokens)}" if tokens else "")
                   + (f"; in play: {escape(', '.join(grouped(list(p.in_play))))}" if p.in_play else "")
                   + (f"; {p.set_aside_size} set aside" if p.set_aside_size else "")
                   + (f"; score {p.score} VP" if p.score is not None else ""))
    return "\n".join(out)


def _styled(text: str, style: str | None) -> str:
    text = escape(printable(text, lines=True))
    return f"[{style}]{text}[/{style}]" if style else text


def play_on_board(terminal: Terminal) -> int:
    """Run the board until the game ends or the person leaves; the exit status."""
    board = Board(terminal)
    try:
        board.run()
    finally:
        terminal.table.close()
    if not board.over:  # (left before the end: saved; said how to resume)
        terminal.write = _print
        return terminal.stop()
    final = [line.text for line in terminal.table.narrator.lines if line.kind == "end"]
    for line in final:
        print(printable(line))
    return 0


def _print(text: str, _style: str | None) -> None:
    print(printable(text, lines=True), flush=True)
