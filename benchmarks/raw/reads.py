"""The query floors of tracker's everyday commands: a whole process doing the same query
work through the bare driver, printing plain text. No SQLAlchemy, no typer, no tracker code.

    python reads.py TARGET history NAME        # tracker history NAME
    python reads.py TARGET player NAME         # tracker player show NAME
    python reads.py TARGET compare NAME        # tracker compare NAME
    python reads.py TARGET add WHITE BLACK RESULT DATE   # tracker game add ... --date DATE
    python reads.py TARGET list [sparse]       # tracker list (the latest list)
    python reads.py - calc OWN K OPP:SCORE...  # tracker calc elo OWN OPP:SCORE... --k K
    python reads.py - help FILE                # tracker --help (prints the same text)

Each reads what the command needs (see the functions) and prints it as aligned text.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import sys
from typing import Any

SCALE = 173.7178
IDLE_PER_DAY = 0.21436
PLAYER_SQL = (
    "SELECT id, name, fide_id, federation, birth_year, sex, title, external, lichess, "
    "chesscom FROM players WHERE name = ?"
)


def connect(target: str) -> Any:
    import rawdb

    return rawdb.Raw(target)


def player(db: Any, name: str) -> tuple[Any, ...]:
    """tracker's resolve: the exact name, else the same name in another case or spacing."""
    found = db.rows(PLAYER_SQL, (name,))
    if not found:
        folded = " ".join(name.split()).lower()
        found = db.rows(PLAYER_SQL.replace("name = ?", "lower(name) = ?"), (folded,))
    if len(found) != 1:
        raise SystemExit(f"error: {len(found)} players named {name!r}")
    return found[0]


def table(header: list[str], rows: list[list[str]], right: set[int]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    lines = []
    for cells in [header, *rows]:
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def add_month(day: dt.date) -> dt.date:
    return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)


def grown(rd: float, vol: float, days: int) -> float:
    step = min(vol, 0.1) * SCALE
    return min(max(math.sqrt(rd * rd + days * IDLE_PER_DAY * step * step), 45.0), 500.0)


def shadow_by_month(db: Any, pid: int) -> dict[dt.date, tuple[float, float, float]]:
    """The player's shadow on each list date: his month-end rows, RD grown to the list."""
    out = {}
    for month, r, rd, vol, last in db.rows(
        "SELECT r.month, g.rating, g.rd, g.volatility, g.last_played FROM glicko_history g "
        "JOIN rating_periods r ON r.id = g.period_id "
        "WHERE r.tc = 'standard' AND g.player_id = ? AND g.game_id IS NULL",
        (pid,),
    ):
        month = db.day(month)
        if last is not None:
            rd = grown(rd, vol, (add_month(month) - db.day(last)).days)
        out[month] = (r, rd, vol)
    return out


def history(db: Any, name: str) -> None:
    """Player; his Elo lines with their periods; his shadow month-end rows; his seed; the
    shadow settings; the stale periods; whether he met an external opponent."""
    pid, name, *_ = player(db, name)
    lines = db.rows(
        "SELECT r.month, r.stale, h.rating_before, h.rating, h.k, h.games, h.score_c, "
        "h.expected_c, h.change_exact_c, h.change, h.note "
        "FROM elo_history h JOIN rating_periods r ON r.id = h.period_id "
        "WHERE h.player_id = ? AND r.tc = 'standard' "
        "AND (h.games > 0 OR h.rating IS NOT NULL OR h.note IS NOT NULL) ORDER BY r.month",
        (pid,),
    )
    shadow = shadow_by_month(db, pid)
    seed = db.one(
        "SELECT rating, games FROM player_seeds WHERE player_id = ? AND tc = ?", (pid, "standard")
    )
    settings = db.one("SELECT preset, external_rd FROM shadow_settings WHERE id = 1")
    preset, external_rd = settings if settings else ("lichess", 60.0)
    stale = db.rows(
        "SELECT month FROM rating_periods WHERE tc = 'standard' AND stale = ?", (db.true,)
    )
    met_external = db.one(
        "SELECT g.id FROM games g JOIN players w ON w.id = g.white_id "
        "JOIN players b ON b.id = g.black_id WHERE g.tc = 'standard' "
        "AND ((g.white_id = ? AND b.external = ?) OR (g.black_id = ? AND w.external = ?)) "
        "LIMIT 1",
        (pid, db.true, pid, db.true),
    )
    rows = []
    notes = []
    for month, _st, before, rating, k, games, score, expected, exact, _ch, note in lines:
        month = db.day(month)
        s = shadow.get(month)
        shown = "" if s is None else f"{math.trunc(s[0])}{'?' if s[1] >= 110 else ''}"
        rows.append(
            [
                month.strftime("%Y-%m"),
                "unrated" if before is None else str(before),
                "" if rating is None else str(rating),
                "" if k is None else str(k),
                str(games),
                f"{score / 100:.1f}",
                f"{expected / 100:.2f}" if k else "",
                f"{exact / 100:+.2f}" if k else "",
                shown,
                "" if s is None else f"{s[1]:.0f}",
            ]
        )
        if note:
            notes.append((len(rows), note))
    print(f"{name} (standard)")
    text = table(
        ["month", "before", "rating", "K", "games", "score", "expected", "change", preset, "RD"],
        rows,
        set(range(1, 10)),
    ).split("\n")
    out = [text[0]]
    for i, line in enumerate(text[1:], start=1):
        out.append(line)
        out.extend(f"  note: {n}" for j, n in notes if j == i)
    print("\n".join(out))
    if seed:
        print(f"{name}: seeded {seed[0]} after {seed[1]} games (standard)")
    if met_external:
        print(
            f"shadow: external opponents count at their recorded rating and a fixed RD of "
            f"{external_rd:g}"
        )
    if stale:
        print(f"warning: ratings from {db.day(stale[0][0]):%Y-%m} are stale")


PD: list[int] = []


def expected_c(d: int) -> int:
    """Table 8.1.2 by |D| (its row starts), hundredths."""
    if not PD:
        starts = (
            0,
            4,
            11,
            18,
            26,
            33,
            40,
            47,
            54,
            62,
            69,
            77,
            84,
            92,
            99,
            107,
            114,
            122,
            130,
            138,
            146,
            154,
            163,
            171,
            180,
            189,
            198,
            207,
            216,
            226,
            236,
            246,
            257,
            268,
            279,
            291,
            303,
            316,
            329,
            345,
            358,
            375,
            392,
            412,
            433,
            457,
            485,
            518,
            560,
            620,
            736,
        )
        row = 0
        for x in range(801):
            while row + 1 < len(starts) and x >= starts[row + 1]:
                row += 1
            PD.append(50 + row)
    high = PD[min(abs(d), 800)]
    return high if d >= 0 else 100 - high


def live_change(rating: int, k: int, games: list[tuple[int | None, int]]) -> tuple[int, int]:
    """The period change of a rated player's games (opponent, score in hundredths)."""
    counted = [(opp, s) for opp, s in games if opp is not None]
    if not counted:
        return 0, 0
    k = k if k * len(counted) <= 700 else 700 // len(counted)
    delta = sum(s - expected_c(max(-400, min(400, rating - opp))) for opp, s in counted)
    exact = k * delta
    q = (2 * abs(exact) + 100) // 200
    return len(counted), q if exact >= 0 else -q


def show(db: Any, name: str) -> None:
    """Player; his game count; his seeds; the closed periods; his line on the latest list;
    his games of the open month, with his opponents' kinds, recorded and listed ratings."""
    pid, name, fide_id, fed, born, sex, title, external, *_accounts = player(db, name)
    (count,) = db.one("SELECT count(*) FROM games WHERE white_id = ? OR black_id = ?", (pid, pid))
    seeds = db.rows(
        "SELECT tc, rating, games, ever_2400, ever_2300 FROM player_seeds "
        "WHERE player_id = ? ORDER BY tc",
        (pid,),
    )
    fields = [
        ("id", f"#{pid}"),
        ("name", name),
        ("kind", "external" if external else "tracked"),
        ("FIDE id", str(fide_id or "")),
        ("federation", fed or ""),
        ("born", str(born or "")),
        ("sex", sex or ""),
        ("title", title or ""),
        ("games", str(count)),
    ]
    for tc, rating, games, e24, e23 in seeds:
        flags = f"ever 2400: {'yes' if e24 else 'no'}, ever 2300: {'yes' if e23 else 'no'}"
        fields.append((f"seed ({tc})", f"{rating} after {games} games; {flags}"))
    periods = db.rows(
        "SELECT month, id FROM rating_periods WHERE tc = 'standard' ORDER BY month DESC LIMIT 1"
    )
    if periods and not external:
        month, period = db.day(periods[0][0]), periods[0][1]
        line = db.one(
            "SELECT h.rating, h.next_k, h.rated_games, h.ever_2400, h.ever_2300, h.pool "
            "FROM elo_history h JOIN rating_periods r ON r.id = h.period_id "
            "WHERE h.player_id = ? AND r.tc = 'standard' AND r.month <= ? "
            "ORDER BY r.month DESC LIMIT 1",
            (pid, db.store(month)),
        )
        open_from = add_month(month)
        games = db.rows(
            "SELECT g.white_id, g.black_id, g.result, g.white_rating, g.black_rating, "
            "w.external, b.external FROM games g JOIN players w ON w.id = g.white_id "
            "JOIN players b ON b.id = g.black_id WHERE g.tc = 'standard' "
            "AND g.played_on >= ? AND (g.white_id = ? OR g.black_id = ?) "
            "AND g.result NOT IN ('+-', '-+') ORDER BY g.played_on, g.id",
            (db.store(open_from), pid, pid),
        )
        opponents = sorted({g[1] if g[0] == pid else g[0] for g in games})
        listed = (
            dict(
                db.rows(
                    f"SELECT player_id, rating FROM elo_history WHERE period_id = ? AND player_id "
                    f"IN ({', '.join('?' for _ in opponents)})",
                    (period, *opponents),
                )
            )
            if opponents
            else {}
        )
        if line is not None and line[0] is not None:
            rating, k = line[0], line[1]
            mine = []
            for w, b, result, w_rec, b_rec, w_ext, b_ext in games:
                white = w == pid
                score = {"1-0": 100, "0-1": 0, "1/2-1/2": 50}[result]
                opp, ext, rec = (b, b_ext, b_rec) if white else (w, w_ext, w_rec)
                opp_rating = (rec if rec and rec >= 1400 else None) if ext else listed.get(opp)
                mine.append((opp_rating, score if white else 100 - score))
            n, change = live_change(rating, k or 20, mine)
            fields.append(("standard rating", f"{rating} on the {open_from} list"))
            fields.append(("standard K", f"{k} for the next period"))
            fields.append(
                (
                    "standard record",
                    f"{line[2]} rated games; ever 2400: "
                    f"{'yes' if line[3] else 'no'}, ever 2300: "
                    f"{'yes' if line[4] else 'no'}",
                )
            )
            if n:
                fields.append(("standard live", f"{change:+d} from {n} games (not published)"))
    print(table(["field", "value"], [[a, b] for a, b in fields], set()))


def compare(db: Any, name: str) -> None:
    """Player; his Elo on each list; his shadow month-end rows; the settings; his online
    ratings."""
    pid, name, *_ = player(db, name)
    lines = db.rows(
        "SELECT r.month, h.rating FROM elo_history h JOIN rating_periods r "
        "ON r.id = h.period_id WHERE h.player_id = ? AND r.tc = 'standard' ORDER BY r.month",
        (pid,),
    )
    shadow = shadow_by_month(db, pid)
    settings = db.one("SELECT preset, external_rd FROM shadow_settings WHERE id = 1")
    preset = settings[0] if settings else "lichess"
    db.rows(
        "SELECT platform, perf, day, rating FROM online_ratings WHERE player_id = ? ORDER BY day",
        (pid,),
    )
    rows = []
    for month, rating in lines:
        month = db.day(month)
        s = shadow.get(month)
        if s is None and rating is None:
            continue
        shown = "" if s is None else f"{math.trunc(s[0])}{'?' if s[1] >= 110 else ''}"
        diff = "" if s is None or rating is None else f"{round(s[0] - rating):+d}"
        rows.append(
            [
                month.strftime("%Y-%m"),
                add_month(month).isoformat(),
                "" if rating is None else str(rating),
                shown,
                "" if s is None else f"{s[1]:.0f}",
                "" if s is None else f"{s[2]:.5f}",
                diff,
            ]
        )
    print(f"{name} (standard): FIDE Elo and the {preset} shadow")
    print(
        table(
            ["month", "list", "Elo", preset, "RD", "volatility", "difference"],
            rows,
            {2, 3, 4, 5, 6},
        )
    )


def add(db: Any, white: str, black: str, result: str, date: str) -> None:
    """Both players; the date's plausibility (the first period, else the first game); the
    natural key; the game; the stale marks of closed periods from its month; one commit."""
    db.begin()
    w, b = player(db, white), player(db, black)
    day = dt.date.fromisoformat(date)
    first = db.one("SELECT min(month) FROM rating_periods WHERE tc = 'standard'")
    if first is None or first[0] is None:
        db.one("SELECT min(played_on) FROM games WHERE tc = 'standard'")
    key = f"{day.isoformat()}|{w[0]}|{b[0]}||"
    if db.one("SELECT id FROM games WHERE natural_key = ?", (key,)) is not None:
        raise SystemExit("error: this game is already recorded")
    (gid,) = db.one(
        "INSERT INTO games (white_id, black_id, result, played_on, tc, natural_key) "
        "VALUES (?, ?, ?, ?, 'standard', ?) RETURNING id",
        (w[0], b[0], result, db.store(day), key),
    )
    month = day.replace(day=1)
    db.run(
        "UPDATE rating_periods SET stale = ? WHERE tc = 'standard' AND month >= ?",
        (db.true, db.store(month)),
    )
    what = f"game {gid}: {w[1]} {result} {b[1]}, {day}, standard"
    db.log(f"raw add {white} {black} {result} {date}",
           [{"did": "added", "what": what, "players": [w[0], b[0]]}])  # fmt: skip
    db.commit()
    print(f"added game {gid}: {w[1]} {result} {b[1]}, {day}, standard")


def rating_list(db: Any, sparse: bool) -> None:
    """The latest list: every rated line with the player, highest first, ranked."""
    month, period = db.one(
        "SELECT month, id FROM rating_periods WHERE tc = 'standard' ORDER BY month DESC LIMIT 1"
    )
    cols = (
        "SELECT h.rating, h.games, h.next_k, h.period_id, p.name, p.title, p.federation, "
        "p.fide_id, p.birth_year FROM elo_history h JOIN players p ON p.id = h.player_id "
    )
    if sparse:  # each player's latest line up to the list (tracker storing what changed)
        rows = db.rows(
            cols + "JOIN (SELECT player_id, max(period_id) AS pid FROM elo_history "
            "WHERE period_id IN (SELECT id FROM rating_periods WHERE tc = 'standard') "
            "GROUP BY player_id) l ON l.player_id = h.player_id AND l.pid = h.period_id "
            "WHERE h.rating IS NOT NULL ORDER BY h.rating DESC, p.name, p.id"
        )
    else:
        rows = db.rows(
            cols + "WHERE h.period_id = ? AND h.rating IS NOT NULL "
            "ORDER BY h.rating DESC, p.name, p.id",
            (period,),
        )
    out = []
    rank, previous = 0, None
    for position, (rating, games, k, line_period, name, title, fed, fide_id, born) in enumerate(
        rows, start=1
    ):
        if line_period != period:
            games = 0  # an earlier line: no games in the list's period
        if rating != previous:
            rank, previous = position, rating
        out.append(
            [
                str(rank),
                name,
                title or "",
                fed or "",
                str(fide_id or ""),
                str(rating),
                str(games),
                str(born or ""),
                str(k or ""),
            ]
        )
    print(f"Standard list of {add_month(db.day(month))}")
    print(
        table(
            ["rank", "name", "title", "fed", "FIDE id", "rating", "games", "born", "K"],
            out,
            {0, 4, 5, 6, 7, 8},
        )
    )


LATEST_LINES = (
    "SELECT h.player_id, h.rating, h.games, h.next_k, h.rated_games, h.ever_2400, h.ever_2300, "
    "h.pool, h.period_id, p.name, p.title, p.federation, p.fide_id, p.birth_year "
    "FROM elo_history h JOIN players p ON p.id = h.player_id "
    "JOIN (SELECT e.player_id AS pid, max(r.month) AS m FROM elo_history e "
    "JOIN rating_periods r ON r.id = e.period_id WHERE r.tc = 'standard' AND r.month <= ? "
    "GROUP BY e.player_id) l ON l.pid = h.player_id "
    "JOIN rating_periods r ON r.id = h.period_id AND r.month = l.m WHERE r.tc = 'standard'"
)


def latest_lines(db: Any, month: dt.date) -> list[tuple[Any, ...]]:
    """Each player's latest Elo line up to the list of ``month`` (tracker stores only what
    changed: an idle player's line is his latest)."""
    return db.rows(LATEST_LINES, (db.store(month),))


def month_of(day: dt.date) -> dt.date:
    return day.replace(day=1)


def status(db: Any, today: dt.date) -> None:
    """The player and game counts, the last import; per time control the closed periods, the
    first game, the games each coming period rates (by event: played, earlier games of
    events rated later, the events' spans), the stale months, the latest list's movers."""
    db.begin(write=False)
    counts = dict(db.rows("SELECT external, count(*) FROM players GROUP BY external"))
    last = db.one(
        "SELECT id, file_name, imported_at, games_added FROM imports ORDER BY id DESC LIMIT 1"
    )
    rows = [
        ["players", f"{counts.get(0, 0)} tracked, {counts.get(1, 0)} external"],
        ["last import", "none" if last is None else f"#{last[0]} {last[1]}, {last[2]}, "
         f"{last[3]} game(s) added"],
    ]  # fmt: skip
    for tc in ("standard", "rapid", "blitz"):
        closed = db.rows(
            "SELECT month, id, stale FROM rating_periods WHERE tc = ? ORDER BY month", (tc,)
        )
        (first,) = db.one("SELECT min(played_on) FROM games WHERE tc = ?", (tc,))
        if not closed and first is None:
            continue
        last_closed = db.day(closed[-1][0]) if closed else None
        open_month = add_month(last_closed) if last_closed else month_of(db.day(first))
        stale = [db.day(m) for m, _, s in closed if s]
        since = min([open_month, *stale[:1], *([month_of(db.day(first))] if first else [])])
        played = db.rows(
            "SELECT g.event_id, g.played_on, count(*) FROM games g WHERE g.tc = ? "
            "AND g.played_on >= ? AND g.result NOT IN ('+-', '-+') "
            "GROUP BY g.event_id, g.played_on",
            (tc, db.store(since)),
        )
        later = db.rows("SELECT id FROM events WHERE rated_in >= ?", (db.store(since),))
        events = sorted({e for e, _, _ in played if e is not None} | {e for (e,) in later})
        played += db.chunked(
            "SELECT g.event_id, g.played_on, count(*) FROM games g WHERE g.tc = ? "
            "AND g.played_on < ? AND g.event_id IN ({ids}) AND g.result NOT IN ('+-', '-+') "
            "GROUP BY g.event_id, g.played_on",
            events,
            (tc, db.store(since)),
        )
        rated_in = {
            e: r for e, _, r in db.chunked(
                "SELECT id, start_date, rated_in FROM events WHERE id IN ({ids})", events
            )
        }  # fmt: skip
        ends = {
            e: hi for e, _, hi in db.chunked(
                "SELECT g.event_id, min(g.played_on), max(g.played_on) FROM games g "
                "WHERE g.event_id IN ({ids}) AND g.tc = '" + tc + "' "
                "AND g.result NOT IN ('+-', '-+') GROUP BY g.event_id",
                events,
            )
        }  # fmt: skip
        waiting: dict[dt.date, int] = {}
        for event, day, n in played:
            if event is None:
                month = month_of(db.day(day))
            elif rated_in.get(event) is not None:
                month = month_of(db.day(rated_in[event]))
            else:
                month = month_of(db.day(ends.get(event) or day))
            if month >= open_month:
                waiting[month] = waiting.get(month, 0) + n
        rows.append([f"{tc} list", str(add_month(last_closed)) if last_closed else "none yet"])
        rows.append([f"{tc} open", f"{open_month:%Y-%m}; {sum(waiting.values())} games "
                     "not yet rated"])  # fmt: skip
        rows.append([f"{tc} stale", ", ".join(f"{m:%Y-%m}" for m in stale) or "none"])
        if closed:
            moves = db.rows(
                "SELECT p.id, p.name, h.rating_before, h.rating, h.change FROM elo_history h "
                "JOIN players p ON p.id = h.player_id WHERE h.period_id = ? "
                "AND h.rating_before IS NOT NULL AND h.games > 0",
                (closed[-1][1],),
            )
            moves.sort(key=lambda m: (-abs(m[4]), m[1], m[0]))
            for i, (_, name, before, rating, change) in enumerate(moves[:3]):
                moved = f"{name} {change:+d} ({before} -> {rating or 'unrated'})"
                rows.append([f"{tc} movers" if i == 0 else "", moved])
    (games,) = db.one("SELECT count(*) FROM games")
    rows.insert(1, ["games", str(games)])
    db.commit()
    print(table(["field", "value"], rows, set()))


def live_list(db: Any, today: dt.date) -> None:
    """``list --live``: in one write transaction that is rolled back, close every open month
    up to today's as a month without games closes (its games, its events, the shadow
    settings, the previous lines; the period row; every unrated player's line carrying his
    pool, his games of the last 26 months), read each new list's lines, then the live list
    beside the published one."""
    db.begin()
    closed = db.rows(
        "SELECT month, id, stale FROM rating_periods WHERE tc = 'standard' ORDER BY month"
    )
    published_month = db.day(closed[-1][0])
    published_lines = latest_lines(db, published_month)
    on_list = {r[0] for r in published_lines}
    seeded = [r[0] for r in db.rows("SELECT player_id FROM player_seeds WHERE tc = 'standard'")]
    seeds = db.chunked(
        "SELECT s.player_id, s.rating, s.games, s.ever_2400, s.ever_2300, p.birth_year "
        "FROM player_seeds s JOIN players p ON p.id = s.player_id WHERE s.tc = 'standard' "
        "AND NOT p.external AND s.player_id IN ({ids})",
        [pid for pid in seeded if pid not in on_list],
    )
    # a seeded player not listed yet is on the list at his seed (tracker's list reads him)
    names = {
        r[0]: r for r in db.chunked(
            "SELECT id, name, title, federation, fide_id, birth_year FROM players "
            "WHERE id IN ({ids})",
            [r[0] for r in seeds],
        )
    }  # fmt: skip
    seed_lines = [
        (pid, rating, 0, None, games, e24, e23, None, None, *names[pid][1:])
        for pid, rating, games, e24, e23, _born in seeds
        if rating is not None
    ]
    published = {r[0]: r[1] for r in [*published_lines, *seed_lines] if r[1] is not None}
    db.one("SELECT min(played_on) FROM games WHERE tc = 'standard'")
    db.one("SELECT preset, external_rd FROM shadow_settings WHERE id = 1")
    db.rows(
        "SELECT h.player_id, h.rating, h.rd, h.volatility, h.last_played, h.games "
        "FROM glicko_history h JOIN rating_periods r ON r.id = h.period_id "
        "JOIN (SELECT g.player_id AS pid, max(q.month) AS m FROM glicko_history g "
        "JOIN rating_periods q ON q.id = g.period_id WHERE q.tc = 'standard' AND q.month <= ? "
        "AND g.game_id IS NULL GROUP BY g.player_id) l ON l.pid = h.player_id AND l.m = r.month "
        "WHERE r.tc = 'standard' AND h.game_id IS NULL",
        (db.store(published_month),),
    )
    month, last = add_month(published_month), month_of(today)
    played: dict[int, int] = {}
    lines = latest_lines(db, published_month)
    cols = (
        "period_id, player_id, rating_before, rating, k, next_k, games, score_c, expected_c, "
        "change_exact_c, change, rated_games, ever_2400, ever_2300, pool, note"
    )
    while month <= last:
        end = add_month(month)
        db.rows(
            "SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id, "
            "coalesce(e.start_date, g.played_on), g.white_rating, g.black_rating, w.external, "
            "b.external FROM games g JOIN players w ON w.id = g.white_id "
            "JOIN players b ON b.id = g.black_id LEFT JOIN events e ON e.id = g.event_id "
            "WHERE g.result NOT IN ('+-', '-+') AND g.tc = 'standard' AND g.played_on >= ? "
            "AND g.played_on < ?",
            (db.store(month), db.store(end)),
        )
        db.rows(
            "SELECT id FROM events WHERE rated_in >= ? AND rated_in <= ?",
            (db.store(month), db.store(month)),
        )
        (period,) = db.one(
            "INSERT INTO rating_periods (tc, month, stale) VALUES ('standard', ?, ?) RETURNING id",
            (db.store(month), db.false),
        )
        oldest = dt.date(month.year - 2, month.month, 1)  # 26 months back, within a month
        oldest = dt.date(oldest.year - (oldest.month <= 2), (oldest.month - 3) % 12 + 1, 1)
        carried = []
        for pid, rating, *_, pool, _p, _n, _t, _f, _i, _b in lines:
            if rating is not None or not pool:
                continue
            data = json.loads(pool)
            kept = [g for g in data.get("games", ()) if g[0] >= oldest.isoformat()]
            if kept:
                data["games"] = kept
                carried.append((period, pid, None, None, None, None, 0, 0, 0, 0, 0, 0,
                                db.false, db.false, json.dumps(data), None))  # fmt: skip
        db.insert("elo_history", cols.split(", "), carried)
        lines = latest_lines(db, month)
        for row in lines:
            if row[8] == period:
                played[row[0]] = played.get(row[0], 0) + row[2]
        month = end
    live = sorted(
        (r for r in [*lines, *seed_lines] if r[1] is not None), key=lambda r: (-r[1], r[9], r[0])
    )
    db.rollback()
    out = []
    rank, previous = 0, None
    for position, r in enumerate(live, start=1):
        pid, rating, _g, k = r[0], r[1], r[2], r[3]
        if rating != previous:
            rank, previous = position, rating
        was = published.get(pid)
        out.append([str(rank), r[9], r[10] or "", r[11] or "", str(r[12] or ""), str(rating),
                    "" if was is None else f"{rating - was:+d}", "" if was is None else str(was),
                    str(played.get(pid, 0)), str(r[13] or ""), str(k or "")])  # fmt: skip
    print(f"Standard live list of {month} (published: {add_month(published_month)})")
    print(table(["rank", "name", "title", "fed", "FIDE id", "rating", "change", "published",
                 "games", "born", "K"], out, {0, 4, 5, 6, 7, 8, 9, 10}))  # fmt: skip


def event_show(db: Any, name: str) -> None:
    """The event by name; its games; its players; the closed periods; the list in force
    (each player's latest line before the month it is rated in) and the seeds; the
    standings (score, Ro, expected from table 8.1.2, performance, change) and each player's
    results by round."""
    db.begin(write=False)
    found = db.rows(
        "SELECT id, name, start_date, rated_in FROM events WHERE lower(name) = ? ORDER BY id",
        (" ".join(name.split()).lower(),),
    )
    if len(found) != 1:
        raise SystemExit(f"error: {len(found)} events named {name!r}")
    eid, ename, start, rated_in = found[0]
    games = db.rows(
        "SELECT id, played_on, round, white_id, black_id, result, tc, white_rating, "
        "black_rating FROM games WHERE event_id = ? ORDER BY played_on, id",
        (eid,),
    )
    ids = sorted({g[3] for g in games} | {g[4] for g in games})
    people = {r[0]: r for r in db.chunked(
        "SELECT id, name, external FROM players WHERE id IN ({ids})", ids
    )}  # fmt: skip
    periods = db.rows(
        "SELECT month, id, stale FROM rating_periods WHERE tc = 'standard' ORDER BY month"
    )
    month = month_of(db.day(rated_in)) if rated_in else month_of(db.day(games[-1][1]))
    before = [db.day(m) for m, _, _ in periods if db.day(m) < month]
    listed = {}
    if before:
        listed = {r[0]: r for r in latest_lines(db, before[-1]) if r[0] in people}
    seeded = [r[0] for r in db.rows("SELECT player_id FROM player_seeds WHERE tc = 'standard'")]
    seeds = {r[0]: r[1] for r in db.chunked(
        "SELECT player_id, rating FROM player_seeds WHERE tc = 'standard' AND player_id IN ({ids})",
        [p for p in seeded if p in people],
    )}  # fmt: skip
    db.commit()

    def ro(pid: int, recorded: int | None) -> int | None:
        if people[pid][2]:
            return recorded if recorded and recorded >= 1400 else None
        line = listed.get(pid)
        return line[1] if line and line[1] is not None else seeds.get(pid)

    scores = {"1-0": (100, 0), "0-1": (0, 100), "1/2-1/2": (50, 50)}
    per: dict[int, list[tuple[int, int | None, tuple[int, str, int]]]] = {p: [] for p in people}
    for _id, _day, _rnd, w, b, result, _tc, w_rec, b_rec in games:
        if result not in scores:
            continue
        ws, bs = scores[result]
        per[w].append((ws, ro(b, b_rec), (b, "w", ws)))
        per[b].append((bs, ro(w, w_rec), (w, "b", bs)))
    rows = []
    for pid, mine in per.items():
        own = ro(pid, None) if not people[pid][2] else None
        score = sum(s for s, _, _ in mine)
        rated = [(s, o) for s, o, _ in mine if o is not None]
        exp = sum(expected_c(max(-400, min(400, own - o))) for _, o in rated) if own else None
        avg = round(sum(o for _, o in rated) / len(rated)) if rated else None
        pct = round(100 * sum(s for s, _ in rated) / (100 * len(rated))) if rated else None
        perf = None
        if avg is not None and pct is not None:
            expected_c(0)
            d = next((d for d in range(801) if PD[d] >= max(pct, 100 - pct)), 800)
            perf = avg + (d if pct >= 50 else -d)
        k = listed[pid][3] if pid in listed and listed[pid][3] else 20
        change = f"{k * (sum(s for s, _ in rated) - exp) / 100:+.2f}" if exp is not None else ""
        rows.append((score, people[pid][1], pid, [
            people[pid][1], "ext" if people[pid][2] else str(own or "unrated"), str(len(mine)),
            f"{score / 100:.1f}", "" if exp is None else f"{exp / 100:.2f}",
            "" if perf is None else str(perf), change,
            ]))  # fmt: skip
    rows.sort(key=lambda r: (-r[0], r[1]))
    out, rank, previous = [], 0, None
    ranks = {}
    for position, (score, _n, pid, cells) in enumerate(rows, start=1):
        if score != previous:
            rank, previous = position, score
        ranks[pid] = rank
        out.append([str(rank), *cells])
    print(f"{ename} (standard), {start}: rated on the {add_month(month)} list")
    print(table(["rk", "player", "Ro", "games", "score", "expected", "perf", "change"],
                out, {0, 2, 3, 4, 5, 6, 7}))  # fmt: skip
    marks = {100: "1", 50: "=", 0: "0"}
    cross = [
        [str(ranks[pid]), people[pid][1], f"{score / 100:.1f}",
         *(f"{ranks[o]}{colour}{marks[s]}" for _, _, (o, colour, s) in per[pid])]
        for score, _n, pid, _c in rows
    ]  # fmt: skip
    width = max((len(c) for c in cross), default=3)
    print()
    print(table(["rk", "player", "score", *(f"r{i}" for i in range(1, width - 2))],
                [c + [""] * (width - len(c)) for c in cross], {0, 2}))  # fmt: skip


def log(db: Any) -> None:
    """Every change log entry, oldest first, each note wrapped to 80 columns."""
    import json as _json
    import textwrap

    db.begin(write=False)
    rows = db.rows("SELECT id, at, command, entries FROM change_log WHERE id > ? ORDER BY id", (0,))
    db.commit()
    for eid, at, command, entries in rows:
        head = f"#{eid}  {str(at)[:16]}  {command}"
        print(textwrap.fill(head, 80, subsequent_indent="      ", break_long_words=False))
        for n in _json.loads(entries):
            line = (
                n["what"]
                if n["did"] in ("stale", "closed", "rerated")
                else f"{n['did']} {n['what']}"
            )
            print(textwrap.fill(line, 80, initial_indent="  ", subsequent_indent="    "))


def calc(own: str, k: str, games: list[str]) -> None:
    """FIDE's calculation for one player: expected scores from the table, the change."""
    rating = int(own)
    rows = []
    total = 0
    for game in games:
        opp, score = game.split(":")
        s = {"1": 100, "=": 50, "0": 0, "0.5": 50}[score]
        pd = expected_c(max(-400, min(400, rating - int(opp))))
        total += s - pd
        rows.append([opp, f"{s / 100:.1f}", f"{pd / 100:.2f}", f"{int(k) * (s - pd) / 100:+.2f}"])
    exact = int(k) * total
    q = (2 * abs(exact) + 100) // 200
    print(table(["opponent", "score", "expected", "change"], rows, {0, 1, 2, 3}))
    print(f"change {exact / 100:+.2f}, rounded {q if exact >= 0 else -q:+d}")


def main(*argv: str) -> int:
    target, command, *args = argv
    if command == "calc":
        calc(args[0], args[1], args[2:])
        return 0
    if command == "help":
        with open(args[0]) as f:
            sys.stdout.write(f.read())
        return 0
    db = connect(target)
    if command == "history":
        history(db, args[0])
    elif command == "player":
        show(db, args[0])
    elif command == "compare":
        compare(db, args[0])
    elif command == "add":
        add(db, *args)
    elif command == "list":
        rating_list(db, sparse=bool(args and args[0] == "sparse"))
    else:
        raise SystemExit(f"unknown command {command}")
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
