"""Scenario files (format: docs/scenario-format.md): a state, some moves, the state expected.

`run_file` runs every scenario in a file and returns one `Outcome` per scenario; the
`kingdom test` command and the pytest plugin in tests/ both use it. Each file is checked first
(kingdom/scenarios/check.py, against kingdom/scenarios/scenario.schema.json): a malformed scenario fails
with positioned errors and is not run, and nothing in a file stops the other files.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdom.compiler.build import broken_cards, compile_folders
from kingdom.compiler.errors import CompileError, Diagnostic
from kingdom.compiler.expansions import discover
from kingdom.lab.bots import DefaultAgent
from kingdom.runtime.cards import Card
from kingdom.runtime.decisions import (
    BUY,
    CARDS,
    NAME,
    NUMBER,
    OPTION,
    ORDER,
    PILE,
    PLAY,
    TREASURES,
    YES_NO,
    Decision,
    IllegalAnswer,
)
from kingdom.runtime.game import Game, IllegalMove
from kingdom.runtime.library import Library
from kingdom.runtime.player import Player
from kingdom.runtime.setup import add_ally, build_supply, standard_game
from kingdom.runtime.tokens import BY_KEY, KINDS, SPENDABLE
from kingdom.scenarios.check import Scenario, check_references, from_data, load_file
from kingdom.table import moves

FILE_PROBLEM = "(file)"  # an outcome's name when its file is not read or not well formed


class ScenarioFailure(Exception):
    """The scenario did not go as written."""


@dataclass
class Outcome:
    file: str
    name: str
    passed: bool
    message: str = ""
    seconds: float = field(default=0.0, compare=False)  # how long it took to run


# ------------------------------------------------------------------------------ answers
class BotAgent(DefaultAgent):
    """A player of `bot:`: the generic bot answers its decisions (a decision-situation test)."""

    def __init__(self) -> None:
        self.answers: list[Any] = []
        self.turn_answers = None

    def decide(self, decision: Decision) -> Any:
        if decision.kind in (PLAY, TREASURES, BUY):
            raise ScenarioFailure("unexpected turn decision for the bot")
        return super().decide(decision)


class ScriptedAgent:
    """Answers decisions from a scenario's `answers`, in the order they are asked."""

    def __init__(self, player_name: str) -> None:
        self.player_name = player_name
        self.answers: list[Any] = []
        # A step's list of answers, when it is another player's (whose turn it was as the
        # step began): this player takes from it once the step has made it their turn.
        self.turn_answers: tuple[list[Any], str, Game] | None = None

    def decide(self, decision: Decision) -> Any:
        if decision.kind in (PLAY, TREASURES, BUY):
            raise ScenarioFailure(f"unexpected turn decision for {self.player_name}")
        answers = self.answers
        if not answers and self.turn_answers is not None and self.turn_answers[2].player.agent is self:
            answers = self.turn_answers[0]
        if not answers:
            raise ScenarioFailure(
                f"decision left without an answer for {self.player_name}: {decision.prompt} "
                f"(legal: {decision.describe_options()}; pick {decision.describe_count()})"
                + self._mapping_hint())
        answer = answers.pop(0)
        if isinstance(answer, dict):  # {refused: ANSWER, error: TEXT}: then the next answer
            self._refuse(decision, answer)
            return self.decide(decision)
        try:
            return convert_answer(decision, answer)
        except IllegalAnswer as exc:
            raise ScenarioFailure(f"answer {written(answer)} for {self.player_name}: {exc}") from None

    def _refuse(self, decision: Decision, expected: dict) -> None:
        """The answer `expected["refused"]` must be refused, with a message containing
        `expected["error"]` when given."""
        answer, error = expected["refused"], expected.get("error")
        try:
            decision.check(convert_answer(decision, answer))
        except IllegalAnswer as exc:
            if error is not None and str(error).lower() not in str(exc).lower():
                raise ScenarioFailure(f"answer {written(answer)} for {self.player_name}: refused "
                                      f"with '{exc}', expected a message containing '{error}'"
                                      ) from None
            return
        raise ScenarioFailure(f"answer {written(answer)} for {self.player_name}: accepted, "
                              f"expected it to be refused ({decision.prompt})")

    def _mapping_hint(self) -> str:
        """How to answer this player when the step's list was another's."""
        if self.turn_answers is None:
            return ""
        owner = self.turn_answers[1]
        return (f"; the step's list answers {owner} (whose turn it was as the step began): "
                f"give {self.player_name}'s answers as a mapping, answers: "
                f"{{{owner}: [...], {self.player_name}: [...]}}")


def written(value: Any) -> str:
    """`value` as a scenario file writes it (YAML flow style: yes, no, bare card names,
    [a, b], {key: value}), for messages: never Python's True or ['Copper']."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(written, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{written(k)}: {written(v)}" for k, v in value.items()) + "}"
    return str(value)


def _is_no(answer: Any) -> bool:
    return answer is False or answer == [] or (isinstance(answer, str) and answer.lower() == "no")


def _is_yes(answer: Any) -> bool:
    return answer is True or (isinstance(answer, str) and answer.lower() == "yes")


_NUMBER_WORDS = {w: str(n) for n, w in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"))}


def _plain(text: str) -> str:
    """An option's text as compared with an answer: any case, a count as a word or in digits
    ("gain two Silvers" is "gain 2 Silvers")."""
    return re.sub(r"\b(?:" + "|".join(_NUMBER_WORDS) + r")\b",
                  lambda m: _NUMBER_WORDS[m.group(0)], text.lower())


def convert_answer(decision: Decision, answer: Any) -> Any:
    """Turn a written answer (names, option text, yes/no, numbers) into a legal outcome."""
    kind = decision.kind
    if kind == YES_NO:
        if _is_yes(answer) or (isinstance(answer, str) and decision.card is not None
                               and answer == decision.card.d.name):
            return True
        if _is_no(answer):
            return False
        if isinstance(answer, str):
            return True  # a card's name answers a yes/no question about that card
        raise IllegalAnswer(f"{decision.prompt}: answer yes or no")
    if kind in (CARDS, ORDER):
        if _is_no(answer):
            return decision.check([])
        if _is_yes(answer):
            count = decision.max if decision.exact else max(decision.min, 1)  # "yes": all 2
            return decision.check(list(decision.options[:count]))
        names = answer if isinstance(answer, list) else [answer]
        return decision.check(decision.cards_named(names))
    if kind == OPTION:
        if decision.min == 0 and _is_no(answer):
            return None  # an optional choice among options, declined
        text = _plain(str(answer))
        exact = [o for o in decision.options if _plain(o) == text]
        found = exact or [o for o in decision.options if _plain(o).startswith(text)]
        if len(found) != 1:
            raise IllegalAnswer(f"{decision.prompt}: {written(answer)} matches "
                                f"{len(found)} of {decision.describe_options()}")
        return found[0]
    if kind in (PILE, NAME):
        if _is_no(answer) and decision.min == 0:
            return None
        game = decision.game
        if (kind == PILE and str(answer) not in decision.options and game is not None
                and str(answer) in game.piles and game.piles[str(answer)].top is not None):
            answer = game.piles[str(answer)].top.name  # a pile named by its name ("Forts")
        return decision.check(str(answer))
    if kind == NUMBER:
        return decision.check(int(answer))
    return decision.check(answer)


# ------------------------------------------------------------------------------ building
def card_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, dict):
        return [name for name, count in value.items() for _ in range(int(count))]
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def build_game(spec: dict, library: Library) -> Game:
    players = int(spec.get("players", 2))
    bot = spec.get("bot") or []
    bots = {bot} if isinstance(bot, str) else set(bot)  # answered by the generic bot
    agents = [BotAgent() if f"p{i + 1}" in bots else ScriptedAgent(f"p{i + 1}")
              for i in range(players)]
    kingdom = list(spec.get("kingdom", []))
    setup = spec.get("setup", {})
    if setup == "standard":
        game = standard_game(library, kingdom, agents, spec.get("seed"), spec.get("colonies", False),
                             ally=_ally_name(spec, library), choices=_setup_choices(spec, library))
        return game  # "stops at the start of the first turn": it begins with the first step
    game = Game(library, agents, spec.get("seed"))
    sizes = {library.resolve(k) or k: int(v) for k, v in (setup.get("supply") or {}).items()}
    build_supply(game, kingdom, spec.get("colonies", False), sizes)
    run_chosen_setups(game, _setup_choices(spec, library))
    for name, count in sizes.items():
        if name in game.piles and len(game.piles[name]) != count:
            pile = game.piles[name]
            if name in library.split_piles:  # as if the top cards were taken: the bottom remain
                pile.cards = pile.cards[:count]
                continue
            pile.cards = [game.new_card(library[name]) for _ in range(count)]
    listening = run_setup_rules_without_tokens(game)
    if spec.get("ally"):
        add_ally(game, library[_ally_name(spec, library)])
    turn = setup.get("turn", "p1")
    game.current = int(str(turn)[1:]) - 1
    for player in game.players:
        _fill_player(game, player, setup.get(player.name) or {})
    game.trash.extend(game.new_card(library[n]) for n in card_list(setup.get("trash")))
    # A card the scenario deals (in a hand, a deck, in play) works as it would in a game where
    # it came from the Supply: its game-wide and while-in-play abilities listen too.
    _listen(game, (c for p in game.players for zone in p.zones() for c in zone), listening)
    _listen(game, game.trash, listening)
    game.played_this_turn = _played_earlier(game, card_list(setup.get("played")))
    for player in game.players:
        player.turns_taken = int((setup.get(player.name) or {}).get("turns", int(player is game.player)))
    game.turn_number = max(1, sum(p.turns_taken for p in game.players))
    game.phase = "action"
    return game


def _played_earlier(game: Game, names: list[str]) -> list[Card]:
    """The cards `setup: played:` lists as played earlier this turn, in order: each a card of
    that name the turn's player has in play, else one in the trash (played, then trashed),
    else one that is nowhere now (it only counts as played)."""
    pools = [list(game.player.in_play), list(game.trash)]
    played = []
    for name in names:
        card = next((c for pool in pools for c in pool if c.d.name == name), None)
        if card is None:
            card = game.new_card(game.library[name])
        else:
            next(pool for pool in pools if any(c is card for c in pool)).remove(card)
        played.append(card)
    return played


def _ally_name(spec: dict, library: Library) -> str | None:
    """The scenario's Ally (`ally:`); without it the game has none."""
    name = spec.get("ally")
    if not name:
        return None
    resolved = library.resolve(str(name))
    if resolved is None:
        raise ScenarioFailure(f"unknown Ally '{name}'")
    return resolved


def _setup_choices(spec: dict, library: Library) -> dict[str, str]:
    """Scenario keys naming the pile a card's setup rule adds: `bane:` (the role its cards get),
    `ferryman:` (the card whose setup sets the pile aside); the cards' data says which."""
    keys = {key for d in library if d.setup is not None for key in d.setup_keys}
    return {key: library.resolve(str(spec[key])) or str(spec[key])
            for key in sorted(keys) if spec.get(key)}


def run_chosen_setups(game: Game, choices: dict[str, str]) -> None:
    """`bane:`, `ferryman:` in a mapping setup: the setup rules taking those choices run (those
    only), adding the pile named: the Bane pile to the Supply, Ferryman's outside it."""
    from kingdom.runtime.context import Ctx
    from kingdom.runtime.setup import add_brought_piles

    if not choices:
        return
    game.setup_choices.update(choices)
    for definition in game.library:
        if definition.setup is not None and set(definition.setup_keys) & set(choices):
            ctx = Ctx(game, game.players[0], None)
            ctx.vars["source"] = definition.name
            definition.setup(ctx)
    add_brought_piles(game)


def run_setup_rules_without_tokens(game: Game) -> set[str]:
    """A mapping setup runs no setup rule; game-wide abilities still listen. Returns the names
    of the cards whose abilities listen now."""
    listening: set[str] = set()
    for pile in game.piles.values():
        _listen(game, pile.cards, listening)
    return listening


def _listen(game: Game, cards: Iterable[Card], listening: set[str]) -> None:
    """Install the game-wide abilities of the `cards` not `listening` yet (each card name once)."""
    from kingdom.runtime.setup import install_game_triggers

    for card in cards:
        if card.d.name not in listening:
            listening.add(card.d.name)
            install_game_triggers(game, card.d)


def _fill_player(game: Game, player: Player, spec: dict) -> None:
    library = game.library

    def cards(key: str) -> list:
        return [game.new_card(library[n]) for n in card_list(spec.get(key))]

    player.hand = cards("hand")
    player.deck = list(reversed(cards("deck")))  # written top first; our top is the end
    player.discard = list(reversed(cards("discard")))
    player.in_play = cards("in_play")
    player.set_aside = cards("set_aside")
    for kind in KINDS:  # `coffers: 2`: each token kind by its key
        setattr(player, kind.key, int(spec.get(kind.key, 0)))
    if player is game.player:
        for key in ("actions", "buys", "coins"):
            if key in spec:
                setattr(game, key, int(spec[key]))


# ------------------------------------------------------------------------------ running
@dataclass
class Loaded:
    """The cards a scenario runs with: those that compiled, and the errors of the files that
    did not (a scenario needing none of those runs; one that does fails, naming the file)."""

    library: Library
    problems: list[Diagnostic]
    broken: dict[str, str]  # a broken card's name, in lower case: its file


_LIBRARIES: dict[tuple, Loaded] = {}


def library_for(expansions: list[Path]) -> Library:
    """The cards that compiled of `cards_for`."""
    return cards_for(expansions).library


def cards_for(expansions: list[Path]) -> Loaded:
    """The built-in cards, `expansions` (the scenario's own and `kingdom test --cards`),
    KINGDOM_PATH and installed expansions, compiled once per set of folders."""
    key = tuple(str(p.resolve()) for p in [*expansions, *discover(builtin=False)])
    if key not in _LIBRARIES:
        library, problems = compile_folders(discover(expansions), strict=False)
        _LIBRARIES[key] = Loaded(library, problems, broken_cards(problems))
    return _LIBRARIES[key]


def forget_libraries() -> None:
    """Compile the cards again next time: a card file changed (Kingdom Studio saved one)."""
    _LIBRARIES.clear()


def card_problems() -> list[Diagnostic]:
    """The errors of every card file that did not compile, over the libraries loaded so far."""
    seen: dict[tuple, Diagnostic] = {}
    for loaded in _LIBRARIES.values():
        for d in loaded.problems:
            seen.setdefault((d.file, d.line, d.column, d.code, d.message), d)
    return list(seen.values())


def run_file(file: Path, cards: Sequence[Path] = ()) -> list[Outcome]:
    """Every scenario of `file`, run with the extra card folders `cards`; a file or scenario
    that is not well formed fails alone."""
    scenarios, problems = load_file(file)
    if problems:
        return [Outcome(str(file), FILE_PROBLEM, False, CompileError(problems).report())]
    return [run_scenario(scenario, cards=cards) for scenario in scenarios]


def run_scenario(scenario: Scenario | dict, file: Path | None = None,
                 cards: Sequence[Path] = ()) -> Outcome:
    """Check the scenario (a loaded one, or data made in code beside `file`), play it; never
    raises. The outcome says how long that took."""
    start = time.perf_counter()
    outcome = _run_scenario(scenario, file, cards)
    outcome.seconds = time.perf_counter() - start
    return outcome


def _run_scenario(scenario: Scenario | dict, file: Path | None, cards: Sequence[Path]) -> Outcome:
    if isinstance(scenario, dict):
        scenario = from_data(scenario, file or Path("<scenario>"))
    file, name, spec = scenario.file, scenario.name, scenario.spec
    try:
        if scenario.problems:
            raise CompileError(scenario.problems)
        loaded = cards_for([*cards, *(file.parent / p for p in spec.get("expansions", []))])
        problems = check_references(scenario, loaded.library, loaded.broken)
        if problems:
            needed = {f for f in loaded.broken.values()
                      if any(d.code == "K510" and f in d.message for d in problems)}
            raise CompileError(problems + [d for d in loaded.problems if d.file in needed])
        play_scenario(spec, loaded.library)
    except ScenarioFailure as exc:
        return Outcome(str(file), name, False, str(exc))
    except CompileError as exc:
        return Outcome(str(file), name, False, exc.report())
    except (IllegalMove, IllegalAnswer, KeyError, ValueError) as exc:
        return Outcome(str(file), name, False, f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # an engine fault fails this scenario, not the whole run
        return Outcome(str(file), name, False, f"internal error: {type(exc).__name__}: {exc}")
    return Outcome(str(file), name, True)


def play_scenario(spec: dict, library: Library) -> None:
    """Build the game, run the steps, compare with `expect`; raises ScenarioFailure."""
    game = build_game(spec, library)
    first_turn_pending = spec.get("setup") == "standard"
    for step in spec.get("steps") or []:
        run_step(game, step, start_turn=first_turn_pending)
        first_turn_pending = False
    check_expectations(game, spec.get("expect") or {})


def _load_answers(game: Game, answers: Any) -> None:
    """A mapping gives each player their answers; a list answers the player whose turn it is
    as the step begins, and, when the step ends that turn (`end_turn`), what is left of it
    answers the player whose turn it becomes (a Duration's choice at the start of it)."""
    for player in game.players:
        player.agent.answers = []
        player.agent.turn_answers = None
    if answers is None:
        return
    if isinstance(answers, dict):
        for player_name, items in answers.items():
            agent = game.players[int(str(player_name)[1:]) - 1].agent
            agent.answers = list(items) if isinstance(items, list) else [items]
        return
    owner = game.player
    owner.agent.answers = list(answers) if isinstance(answers, list) else [answers]
    for player in game.players:
        if player is not owner:
            player.agent.turn_answers = (owner.agent.answers, owner.name, game)


def run_step(game: Game, step: dict, start_turn: bool = False) -> None:
    """Run one move with its answers; `start_turn` first starts the game's first turn."""
    _load_answers(game, step.get("answers"))
    if start_turn:
        game.start_turn()
    expected_error = step.get("error")
    before = snapshot(game) if expected_error is not None else None
    try:
        _do_move(game, step)
    except IllegalMove as exc:
        if expected_error is None:
            raise ScenarioFailure(f"step {written(step)}: refused: {exc}") from None
        if str(expected_error).lower() not in str(exc).lower():
            raise ScenarioFailure(f"step {written(step)}: refused with '{exc}', "
                                  f"expected a message containing '{expected_error}'") from None
        if snapshot(game) != before:
            raise ScenarioFailure(f"step {written(step)}: the refused move changed the state") from None
        return
    if expected_error is not None:
        raise ScenarioFailure(f"step {written(step)}: expected it to be refused ({expected_error})")
    for player in game.players:
        if player.agent.answers:
            raise ScenarioFailure(f"step {written(step)}: answers left unused for "
                                  f"{player.name}: {written(player.agent.answers)}")


def _do_move(game: Game, step: dict) -> None:
    if "play" in step:
        names = step["play"] if isinstance(step["play"], list) else [step["play"]]
        for name in names:
            moves.play(game, str(name))
    elif "buy" in step:
        moves.buy(game, str(step["buy"]), int(step.get("overpay", 0)))
    elif spent := next((kind for kind in SPENDABLE if kind.key in step), None):
        moves.spend(game, spent, int(step[spent.key]))  # `villagers: 1`
    elif step.get("end_turn"):
        moves.end_turn(game)
    elif "gain" in step:
        who = step.get("player", game.player.name)
        player = game.players[int(str(who)[1:]) - 1]
        name = game.library.resolve(str(step["gain"])) or str(step["gain"])
        if game.gain(player, name) is None:
            raise IllegalMove(f"cannot gain {step['gain']}: none left")
    else:
        raise ScenarioFailure(f"unknown step {written(step)}")


def snapshot(game: Game) -> Any:
    zones = [[[id(c) for c in z] for z in p.zones()] + [getattr(p, kind.key) for kind in KINDS]
             for p in game.players]
    piles = {n: len(p) for n, p in game.piles.items()}
    return (zones, piles, game.actions, game.buys, game.coins, game.phase, len(game.trash))


# ------------------------------------------------------------------------------ expectations
def _names(cards) -> list[str]:
    return [c.d.name for c in cards]


def check_expectations(game: Game, expect: dict) -> None:
    problems = []

    def differ(what: str, expected: Any, actual: Any) -> None:
        problems.append(f"{what}: expected {written(expected)}, got {written(actual)}")

    for key, value in expect.items():
        if key.startswith("p") and key[1:].isdigit():
            player = game.players[int(key[1:]) - 1]
            for field, wanted in value.items():
                actual = player_value(game, player, field)
                if field in ("hand", "in_play", "discard", "set_aside", "owned"):
                    wanted_names = card_list(wanted)
                    if Counter(wanted_names) != Counter(actual):
                        differ(f"{key}.{field}", sorted(wanted_names), sorted(actual))
                elif field == "deck":
                    if card_list(wanted) != actual:
                        differ(f"{key}.deck", card_list(wanted), actual)
                elif actual != wanted:
                    differ(f"{key}.{field}", wanted, actual)
        elif key == "trash":
            if Counter(card_list(value)) != Counter(_names(game.trash)):
                differ("trash", sorted(card_list(value)), sorted(_names(game.trash)))
        elif key == "supply":
            for pile, count in value.items():
                resolved = game.piles.get(pile) or game.pile_of.get(
                    game.library.resolve(pile) or pile)
                actual = len(resolved) if resolved is not None else None
                if actual != count:
                    differ(f"supply.{pile}", count, actual)
        elif key == "top":
            for pile, card in value.items():
                top = game.piles[pile].top
                if (top.name if top else None) != card:
                    differ(f"top.{pile}", card, top.name if top else None)
        elif key == "turn":
            if game.player.name != value:
                differ("turn", value, game.player.name)
        elif key == "game_over":
            if game.game_over != value:
                differ("game_over", value, game.game_over)
        elif key == "winner":
            wanted = value if isinstance(value, list) else [value]
            actual = [p.name for p in game.winners()]
            if sorted(wanted) != sorted(actual):
                differ("winner", wanted, actual)
        else:
            problems.append(f"unknown expectation '{key}'")
    if problems:
        raise ScenarioFailure("; ".join(problems))


def player_value(game: Game, player: Player, field: str) -> Any:
    if field in ("hand", "in_play", "discard", "set_aside"):
        return _names(getattr(player, field))
    if field == "owned":
        return _names(player.owned())
    if field == "deck":
        return list(reversed(_names(player.deck)))
    if field.endswith("_count"):
        zone = field.removesuffix("_count")
        return len(getattr(player, zone))
    if field in ("actions", "buys", "coins"):
        if player is not game.player:
            return 0
        return getattr(game, field)
    if field in BY_KEY:  # a token kind
        return getattr(player, field)
    if field == "turns":
        return player.turns_taken
    if field == "score":
        return game.score(player)
    raise ScenarioFailure(f"unknown player expectation '{field}'")
