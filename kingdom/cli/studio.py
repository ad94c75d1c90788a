"""`kingdom studio [PATH]`: Kingdom Studio, a local web page to write an expansion's cards in
(kingdom/studio/): served on 127.0.0.1 and opened in the browser unless --no-browser."""

from __future__ import annotations

import argparse
from pathlib import Path

from kingdom.cli import arguments
from kingdom.cli.arguments import UsageError

PORT = arguments.whole_number(0, 65535)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("studio", help="write an expansion's cards in a local web page: checked, "
                       "rendered, tested, rated and played as you go")
    p.add_argument("path", nargs="?", default=".", metavar="PATH",
                   help="the expansion's folder (default: the current folder); nothing is "
                   "written outside it")
    p.add_argument("--port", type=PORT, default=8765, help="the port on 127.0.0.1 (default: "
                   "8765; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kingdom.studio.server import serve

    folder = Path(args.path)
    if not folder.is_dir():
        raise UsageError(f"{args.path}: no such folder (give the expansion's folder)")
    return serve(folder.resolve(), args.port, open_browser=not args.no_browser)
