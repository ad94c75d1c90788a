"""Drive a game of Kingdom from code: a seat played step by step, narrated (README, "Playing
from code"). Run it: `python examples/play_api.py`. The seat here plays Big Money by hand."""

from __future__ import annotations

from kingdom.compiler.build import builtin_library
from kingdom.runtime.setup import standard_game
from kingdom.runtime.stepwise import IllegalAnswer, Pending, Session

from kingdom.lab.bots import BigMoney
from kingdom.table.narrate import Narrator


def choose(pending: Pending):
    """An answer in plain data, in the shape of `pending.options`."""
    if pending.kind == "treasures":
        return list(pending.options)  # every Treasure
    if pending.kind == "buy":
        for card in ("Province", "Gold", "Silver"):
            if card in pending.options:
                return card
        return None  # buy nothing
    if pending.kind == "play":
        return pending.options[0]
    if pending.kind in ("cards", "order"):
        return list(pending.options[: pending.min]) if pending.kind == "cards" \
            else list(pending.options)
    if pending.kind == "yes_no":
        return False
    return pending.options[0] if pending.min else None


def main() -> None:
    library = builtin_library()
    with Session() as session:
        game = standard_game(library, ["Smithy", "Village", "Moat"],
                             [session.seat(), BigMoney()], seed=2024)
        narrator = Narrator().attach(game)  # before the game starts: it says the setup too
        session.start(game)
        said = 0
        while (pending := session.pending()) is not None:
            narrator.flush()
            for line in narrator.lines[said:]:
                print(line.text)
            said = len(narrator.lines)
            print(f"  [{pending.player} is asked: {pending.prompt}; hand {pending.view.hand}]")
            try:
                session.answer(choose(pending))
            except IllegalAnswer as refused:  # says what would be accepted; still pending
                raise SystemExit(f"refused: {refused}") from None
        narrator.finish()
        for line in narrator.lines[said:]:
            print(line.text)
        result = session.result()
        print("Winners:", ", ".join(result.winners), dict(result.scores))


if __name__ == "__main__":
    main()
