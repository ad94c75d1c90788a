"""Step-wise play: a UI or an AI agent answers one pending decision at a time.

The game runs unchanged in a worker thread; a `PendingAgent` seat hands each decision to the
caller and waits for the answer. The direct path (bots calling `decide`) pays nothing for this.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from runtime.decisions import Decision

_DONE = object()


class PendingAgent:
    """A seat whose decisions are answered from outside, one at a time."""

    def __init__(self, driver: Stepwise) -> None:
        self.driver = driver

    def decide(self, decision: Decision) -> Any:
        self.driver._pending.put(decision)
        answer = self.driver._answers.get()
        if isinstance(answer, BaseException):
            raise answer
        return answer


class Stepwise:
    """Run `play()` in a worker thread; `next()` returns the pending Decision (None at the end)."""

    def __init__(self) -> None:
        self._pending: queue.Queue = queue.Queue()
        self._answers: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def agent(self) -> PendingAgent:
        return PendingAgent(self)

    def start(self, play: Callable[[], None]) -> None:
        def run() -> None:
            try:
                play()
            except BaseException as exc:  # reported to the caller, not lost in the thread
                self.error = exc
            self._pending.put(_DONE)

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def next(self) -> Decision | None:
        item = self._pending.get()
        if item is _DONE:
            if self.error is not None:
                raise self.error
            return None
        return item

    def answer(self, value: Any) -> None:
        self._answers.put(value)
