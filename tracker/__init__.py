"""tracker: FIDE Elo rating history with a Glicko-2 shadow rating."""

__version__ = "0.1.0"
