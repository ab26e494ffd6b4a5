"""Glicko shadow rating: presets, and an adapter over the PyPI ``glicko2`` package.

Callers see only pure functions over :class:`GlickoState` (rating, RD, volatility on the
familiar 1500-centred scale) and :class:`GlickoPreset` (frozen parameters). The package
``glicko2`` 2.1.0 (the engine chosen for the project) stays behind this module.

Why an adapter and not the package as is (details: reference/glicko-notes.md section 4):

* Its ``Player._f`` (Glickman 2013, step 5.1) uses the rating mu^2 where the paper has the
  deviation phi^2. Exact only where mu^2 == phi^2; elsewhere the new volatility is wrong, and
  through it phi* (step 6), phi' (step 7) and mu' (step 7). :class:`~.engine.CorrectedPlayer`
  overrides ``_f`` and ``_newVol`` with the paper's formula, the 22 March 2022 "<= 0" test in
  the Illinois loop and an iteration cap of :data:`MAX_ITERATIONS`.
* tau is a class attribute (``Player._tau``) shared by every player; we set it per instance.
* An empty period raises ``ZeroDivisionError`` (1/0 in ``_v``); we apply step 6 ourselves.
* No RD/volatility/rating bounds, no time-based RD growth: added here from the preset.

Presets (:data:`PRESETS`, :func:`get_preset`):

* ``lichess`` (default) - Lichess's parameters (lila ``Glicko.scala``, scalachess
  ``glicko``): 1500 / 500 / 0.09, tau 0.75, every game its own rating period computed from
  both players' pre-game values with zero elapsed periods (phi* = phi), RD growth between
  games phi^2 + days * 0.21436 * sigma^2, RD in [45, 500], volatility at most 0.1, rating in
  [400, 4000], at most 700 points per game, shown truncated with "?" while RD >= 110.
  Not modelled: the colour (first-move) advantage added in late 2025, the per-variant
  "rating regulator" factors and the halving of human-vs-bot games.
* ``glickman`` - the paper as written: 1500 / 350 / 0.06, tau 0.5, one rating period per
  month with all its games together; step 6 once per period for players without games.
* ``chesscom`` - Glicko-1 (:mod:`tracker.ratings.glicko.glicko1`), per game; everything beyond
  "Glicko with RD" is an assumption, listed in :attr:`GlickoPreset.assumptions`.
  :func:`chesscom_preset` builds variants (start rating, c, RD bounds).

Modules: :mod:`~.presets` (the flavours and the state), :mod:`~.engine` (the only user of the
``glicko2`` package), :mod:`~.api` (the functions callers use) and :mod:`~.seeding` (the
starting RD of a player seeded from his Elo); each name is imported from its module. Pure
code: standard library and ``glicko2`` only, no I/O.
"""
