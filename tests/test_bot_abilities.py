"""Bots use what they play: a card's optional ability, Reaction or Favor spend makes the card
rate higher than the same card without it (seeded `kingdom rate` and `simulate` figures), and the
generic bot takes such abilities only when they pay (Desert Guides)."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.decisions import YES_NO, Decision

from kingdom.lab import rate
from kingdom.lab.bots import DefaultAgent
from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, simulate

# Each card as printed but for its optional ability (what "you may ..." or "any number" offers)
WITHOUT = {
    "Cellar": "dsl: 1\nname: Bare Cellar\ncost: 2\ntypes: [Action]\nplay: +1 action\n",
    "Mill": "dsl: 1\nname: Bare Mill\ncost: 4\ntypes: [Action, Victory]\nvp: 1\n"
            "play:\n  - +1 card\n  - +1 action\n",
    "Joust": "dsl: 1\nname: Bare Joust\ncost: 5\ntypes: [Action]\n"
             "play:\n  - +1 card\n  - +1 action\n  - +$1\n",
    "Moat": "dsl: 1\nname: Bare Moat\ncost: 2\ntypes: [Action]\nplay: +2 cards\n",
}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("without")
    for name, text in WITHOUT.items():
        (folder / f"bare-{name.lower()}.yaml").write_text(text)
    library, problems = compile_folders([BUILTIN_CARDS, folder], strict=False)
    assert not [p for p in problems if "bare" in str(p).lower()], problems
    return library


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_harbinger_rates_above_village(library):
    """`kingdom rate Harbinger Village --games 4000 --seed 1`: Harbinger's "you may put a card
    from your discard pile onto your deck" is worth something over a bare +1 Card +1 Action."""
    harbinger = rate.rate_card(library, "Harbinger", 4000, 1)
    village = rate.rate_card(library, "Village", 4000, 1)
    assert harbinger.win_rate > village.win_rate, (harbinger, village)
    assert harbinger.interval[0] > village.win_rate


@pytest.mark.parametrize("card", ["Cellar", "Mill", "Joust"])
def test_a_card_rates_above_itself_without_its_optional_ability(library, card):
    """Seeded ratings: the printed card against the same card with the "you may" taken out.
    Each is played by the bot that searched its best copies, as `kingdom rate` does."""
    printed = rate.rate_card(library, card, 2000, 1, decisions=True)
    bare = rate.rate_card(library, f"Bare {card}", 2000, 1)
    assert printed.win_rate > bare.win_rate, (printed, bare)
    taken = {(c, ability): took for c, ability, _asked, took in printed.decisions}
    assert max(took for (c, _a), took in taken.items() if c == card) > 0  # (it was used)


def test_moat_is_revealed_whenever_held_and_beats_a_moat_without_its_reaction(library):
    witch = resolve_bot("big-money+Witch*2", library)
    moat = resolve_bot("big-money+Moat*1", library)
    bare = resolve_bot("big-money+Bare Moat*1", library)
    with_reaction = simulate(Setup(library, ["Moat", "Witch"], [moat, witch], decisions=True),
                             games=2000, seed=1).bots[0]
    without = simulate(Setup(library, ["Bare Moat", "Witch"], [bare, witch]), games=2000,
                       seed=1).bots[0]
    asked = with_reaction.decisions[("Moat", "react", "asked")]
    assert asked > 500 and with_reaction.decisions[("Moat", "react", "taken")] == asked
    assert with_reaction.wins > without.wins, (with_reaction, without)


class GuidesWatcher(DefaultAgent):
    """The default bot, noting the $ in Treasures of each hand it chose to redraw with Desert
    Guides (its yes/no about spending a Favor), and of each it kept."""

    def __init__(self) -> None:
        self.redrawn: list[int] = []
        self.kept: list[int] = []

    def decide(self, decision: Decision):
        answer = super().decide(decision)
        game = decision.game
        if decision.kind == YES_NO and game.ally is not None and game.ally.name == (
                "Desert Guides") and type(decision.gives[0]).__name__ == "Spend":
            money = sum(c.d.coins or 0 for c in decision.player.hand if c.d.is_treasure)
            (self.redrawn if answer else self.kept).append(money)
        return answer


def test_desert_guides_never_redraws_a_hand_with_six_in_treasures(library):
    watchers = [GuidesWatcher(), GuidesWatcher()]

    class Seat:
        def __init__(self, agent):
            self.name, self.watcher = "watched default", agent

        def agent(self, seed=None):
            return self.watcher

    setup = Setup(library, ["Bauble", "Underling", "Smithy", "Village", "Market"],
                  [Seat(w) for w in watchers], ally="Desert Guides")
    results = simulate(setup, games=200, seed=1)
    assert not results.failures
    redrawn = [m for w in watchers for m in w.redrawn]
    kept = [m for w in watchers for m in w.kept]
    assert redrawn and kept, (redrawn, kept)  # it spends, and it keeps
    assert max(redrawn) < 6, sorted(redrawn)
