"""The command line: ``tracker`` and ``python -m tracker``."""

from __future__ import annotations


def main() -> None:
    from tracker.cli.app import app

    app()
