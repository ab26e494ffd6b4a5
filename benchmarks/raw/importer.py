"""The full-work floor of ``tracker import FILE.csv --create-players external``: a whole
process, raw driver, no SQLAlchemy, no tracker code, a typer command (:mod:`command`).

    python importer.py TARGET FILE.csv

What it does, all or nothing in one transaction:

- the file's SHA-256 (read in blocks);
- pass 1 over the CSV (``csv`` module; the header names the columns): every row checked
  (a real date, not after today; a known result; recorded ratings 0..4000, 0 or blank for
  none; FIDE ids positive; a known time control; white and black different; an event name
  of at most 200 characters, a round of at most 16), the file's people gathered (by FIDE id,
  else by name; a name given a FIDE id elsewhere in the file is that person) and its events
  with their earliest game;
- the people matched to the database (by FIDE id, then exact name, then the same name in
  another case; a name matching several players is a problem), the others created external
  (with their FIDE id), the events matched by name or created (starting on their earliest
  game), the ``imports`` row;
- pass 2: each game's natural key (date|white|black|event|round; games sharing one are
  kept distinct with ``|#n``), the keys whose players and event were already stored looked
  up in the database (a game present is skipped), the games written in chunks of 10,000
  (``executemany`` on SQLite, ``COPY`` on PostgreSQL);
- stale marks for closed periods the games fall in (none in the benchmark).

Memory: the people, the events and the set of natural keys, not the games.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
import os
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import rawdb
from command import run

RESULTS = {
    "1-0": "1-0", "1:0": "1-0", "0-1": "0-1", "0:1": "0-1", "1/2-1/2": "1/2-1/2",
    "1/2:1/2": "1/2-1/2", "0.5-0.5": "1/2-1/2", "0.5:0.5": "1/2-1/2", "½-½": "1/2-1/2",
    "½:½": "1/2-1/2", "=": "1/2-1/2", "draw": "1/2-1/2", "+-": "+-", "+:-": "+-", "-+": "-+",
    "-:+": "-+",
}  # fmt: skip
TCS = {"standard": "standard", "classical": "standard", "rapid": "rapid", "blitz": "blitz"}
GAME_COLS = (
    "white_id", "black_id", "result", "played_on", "tc", "event_id", "round", "white_rating",
    "black_rating", "natural_key", "import_id",
)  # fmt: skip
WRITE_CHUNK = 10_000


def today() -> dt.date:
    pinned = os.environ.get("TRACKER_TODAY")
    return dt.date.fromisoformat(pinned) if pinned else dt.date.today()


def _event_key(name: str) -> str:
    """An event name's key (tracker.services.intake.event_key): no case, no extra blanks."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


class Problems(Exception):
    pass


class Importer:
    def __init__(self, db: rawdb.Raw, path: Path) -> None:
        self.db = db
        self.path = path
        self.problems: list[str] = []
        self.now = today()
        self.days: dict[str, dt.date | None] = {}

    def problem(self, line: int, reason: str) -> None:
        self.problems.append(f"{self.path.name}:{line}: {reason}")

    def rows(self) -> Any:
        """The file's rows after the header (which sets ``self.col``), with line numbers."""
        f = self.path.open(newline="", encoding="utf-8-sig")
        reader = csv.reader(f)
        header = [h.strip().lower().replace(" ", "_").replace("-", "_") for h in next(reader)]
        self.col = {name: i for i, name in enumerate(header)}

        def numbered() -> Any:
            with f:
                for line, row in enumerate(reader, start=2):
                    if row:
                        yield line, row

        return numbered()

    def date(self, text: str) -> dt.date | None:
        if text not in self.days:
            try:
                self.days[text] = dt.date.fromisoformat(text.replace(".", "-").replace("/", "-"))
            except ValueError:
                self.days[text] = None
        return self.days[text]

    @staticmethod
    def number(text: str, high: int | None) -> int | str | None:
        if not text or text == "0":
            return None
        if not text.isdigit() or (high is not None and int(text) > high):
            return "bad"
        return int(text)

    # pass 1
    def survey(self) -> None:
        rows = self.rows()
        c = self.col
        ids_by_name: dict[str, set[int]] = defaultdict(set)
        seen: dict[tuple[str, int | None], list[Any]] = {}  # (name, id) -> [rating seen, line]
        events: dict[str, dt.date] = {}
        games = 0
        for line, row in rows:
            games += 1
            day = self.date(row[c["date"]].strip())
            if day is None:
                self.problem(line, f"not a date: {row[c['date']]!r}")
            elif day > self.now:
                self.problem(line, f"dated {day}, after today")
            if RESULTS.get(row[c["result"]].replace(" ", "").lower()) is None:
                self.problem(line, f"unknown result {row[c['result']]!r}")
            if TCS.get(row[c["tc"]].strip().lower()) is None:
                self.problem(line, f"unknown time control {row[c['tc']]!r}")
            sides = []
            for side in ("white", "black"):
                name = " ".join(row[c[side]].split())
                rating = self.number(row[c[f"{side}_rating"]].strip(), 4000)
                fide_id = self.number(row[c[f"{side}_fide_id"]].strip(), None)
                if rating == "bad" or fide_id == "bad" or not name:
                    self.problem(line, f"bad {side} player, rating or FIDE id")
                    continue
                key = (name, fide_id)
                info = seen.get(key)
                if info is None:
                    info = seen[key] = [False, line]
                    if fide_id is not None:
                        ids_by_name[name.casefold()].add(fide_id)
                info[0] = info[0] or rating is not None
                sides.append(key)
            if len(sides) == 2 and sides[0] == sides[1]:
                self.problem(line, "white and black are the same player")
            event = " ".join(row[c["event"]].split())
            if event:
                if len(event) > 200:
                    self.problem(line, "an event name is limited to 200 characters")
                if day is not None and (event not in events or day < events[event]):
                    events[event] = day
            if len(row[c["round"]].strip()) > 16:
                self.problem(line, "a round is limited to 16 characters")
        # people: by FIDE id, else by name (a name given one FIDE id elsewhere: that person)
        people: dict[tuple[str, object], dict[str, Any]] = {}
        self.person_of: dict[tuple[str, int | None], dict[str, Any]] = {}
        for (name, fide_id), (rating_seen, line) in seen.items():
            if fide_id is not None:
                key: tuple[str, object] = ("id", fide_id)
            else:
                ids = ids_by_name.get(name.casefold(), set())
                key = ("id", next(iter(ids))) if len(ids) == 1 else ("name", name.casefold())
            person = people.get(key)
            if person is None:
                fid = key[1] if key[0] == "id" else None
                person = people[key] = {"name": name, "fide_id": fid, "line": line, "id": None}
            person["rating_seen"] = person.get("rating_seen", False) or rating_seen
            self.person_of[(name, fide_id)] = person
        self.people = list(people.values())
        self.events = events
        self.games = games

    # between the passes
    def match(self) -> int:
        db = self.db
        people = self.people
        by_fide = {
            fid: pid
            for pid, fid in db.chunked(
                "SELECT id, fide_id FROM players WHERE fide_id IN ({ids})",
                sorted({p["fide_id"] for p in people if p["fide_id"] is not None}),
            )
        }
        unmatched = [p for p in people if p["fide_id"] not in by_fide or p["fide_id"] is None]
        for p in people:
            if p["fide_id"] is not None and p["fide_id"] in by_fide:
                p["id"] = by_fide[p["fide_id"]]
        by_name: dict[str, list[tuple[int, Any]]] = defaultdict(list)
        for pid, name, fid in db.chunked(
            "SELECT id, name, fide_id FROM players WHERE name IN ({ids})",
            sorted({p["name"] for p in unmatched}),
        ):
            by_name[name].append((pid, fid))
        folded = sorted({p["name"].lower() for p in unmatched if p["name"] not in by_name})
        by_lower: dict[str, list[tuple[int, Any]]] = defaultdict(list)
        for pid, name, fid in db.chunked(
            "SELECT id, name, fide_id FROM players WHERE lower(name) IN ({ids})", folded
        ):
            by_lower[name.lower()].append((pid, fid))
        new = []
        for p in unmatched:
            candidates = by_name.get(p["name"]) or by_lower.get(p["name"].lower(), [])
            if p["fide_id"] is not None:
                candidates = [c for c in candidates if c[1] is None]
            if len(candidates) == 1:
                p["id"] = candidates[0][0]
            elif candidates:
                self.problem(p["line"], f"player {p['name']!r} matches {len(candidates)} players")
            else:
                p["new"] = True
                new.append(p)
        if self.problems:
            raise Problems
        # the new people, external (--create-players external), then their ids
        top = db.one("SELECT coalesce(max(id), 0) FROM players")[0]
        db.insert(
            "players",
            ("name", "fide_id", "external"),
            [(p["name"], p["fide_id"], db.true) for p in new],
        )
        made = {
            (name, fid): pid
            for pid, name, fid in db.rows(
                "SELECT id, name, fide_id FROM players WHERE id > ?", (top,)
            )
        }
        for p in new:
            p["id"] = made[(p["name"], p["fide_id"])]
        return len(new)

    def make_events(self) -> dict[str, int]:
        db = self.db
        names = sorted(self.events)
        keys = {_event_key(n): n for n in names}  # an event is found by its name's key
        ids = {}
        for eid, key in db.chunked(
            "SELECT id, name_key FROM events WHERE name_key IN ({ids})", sorted(keys)
        ):
            ids[keys[key]] = eid
        self.old_events: set[int | None] = {None, *ids.values()}
        new = [n for n in names if n not in ids]
        top = db.one("SELECT coalesce(max(id), 0) FROM events")[0]
        db.insert(
            "events",
            ("name", "name_key", "start_date", "start_fixed"),
            [(n, _event_key(n), db.store(self.events[n]), db.false) for n in new],
        )
        ids.update(
            (keys[key], eid)
            for eid, key in db.rows("SELECT id, name_key FROM events WHERE id > ?", (top,))
        )
        return ids

    # pass 2
    def write_games(self, events: dict[str, int], import_id: int) -> tuple[int, int]:
        db = self.db
        rows = self.rows()
        c = self.col
        person_of = self.person_of
        keys: dict[str, int] = {}  # natural key -> games of the file with it
        pending: list[tuple[Any, ...]] = []
        to_check: list[int] = []  # rows in ``pending`` whose key may be stored already
        existing = {p["id"] for p in self.people if not p.get("new")}
        written = present = 0
        for _line, row in rows:
            day = self.date(row[c["date"]].strip())
            result = RESULTS[row[c["result"]].replace(" ", "").lower()]
            tc = TCS[row[c["tc"]].strip().lower()]
            ids = []
            ratings = []
            for side in ("white", "black"):
                name = " ".join(row[c[side]].split())
                fide_text = row[c[f"{side}_fide_id"]].strip()
                fide_id = int(fide_text) if fide_text and fide_text != "0" else None
                ids.append(person_of[(name, fide_id)]["id"])
                rating_text = row[c[f"{side}_rating"]].strip()
                ratings.append(int(rating_text) if rating_text and rating_text != "0" else None)
            event_name = " ".join(row[c["event"]].split())
            event_id = events[event_name] if event_name else None
            round_ = row[c["round"]].strip()
            round_ = None if round_ in ("", "?", "-") else round_
            assert day is not None
            key = f"{day.isoformat()}|{ids[0]}|{ids[1]}|{event_id or ''}|{round_ or ''}"
            n = keys.get(key, 0) + 1
            keys[key] = n
            if n > 1:
                key = f"{key}|#{n}"
            pending.append((ids[0], ids[1], result, db.store(day), tc, event_id, round_,
                            ratings[0], ratings[1], key, import_id))  # fmt: skip
            if event_id in self.old_events and ids[0] in existing and ids[1] in existing:
                to_check.append(len(pending) - 1)
            if len(pending) >= WRITE_CHUNK:
                w, p = self.flush(pending, to_check)
                written, present = written + w, present + p
                pending, to_check = [], []
        w, p = self.flush(pending, to_check)
        return written + w, present + p

    def flush(self, rows: list[tuple[Any, ...]], to_check: list[int]) -> tuple[int, int]:
        drop: set[int] = set()
        if to_check:
            wanted = {rows[i][9]: i for i in to_check}
            for key, result, tc in self.db.chunked(
                "SELECT natural_key, result, tc FROM games WHERE natural_key IN ({ids})",
                sorted(wanted),
            ):
                i = wanted[key]
                if (result, tc) != (rows[i][2], rows[i][4]):
                    self.problem(0, f"game {key} is already recorded with result {result}")
                drop.add(i)
        if self.problems:
            raise Problems
        if drop:
            rows = [r for i, r in enumerate(rows) if i not in drop]
        self.db.insert("games", GAME_COLS, rows)
        return len(rows), len(drop)

    def run(self) -> dict[str, Any]:
        db = self.db
        digest = hashlib.sha256()
        with self.path.open("rb") as f:
            while block := f.read(1 << 20):
                digest.update(block)
        self.survey()
        if self.problems:
            raise Problems
        db.begin()
        created = self.match()
        events = self.make_events()
        import_id = db.one(
            "INSERT INTO imports (file_name, sha256, format, games_added, games_present, "
            "games_skipped, games_invalid, byes, players_created) "
            "VALUES (?, ?, 'csv', 0, 0, 0, 0, 0, ?) RETURNING id",
            (self.path.name, digest.hexdigest(), created),
        )[0]
        written, present = self.write_games(events, import_id)
        db.run(
            "UPDATE imports SET games_added = ?, games_present = ? WHERE id = ?",
            (written, present, import_id),
        )
        # closed periods the games fall in become stale (none here: nothing is closed yet)
        first = db.one("SELECT min(month) FROM rating_periods")
        if first is not None and first[0] is not None:
            db.run(
                "UPDATE rating_periods SET stale = ? WHERE month >= ?",
                (db.true, db.store(min(self.events.values()).replace(day=1))),
            )
        made = sorted(p["id"] for p in self.people if p.get("new"))
        db.log(
            f"raw importer {self.path}",
            [{"did": "imported", "what": f"{self.path} as import #{import_id}: {written} games "
              f"added, {created} players created", "players": made}],
        )  # fmt: skip
        db.commit()
        return {"games": written, "present": present, "players_created": created,
                "events": len(events)}  # fmt: skip


def main(*args: str) -> int:
    """``importer.py TARGET FILE.csv``, as a typer command (:mod:`command`)."""
    return run("import", import_file, args)


def import_file(target: str, path: str) -> None:
    """Import the CSV file into the database ``target``."""
    db = rawdb.Raw(target)
    importer = Importer(db, Path(path))
    try:
        report = importer.run()
    except Problems:
        print("\n".join(importer.problems[:20]), file=sys.stderr)
        raise SystemExit(1) from None
    finally:
        db.close()
    print(json.dumps(report))


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
