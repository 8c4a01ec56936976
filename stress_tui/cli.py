"""The command line: flags and config file become ``Settings``; errors become one line."""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .settings import Settings


def build_parser() -> argparse.ArgumentParser:
    """The ``stress-tui`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="stress-tui", description="The card game Stress, in real time, in the terminal."
    )
    parser.add_argument("--version", action="version", version=f"stress-tui {__version__}")
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every time")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``stress-tui``; return the exit status."""
    args = build_parser().parse_args(argv)
    settings = Settings(seed=args.seed)
    from .app import run

    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
