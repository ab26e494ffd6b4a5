"""The named queries: every read and write of tracker's tables at run time, by feature.

Each function takes a :class:`tracker.db.driver.Db` (one transaction) and returns typed rows
(named tuples or frozen dataclasses), so the services above hold no SQL, no cursor and no
session. These modules (and :mod:`tracker.db.rows`) leave out ``from __future__ import
annotations``: a ``NamedTuple`` compiles each annotation given as text when it is defined,
and every command defines dozens of these rows as it starts. So does every other module of
tracker that defines one (``tests/test_house.py`` holds them to it, and names the exceptions).
"""
