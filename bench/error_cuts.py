"""Figures of the syntax errors of every corpus line cut at each token (tests/test_error_cuts.py
asserts them): cut points, errors, messages with an internal name, without a help line, with
more than a dozen expected items, suggestions given and how many compile.

    .venv/bin/python bench/error_cuts.py [--show N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from compiled import compile_statement
from corpus_lines import corpus_lines, cut_points
from kingdom.compiler.parser import DSLSyntaxError, parse
from kingdom.compiler.syntax_errors import MOST_EXPECTED, shown_labels
from test_error_cuts import internal_names


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--show", type=int, default=5, help="examples of each fault to print")
    args = options.parse_args()
    began = time.perf_counter()
    figures = dict.fromkeys(("lines", "cuts", "errors", "internal names", "no help line",
                             "over a dozen items", "suggestions", "suggestions compiling"), 0)
    shown: dict[str, list[str]] = {}
    lines = corpus_lines()
    figures["lines"] = len(lines)
    for line in lines:
        for cut in cut_points(line):
            figures["cuts"] += 1
            text = line.text[:cut]
            try:
                parse(text, line.start, where=line.where)
                continue
            except DSLSyntaxError as error:
                figures["errors"] += 1
                said = f"{error.message} | {error.hint}"
                faults = {"internal names": internal_names().search(said),
                          "no help line": not error.hint.strip(),
                          "over a dozen items": len(shown_labels(error.expected)) > MOST_EXPECTED}
                if error.suggestion:
                    figures["suggestions"] += 1
                    problem = compile_statement(error.suggestion, line.section, line.start,
                                                line.file, line.text)
                    figures["suggestions compiling"] += not problem
                    faults["suggestion refused"] = bool(problem)
                    said += f" | refused: {problem}"
                for fault, present in faults.items():
                    if present:
                        figures[fault] = figures.get(fault, 0) + 1
                        shown.setdefault(fault, []).append(f"{text!r}: {said}")
    for fault, examples in shown.items():
        print(f"{fault}:")
        for example in examples[: args.show]:
            print("   ", example)
    for name, value in figures.items():
        print(f"{name:>24}: {value:,}")
    print(f"{'seconds':>24}: {time.perf_counter() - began:.1f}")


if __name__ == "__main__":
    main()
