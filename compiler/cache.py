"""The compile cache: parsed cards and Lark's parser tables kept between runs, as data only.

Where: `$XDG_CACHE_HOME/kingdom` (an absolute path; else `~/.cache/kingdom`); off when
KINGDOM_NO_CACHE is set or the folder cannot be made. The parsed cards of one compiler live in
`cards/<fingerprint>/` (the fingerprint covers the compiler's sources, its JSON Schema, the
grammar and the installed libraries); Lark's tables in `lark/<grammar key>.json`. Entries
are pruned, least recently used first, past a count and a size.

An entry is one file: a hex HMAC-SHA256 line, then JSON. The HMAC covers the entry's name and
its JSON and is made with a per-user secret kept outside the cache, in
`$XDG_STATE_HOME/kingdom/cache-key` (else `~/.local/state/kingdom/cache-key`), mode 0600 and
owned by the user (a key file that is not is not used, and the cache is off). The JSON is
rebuilt by `loads`: JSON values, tuples, sets, dicts and instances of an allow-list of our own
classes (the node classes, `ParsedCard`, `Located`, `Diagnostic`) made without running any of
their code; nothing else can be constructed, and nothing read back is ever unpickled.

What someone who can write the cache folder (a shared XDG_CACHE_HOME, a CI cache restored from
an untrusted branch) but not read the key can do: delete entries or fill the folder (we parse
anew, and pruning keeps our own use bounded), put back an entry we wrote earlier under its own
name (the same content that name stood for, as the name is the hash of the file, its set and
the compiler), or make us read garbage, which fails the HMAC and is parsed anew and replaced.
What they cannot do: run code (no pickle, no class outside the allow-list), or make a card
compile to anything but what its file says (an entry moved to another name, or edited, fails
the HMAC), or make us delete anything of the user's by pointing a cache folder elsewhere with a
symbolic link (we remove only names we make: 32 hex digits and `.json` for entries, 16 hex
digits for the folders of other compiler versions). Someone who can read the key file (that
is: the user) is trusted anyway.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

ROOT = Path(__file__).resolve().parent.parent  # the project: compiler/ and grammar/
MAX_ENTRY_BYTES = 8 << 20  # a larger file is not ours: not read
CARD_ENTRIES = 1000  # parsed cards kept per compiler (pruned to 3/4 of it, least recently used)
CARD_BYTES = 48 << 20
LARK_TABLES = 3  # grammars whose tables are kept
LARK_BYTES = 64 << 20
ENTRY_NAME = re.compile(r"[0-9a-f]{32}")
OUR_FILE = re.compile(r"\.?[0-9a-f]{32}\.json(\.\d+\.tmp)?")  # an entry, or one being written
VERSION_FOLDER = re.compile(r"[0-9a-f]{16}")
TOUCH_AFTER = 3600.0  # seconds: a used entry's time is refreshed at most this often


def _xdg(variable: str, default: str) -> Path:
    """An XDG base folder: the variable's value if it is an absolute path (the spec calls
    relative ones invalid), else `~/<default>`."""
    value = os.environ.get(variable, "")
    return Path(value) if os.path.isabs(value) else Path.home() / default


def cache_dir() -> Path | None:
    """Kingdom's cache folder, made if missing; None when caching is off."""
    if os.environ.get("KINGDOM_NO_CACHE"):
        return None
    try:
        folder = _xdg("XDG_CACHE_HOME", ".cache") / "kingdom"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # (RuntimeError: no home folder)
        return None
    return folder


def secret() -> bytes | None:
    """The per-user HMAC key, made on first use; None when it cannot be made or trusted."""
    try:
        return _read_or_make_key(_xdg("XDG_STATE_HOME", ".local/state") / "kingdom" / "cache-key")
    except (OSError, RuntimeError, ValueError):
        return None


@cache
def _read_or_make_key(path: Path) -> bytes | None:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(f".cache-key.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        with contextlib.suppress(FileExistsError):  # (another process made one first: use it)
            os.link(temporary, path)
        temporary.unlink()
    with _open_file(path) as f:
        status = os.fstat(f.fileno())
        uid = getattr(os, "getuid", lambda: status.st_uid)()
        if status.st_uid != uid or status.st_mode & 0o077 or status.st_size != 64:
            return None
        return bytes.fromhex(f.read().decode())


def _open_file(path: Path) -> BinaryIO:
    """`path` opened to read if it is a regular file (not a link, and not a pipe that would
    block the read forever); OSError otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    f = os.fdopen(os.open(path, flags), "rb")
    if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
        f.close()
        raise OSError(f"not a regular file: {path}")
    return f


# --------------------------------------------------------------------------- the data codec
# A JSON object in the cache is either a plain mapping (a dict whose keys are strings not
# starting with "#") or has a "#" key saying what it stands for: "t" a tuple, "s" a set (items
# in "v"), "d" a dict ([key, value] pairs in "v"), "r" the "v"-th dict, set or instance made so
# far (shared nodes stay shared), else the allow-listed name of a class whose instance has the
# other keys as its attributes. Decoding makes each JSON object after its contents (json's
# object_hook), so the encoder numbers them in that order too.
def dumps(value: Any, classes: dict[str, type], tuples: bool = True) -> bytes:
    """`value` as JSON; TypeError if it holds anything but JSON values, tuples, sets, dicts and
    instances of `classes`, or holds a list twice, or a cycle. Without `tuples`, a tuple is
    written as a list (for a reader that takes either: quicker to read back)."""
    names = {cls: name for name, cls in classes.items()}
    numbers: dict[int, int] = {}  # id -> its number, once encoded
    met: set[int] = set()  # the ids of lists, dicts, sets and instances met

    def enc(v: Any) -> Any:
        if v is None or type(v) in (str, int, float, bool):
            return v
        if isinstance(v, str):
            return str(v)  # (a lark Token)
        if type(v) is tuple:
            return {"#": "t", "v": [enc(x) for x in v]} if tuples else [enc(x) for x in v]
        if id(v) in numbers:
            return {"#": "r", "v": numbers[id(v)]}
        if id(v) in met:
            raise TypeError("a cycle, or a list held twice")
        met.add(id(v))
        if type(v) is list:
            return [enc(x) for x in v]
        if type(v) is dict and all(type(k) is str and k[:1] != "#" for k in v):
            out = {k: enc(x) for k, x in v.items()}
        elif type(v) is dict:
            out = {"#": "d", "v": [[enc(k), enc(x)] for k, x in v.items()]}
        elif type(v) in (set, frozenset):
            out = {"#": "s", "v": [enc(x) for x in v]}
        elif type(v) in names:
            out = {"#": names[type(v)]} | {k: enc(x) for k, x in vars(v).items()}
        else:
            raise TypeError(f"cannot cache a {type(v).__name__}")
        numbers[id(v)] = len(numbers)
        return out

    return json.dumps(enc(value), separators=(",", ":")).encode()


def loads(text: bytes, classes: dict[str, type]) -> Any:
    """The value `dumps` made `text` from. An instance is made with `cls.__new__` and given its
    attributes, running none of its code; an unknown tag or class raises ValueError, a
    malformed value TypeError, KeyError or IndexError."""
    made: list[Any] = []

    def make(obj: dict[str, Any]) -> Any:
        if "#" not in obj:  # (a plain mapping: the most common, so first)
            made.append(obj)
            return obj
        tag = obj.pop("#")
        if tag == "t":
            return tuple(obj["v"])
        if tag == "r":
            return made[obj["v"]]
        if tag == "d":  # (a list as a key raises TypeError: unhashable)
            value: Any = dict(obj["v"])
        elif tag == "s":
            value = set(obj["v"])
        elif tag in classes:
            value = classes[tag].__new__(classes[tag])
            value.__dict__.update(obj)
        else:
            raise ValueError(f"not a value we cache: {tag!r}")
        made.append(value)
        return value

    return json.loads(text, object_hook=make)


# --------------------------------------------------------------------------- entries
class Store:
    """A folder of entries, each a value under a name; bounded by count and size (the least
    recently used go first). `classes` are the classes its values may hold."""

    def __init__(self, root: Path, folder: Path, key: bytes, classes: dict[str, type],
                 max_entries: int, max_bytes: int, tuples: bool = True) -> None:
        self.root, self.folder, self.key, self.classes = root, folder, key, classes
        self.max_entries, self.max_bytes, self.tuples = max_entries, max_bytes, tuples
        self.label = folder.relative_to(root).as_posix()  # (an entry's HMAC covers its place)
        self._usage: tuple[int, int] | None = None  # (entries, bytes), counted on first write

    def path(self, name: str) -> Path:
        """The entry of `name`, 32 hex digits (a hash: so pruning can tell our files)."""
        if not ENTRY_NAME.fullmatch(name):
            raise ValueError(f"not an entry name: {name!r}")
        return self.folder / f"{name}.json"

    def _mac(self, name: str, payload: bytes) -> bytes:
        label = f"{self.label}/{name}.json\0".encode()
        return hmac.new(self.key, label + payload, hashlib.sha256).hexdigest().encode()

    def get(self, name: str) -> Any | None:
        """The value stored under `name`, or None: missing, or not exactly what we wrote."""
        path = self.path(name)
        try:
            with _open_file(path) as f:
                status = os.fstat(f.fileno())
                data = f.read(MAX_ENTRY_BYTES + 1)
            mac, _, payload = data.partition(b"\n")
            if len(data) > MAX_ENTRY_BYTES or not hmac.compare_digest(mac, self._mac(name, payload)):
                return None
            value = loads(payload, self.classes)
        except Exception:  # (missing, unreadable, or garbage that has our HMAC: a miss)
            return None
        if time.time() - status.st_mtime > TOUCH_AFTER:
            with contextlib.suppress(OSError):
                os.utime(path)  # (recently used: pruned last)
        return value

    def put(self, name: str, value: Any) -> None:
        """Store `value` under `name`, replacing the entry whole (other processes may read it);
        a value that cannot be encoded, or a folder we cannot write, is no matter."""
        path = self.path(name)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            payload = dumps(value, self.classes, self.tuples)
            entry = self._mac(name, payload) + b"\n" + payload
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()  # (left by a process that had our pid and died)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(entry)
            os.replace(temporary, path)
        except (OSError, TypeError, ValueError, RecursionError):
            with contextlib.suppress(OSError):
                temporary.unlink()
            return
        self._count(len(entry))

    def _count(self, size: int) -> None:
        if self._usage is None:
            self._usage = self.usage()
        else:
            self._usage = (self._usage[0] + 1, self._usage[1] + size)
        if self._usage[0] > self.max_entries or self._usage[1] > self.max_bytes:
            self.prune(self.max_entries * 3 // 4, self.max_bytes * 3 // 4)

    def _entries(self) -> list[tuple[float, int, Path]]:
        """(last used, size, path) of every entry, oldest first."""
        out = []
        with contextlib.suppress(OSError):
            for path in self.folder.iterdir():
                if OUR_FILE.fullmatch(path.name):
                    status = path.lstat()
                    out.append((status.st_mtime, status.st_size, path))
        return sorted(out)

    def usage(self) -> tuple[int, int]:
        entries = self._entries()
        return len(entries), sum(size for _, size, _ in entries)

    def prune(self, max_entries: int, max_bytes: int) -> None:
        """Remove the least recently used entries until at most `max_entries` and `max_bytes`
        are left."""
        entries = self._entries()
        count, total = len(entries), sum(size for _, size, _ in entries)
        for _, size, path in entries:
            if count <= max_entries and total <= max_bytes:
                break
            with contextlib.suppress(OSError):
                path.unlink()
            count, total = count - 1, total - size
        self._usage = (count, total)


def open_store(subfolder: str, classes: dict[str, type], max_entries: int, max_bytes: int,
               tuples: bool = True) -> Store | None:
    """The store in `subfolder` of the cache folder, made if missing; None when caching is off."""
    root, key = cache_dir(), secret()
    if root is None or key is None:
        return None
    folder = root / subfolder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return Store(root, folder, key, classes, max_entries, max_bytes, tuples)


def digest(*parts: str | bytes) -> str:
    """A hex SHA-256 of `parts`, each ended by a NUL so that no two lists of parts collide."""
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode() if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()


# --------------------------------------------------------------------------- parsed cards
@cache
def fingerprint(root: Path = ROOT) -> str:
    """A hash of what parsing a card depends on besides the file: the compiler's sources and
    JSON Schema, the grammar, Python's version and the installed Lark, PyYAML and jsonschema."""
    import jsonschema
    import yaml

    hasher = hashlib.sha256(sys.version.encode())
    for module in (lark, yaml, jsonschema):  # (installed anew on an upgrade: a new time)
        hasher.update(f"{module.__name__} {os.stat(module.__file__).st_mtime_ns}".encode())
    compiler = root / "compiler"
    sources = [*compiler.rglob("*.py"), *compiler.rglob("*.json"), *(root / "grammar").glob("*.lark")]
    for path in sorted(sources):
        hasher.update(path.relative_to(root).as_posix().encode() + b"\0")
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def card_store(classes: dict[str, type]) -> Store | None:
    """The store of parsed cards for this compiler; the stores of other versions of the
    compiler (other fingerprints) are removed when it is first made."""
    root = cache_dir()
    if root is None:
        return None
    name = fingerprint()[:16]
    new = not (root / "cards" / name).is_dir()
    store = open_store(f"cards/{name}", classes, CARD_ENTRIES, CARD_BYTES)
    if store is not None and new:
        for other in store.folder.parent.iterdir():
            if other != store.folder and VERSION_FOLDER.fullmatch(other.name):
                shutil.rmtree(other, ignore_errors=True)  # (refuses a symbolic link)
    return store


def allowed(classes: Iterable[type]) -> dict[str, type]:
    """The allow-list of `classes` and all their subclasses defined in the compiler, by
    qualified name."""
    out: dict[str, type] = {}
    todo = list(classes)
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("kingdom.compiler."):
            out[f"{cls.__module__}.{cls.__qualname__}"] = cls
        todo.extend(cls.__subclasses__())
    return out


# --------------------------------------------------------------------------- Lark's tables
def lark_parser(grammar: str, options: dict[str, Any]) -> Lark:
    """A Lark parser for `grammar` (LALR), its tables read from the cache as data (Lark's own
    serialised form) when they are there, else built and stored."""
    store = open_store("lark", {}, LARK_TABLES, LARK_BYTES, tuples=False)  # (Lark unpacks them)
    if store is None:
        return Lark(grammar, **options)
    for legacy in store.root.glob("lark-*.pickle"):  # (what older versions kept: never read)
        with contextlib.suppress(OSError):
            legacy.unlink()
    postlex = options.get("postlex")  # (an object: kept out of the data, passed again at load)
    plain = {k: v for k, v in options.items() if k != "postlex"}
    accepts = sorted(getattr(postlex, "always_accept", ()))  # (terminals it keeps: in the tables)
    name = digest(grammar, repr(sorted(plain.items())), repr(accepts), lark.__version__,
                  sys.version)[:32]
    tables = store.get(name)
    if tables is not None:
        with contextlib.suppress(Exception):  # (not tables Lark can load: build them anew)
            return Lark._load_from_dict(tables["data"], tables["memo"], postlex=postlex)
    parser = Lark(grammar, **options)
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    store.put(name, {"data": data, "memo": memo})
    return parser
