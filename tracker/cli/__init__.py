"""The command line: ``tracker`` and ``python -m tracker``."""

from __future__ import annotations

import sys


def main() -> None:
    from tracker.cli.app import command_word, make_app

    make_app(command_word(sys.argv[1:]))()
