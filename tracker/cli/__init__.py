"""The command line: ``tracker`` and ``python -m tracker``."""

from __future__ import annotations

import sys


def main() -> None:
    import gc
    import os

    # A command's start makes tens of thousands of objects (modules, classes, functions) that
    # live as long as the process: the cyclic collector would walk them again and again while
    # they are made (a tenth of the start). They are made without it, then set aside for good
    # (gc.freeze); the command itself runs with it, its heavy loops without (db.collector).
    gc.disable()
    from tracker.cli.app import command_words, make_app

    word, sub = command_words(sys.argv[1:])
    if word is None and "_TRACKER_COMPLETE" not in os.environ:
        word = ""  # no command to run: the root's help or a usage error, every command listed
    app = make_app(word, sub)
    gc.freeze()
    gc.enable()
    app()
