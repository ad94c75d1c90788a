"""Bots for any card (big-money+CARD), the generic bot's card values, `kingdom rate`, round robin
and the with/without table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders

from kingdom.cli.main import main
from kingdom.lab import autobots
from kingdom.lab.bots import SILVER_VALUE, card_value
from kingdom.lab.rate import Rating, place
from kingdom.lab.results import wilson, with_without
from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, round_robin, simulate

FISHING_BOAT = ('dsl: 1\nname: Fishing Boat\ncost: 3\ntypes: [Action, Duration]\nplay:\n'
                '  - +1 action\n  - +$1\n  - "at the start of your next turn: +2 cards"\n')


@pytest.fixture(scope="module")
def library():
    library, _ = compile_folders([BUILTIN_CARDS / "base"])
    return library


@pytest.fixture
def my_set(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "my-set"
    folder.mkdir()
    (folder / "fishing-boat.yaml").write_text(FISHING_BOAT)
    return folder


def test_smithy_big_money_figures_through_big_money_plus_smithy(library):
    """The published Smithy-BM against BM figures (60.0 / 12.5 / 27.5), with no strategy file:
    big-money+Smithy*1 buys one Smithy at $4-5, as Smithy-BM does."""
    bots = [resolve_bot("big-money+Smithy*1", library), resolve_bot("big-money", library)]
    results = simulate(Setup(library, ["Smithy"], bots), games=5000, seed=1)
    stats = results.bots[0]
    for count, published in ((stats.wins, 0.600), (stats.losses, 0.125), (stats.ties, 0.275)):
        low, high = wilson(count, stats.games)
        assert low <= published <= high, (count / stats.games, published, (low, high))
    assert stats.bought["Smithy"] == stats.games  # exactly one a game


def test_big_money_plus_card_buying_window_and_copies(library):
    witch = resolve_bot("big-money+witch*2", library)
    assert witch.name == "big-money+Witch*2"
    assert [r.card for r in witch.buy] == ["Province", "Gold", "Witch", "Silver"]
    gold_price = resolve_bot("big-money-ultimate+Artisan*1", library)  # $6: above Gold
    cards = [r.card for r in gold_price.buy]
    assert cards.index("Artisan") == cards.index("Gold") - 1
    results = simulate(Setup(library, ["Witch"], [witch, resolve_bot("big-money", library)]),
                       games=200, seed=3)
    assert 1.5 < results.bots[0].bought["Witch"] / results.bots[0].games <= 2
    assert results.bots[0].played["Witch"] > 0 and results.bots[0].wins > results.bots[1].wins


def test_terminal_copies_are_spaced(library):
    """A terminal card's next copy waits for TERMINAL_SPACING cards per copy."""
    bot = resolve_bot("big-money+Smithy*3", library)
    results = simulate(Setup(library, ["Smithy"], [bot, bot]), games=100, seed=2)
    bought = sum(b.bought["Smithy"] for b in results.bots) / sum(b.games for b in results.bots)
    assert 1 < bought < 3


def test_copies_are_searched_and_cached(library, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(autobots, "SEARCH_GAMES", 40)
    found = autobots.best_copies("big-money", "Witch", library, games=40)
    assert 1 <= found <= autobots.MAX_COPIES
    monkeypatch.setattr(autobots, "duel_score", lambda *a, **k: pytest.fail("not cached"))
    assert autobots.best_copies("big-money", "Witch", library, games=40) == found
    assert list((tmp_path / "kingdom").rglob("*.json")) or list(tmp_path.rglob("*.json"))


@pytest.mark.parametrize("spec, message", [
    ("big-money+Smithee", "did you mean 'Smithy'"),
    ("big-money+Smithy*4", "1 to 3"),
    ("big-money+Smithy*0", "1 to 3"),
])
def test_bad_specs(library, spec, message):
    with pytest.raises(ValueError, match=message):
        resolve_bot(spec, library)


def test_generic_bot_values_cards_by_what_they_do(library, my_set):
    cards, _ = compile_folders([BUILTIN_CARDS / "base", my_set])
    assert card_value(cards["Fishing Boat"]) > SILVER_VALUE  # an unknown $3 card worth buying
    assert card_value(library["Chapel"]) < SILVER_VALUE
    assert card_value(library["Witch"]) > card_value(library["Smithy"]) > card_value(
        library["Village"])
    bots = [resolve_bot("default", cards), resolve_bot("big-money", cards)]
    results = simulate(Setup(cards, ["Fishing Boat"], bots), games=20, seed=1)
    assert results.bots[0].bought["Fishing Boat"] > 0


def test_round_robin_matrix(library):
    bots = [resolve_bot(s, library) for s in ("big-money", "big-money+Smithy*1",
                                              "big-money+Witch*2")]
    pairs = round_robin(Setup(library, ["Smithy", "Witch"], bots), games=60, seed=1)
    assert sorted(pairs) == [(0, 1), (0, 2), (1, 2)]
    for (i, j), results in pairs.items():
        assert [b.name for b in results.bots] == [bots[i].name, bots[j].name]
        assert results.games == 60
    assert pairs[(0, 2)].bots[1].wins > pairs[(0, 2)].bots[0].wins  # Witch beats Big Money


def test_round_robin_cli(capsys):
    code = main(["simulate", "--kingdom", "Smithy", "--bots", "big-money,big-money+Smithy*1,"
                 "smithy-big-money", "--round-robin", "--games", "20", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and len(data["pairs"]) == 6
    pairs = {(p["bot"], p["against"]): p for p in data["pairs"]}
    mirror = pairs["big-money+Smithy*1", "Smithy Big Money"]
    back = pairs["Smithy Big Money", "big-money+Smithy*1"]
    assert mirror["games"] == back["games"] == 20 and mirror["ties"] == back["ties"]
    assert main(["simulate", "--kingdom", "Smithy", "--bots", "big-money", "--round-robin"]) == 2


def test_with_without(library):
    bots = [resolve_bot("big-money+Witch*2", library), resolve_bot("big-money", library)]
    results = simulate(Setup(library, ["Witch"], bots), games=100, seed=1)
    rows = {row.card: row for row in with_without(results)}
    witch = rows["Witch"]
    assert witch.games_with + witch.games_without == 200
    assert witch.wins_with + witch.wins_without == sum(b.wins for b in results.bots)
    assert witch.wins_with / witch.games_with > witch.wins_without / witch.games_without
    assert rows["Silver"].games_without == 0
    assert rows["Silver"].to_json()["without"]["win_rate"] is None  # no rate from no games


def test_rate_places_among_official_cards():
    table = [Rating(n, 4, f"big-money+{n}*1", 100, w, 100 - w, 0)
             for n, w in (("A", 70), ("B", 50), ("C", 30))]
    assert place(Rating("X", 3, "x", 100, 60, 40, 0), table) == (2, 4, pytest.approx(200 / 3))
    assert place(table[0], table) == (1, 3, 100.0)  # itself left out
    assert place(Rating("Y", 3, "y", 100, 50, 50, 0), table)[2] == 50.0


def test_rate_cli_table_shape_and_order(my_set, capsys):
    code = main(["rate", "--cards", str(my_set), "Witch", "Fishing Boat", "Chapel",
                 "--among", "base-1e", "--games", "30", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    rates = [c["win_rate"] for c in data["cards"]]
    assert data["cards"][0]["card"] == "Witch" and rates == sorted(rates, reverse=True)
    for card in data["cards"]:
        assert card["games"] == 30 and card["official_cards"] == 7
        assert card["win_ci95"][0] <= card["win_rate"] <= card["win_ci95"][1]
        assert card["bot"].startswith(f"big-money+{card['card']}*")
    cache = list((my_set.parent / "cache").rglob("*.json"))
    assert cache  # the reference table and the searched copies, signed JSON


def test_rate_cli_rates_a_cards_folder(my_set, capsys):
    assert main(["rate", "--cards", str(my_set), "--among", "base-1e", "--games", "10",
                 "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert [(c["card"], c["official_cards"]) for c in cards] == [("Fishing Boat", 7)]
    assert main(["rate", "--cards", str(my_set), "--among", "base-1e", "--games", "10"]) == 0
    assert "Fishing Boat" in capsys.readouterr().out  # the table
    assert main(["rate", "--cards", str(my_set), "--among", "base-1e", "--games", "10",
                 "--no-progress"]) == 0  # as simulate takes it
    assert capsys.readouterr().err == ""
    assert main(["rate"]) == 2
    assert main(["rate", "Smithy", "--set", "base"]) == 2
    assert main(["rate", "Copper"]) == 2


def test_rate_on_a_cluster_gives_the_local_numbers(library):
    """A rating played by a Dask cluster's workers equals the one played here (same seed)."""
    distributed = pytest.importorskip("distributed")
    from kingdom.lab.cluster import ClusterRunner
    from kingdom.lab.rate import rate_card

    local = rate_card(library, "Smithy", 60, seed=5)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        remote = rate_card(library, "Smithy", 60, seed=5, runner=ClusterRunner(cluster.scheduler_address))
    assert remote == local and local.games == 60


BOOMERANG = ('dsl: 1\nname: Boomerang\ncost: 2\ntypes: [Action]\nplay:\n  - "+1 action"\n'
             '  - "put this into your hand"\n')


def test_rate_refuses_a_split_pile_by_name(capsys):
    """`kingdom rate Wizards` was an internal KeyError."""
    assert main(["rate", "Wizards", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "'Wizards' is a split pile, which is not rated; its cards are Student, " in err


def test_rate_of_a_card_whose_every_game_stalls_says_so_and_fails(my_set, monkeypatch, capsys):
    """Every game of Boomerang's bot stalls: it was rated 0% from 0 games, exit status 0."""
    monkeypatch.setattr("kingdom.runtime.game.STEP_BUDGET", 500)  # (stalls found sooner)
    (my_set / "boomerang.yaml").write_text(BOOMERANG)
    code = main(["rate", "--cards", str(my_set), "Boomerang", "Fishing Boat", "--among",
                 "base-1e", "--games", "4", "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    assert [c["card"] for c in json.loads(out)["cards"]] == ["Fishing Boat"]
    assert "Boomerang: none of its 4 games could be played, so it has no rating; the first: " \
           "game 0 (seed " in err and "stopped while playing Boomerang" in err


def test_official_cards_are_those_under_the_cards_folder_not_a_folder_named_like_it(
        tmp_path, monkeypatch):
    """A string prefix took `cards-extra/` for the built-in `cards/`."""
    from kingdom.lab.rate import official_cards

    for folder, name in (("cards", "Home Boat"), ("cards-extra", "Away Boat")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "boat.yaml").write_text(
            FISHING_BOAT.replace("Fishing Boat", name).replace("name:", "set: base\nname:"))
    library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path / "cards", tmp_path / "cards-extra"])
    assert not diagnostics
    monkeypatch.setattr("kingdom.lab.rate.BUILTIN_CARDS", tmp_path / "cards")
    assert official_cards(library, ["base"]) == ["Home Boat"]


def test_cards_of_the_current_folder_are_of_its_set(tmp_path, monkeypatch):
    """`--cards .` gave the cards an empty set id."""
    from kingdom.compiler.expansions import folder_cards

    folder = tmp_path / "harbour"
    folder.mkdir()
    (folder / "fishing-boat.yaml").write_text(FISHING_BOAT)
    monkeypatch.chdir(folder)
    assert folder_cards(".")[0] == [(Path("fishing-boat.yaml"), "harbour")]
    assert folder_cards("fishing-boat.yaml")[0] == [(Path("fishing-boat.yaml"), "harbour")]
    monkeypatch.chdir(folder / "..")
    assert folder_cards(f"harbour/{'.'}")[0][0][1] == "harbour"
