"""A pending decision as a person reads and answers it: the question with its context (who asks,
what it costs), the numbered choices (identical cards grouped: "Copper (5)"; a Buy's piles with
their costs), the hint of what an answer looks like, and the answer typed, read back as the
plain data the step-wise API takes. A hint promises only answers that are accepted.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from kingdom.runtime.stepwise import Pending
from kingdom.runtime.tokens import BY_TOPIC
from kingdom.table.spoken import count, money, one_line, words

NONE_WORDS = ("0", "none", "done", "stop")


class AnswerError(Exception):
    """Text that is no answer to the decision: says what would be accepted."""


@dataclass(frozen=True)
class Choice:
    """One numbered line: `label` shown, `value` answered, `name` matched when typed, and how
    many identical cards it stands for (a pick of several takes it up to `count` times)."""

    label: str
    value: Any
    name: str
    count: int = 1


def choices(pending: Pending, plain: bool = True) -> list[Choice]:
    """What the person picks from, numbered from 1. A number is typed as itself (no list)."""
    kind, options = pending.kind, pending.options
    if kind == "yes_no":
        return [Choice("yes", True, "yes"), Choice("no", False, "no")]
    if kind == "number":
        return []
    if many(pending):
        runs: dict[str, int] = {}
        for name in options:
            runs[name] = runs.get(name, 0) + 1
        return [Choice(f"{name} ({n})" if n > 1 else name, name, name, n)
                for name, n in runs.items()]
    supply = pending.view.supply if pending.view is not None else ()
    costs = {p.name: p.cost for p in supply} | {p.top: p.cost for p in supply if p.top}
    out = []
    for option in dict.fromkeys(str(o) for o in options):
        cost = costs.get(option) if kind in ("buy", "pile") else None
        label = option if cost is None else f"{option}, {money(cost, plain)}"
        out.append(Choice(label, option, option))
    return out


def many(pending: Pending) -> bool:
    return pending.kind in ("cards", "treasures", "order")


def optional(pending: Pending) -> bool:
    return pending.kind in ("play", "buy") or (pending.min == 0 and not many(pending)
                                               and pending.kind not in ("yes_no", "number"))


def _all_allowed(pending: Pending) -> bool:
    total = len(pending.options)
    return pending.kind in ("treasures", "order") or (
        pending.min <= total <= pending.max and (not pending.exact or total == pending.max))


def _none_allowed(pending: Pending) -> bool:
    return pending.kind in ("treasures",) or (pending.kind == "cards" and pending.min == 0)


# ---------------------------------------------------------------------------- the question
def question(pending: Pending, ally_text: str = "", plain: bool = True) -> str:
    """The question with its context: the card or Ally asking (and an Ally's text, which says
    what it costs), what a token spend gives and how many are held, the coins to buy with."""
    view, prompt = pending.view, pending.prompt
    kind = BY_TOPIC.get(pending.topic) if pending.topic else None
    if kind is not None and kind.spend is not None:
        each = money(1, plain) if kind.spend.each == "$" else count(1, kind.spend.each)
        have = max(pending.options)
        return (f"Spend {kind.plural}? You have {kind.count(have)}, each gives {each}; you have "
                f"{money(view.coins, plain)} and {count(view.actions, 'Action')} now. "
                "How many do you spend?")
    if pending.kind == "buy":
        prompt += f" ({money(view.coins, plain)}, {count(view.buys, 'Buy')})"
    if plain:
        prompt = words(prompt)
    card = pending.card
    if card and card == view.ally:
        text = words(one_line(ally_text)) if plain else " ".join(ally_text.split())
        return f"{card}, your Ally ({text}): {prompt}"
    if card and card not in prompt:
        return f"{card}: {prompt}"
    return prompt


def how_to_answer(pending: Pending) -> str:
    """One line saying what an answer looks like for this decision (only what is accepted)."""
    if pending.kind == "number":
        low, high = min(pending.options), max(pending.options)
        return f"Answer a number from {low} to {high}" + (", or all." if high > low else ".")
    extra = ("'all'" if _all_allowed(pending) else "", "0 for none" if _none_allowed(pending) else "")
    extra_text = " or ".join(e for e in extra if e)
    if pending.kind == "order":
        return ("Answer the order, top first: numbers or names separated by commas (the rest "
                "follow in the order listed).")
    if many(pending):
        low, high = pending.min, pending.max
        amount = (f"0 or {high}" if pending.exact else str(low) if low == high
                  else f"{low} to {high}")
        if pending.kind == "treasures":
            amount = "any"
        twice = " (a group's number twice takes two of it)" if len(set(pending.options)) < len(
            pending.options) and pending.max > 1 else ""
        return (f"Pick {amount}: numbers or names separated by commas{twice}"
                + (f"; or {extra_text}." if extra_text else "."))
    return "Answer a number or a name" + (", or 0 for none." if optional(pending) else ".")


def decision_lines(pending: Pending, ally_text: str = "", plain: bool = True) -> list[str]:
    lines = [question(pending, ally_text, plain)]
    for number, choice in enumerate(choices(pending, plain), 1):
        lines.append(f"  {number}. {choice.label}")
    if optional(pending):
        lines.append("  0. none")
    lines.append(how_to_answer(pending))
    return lines


# ---------------------------------------------------------------------------- reading answers
def parse(pending: Pending, text: str) -> Any:
    """The plain answer `text` stands for: numbers of the listed choices or names (any case,
    a unique beginning is enough); several, for picks of cards, separated by commas or spaces;
    'all'; 0 or 'none' for nothing. AnswerError says what would be accepted."""
    listed = choices(pending)
    answer = text.strip()
    lower = answer.lower()
    if pending.kind == "number":
        options = pending.options
        if lower == "all":
            return max(options)
        if lower in NONE_WORDS and 0 in options:
            return 0
        if answer.isdigit() and int(answer) in options:
            return int(answer)
        raise AnswerError(f"answer a number from {min(options)} to {max(options)}")
    if many(pending):
        return _parse_many(pending, answer, listed)
    if optional(pending) and lower in NONE_WORDS:
        return None
    return listed[_one(answer, listed)].value


def _one(words_typed: str, listed: list[Choice]) -> int:
    """The index of the choice typed: its number, its name, or a unique beginning of it."""
    if words_typed.isdigit():
        index = int(words_typed)
        if 1 <= index <= len(listed):
            return index - 1
        raise AnswerError(f"there is no choice {index}: {_accepted(listed)}")
    lower = words_typed.lower()
    for i, choice in enumerate(listed):
        if choice.name.lower() == lower:
            return i
    starts = [i for i, choice in enumerate(listed) if choice.name.lower().startswith(lower)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise AnswerError(f"'{words_typed}' could be {', '.join(listed[i].name for i in starts)}: "
                          "type more of the name")
    close = difflib.get_close_matches(lower, [c.name.lower() for c in listed], n=1, cutoff=0.6)
    hint = next((f"did you mean {c.name}? " for c in listed if close and c.name.lower() == close[0]), "")
    raise AnswerError(f"'{words_typed}' is not a choice: {hint}{_accepted(listed)}")


def _parse_many(pending: Pending, answer: str, listed: list[Choice]) -> list[str]:
    lower = answer.lower()
    if lower == "all":
        if not _all_allowed(pending):
            raise AnswerError(f"'all' is {len(pending.options)} cards; pick {_amount(pending)}")
        picked = list(pending.options)
    elif lower in NONE_WORDS or not answer:
        if not _none_allowed(pending) and not pending.exact and pending.kind != "order":
            raise AnswerError(f"pick {_amount(pending)}")
        picked = []
    else:
        split = answer.replace(",", " ").split()
        parts = split if all(p.isdigit() for p in split) else answer.split(",")
        left = [choice.count for choice in listed]
        picked = []
        for part in (p.strip() for p in parts if p.strip()):
            times, name = _times(part)
            index = _one(name, listed)
            if left[index] < times:
                raise AnswerError(f"'{part}': there are only {listed[index].count} "
                                  f"{listed[index].name} to pick")
            left[index] -= times
            picked.extend([listed[index].value] * times)
    if pending.kind == "order":  # the cards not named keep their order, after those named
        rest = list(pending.options)
        for name in picked:
            rest.remove(name)
        picked = picked + rest
    return picked


def _times(part: str) -> tuple[int, str]:
    """'2 Copper' -> (2, 'Copper'); 'Copper' or '3' -> (1, it)."""
    head, _, rest = part.partition(" ")
    if head.isdigit() and rest.strip() and not rest.strip().isdigit():
        return int(head), rest.strip()
    return 1, part


def _amount(pending: Pending) -> str:
    if pending.exact:
        return f"0 or {pending.max}"
    return str(pending.min) if pending.min == pending.max else f"{pending.min} to {pending.max}"


def _accepted(listed: list[Choice]) -> str:
    return f"answer 1 to {len(listed)} or a name ({', '.join(c.name for c in listed)})"
