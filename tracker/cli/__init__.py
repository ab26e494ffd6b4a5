"""The command line: ``tracker`` and ``python -m tracker``."""

from __future__ import annotations

import sys


def main() -> None:
    import os

    from tracker.cli.app import command_words, make_app

    word, sub = command_words(sys.argv[1:])
    if word is None and "_TRACKER_COMPLETE" not in os.environ:
        word = ""  # no command to run: the root's help or a usage error, every command listed
    make_app(word, sub)()
