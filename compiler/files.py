"""Reading a user's file without ever hanging or filling memory.

A path named `*.yaml` may be a named pipe (reading it waits for a writer forever), a link to
/dev/zero (endless), a device or a socket. Every file Kingdom reads that a user gave (cards,
manifests, scenarios, strategies, rules files, save files, the source lines quoted under a
diagnostic) is read here: only a regular file, and no more than the caller's limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class NotRegular(OSError):
    """The path is there but is no regular file; `str()` says what it is."""


class TooLarge(OSError):
    """The file holds more than the limit; `size` is its size in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(f"larger than the limit ({size:,} bytes)")
        self.size = size


def kind(mode: int) -> str:
    """What a file of this `st_mode` is, in words ("a named pipe (FIFO)"); "" for a regular file."""
    return "" if stat.S_ISREG(mode) else next(
        (what for test, what in _KINDS if test(mode)), "not a regular file")


def not_regular(path: str | Path) -> str:
    """Why `path` is no regular file to read ("a named pipe (FIFO), not a regular file"), or ""
    for a regular file or a missing path (opening it says what is wrong)."""
    try:
        what = kind(os.stat(path).st_mode)
    except OSError:
        return ""
    return f"{what}, not a regular file" if what else ""


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The content of the regular file `path`, at most `limit` bytes. Raises NotRegular for
    anything else (checked before opening, and again on what was opened, without blocking on a
    pipe), TooLarge past the limit, or the OSError of opening it."""
    why = not_regular(path)
    if why:
        raise NotRegular(why)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # (replaced between the two looks)
            raise NotRegular(f"{kind(mode)}, not a regular file")
        data = f.read(limit + 1)
        if len(data) > limit:
            raise TooLarge(os.fstat(fd).st_size)
    return data


def read_text(path: str | Path, limit: int) -> str:
    """`read_bytes` as UTF-8 text (undecodable bytes replaced), for files not checked further."""
    return read_bytes(path, limit).decode("utf-8-sig", errors="replace")
