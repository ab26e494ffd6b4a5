"""Real online ratings: fetched from Lichess and Chess.com or imported from a saved response,
and stored (:mod:`.fetch`), read back (:mod:`.reads`), set beside FIDE Elo (:mod:`.fit`).
Each loads on its own: ``compare`` reads the stored ratings without the fetching."""
