"""`kingdom test PATH...`: run scenario files (kingdom/scenarios), a line per scenario and a
total; fails when one does. `--junit FILE` also writes the results as JUnit XML, the report CI
services and editors read: a testsuite per file, a testcase per scenario."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from xml.etree import ElementTree

from kingdom.cli import arguments, common
from kingdom.compiler.texts import printable


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="+", type=arguments.scenario_path, metavar="PATH",
                   help="scenario files, or folders searched for *.yaml")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the total")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP)
    p.add_argument("--junit", metavar="FILE", type=arguments.output_file,
                   help="also write the results as JUnit XML (a testcase per scenario), for CI")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kingdom.scenarios.runner import FILE_PROBLEM, Outcome, card_problems, run_file

    files: list[Path] = []
    for path in map(Path, args.paths):
        files.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    suites: list[tuple[Path, list[Outcome], float]] = []
    for file in files:
        start = time.perf_counter()
        try:
            outcomes = run_file(file, [Path(c) for c in args.cards])
        except (OSError, UnicodeDecodeError) as exc:
            outcomes = [Outcome(str(file), FILE_PROBLEM, False, f"cannot read the file: {exc}")]
        suites.append((file, outcomes, time.perf_counter() - start))
        for outcome in outcomes:
            if not outcome.passed:
                print(printable(f"FAIL  {file}: {outcome.name}: {outcome.message}", lines=True))
            elif not args.quiet:
                print(printable(f"pass  {file}: {outcome.name}"))
    common.warn_broken(card_problems())
    failed = sum(not o.passed for _, outcomes, _ in suites for o in outcomes)
    passed = sum(len(outcomes) for _, outcomes, _ in suites) - failed
    print(f"{passed} passed, {failed} failed")
    if args.junit:
        junit(suites).write(args.junit, encoding="utf-8", xml_declaration=True)
    return 1 if failed else 0


def junit(suites: list[tuple[Path, list, float]]) -> ElementTree.ElementTree:
    """The results as JUnit XML, as Jenkins, GitLab and editors read it: <testsuites> of a
    <testsuite> per file, each of a <testcase> per scenario (name, classname, time); a scenario
    that failed holds a <failure>, a file that could not be read or run as scenarios an <error>."""
    from kingdom.scenarios.runner import FILE_PROBLEM

    root = ElementTree.Element("testsuites", name="kingdom test")
    for file, outcomes, seconds in suites:
        errors = sum(o.name == FILE_PROBLEM for o in outcomes)
        failures = sum(not o.passed for o in outcomes) - errors
        suite = ElementTree.SubElement(root, "testsuite", name=str(file), tests=str(len(outcomes)),
                                       failures=str(failures), errors=str(errors), skipped="0",
                                       time=f"{seconds:.3f}")
        for outcome in outcomes:
            case = ElementTree.SubElement(suite, "testcase", name=outcome.name, classname=str(file),
                                          time=f"{outcome.seconds:.3f}")
            if not outcome.passed:
                first = outcome.message.splitlines()[0] if outcome.message else "failed"
                kind = "error" if outcome.name == FILE_PROBLEM else "failure"
                ElementTree.SubElement(case, kind, message=first, type=f"scenario {kind}").text = \
                    outcome.message
    for total in ("tests", "failures", "errors"):
        root.set(total, str(sum(int(s.get(total, 0)) for s in root)))
    root.set("time", f"{sum(seconds for _, _, seconds in suites):.3f}")
    ElementTree.indent(root)
    return ElementTree.ElementTree(root)
