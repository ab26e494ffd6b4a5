"""FIDE Elo rules as pure functions: expected score, K, the 700 rule, initial ratings and the
monthly rating-period fold.

Everything follows the FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook
B.02), as amended 1 October 2025, and the Rapid & Blitz Rating Regulations of the same date,
except a first rating worked out in a standard rating period from January 2022 to February
2024, which follows the Rating Regulations of 1 January 2022 (§8.2; :data:`~.rules.INITIAL_2022`).
Article numbers in the docstrings refer to the 2024 texts unless they say otherwise.

Arithmetic is exact: probabilities from table 8.1.2 are :class:`~decimal.Decimal` values with
two decimals, so per-game and per-period changes are exact too. Rounding happens once, on the
period total, half away from zero (§8.3.4); the builtin :func:`round` (half to even) is never
used. The optional logistic formula (for reproducing online calculators, not FIDE) returns a
full-precision ``Decimal``; callers round only when displaying, e.g. with
:func:`~.arithmetic.quantize_half_away`.

This module imports only the standard library and performs no I/O.

Modules: :mod:`~.tables` (tables 8.1.1 and 8.1.2 as data), :mod:`~.rules` (the rule sets by
date and the regulations' constants), :mod:`~.arithmetic` (exact decimals and rounding),
:mod:`~.game` (one game's expectation and change, the 700 rule), :mod:`~.period` (a
rated player's period change), :mod:`~.initial` (a newcomer's first rating), :mod:`~.records`
(what the fold carries), :mod:`~.state` (seeding and publication, K), :mod:`~.rated` and
:mod:`~.newcomer` (a rated and an unrated player's period), :mod:`~.player` (one player's
period fold), :mod:`~.events` (when an event is rated) and :mod:`~.month` (the whole list's
month fold). Each name is imported from its module.
"""
