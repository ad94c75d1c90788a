"""`kingdom test PATH...`: run scenario files (kingdom/scenarios), a line per scenario and a
total; fails when one does."""

from __future__ import annotations

import argparse
from pathlib import Path

from kingdom.cli import arguments, common
from kingdom.compiler.texts import printable


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="+", type=arguments.scenario_path, metavar="PATH",
                   help="scenario files, or folders searched for *.yaml")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the total")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path,
                   help=common.CARDS_HELP)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kingdom.scenarios.runner import card_problems, run_file

    files: list[Path] = []
    for path in map(Path, args.paths):
        files.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    passed = failed = 0
    for file in files:
        try:
            outcomes = run_file(file, [Path(c) for c in args.cards])
        except (OSError, UnicodeDecodeError) as exc:
            failed += 1
            print(printable(f"FAIL  {file}: cannot read the file: {exc}"))
            continue
        for outcome in outcomes:
            if outcome.passed:
                passed += 1
                if not args.quiet:
                    print(printable(f"pass  {file}: {outcome.name}"))
            else:
                failed += 1
                print(printable(f"FAIL  {file}: {outcome.name}: {outcome.message}", lines=True))
    common.warn_broken(card_problems())
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
