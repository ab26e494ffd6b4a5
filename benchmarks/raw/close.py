"""The full-work floor of ``tracker period close`` and ``tracker rerate``: a whole process,
raw driver, no SQLAlchemy, no tracker code, a typer command (:mod:`command`).

    python close.py SPEC.json

The spec (written by ``floors.py``) names the database, the mode (``close``: one month, or
``rerate``: delete the history from the first month, then every month in sequence, one
transaction), the months, the first month of the history (seeds' K), FIDE's two tables and,
per month, the rows tracker wrote for it (files of ids, see :func:`load_ids`): the floor
writes exactly as many rows of the same shape for the same players and games, from its own
computation.

Per month it does the work tracker does:

- reads: the previous list (every line's rating, K, flags, rated games, unrated players'
  pools, with the players' birth years), the seeds of players not listed yet (a seed is his
  rating on the list in force), the month's
  games (players' kinds and event starts joined), the spans of the month's events, the
  first event of every unrated player not yet judged (§8.2.1), the newcomers' birth years
  and the shadow states at the end of the previous month. Players of the month found in
  none of these (tracker storing only what changed) are looked up in earlier periods;
- FIDE: opponents' ratings on the list in force, table 8.1.2 expected scores with the
  400-point rule (the 2650 exemption from October 2025), K of the previous list with the 700
  rule, the period change in hundredths rounded once half away from zero, the 1400 floor,
  the sticky flags and the next K (junior, 30 games, 2400); unrated players' pools (26
  months, two 1800 draws, table 8.1.1, 2200 cap, 1400 to publish, a zero first event
  disregarded); the notes;
- Glicko-2 per game (the lichess preset, as tracker's engine, each float operation in its
  order): idle RD growth at 0.21436 periods a day, Glickman 2013 steps 1-8 with the Illinois
  iteration and step 5 with phi^2,
  zero elapsed periods, the 700-point change cap, RD 45..500, volatility at most 0.1,
  rating 400..4000; new players seeded from the list in force (RD from their rated games),
  external opponents at their recorded rating and the configured RD;
- writes: the period row, the Elo lines and the shadow rows tracker wrote (idle month-end
  rows copied inside the database, as tracker does, when tracker copies exactly those), and
  the change log's row.

Simplified: every game is rated with the previous list (an event that started in an earlier
month is rated by tracker with that month's list; the synthetic federation has none).
"""

from __future__ import annotations

import array
import datetime as dt
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import rawdb
from command import run

# ---------------------------------------------------------------------------------------
# FIDE (Rating Regulations 2024, as amended 1 October 2025)

FLOOR = 1400
FLOOR_FROM = dt.date(2024, 3, 1)
EXEMPT_FROM = dt.date(2025, 10, 1)  # a player rated 2650+ uses the full difference
POOL_MONTHS = 26
FORFEITS = ("+-", "-+")
SCORE_C = {"1-0": (100, 0), "0-1": (0, 100), "1/2-1/2": (50, 50)}
COUNTED_EMPTY = json.dumps({"counted": True, "games": []})
PD_HIGH: list[int] = []  # PD of the higher-rated player by |D| (hundredths), 0..800
DP: list[int] = []


def load_tables(pd_rows: list[list[Any]], dp: list[int]) -> None:
    for d in range(801):
        for lo, hi, high, _low in pd_rows:
            if d >= lo and (hi is None or d <= hi):
                PD_HIGH.append(high)
                break
    DP.extend(dp)


def expected_c(d: int) -> int:
    """PD for a signed, capped difference, in hundredths (table 8.1.2)."""
    high = PD_HIGH[min(abs(d), 800)]
    return high if d >= 0 else 100 - high


def k_factor(rated: int, e24: bool, e23: bool, born: int | None, year: int) -> int:
    if e24:
        return 10
    if born is not None and year - born <= 18 and not e23:
        return 40
    return 40 if rated < 30 else 20


def half_away(num: int, den: int) -> int:
    """num / den rounded to a whole number, half away from zero."""
    q = (2 * abs(num) + den) // (2 * den)
    return q if num >= 0 else -q


def month_index(day: dt.date) -> int:
    return day.year * 12 + day.month - 1


def add_months(month: dt.date, n: int) -> dt.date:
    i = month_index(month) + n
    return dt.date(i // 12, i % 12 + 1, 1)


class State:
    """A tracked player's FIDE state on a list."""

    __slots__ = ("born", "e23", "e24", "k", "pool", "rated", "rating", "settled")

    def __init__(
        self,
        rating: int | None = None,
        rated: int = 0,
        e24: bool = False,
        e23: bool = False,
        born: int | None = None,
        pool: list[list[Any]] | None = None,
        k: int | None = None,
        settled: bool = False,
    ) -> None:
        self.rating, self.rated, self.e24, self.e23 = rating, rated, e24, e23
        self.born, self.pool, self.k, self.settled = born, pool or [], k, settled

    def publish(self, rating: int, rated: int, year: int) -> None:
        self.rating, self.rated = rating, rated
        self.e24 = self.e24 or rating >= 2400
        self.e23 = self.e23 or rating >= 2300
        self.pool, self.settled = [], True
        self.k = k_factor(rated, self.e24, self.e23, self.born, year)

    def pool_json(self) -> str | None:
        if not self.pool:
            return COUNTED_EMPTY if self.settled else None
        return json.dumps({"counted": self.settled, "games": self.pool})


def line_state(
    rating: int | None,
    next_k: int | None,
    rated: int,
    e24: Any,
    e23: Any,
    pool: str | None,
    born: int | None,
) -> State:
    games: list[list[Any]] = []
    counted = False
    if pool == COUNTED_EMPTY:
        counted = True
    elif pool:
        data = json.loads(pool)
        games, counted = data["games"], bool(data["counted"])
    return State(
        rating, rated, bool(e24), bool(e23), born, games, next_k,
        counted or rated > 0 or rating is not None,
    )  # fmt: skip


def seed_state(
    rating: int, games: int, e24: Any, e23: Any, born: int | None, first: dt.date
) -> State:
    s = State(None, games, bool(e24), bool(e23) or bool(e24), born, None, None, games > 0)
    s.publish(rating, games, first.year)
    return s


# ---------------------------------------------------------------------------------------
# Glicko-2, the lichess preset (tracker.ratings.glicko: engine.py, api.py, presets.py)

SCALE = 173.7178
TAU = 0.75
EPSILON = 0.000001
MAX_ITERATIONS = 1000
RD_MIN, RD_MAX = 45.0, 500.0
VOL_MAX = 0.1
R_MIN, R_MAX = 400.0, 4000.0
MAX_CHANGE = 700.0
IDLE_PER_DAY = 0.21436
START_R, START_RD, START_VOL = 1500.0, 500.0, 0.09
PI2 = math.pi * math.pi


def g_of(phi: float) -> float:
    """g(phi) as tracker's seeding computes it (``engine.g``)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / PI2)


def g_step(phi: float) -> float:
    """g(phi) as tracker's per-game update computes it (the ``glicko2`` package's ``_g``:
    ``3 * pow(phi, 2)``, not ``3 * phi * phi``: the last bit agrees)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * math.pow(phi, 2) / PI2)


def glicko_game(
    r: float, rd: float, vol: float, opp_r: float, opp_rd: float, s: float
) -> tuple[float, float, float]:
    """One game as its own rating period: Glickman 2013, steps 2-8, phi* = phi. Every
    operation in the order tracker's engine (the ``glicko2`` package's ``update_player``
    with the corrected step 5) does it, so that the floats agree to the last bit."""
    exp = math.exp
    mu = (r - 1500.0) / SCALE
    phi = rd / SCALE
    mu_j = (opp_r - 1500.0) / SCALE
    g = g_step(opp_rd / SCALE)
    e = 1.0 / (1.0 + exp(-g * (mu - mu_j)))
    v = 1.0 / (math.pow(g, 2) * e * (1.0 - e))
    delta = v * (g * (s - e))
    # step 5: the new volatility, Illinois algorithm, f with phi^2 (the paper's formula)
    phi2 = phi * phi
    a = math.log(vol**2)
    d2 = delta * delta - phi2 - v
    big_s = phi2 + v
    tau2 = TAU * TAU

    def f(x: float) -> float:
        ex = exp(x)
        return ex * (d2 - ex) / (2.0 * (big_s + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(d2)
    else:
        k = 1
        while f(a - k * TAU) < 0 and k < MAX_ITERATIONS:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    iterations = 0
    while abs(big_b - big_a) > EPSILON and iterations < MAX_ITERATIONS:
        if f_b == f_a:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
        iterations += 1
    sigma = min(exp(big_a / 2.0), VOL_MAX)
    # steps 6-8 with no elapsed period
    phi_new = 1.0 / math.sqrt(1.0 / math.pow(phi, 2) + 1.0 / v)
    rating = (mu + math.pow(phi_new, 2) * (g * (s - e))) * SCALE + 1500.0
    change = min(max(rating - r, -MAX_CHANGE), MAX_CHANGE)
    rating = min(max(r + change, R_MIN), R_MAX)
    return rating, min(max(phi_new * SCALE, RD_MIN), RD_MAX), sigma


def grown_rd(rd: float, vol: float, days: int) -> float:
    step = min(vol, VOL_MAX) * SCALE
    return min(max(math.sqrt(rd * rd + days * IDLE_PER_DAY * step * step), RD_MIN), RD_MAX)


def seed_rd(games: int, external_rd: float) -> float:
    """The first RD of a player seeded after ``games`` rated games (tracker's ``auto``)."""
    weight = g_of(external_rd / SCALE)
    info = weight * weight * 0.25 / (SCALE * SCALE)
    rd = 1.0 / math.sqrt(1.0 / (START_RD * START_RD) + games * info)
    return min(max(rd, RD_MIN), START_RD)


# ---------------------------------------------------------------------------------------
# The database

GAMES_SQL = """
SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id,
       coalesce(e.start_date, g.played_on), g.white_rating, g.black_rating,
       w.external, b.external
FROM games g
JOIN players w ON w.id = g.white_id
JOIN players b ON b.id = g.black_id
LEFT OUTER JOIN events e ON e.id = g.event_id
WHERE g.tc = ? AND g.result NOT IN ('+-', '-+') AND {where}
ORDER BY g.played_on, g.id
"""
LIST_SQL = """
SELECT h.player_id, h.rating, h.next_k, h.rated_games, h.ever_2400, h.ever_2300, h.pool,
       p.birth_year, p.external
FROM elo_history h JOIN players p ON p.id = h.player_id
WHERE h.period_id = ?
"""
SEEDS_SQL = """
SELECT s.player_id, s.rating, s.games, s.ever_2400, s.ever_2300, p.birth_year
FROM player_seeds s JOIN players p ON p.id = s.player_id
WHERE s.tc = ? AND p.external = ?
"""
UNLISTED = (
    " AND NOT EXISTS (SELECT 1 FROM elo_history h WHERE h.period_id = ? "
    "AND h.player_id = s.player_id)"
)
ENTRIES_SQL = """
SELECT e.player_id, e.rating, e.rated_games, e.ever_2400, e.ever_2300, p.birth_year
FROM list_entries e JOIN players p ON p.id = e.player_id
WHERE e.period_id = ?
"""
ENTRY_COLS = (
    "period_id", "player_id", "rank", "rating", "change", "games", "k", "rated_games",
    "ever_2400", "ever_2300",
)  # fmt: skip
EARLIER_LINES_SQL = """
SELECT h.player_id, h.rating, h.next_k, h.rated_games, h.ever_2400, h.ever_2300, h.pool,
       p.birth_year, r.month
FROM elo_history h JOIN rating_periods r ON r.id = h.period_id
JOIN players p ON p.id = h.player_id
WHERE r.tc = ? AND r.month < ? AND h.player_id IN ({ids})
"""
SHADOW_SQL = """
SELECT player_id, rating, rd, volatility, last_played, games FROM glicko_history
WHERE period_id = ? AND game_id IS NULL
"""
EARLIER_SHADOW_SQL = """
SELECT player_id, rating, rd, volatility, last_played, games, as_of, id FROM glicko_history
WHERE as_of < ? AND player_id IN ({ids})
"""
SPANS_SQL = """
SELECT g.event_id, e.start_date, min(g.played_on), max(g.played_on)
FROM games g JOIN events e ON e.id = g.event_id
WHERE g.tc = ? AND g.result NOT IN ('+-', '-+') AND g.event_id IN ({ids})
GROUP BY g.event_id, e.start_date
"""
FIRST_GAMES_SQL = """
SELECT id, white_id, black_id, result, played_on, event_id FROM games
WHERE tc = ? AND played_on < ? AND result NOT IN ('+-', '-+')
  AND (white_id IN ({ids}) OR black_id IN ({ids}))
"""
ELO_COLS = (
    "period_id", "player_id", "rating_before", "rating", "k", "next_k", "games", "score_c",
    "expected_c", "change_exact_c", "change", "rated_games", "ever_2400", "ever_2300", "pool",
    "note",
)  # fmt: skip
GLICKO_COLS = (
    "as_of", "player_id", "preset", "game_id", "period_id", "rating", "rd", "volatility",
    "last_played", "games",
)  # fmt: skip


def fit(known: tuple[str, ...], present: list[str]) -> tuple[tuple[str, ...], list[int] | None]:
    """The columns the floor knows that the table has (a migration may have changed it), and
    which of a row's values go to them (None: all of them)."""
    keep = [i for i, c in enumerate(known) if c in present]
    return tuple(known[i] for i in keep), None if len(keep) == len(known) else keep


def load_ids(path: str) -> array.array[int]:
    ids = array.array("q")
    ids.frombytes(Path(path).read_bytes())
    return ids


class Clock:
    """Seconds spent per phase of the closes, from a few clock reads a month."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.last = time.perf_counter()

    def start(self) -> None:
        self.last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.spent[phase] = self.spent.get(phase, 0.0) + now - self.last
        self.last = now


class Closer:
    """Closes months one after another; in a rerate (``carry``) each month hands its list
    and every shadow to the next one in memory, as tracker's rerate does."""

    def __init__(self, db: rawdb.Raw, spec: dict[str, Any]) -> None:
        self.db = db
        self.tc = spec["tc"]
        self.first = dt.date.fromisoformat(spec["first_month"])
        self.rows = spec["rows"]
        row = db.one("SELECT external_rd FROM shadow_settings WHERE id = 1")
        self.external_rd = float(row[0]) if row else 60.0
        # what a close reads first: the closed periods (stale ones are rerated first) and
        # the first month with games
        db.rows("SELECT month, id, stale FROM rating_periods WHERE tc = ? ORDER BY month",
                (self.tc,))  # fmt: skip
        db.one("SELECT min(played_on) FROM games WHERE tc = ?", (self.tc,))
        self.report: list[str] = []
        self.elo_cols, self.elo_pick = fit(ELO_COLS, spec["columns"]["elo_history"])
        self.glicko_cols, self.glicko_pick = fit(GLICKO_COLS, spec["columns"]["glicko_history"])
        self.entries = bool(spec["columns"].get("list_entries"))  # the lists stored too
        copied = {"as_of": "?", "preset": "'lichess'", "game_id": "NULL", "period_id": "?"}
        self.copy_idle_sql = (
            f"INSERT INTO glicko_history ({', '.join(self.glicko_cols)}) "
            f"SELECT {', '.join(copied.get(c, c) for c in self.glicko_cols)} FROM glicko_history "
            "WHERE period_id = ? AND game_id IS NULL AND player_id NOT IN "
            "(SELECT player_id FROM glicko_history WHERE period_id = ?)"
        )
        # (period, states, every line's rating, shadows, players with a month-end row)
        self.carry: tuple[int, dict[int, State], dict[int, Any], dict[int, Any], set[int]] | None
        self.carry = None
        self.spans: dict[int, tuple[dt.date, dt.date]] = {}
        self.written = {"elo": 0, "glicko": 0}
        self.clock = Clock()  # where the time goes (benchmarks/phases.py)

    def insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        cols, pick = (
            (self.elo_cols, self.elo_pick) if table == "elo_history"
            else (self.glicko_cols, self.glicko_pick)
        )  # fmt: skip
        if pick is not None:
            rows = [tuple(row[i] for i in pick) for row in rows]
        self.db.insert(table, cols, rows)

    def write_list(
        self,
        period: int,
        prev: int | None,
        lines: dict[int, tuple[Any, ...]],
        states: dict[int, State],
        list_year: int,
    ) -> None:
        """The published list stored (``list_entries``): the previous one's entries carried
        over (no games, the new list's K), the seeds not on it yet, the month's lines."""
        entries: dict[int, tuple[Any, ...]] = {}
        if prev is not None:
            for pid, rating, rated, e24, e23, born in self.db.rows(ENTRIES_SQL, (prev,)):
                k = k_factor(rated, bool(e24), bool(e23), born, list_year)
                entries[pid] = (rating, 0, 0, k, rated, e24, e23)
        for pid in self.seeded:
            st = states[pid]
            if pid not in entries and st.rating is not None:
                k = k_factor(st.rated, st.e24, st.e23, st.born, list_year)
                entries[pid] = (st.rating, 0, 0, k, st.rated, st.e24, st.e23)
        for pid, line in lines.items():
            if line[1] is None:
                entries.pop(pid, None)
            else:  # rating, change, games, next K, rated games, flags
                entries[pid] = (line[1], line[8], line[4], line[3], line[9], line[10], line[11])
        ordered = sorted(entries.items(), key=lambda item: -item[1][0])
        rows, rank, previous = [], 0, None
        for position, (pid, e) in enumerate(ordered, 1):
            if e[0] != previous:
                rank, previous = position, e[0]
            rows.append((period, pid, rank, *e))
        self.db.insert("list_entries", ENTRY_COLS, rows)

    # --- reads
    def previous_list(self, prev: int | None) -> tuple[dict[int, State], dict[int, int | None]]:
        """States on the list in force (seeded players not listed yet included), and the
        rating of every line of it (before the first list: the seeds')."""
        db = self.db
        states: dict[int, State] = {}
        ratings: dict[int, int | None] = {}
        if prev is not None:
            for pid, rating, nk, rated, e24, e23, pool, born, ext in db.rows(LIST_SQL, (prev,)):
                ratings[pid] = rating
                if not ext:
                    states[pid] = line_state(rating, nk, rated, e24, e23, pool, born)
            sql, params = SEEDS_SQL + UNLISTED, (self.tc, db.false, prev)
        else:
            sql, params = SEEDS_SQL, (self.tc, db.false)
        self.seeded: set[int] = set()  # seeded players without a line on the previous list
        for pid, rating, games, e24, e23, born in db.rows(sql, params):
            if pid not in states:
                states[pid] = seed_state(rating, games, e24, e23, born, self.first)
                self.seeded.add(pid)
                ratings[pid] = rating  # his seed is his rating on the list in force
        return states, ratings

    def month_games(
        self, month: dt.date, end: dt.date
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The month's played games (the shadow rates them all), and those the period rates
        (FIDE: events that end in it, a league's part of the month, games without event)."""
        db = self.db
        where = "g.played_on >= ? AND g.played_on < ?"
        played = db.rows(
            GAMES_SQL.replace("{where}", where), (self.tc, db.store(month), db.store(end))
        )
        events = sorted({g[5] for g in played if g[5] is not None})
        spans = {}
        for eid, start, first, last in db.chunked(SPANS_SQL, events, (self.tc,)):
            spans[eid] = (min(db.day(start), db.day(first)), db.day(last))
        self.spans = spans
        rated = []
        earlier = set()
        for g in played:
            if g[5] is not None:
                start, last = spans[g[5]]
                league = (last - start).days + 1 > 90
                if not league and last >= end:
                    continue  # the event goes on: rated when it ends
                if not league and start < month:
                    earlier.add(g[5])
            rated.append(g)
        if earlier:
            where = "g.played_on < ? AND g.event_id IN ({ids})"
            rated += db.chunked(
                GAMES_SQL.replace("{where}", where), sorted(earlier), (self.tc, db.store(month))
            )
            rated.sort(key=lambda g: (g[4], g[0]))
        return played, rated

    def first_events(self, end: dt.date, pids: list[int]) -> dict[int, tuple[Any, int, bool]]:
        """Each player's first event (§8.2.1): its key, his score in it (hundredths), and
        whether it is over."""
        db = self.db
        wanted = set(pids)
        mine: dict[int, list[tuple[Any, ...]]] = {p: [] for p in pids}
        for start in range(0, len(pids), rawdb.CHUNK):
            chunk = pids[start : start + rawdb.CHUNK]
            sql = FIRST_GAMES_SQL.replace("{ids}", ", ".join("?" for _ in chunk))
            for gid, white, black, result, day, event in db.rows(
                sql, (self.tc, db.store(end), *chunk, *chunk)
            ):
                ws, bs = SCORE_C[result]
                if white in wanted:
                    mine[white].append((day, gid, event, ws))
                if black in wanted:
                    mine[black].append((day, gid, event, bs))
        out: dict[int, tuple[Any, int, bool]] = {}
        for pid, games in mine.items():
            if not games:
                continue
            day, _, event, _ = min(games)
            if event is None:
                score = sum(s for d, _, e, s in games if e is None and d == day)
                out[pid] = (f"day:{db.day(day).isoformat()}", score, True)
                continue
            span = self.spans.get(event)
            over = span is None or span[1] < end
            out[pid] = (event, sum(s for _, _, e, s in games if e == event), over)
        return out

    def earlier_lines(self, month: dt.date, pids: list[int]) -> dict[int, State]:
        """The latest earlier line of players missing from the previous list (tracker
        storing only what changed): none today but the newcomers'."""
        db = self.db
        latest: dict[int, tuple[Any, ...]] = {}
        for row in db.chunked(EARLIER_LINES_SQL, pids, (self.tc, db.store(add_months(month, -1)))):
            got = latest.get(row[0])
            if got is None or db.day(row[8]) > db.day(got[8]):
                latest[row[0]] = row
        found = {pid: line_state(*r[1:8]) for pid, r in latest.items()}
        for state in found.values():  # idle since: K follows from the state and the year
            state.k = None
        return found

    def earlier_shadows(self, month: dt.date, pids: list[int]) -> dict[int, Any]:
        """The latest earlier shadow row of players without a month-end row in the previous
        period (none today but the newcomers')."""
        db = self.db
        latest: dict[int, tuple[Any, ...]] = {}
        for row in db.chunked(EARLIER_SHADOW_SQL, pids, (db.store(month),)):
            got = latest.get(row[0])
            if got is None or (db.day(row[6]), row[7]) > (db.day(got[6]), got[7]):
                latest[row[0]] = row
        return {
            pid: (r, rd, vol, db.day(last) if last is not None else None, n)
            for pid, (_, r, rd, vol, last, n, *_rest) in latest.items()
        }

    # --- one month, inside the caller's transaction
    def close(self, month: dt.date) -> None:
        clock = self.clock
        clock.start()
        db = self.db
        store, day_of = db.store, db.day
        end = add_months(month, 1)
        month_end = end - dt.timedelta(days=1)
        list_year = end.year
        if self.carry is not None:
            prev, states, ratings, shadows, with_month_end = self.carry
        else:
            row = db.one(
                "SELECT id FROM rating_periods WHERE tc = ? AND month = ?",
                (self.tc, store(add_months(month, -1))),
            )
            prev = row[0] if row else None
            states, ratings = self.previous_list(prev)
            shadows = {}
            if prev is not None:
                for pid, r, rd, vol, last, n in db.rows(SHADOW_SQL, (prev,)):
                    shadows[pid] = (r, rd, vol, day_of(last) if last is not None else None, n)
            with_month_end = set(shadows)
        played, rated_games = self.month_games(month, end)

        spec = self.rows[month.isoformat()]
        spec_elo = load_ids(spec["elo"])
        spec_gp, spec_gg = load_ids(spec["glicko_players"]), load_ids(spec["glicko_games"])

        # Players of the month (or of tracker's rows) that the reads above did not find.
        active = {p for g in played for p, ext in ((g[1], g[9]), (g[2], g[10])) if not ext}
        active |= {p for g in rated_games for p, ext in ((g[1], g[9]), (g[2], g[10])) if not ext}
        # (a seeded player without a line on the previous list may have an earlier one)
        wanted = active | set(spec_elo)
        unknown = sorted(wanted - states.keys())
        if prev is not None and self.carry is None:
            found = self.earlier_lines(month, sorted(set(unknown) | (wanted & self.seeded)))
            states.update(found)
            for pid, state in found.items():  # their line is still on the list in force
                ratings[pid] = state.rating
            unknown = [p for p in unknown if p not in found]
        rated_on_list = {pid: s.rated for pid, s in states.items() if s.rating is not None}
        births = dict(db.chunked("SELECT id, birth_year FROM players WHERE id IN ({ids})", unknown))
        if prev is not None and self.carry is None:
            missing = sorted(active - shadows.keys())
            if missing:
                shadows.update(self.earlier_shadows(month, missing))

        clock.lap("reads")
        # The shadow: every played game in order, each tracked side (lichess, per game).
        shadow_rows: list[tuple[Any, ...]] = []
        moved: dict[int, None] = {}
        ext_rd = self.external_rd
        for gid, white, black, result, played_on, _e, _s, w_rec, b_rec, w_ext, b_ext in played:
            if w_ext and b_ext:
                continue
            day = day_of(played_on)
            sides = []
            for pid, ext, rec in ((white, w_ext, w_rec), (black, b_ext, b_rec)):
                if ext:
                    if rec is None:
                        sides.append((None, START_R, START_RD, START_VOL, 0))
                    else:
                        sides.append((None, float(rec), ext_rd, START_VOL, 0))
                    continue
                now = shadows.get(pid)
                if now is None:  # a new shadow: from the Elo on the list in force, if any
                    elo = ratings.get(pid)
                    if elo is not None:
                        rd0 = seed_rd(rated_on_list.get(pid, 0), ext_rd)
                        sides.append((pid, min(max(float(elo), R_MIN), R_MAX), rd0, START_VOL, 0))
                    else:
                        sides.append((pid, START_R, START_RD, START_VOL, 0))
                    continue
                r, rd, vol, last, n = now
                if last is not None:
                    rd = grown_rd(rd, vol, (day - last).days)
                sides.append((pid, r, rd, vol, n))
            (wp, wr, wrd, wvol, wn), (bp, br, brd, bvol, bn) = sides
            s_white = SCORE_C[result][0] / 100.0
            stored_day = store(day)
            if wp is not None:
                r, rd, vol = glicko_game(wr, wrd, wvol, br, brd, s_white)
                shadows[wp] = (r, rd, vol, day, wn + 1)
                moved[wp] = None
                shadow_rows.append((stored_day, wp, "lichess", gid, 0, r, rd, vol, stored_day,
                                    wn + 1))  # fmt: skip
            if bp is not None:
                r, rd, vol = glicko_game(br, brd, bvol, wr, wrd, 1.0 - s_white)
                shadows[bp] = (r, rd, vol, day, bn + 1)
                moved[bp] = None
                shadow_rows.append((stored_day, bp, "lichess", gid, 0, r, rd, vol, stored_day,
                                    bn + 1))  # fmt: skip

        clock.lap("shadow fold")
        # FIDE: each tracked side's games rated in the period, opponents on the list in force.
        fide: dict[int, list[tuple[Any, ...]]] = {}
        for g in rated_games:
            _g, white, black, result, played_on, event, start, w_rec, b_rec, w_ext, b_ext = g
            ws, bs = SCORE_C[result]
            key = event if event is not None else f"day:{day_of(played_on).isoformat()}"
            start_day = day_of(start)
            if not w_ext:
                opp = recorded(b_rec, month) if b_ext else ratings.get(black)
                fide.setdefault(white, []).append((opp, ws, key, start_day, ratings.get(white)))
            if not b_ext:
                opp = recorded(w_rec, month) if w_ext else ratings.get(white)
                fide.setdefault(black, []).append((opp, bs, key, start_day, ratings.get(black)))
        unsettled = sorted(
            p for p in fide if (s := states.get(p)) is None or (s.rating is None and not s.settled)
        )
        clock.lap("FIDE fold")
        firsts = self.first_events(end, unsettled) if unsettled else {}
        clock.lap("reads")

        # The new list: the lines of the players with games and the other lines tracker wrote.
        lines: dict[int, tuple[Any, ...]] = {}
        entered, left = [], []
        for pid in sorted(fide.keys() | set(spec_elo)):
            state = states.get(pid)
            if state is None:
                state = states[pid] = State(born=births.get(pid))
            mine = fide.get(pid, [])
            if not mine and state.rating is not None:  # an idle line: the rating carries over
                state.k = None  # the new list's K follows from the state and the list year
                next_k = k_factor(state.rated, state.e24, state.e23, state.born, list_year)
                lines[pid] = (state.rating, state.rating, None, next_k, 0, 0, 0, 0, 0,
                              state.rated, state.e24, state.e23, COUNTED_EMPTY, None)  # fmt: skip
            elif state.rating is not None:
                lines[pid] = rate_rated(state, mine, month, list_year)
                if state.rating is None:
                    left.append(pid)
            else:
                lines[pid] = rate_unrated(state, mine, month, list_year, firsts.get(pid))
                if state.rating is not None:
                    entered.append(pid)

        clock.lap("FIDE fold")
        # --- writes
        period = db.one(
            "INSERT INTO rating_periods (tc, month, stale) VALUES (?, ?, ?) RETURNING id",
            (self.tc, store(month), db.false),
        )[0]
        elo_rows = []
        for pid in spec_elo:
            line = lines.get(pid)
            if line is None:  # not expected: a line tracker wrote and the floor did not make
                s = states.get(pid) or State()
                line = (s.rating, s.rating, None, s.k, 0, 0, 0, 0, 0, s.rated, s.e24, s.e23,
                        s.pool_json(), None)  # fmt: skip
            elo_rows.append((period, pid, *line))
        self.insert("elo_history", elo_rows)

        # Shadow rows as tracker wrote them: per game, then the month-end rows.
        wanted = [(p, g) for p, g in zip(spec_gp, spec_gg, strict=True) if g]
        if [(r[1], r[3]) for r in shadow_rows] != wanted:
            by_pair = {(r[1], r[3]): r for r in shadow_rows}
            shadow_rows = [by_pair.get(pg) or fallback(pg, shadows, month_end, store)
                           for pg in wanted]  # fmt: skip
        rows = [(*r[:4], period, *r[5:]) for r in shadow_rows]
        stored_end = store(month_end)
        month_end_rows = [p for p, g in zip(spec_gp, spec_gg, strict=True) if not g]
        idle = []
        for pid in month_end_rows:
            if pid in moved:
                r, rd, vol, last, n = shadows[pid]
                rows.append((stored_end, pid, "lichess", None, period, r, rd, vol, store(last), n))
            else:
                idle.append(pid)
        # Idle shadows: copied inside the database (as tracker does) when tracker copied
        # exactly the previous month's idle month-end rows; else written from the states.
        copy = prev is not None and set(idle) == with_month_end - moved.keys()
        if not copy:
            for pid in idle:
                r, rd, vol, last, n = shadows.get(pid) or (START_R, START_RD, START_VOL, None, 0)
                rows.append((stored_end, pid, "lichess", None, period, r, rd, vol, store(last), n))
        self.insert("glicko_history", rows)
        if copy and idle:
            db.run(self.copy_idle_sql, (stored_end, period, prev, period))
        self.written["elo"] += len(elo_rows)
        self.written["glicko"] += len(rows) + (len(idle) if copy else 0)
        if self.entries:
            self.write_list(period, prev, lines, states, list_year)

        clock.lap("writes")
        # the command's report: the month, its games, who entered or left the rated list
        names = dict(db.chunked("SELECT id, name FROM players WHERE id IN ({ids})",
                                entered + left))  # fmt: skip
        self.report.append(
            f"closed {month:%Y-%m}: {len(rated_games)} games; first rating for "
            f"{', '.join(names[p] for p in entered)}; dropped {', '.join(names[p] for p in left)}"
        )
        new_ratings = dict(ratings)  # every line's rating on the new list
        new_ratings.update((pid, line[1]) for pid, line in lines.items())
        self.carry = (period, states, new_ratings, shadows, set(month_end_rows))
        clock.lap("rest")


def recorded(rating: int | None, month: dt.date) -> int | None:
    if rating is not None and rating < FLOOR and month >= FLOOR_FROM:
        return None
    return rating


def fallback(
    pair: tuple[int, int], shadows: dict[int, Any], day: dt.date, store: Any
) -> tuple[Any, ...]:
    r, rd, vol, last, n = shadows.get(pair[0]) or (START_R, START_RD, START_VOL, day, 0)
    return (store(day), pair[0], "lichess", pair[1], 0, r, rd, vol, store(last), n)


def rate_rated(
    state: State, games: list[tuple[Any, ...]], month: dt.date, year: int
) -> tuple[Any, ...]:
    rating = state.rating
    assert rating is not None
    k_in_force = (
        state.k
        if state.k is not None
        else k_factor(state.rated, state.e24, state.e23, state.born, month.year)
    )
    counted = []
    unrated_opp = 0
    for opp, s, _key, start, own in games:
        if opp is None:
            unrated_opp += 1
            continue
        counted.append((own if own is not None else rating, opp, s, start))
    n = len(counted)
    notes = []
    k_used = None
    score = expected = change_c = change = 0
    if n:
        k_used = k_in_force if k_in_force * n <= 700 else 700 // n
        delta = 0
        for own, opp, s, start in counted:
            d = own - opp
            if start < EXEMPT_FROM or own < 2650:
                d = -400 if d < -400 else (400 if d > 400 else d)
            pd = expected_c(d)
            score += s
            expected += pd
            delta += s - pd
        change_c = k_used * delta
        change = half_away(change_c, 100)
        if k_used != k_in_force:
            notes.append(f"700 rule: K {k_in_force} reduced to {k_used} for {n} games (§8.3.3)")
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not rated (§8.3.1)")
    new = rating + change
    rated = state.rated + n
    if new < FLOOR:
        state.rating, state.rated, state.pool, state.k, state.settled = None, rated, [], None, True
        after, next_k, pool = None, None, COUNTED_EMPTY
        notes.append(
            f"rating {new} is below {FLOOR}: shown as unrated on the "
            f"{add_months(month, 1).isoformat()} list (§7.2.1)"
        )
    else:
        state.publish(new, rated, year)
        after, next_k, pool = new, state.k, COUNTED_EMPTY
    return (
        rating, after, k_used, next_k, n, score, expected, change_c, change, rated,
        state.e24, state.e23, pool, "; ".join(notes) or None,
    )  # fmt: skip


def rate_unrated(
    state: State,
    games: list[tuple[Any, ...]],
    month: dt.date,
    year: int,
    first: tuple[Any, int, bool] | None,
) -> tuple[Any, ...]:
    now = month_index(month)
    notes = []
    kept = [
        pg for pg in state.pool if now - month_index(dt.date.fromisoformat(pg[0])) < POOL_MONTHS
    ]
    if len(kept) < len(state.pool):
        notes.append(
            f"{len(state.pool) - len(kept)} pooled result(s) older than {POOL_MONTHS} months "
            "dropped (§7.1.4)"
        )
    settled = state.settled or state.rated > 0
    special = None
    verdict = "settle"
    if not settled:
        if first is None and games:
            key0 = games[0][2]
            first = (key0, sum(g[1] for g in games if g[2] == key0), True)
        held = any(pg[5] for pg in kept)
        if first is None or not (held or any(g[2] == first[0] for g in games)):
            verdict = "wait"
        elif first[1] > 0:
            verdict = "settle"
        elif first[2]:
            verdict, special = "disregard", first[0]
            notes.append("zero score in the first event disregarded (§8.2.1)")
        else:
            verdict, special = "hold", first[0]
            notes.append(
                "zero score so far in the first event, which goes on: its results are held "
                "until it ends (§8.2.1)"
            )
        if verdict == "settle":
            kept = [[*pg[:5], 0] for pg in kept]
        elif verdict == "disregard":
            kept = [pg for pg in kept if not pg[5]]
        settled = verdict in ("settle", "disregard")
    added = []
    unrated_opp = 0
    label = month.isoformat()
    for opp, s, key, start, _own in games:
        if opp is None:
            unrated_opp += 1
        elif special is not None and key == special:
            if verdict == "hold":
                added.append([label, opp, _score_text(s), key, start.isoformat(), 1])
        else:
            added.append([label, opp, _score_text(s), key, start.isoformat(), 0])
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not counted (§7.1.4)")
    pool = kept + added
    counted = [pg for pg in pool if not pg[5]]
    state.pool, state.settled, state.k = pool, settled, None
    after = next_k = None
    if len(counted) >= 5:
        n = len(counted)
        opp_total = sum(pg[1] for pg in counted) + 2 * 1800
        score_c = sum(_score_c(pg[2]) for pg in counted)
        index = half_away(score_c + 100, n + 2)
        dp = DP[index]
        ru = min(half_away(opp_total + dp * (n + 2), n + 2), 2200)
        if ru >= FLOOR:
            state.publish(ru, state.rated + n, year)
            after, next_k = ru, state.k
            notes.append(
                f"first rating {ru} from {n} games published on the "
                f"{add_months(month, 1).isoformat()} list (§8.2)"
            )
        else:
            notes.append(
                f"initial rating {ru} below {FLOOR}: not published; the results stay in the "
                "pool (§7.1.4)"
            )
    return (
        None, after, None, next_k, len(added), sum(_score_c(pg[2]) for pg in added), 0, 0, 0,
        state.rated, state.e24, state.e23, state.pool_json(), "; ".join(notes) or None,
    )  # fmt: skip


_SCORE_TEXT = {100: "1", 50: "0.5", 0: "0"}
_SCORE_C = {"1": 100, "0.5": 50, "0": 0, "1.0": 100, "0.0": 0}


def _score_text(s: int) -> str:
    return _SCORE_TEXT[s]


def _score_c(text: str) -> int:
    return _SCORE_C[text]


def main(*args: str) -> int:
    """``close.py SPEC.json``, as a typer command (:mod:`command`)."""
    return run("close", close, args)


def close(spec_file: str) -> None:
    """Close (or rerate) the months of the spec."""
    spec = json.loads(Path(spec_file).read_text())
    load_tables(spec["pd_rows"], spec["dp"])
    db = rawdb.Raw(spec["target"])
    months = [dt.date.fromisoformat(m) for m in spec["months"]]
    closer = Closer(db, spec)
    # One transaction, as a tracker command: a rerate first deletes the history it replaces;
    # months after the first get the previous list and every shadow from memory.
    db.begin()
    if spec["mode"] == "rerate":
        doomed = "SELECT id FROM rating_periods WHERE tc = ? AND month >= ?"
        params = (spec["tc"], db.store(months[0]))
        for table in ("elo_history", "glicko_history"):
            db.run(f"DELETE FROM {table} WHERE period_id IN ({doomed})", params)
        db.run("DELETE FROM rating_periods WHERE tc = ? AND month >= ?", params)
    for month in months:
        closer.close(month)
    did = "rerated" if spec["mode"] == "rerate" else "closed"
    labels = [f"{m:%Y-%m}" for m in months]
    span = labels[0] if len(labels) == 1 else f"{labels[0]} to {labels[-1]}"
    db.log(f"raw close {spec['mode']} {span}",
           [{"did": did, "what": f"{spec['tc']} periods {did}: {span}", "tc": spec["tc"],
             "months": labels}])  # fmt: skip
    db.commit()
    db.close()
    print("\n".join(closer.report))
    print(json.dumps({"written": closer.written, "phases": closer.clock.spent}))


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
