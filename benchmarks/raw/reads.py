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
