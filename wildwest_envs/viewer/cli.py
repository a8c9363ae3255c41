"""``wildwest-view RECORD.json [-o game.html]``: write the replay viewer of a game record.

    wildwest-evaluate ... --save-games games/ --save-events
    wildwest-view games/game_0000.json -o game.html     # then open game.html in any browser

The page needs no server and no network. A record this library cannot replay (malformed, altered,
another game or version) is refused with a message and exit status 1, and nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .html import write_viewer


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="wildwest-view", description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="a game record file (training.evaluate --save-games, training.play --save-game)")
    parser.add_argument("-o", "--output", default="", help="the HTML file to write (default: RECORD with .html)")
    parser.add_argument("--text-board", action="store_true",
                        help="show the game's text board even where the game has an SVG drawing")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Write the viewer; 0 on success, 1 (with a message on stderr) when the record is refused or unreadable."""
    args = parse_args(argv)
    output = Path(args.output) if args.output else Path(args.record).with_suffix(".html")
    try:
        path = write_viewer(Path(args.record), output, drawings=not args.text_board)
    except (ValueError, OSError) as error:
        print(f"wildwest-view: cannot show {args.record}: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0


def cli() -> None:
    """The ``wildwest-view`` console script."""
    sys.exit(main())


if __name__ == "__main__":
    cli()
