"""The compile cache holds data, never code: planted pickles, corrupt and tampered entries are
ignored and replaced; the fingerprint covers the schema; XDG paths; pruning; the grammar key."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from kingdom.compiler import cache
from kingdom.compiler.build import compile_folders
from kingdom.compiler.parser import LARK_OPTIONS, grammar_text

ROOT = Path(__file__).resolve().parent.parent
CARD = """dsl: 1
name: Hamlet Well
cost: 3
types: [Action]
play: +1 card; +2 actions
"""
SMALL_GRAMMAR = 'start: "hello" NAME\n%import common.CNAME -> NAME\n%ignore " "\n'


class Marker:
    """Unpickling this creates the file `path`: what a planted pickle could do."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return Path.touch, (self.path,)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder and key for this test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("KINGDOM_NO_CACHE", raising=False)
    return tmp_path


def _card_folder(home: Path) -> Path:
    folder = home / "cards" / "village-set"
    folder.mkdir(parents=True)
    (folder / "hamlet_well.yaml").write_text(CARD, encoding="utf-8")
    return home / "cards"


def _compile(folder: Path):
    library, diagnostics = compile_folders([folder], strict=False)
    assert diagnostics == []
    return library.cards["Hamlet Well"]


def _only_entry(pattern: str, home: Path) -> Path:
    entries = list((home / "cache" / "kingdom").glob(pattern))
    assert len(entries) == 1, entries
    return entries[0]


def _tampered(entry: Path, old: bytes, new: bytes) -> bytes:
    """The entry with `old` replaced by `new` in its JSON, still well formed, its HMAC kept."""
    mac, _, payload = entry.read_bytes().partition(b"\n")
    assert old in payload
    changed = payload.replace(old, new)
    json.loads(changed)
    return mac + b"\n" + changed


def _plants(entry: Path, marker: Path, old: bytes, new: bytes) -> dict[str, bytes]:
    poison = pickle.dumps(Marker(marker))
    return {
        "pickle": poison,
        "pickle after a well-formed HMAC line": entry.read_bytes().partition(b"\n")[0] + b"\n" + poison,
        "corrupt": entry.read_bytes()[: entry.stat().st_size // 2],
        "tampered": _tampered(entry, old, new),
    }


def test_planted_card_entries_are_ignored_and_replaced(home: Path) -> None:
    cards = _card_folder(home)
    fresh = _compile(cards)  # parsed, and kept in the cache
    assert fresh.cost == 3
    entry = _only_entry("cards/*/*.json", home)
    good = entry.read_bytes()
    marker = home / "marker"
    legacy = entry.with_suffix(".pickle")  # where older versions kept it
    legacy.write_bytes(pickle.dumps(Marker(marker)))
    for kind, planted in _plants(entry, marker, b'"cost":3', b'"cost":9').items():
        entry.write_bytes(planted)
        card = _compile(cards)
        assert (card.cost, card.text) == (3, fresh.text), kind
        assert not marker.exists(), kind
        assert entry.read_bytes() == good, kind  # replaced by what we write
    assert _compile(cards).cost == 3


def test_an_entry_moved_to_another_cards_name_is_ignored(home: Path) -> None:
    cards = _card_folder(home)
    (cards / "village-set" / "other.yaml").write_text(
        CARD.replace("Hamlet Well", "Other Well").replace("cost: 3", "cost: 5"), encoding="utf-8")
    compile_folders([cards])
    first, second = sorted((home / "cache" / "kingdom").glob("cards/*/*.json"))
    second.write_bytes(first.read_bytes())  # both now hold one card, under the HMAC of one name
    library, _ = compile_folders([cards])
    assert (library.cards["Hamlet Well"].cost, library.cards["Other Well"].cost) == (3, 5)


def test_planted_lark_tables_are_ignored_and_replaced(home: Path) -> None:
    options = {"parser": "lalr"}
    cache.lark_parser(SMALL_GRAMMAR, options)  # fills the cache
    entry = _only_entry("lark/*.json", home)
    marker = home / "marker"
    legacy = home / "cache" / "kingdom" / "lark-0123456789abcdef01234567.pickle"
    legacy.write_bytes(pickle.dumps(Marker(marker)))
    for kind, planted in _plants(entry, marker, b'"hello"', b'"bye"').items():
        entry.write_bytes(planted)
        parser = cache.lark_parser(SMALL_GRAMMAR, options)
        assert parser.parse("hello world").children[0] == "world", kind
        with pytest.raises(Exception, match="bye"):
            parser.parse("bye world")
        assert not marker.exists(), kind
        assert cache.open_store("lark", {}, 3, 1 << 30).get(entry.stem) is not None, kind  # replaced
    assert not legacy.exists()  # (deleted, never read)


def test_lark_tables_read_back_parse_alike(home: Path) -> None:
    built = cache.lark_parser(grammar_text(), LARK_OPTIONS)
    loaded = cache.lark_parser(grammar_text(), LARK_OPTIONS)
    assert (built.source_path, loaded.source_path) == ("<string>", "<deserialized>")
    for line in ("+1 card; +2 actions", "trash a card from your hand; gain a card costing up to $2 "
                 "more than it", "trash up to 4 cards from your hand"):
        assert loaded.parse(line, start="statements") == built.parse(line, start="statements")


def test_a_warm_cache_gives_the_same_cards(home: Path) -> None:
    cards = _card_folder(home)
    cold = _compile(cards)
    warm = _compile(cards)
    assert (warm.text, warm.cost, warm.types) == (cold.text, cold.cost, cold.types)


def test_only_allow_listed_classes_are_rebuilt() -> None:
    with pytest.raises(ValueError, match="not a value we cache"):
        cache.loads(b'{"#": "os.system", "command": "touch x"}', {})
    with pytest.raises(TypeError):
        cache.dumps(print, {})
    value = {"a": (1, "b"), 2: {3}, "#x": [None, 1.5]}
    assert cache.loads(cache.dumps(value, {}), {}) == value


def test_a_schema_change_gives_a_new_fingerprint(tmp_path: Path) -> None:
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "compiler", copy / "compiler", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "grammar", copy / "grammar")
    before = cache.fingerprint(copy)
    schema = copy / "compiler" / "card.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8").replace('"cost"', '"price"', 1))
    cache.fingerprint.cache_clear()
    assert cache.fingerprint(copy) != before
    assert cache.fingerprint(ROOT) == cache.fingerprint()


def test_relative_xdg_folders_are_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    monkeypatch.delenv("KINGDOM_NO_CACHE", raising=False)
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "kingdom"
    assert cache.secret() is not None
    assert (tmp_path / "home" / ".local" / "state" / "kingdom" / "cache-key").is_file()
    assert not (tmp_path / "relative").exists()


def test_a_key_file_others_can_read_turns_the_cache_off(home: Path) -> None:
    key = home / "state" / "kingdom" / "cache-key"
    key.parent.mkdir(parents=True)
    key.write_text("ab" * 32)
    key.chmod(0o644)
    assert cache.open_store("cards/x", {}, 10, 1 << 20) is None
    key.chmod(0o600)
    cache._read_or_make_key.cache_clear()
    assert cache.open_store("cards/x", {}, 10, 1 << 20) is not None


def _aged(store: cache.Store, seconds: float) -> None:
    for path in store.folder.glob("*.json"):
        stamp = path.stat().st_mtime - seconds
        os.utime(path, (stamp, stamp))


def test_pruning_keeps_the_cache_bounded_and_the_recently_used(home: Path) -> None:
    store = cache.open_store("cards/x", {}, 10, 1 << 20)
    assert store is not None
    mine = store.folder / "notes.json"  # not a name we make: never pruned
    mine.write_text("{}")
    for n in range(10):
        store.put(_name(n), [n] * 10)
    _aged(store, 2 * cache.TOUCH_AFTER)
    assert store.get(_name(0)) == [0] * 10  # used lately
    store.put(_name(10), [10] * 10)  # one too many: down to 3/4, the least recently used go
    kept = {path.stem for path in store.folder.glob("*.json")}
    assert len(kept) == 8 and {_name(0), _name(10), "notes"} <= kept
    for n in range(11, 40):
        store.put(_name(n), [n] * 10)
        assert store.usage()[0] <= 10
    big = cache.open_store("cards/y", {}, 1000, 2000)
    for n in range(50):
        big.put(_name(n), "x" * 200)
        assert big.usage()[1] <= 2000
    assert mine.exists()


def _name(n: int) -> str:
    return f"{n:032x}"


def test_the_grammar_is_the_same_whatever_order_primitives_register_in() -> None:
    script = ("import hashlib, sys\nfor name in sys.argv[1:]:\n"
              "    __import__('kingdom.compiler.primitives.' + name)\n"
              "from kingdom.compiler import primitives\nfrom kingdom.compiler.parser import grammar_text\n"
              "key = hashlib.sha256(grammar_text().encode()).hexdigest()\n"
              "print(' '.join(primitives.GRAMMAR), key)")
    runs = [subprocess.run([sys.executable, "-c", script, *names], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
            for names in (["bonus", "turn"], ["turn", "tokens", "bonus"])]
    orders, keys = [run[:-1] for run in runs], [run[-1] for run in runs]
    assert orders[0] != orders[1] and sorted(orders[0]) == sorted(orders[1])
    assert keys[0] == keys[1]


def test_a_pipe_or_link_planted_as_an_entry_does_not_hang_or_get_read(home: Path) -> None:
    cards = _card_folder(home)
    _compile(cards)
    entry = _only_entry("cards/*/*.json", home)
    good = entry.read_bytes()
    outside = home / "outside.json"
    outside.write_bytes(good)
    for plant in (os.mkfifo, lambda path: path.symlink_to(outside)):
        entry.unlink()
        plant(entry)
        signal.signal(signal.SIGALRM, _timeout)
        signal.alarm(30)
        try:
            assert _compile(cards).cost == 3
        finally:
            signal.alarm(0)
        assert entry.is_file() and not entry.is_symlink() and entry.read_bytes() == good


def _timeout(*_) -> None:
    raise TimeoutError("the compile hung")
