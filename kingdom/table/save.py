"""The save file of `kingdom play`: what it holds, how it is written so that nothing is lost,
and how it is checked before a game is resumed from it.

A save is JSON: `{"format": "kingdom-play", "version": 2, "setup": {...}, "digest": "...",
"answers": [...]}`. `setup` holds the game's settings as `kingdom play` took them (`seat` from
1): here their shapes are checked, and `kingdom play` checks each value with the check of its
argument (kingdom/cli/play.py). `digest` is the SHA-256 of the setup as written, so a save whose
setup was edited (another seed is another game, which the answers do not fit) is refused rather
than resumed as something else. A new setting is one more field of Record with a default and
one more entry of SETTINGS (and of the command's checks): saves of this version without it
still read, with the default.

Writing goes through a temporary file renamed over the save, so a crash leaves the old save or
the new one; a link is written through (its target is replaced, the link stays), and anything
but a regular file or a new name (a device, a pipe, a folder) is refused, never replaced.
Temporary files left by a killed game are removed the next time a game starts beside them.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from kingdom.compiler.files import TooLarge, not_regular, read_bytes
from kingdom.compiler.loader import MAX_NUMBER_LENGTH

SAVE_FORMAT, SAVE_VERSION = "kingdom-play", 2
MAX_SAVE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 3  # the save, its answers, an answer's list of cards
DEFAULT_SAVE = "kingdom-play.json"
TEMP_PREFIX = ".kingdom-play-"
STALE_SECONDS = 3600  # a temporary file this old, or whose writer is gone, is left from a kill


class SaveError(Exception):
    """A save file that cannot be read, written or resumed."""


@dataclass
class Record:
    """Everything needed to play a game again: its setup and the person's answers so far."""

    kingdom: list[str]
    bots: list[str]  # bot specs as `--bots` takes them, one per other seat
    seed: int
    seat: int = 1  # the person's seat, from 1 (first player), as `--seat`
    cards: list[str] = field(default_factory=list)  # --cards paths
    ally: str = "random"  # --ally: an Ally's name, "random" (drawn when a Liaison is in) or "none"
    bane: str = ""  # --bane, --ferryman: the pile picked ("": drawn)
    ferryman: str = ""
    colonies: bool = False  # --colonies
    answers: list[Any] = field(default_factory=list)

    def setup_choices(self) -> dict[str, str]:
        """The setup piles picked, as standard_game takes them ({"bane": "Moat"})."""
        return {key: getattr(self, key) for key in ("bane", "ferryman") if getattr(self, key)}

    def setup(self) -> dict[str, Any]:
        """The settings: every field but the answers."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "answers"}

    def save(self, path: Path) -> None:
        """Write the record to `path` (see the module's docstring); SaveError or OSError if it
        cannot be."""
        setup = self.setup()
        data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "setup": setup,
                "digest": digest(setup), "answers": self.answers}
        final = target(path)
        fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".tmp",
                                   dir=final.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
                out.flush()
                os.fsync(out.fileno())
            if final.exists():  # (the new file keeps the permissions the old one had)
                os.chmod(tmp, final.stat().st_mode & 0o7777)
            target(final)  # (still a regular file or nothing: never rename over anything else)
            os.replace(tmp, final)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> Record:
        """The record in `path`, of the shape a save has and with the digest of its setup;
        SaveError saying what is wrong."""
        data = _read(path)
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"{path}: not a save file of `kingdom play`")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"{path}: save file version {data.get('version')!r}; this Kingdom "
                            f"resumes version {SAVE_VERSION} (version 1 had no digest to check "
                            "its setup by)")
        unknown = sorted(set(data) - {"format", "version", "setup", "digest", "answers"})
        if unknown:
            raise SaveError(f"{path}: unknown key '{unknown[0]}' (a save file holds format, "
                            "version, setup, digest and answers)")
        setup = data.get("setup")
        if not isinstance(setup, dict):
            raise SaveError(f"{path}: 'setup' is missing or not what a save file holds")
        if data.get("digest") != digest(setup):
            raise SaveError(f"{path}: the setup was changed since the game was saved (its "
                            "digest does not match): the answers were given to another game; "
                            "start a new game instead")
        for key in setup:
            if key not in SETTINGS:
                raise SaveError(f"{path}: unknown setting '{key}' (a newer Kingdom's save?)")
        if not _answers(data.get("answers")):
            raise SaveError(f"{path}: 'answers' is missing or not what a save file holds")
        values = {}
        for key, (check, default) in SETTINGS.items():
            value = setup.get(key, default)
            if value is REQUIRED:
                raise SaveError(f"{path}: setting '{key}' is missing")
            try:
                values[key] = check(value)
            except TypeError as exc:
                raise SaveError(f"{path}: setting '{key}': {exc}") from None
        return cls(**values, answers=data["answers"])


def digest(setup: dict[str, Any]) -> str:
    """The SHA-256 of a setup, as the same JSON whatever the order of its keys."""
    text = json.dumps(setup, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def target(path: Path) -> Path:
    """The file that saving to `path` replaces: the file at the end of its links. SaveError
    unless that is a regular file or a new name in an existing folder."""
    real = Path(os.path.realpath(path))
    why = not_regular(real)
    if why:
        raise SaveError(f"cannot save to {path}: it is {why}; give a new file name, or a save "
                        "file, with --save")
    if not real.parent.is_dir():
        raise SaveError(f"cannot save to {path}: there is no folder {real.parent}")
    return real


def remove_stale(folder: Path) -> list[Path]:
    """Remove the temporary files that killed games left in `folder` (their writer is gone, or
    they are an hour old); the ones removed."""
    removed = []
    for file in folder.glob(f"{TEMP_PREFIX}*.tmp"):
        pid = file.name[len(TEMP_PREFIX):].split("-")[0]
        try:
            if file.is_symlink() or not file.is_file():
                continue
            if (pid.isdigit() and not _running(int(pid))) or \
                    time.time() - file.stat().st_mtime > STALE_SECONDS:
                file.unlink()
                removed.append(file)
        except OSError:
            continue  # (another game's, just renamed; or not ours to remove)
    return removed


def _running(pid: int) -> bool:
    if os.name != "posix":  # (no cheap, harmless check: the age decides)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (alive, another user's)
    return True


# ---------------------------------------------------------------------------- reading
def _read(path: Path) -> Any:
    try:
        raw = read_bytes(path, MAX_SAVE_BYTES)
    except TooLarge as exc:
        raise SaveError(f"{path}: too large for a save file ({exc.size:,} bytes; the limit is "
                        f"{MAX_SAVE_BYTES // 1024 // 1024} MB)") from None
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=_integer, parse_constant=_integer)
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a save file of `kingdom play` (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}:{exc.colno}: not a save file of `kingdom play` "
                        f"({exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise SaveError(f"{path}: not a save file of `kingdom play` "
                        f"({exc if isinstance(exc, ValueError) else 'nested too deeply'})") from None
    if _depth(data) > MAX_DEPTH:
        raise SaveError(f"{path}: not a save file of `kingdom play` (lists nested more than "
                        f"{MAX_DEPTH} deep)")
    return data


def _integer(text: str) -> int:
    """A JSON integer of at most MAX_NUMBER_LENGTH characters (NaN and Infinity are refused)."""
    if len(text) > MAX_NUMBER_LENGTH or not text.lstrip("-").isdigit():
        raise ValueError(f"a number of {len(text):,} characters ('{text[:12]}...'); a save file's "
                         f"numbers have at most {MAX_NUMBER_LENGTH}")
    return int(text)


def _depth(value: Any) -> int:
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return 1 + max(map(_depth, children), default=0) if isinstance(value, dict | list) else 0


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _answers(value: Any) -> bool:
    plain = (str, int, bool, type(None))
    return isinstance(value, list) and all(
        isinstance(v, plain) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
        for v in value)


def _texts(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"expected a list of texts, not {json.dumps(value)[:40]}")
    return list(value)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a text, not {json.dumps(value)[:40]}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {json.dumps(value)[:40]}")
    return value


def _number(value: Any) -> int:
    if not _whole(value):
        raise TypeError(f"expected a whole number, not {json.dumps(value)[:40]}")
    return value


# Each setting of a save: the shape of its value and its default (REQUIRED: none). What the
# value may be is checked by `kingdom play`, with the check of its argument.
REQUIRED = object()
SETTINGS: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "kingdom": (_texts, REQUIRED),
    "bots": (_texts, REQUIRED),
    "seed": (_number, REQUIRED),
    "seat": (_number, 1),
    "cards": (_texts, []),
    "ally": (_text, "random"),
    "bane": (_text, ""),
    "ferryman": (_text, ""),
    "colonies": (_flag, False),
}
