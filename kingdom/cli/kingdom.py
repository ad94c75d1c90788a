"""`kingdom kingdom`: the randomizer. Deal a seeded random Kingdom and resolve its setup (Bane,
Ally, ...): printed in brief, or, with --output or --format, rendered as `kingdom render` would."""

from __future__ import annotations

import argparse

from kingdom.cli import arguments, common
from kingdom.cli import render as render_command
from kingdom.cli.arguments import UsageError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("kingdom", help="deal a random Kingdom and resolve its setup (seeded)")
    render_command.add_deal_options(p)
    render_command.add_render_options(p)
    p.set_defaults(func=run, set=None, pick=None)


def run(args: argparse.Namespace) -> int:
    """A random Kingdom, seeded, with its setup resolved: printed, or rendered with --output."""
    from kingdom.print import render
    from kingdom.print.selection import RenderError, select_kingdom

    library = common.load(args.cards)
    piles = render_command.deal(args, library)
    if args.output or args.format:
        args.kingdom, args.set = ",".join(piles), None
        return render_command.run(args)
    chosen_ally = None if args.ally is None else arguments.ally(library, args.ally)
    try:
        selection = select_kingdom(library, piles, chosen_ally, args.players, args.seed)
    except RenderError as exc:
        raise UsageError(str(exc)) from None
    print(render.brief(library, selection))
    if render_command.seed_note(args):
        print(render_command.seed_note(args).capitalize() + ".")
    return 0
