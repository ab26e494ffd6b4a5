"""Pausing Python's cyclic garbage collector for batch work (an import, a month's close).

No SQLAlchemy here: the import runs on the bare driver and needs only this."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def without_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a batch.

    Closing a month makes hundreds of thousands of small objects and keeps tens of thousands
    alive (every listed player's state): the collector would walk that heap over and over
    looking for reference cycles these folds do not make. Reference counting still frees
    everything; the collector is back (and runs) when the batch ends."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
