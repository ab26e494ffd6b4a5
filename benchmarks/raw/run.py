"""Runs one floor: ``python run.py MODULE ARGS...`` (``close``, ``importer``, ``reads``).

A script run directly is compiled on every start; a module imported from here comes from its
cached bytecode, as tracker's modules do, so both sides start alike.
"""

import importlib
import sys

sys.exit(importlib.import_module(sys.argv[1]).main(*sys.argv[2:]))
