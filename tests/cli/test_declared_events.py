"""Events declared, not guessed (issue 33): a season played round by round, each month closed
as it ends, publishes the lists the same season entered after the fact publishes, and no
closed period goes stale while rounds are added; only a correction of a game of an ended
event marks one stale."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import Cli, cli_on, js, ok, one_line_error
from tests.robustness.common import differences, digest

PLAYERS = [
    ("Hart, Daniel", 2318, 240),
    ("Okafor, Grace", 2105, 95),
    ("Patel, Arjun", 1876, 41),
    ("Sato, Yuki", 1950, 60),
    ("Novak, Eva", 2010, 120),
    ("Lund, Erik", 1780, 35),
    ("Berg, Lina", 1690, 28),
    ("Costa, Rui", 2150, 300),
]
NAMES = [name for name, *_ in PLAYERS]

DECLARED = [
    # a 9-round Swiss over three weekends across a month end
    ("Autumn Swiss", "--start", "2026-09-25", "--end", "2026-10-11", "--rounds", "9",
     "--type", "swiss", "--tc", "standard"),
    # a round robin of six, weekly across a month end
    ("Club Round Robin", "--start", "2026-10-06", "--end", "2026-11-03", "--rounds", "5",
     "--type", "round-robin"),
    # a league over six months, rated month by month
    ("Winter League", "--start", "2026-09-08", "--end", "2027-02-28", "--rounds", "6",
     "--type", "league"),
    # a team match: four boards, one day
    ("Town Match", "--start", "2026-11-14", "--end", "2026-11-14", "--rounds", "1",
     "--type", "team"),
]  # fmt: skip

SWISS_DAYS = [
    "2026-09-25", "2026-09-26", "2026-09-27", "2026-10-02", "2026-10-03", "2026-10-04",
    "2026-10-09", "2026-10-10", "2026-10-11",
]  # fmt: skip
RESULTS = ["1-0", "1/2-1/2", "0-1", "1-0"]


def _pairings(rnd: int, names: list[str]) -> str:
    """A round of ``names`` (a rotation: nobody plays himself), with a bye for the odd one."""
    n = len(names)
    order = names[rnd % n :] + names[: rnd % n]
    lines = []
    for i in range(n // 2):
        white, black = (order[i], order[n - 1 - i]) if rnd % 2 else (order[n - 1 - i], order[i])
        lines.append(f"{white}\t{RESULTS[(rnd + i) % 4]}\t{black}")
    if n % 2:
        lines.append(f"{order[n // 2]}  bye")
    return "\n".join(lines) + "\n"


Step = tuple[str, tuple[str, ...], str | None]  # (day, command, stdin)


def season() -> list[Step]:
    """Every game of the season, by day."""
    steps: list[Step] = []
    swiss = NAMES[:7]  # seven players: a bye each round
    for rnd, day in enumerate(SWISS_DAYS, 1):
        steps.append((day, ("game", "add-round", "Autumn Swiss", "--date", day, "--round",
                            str(rnd)), _pairings(rnd, swiss)))  # fmt: skip
    rr = NAMES[2:8]
    for rnd, day in enumerate(["2026-10-06", "2026-10-13", "2026-10-20", "2026-10-27",
                               "2026-11-03"], 1):  # fmt: skip
        steps.append((day, ("game", "add-round", "Club Round Robin", "--date", day, "--round",
                            str(rnd)), _pairings(rnd, rr)))  # fmt: skip
    league = [NAMES[0], NAMES[1], NAMES[4], NAMES[7]]
    for rnd, day in enumerate(["2026-09-08", "2026-10-13", "2026-11-10", "2026-12-08",
                               "2027-01-12", "2027-02-09"], 1):  # fmt: skip
        steps.append((day, ("game", "add-round", "Winter League", "--date", day, "--round",
                            str(rnd)), _pairings(rnd, league)))  # fmt: skip
    for board in range(1, 5):
        white, black = NAMES[board - 1], NAMES[board + 3]
        match = ("--event", "Town Match", "--round", f"1.{board}")
        steps.append(("2026-11-14", ("game", "add", white, black, RESULTS[board % 4], "--date",
                      "2026-11-14", *match), None))  # fmt: skip
    # undeclared: a club night a month (each its own event), and games of no event
    for day in ("2026-09-15", "2026-10-21", "2026-11-17", "2026-12-15", "2027-01-19"):
        steps.append((day, ("game", "add", NAMES[3], NAMES[6], "1-0", "--date", day, "--event",
                            f"Club Night {day[:7]}"), None))  # fmt: skip
        steps.append((day, ("game", "add", NAMES[5], NAMES[2], "1/2-1/2", "--date", day), None))
    return sorted(steps, key=lambda s: s[0])


def setup(cli: Cli) -> None:
    for name, rating, games in PLAYERS:
        ok(cli("player", "add", name, "--rating", str(rating), "--games", str(games)))
    ok(cli("player", "add", "Newton, Ava"))  # unrated: she earns a first rating
    for declared in DECLARED:
        ok(cli("event", "add", *declared))


def statuses(cli: Cli) -> set[str]:
    return {p["status"] for p in js(cli, "period", "list")}


def months_before(day: str) -> Iterator[str]:
    """The months that end before ``day`` (YYYY-MM), from the season's first."""
    year, month = 2026, 9
    while f"{year:04d}-{month:02d}" < day[:7]:
        yield f"{year:04d}-{month:02d}"
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


END = "2027-03-05"


def round_by_round(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The season as a club plays it: each step on its day, each month closed as it ends;
    what the closes said."""
    monkeypatch.setenv("TRACKER_TODAY", "2026-09-01")
    setup(cli)
    said: list[str] = []
    closed: set[str] = set()
    for day, command, stdin in season():
        monkeypatch.setenv("TRACKER_TODAY", day)
        for month in months_before(day):
            if month not in closed:
                said.append(ok(cli("period", "close", month)).stderr)
                closed.add(month)
        ok(cli(*command, input=stdin))
        assert "stale" not in statuses(cli), (day, command)
    monkeypatch.setenv("TRACKER_TODAY", END)
    said.append(ok(cli("period", "close", "2027-02")).stderr)
    return said


def after_the_fact(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACKER_TODAY", END)
    setup(cli)
    for _, command, stdin in season():
        ok(cli(*command, input=stdin))
    ok(cli("period", "close", "2027-02"))


def test_a_season_played_round_by_round_publishes_the_lists_entered_after_the_fact(
    db_url: str, other_db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, later = cli_on(db_url), cli_on(other_db_url)
    said = round_by_round(live, monkeypatch)
    after_the_fact(later, monkeypatch)
    ours, theirs = digest(db_url), digest(other_db_url)
    assert ours == theirs, differences(ours, theirs)
    assert statuses(live) == {"closed"}
    # September's close held the Swiss back (round 3 of 9, ends 2026-10-11): nothing of it
    # on the October list; October's rated it whole
    september = " ".join(said[0].split())
    assert "held back: Autumn Swiss, round 3 of 9, ends 2026-10-11 (9 games)" in september
    assert "Winter League" not in september  # a league: its September games are rated
    october_list = js(live, "list", "2026-10")
    assert {r["name"]: r["games"] for r in october_list["players"]}["Hart, Daniel"] == 1
    # the club nights were never declared: each close says what it assumed
    assert "Club Night 2026-09: no end declared; rated as ended 2026-09-15" in september
    # the round robin ran into November: October's close held it back
    assert "held back: Club Round Robin, round 4 of 5, ends 2026-11-03" in " ".join(said[1].split())
    events = {e["event"]: e for e in js(live, "event", "list")}
    assert (events["Autumn Swiss"]["rounds"], events["Autumn Swiss"]["rounds_played"]) == (9, 9)
    assert events["Autumn Swiss"]["rated"] == "rated on the 2026-11-01 list"
    assert events["Winter League"]["status"] == "league"
    # a correction of a game of an ended event marks its period stale, and only that
    swiss_game = next(
        g for g in js(live, "game", "list", "--event", "Autumn Swiss") if g["round"] == "1"
    )
    ok(live("game", "edit", str(swiss_game["id"]), "--result", "0-1"))
    stale = [p["month"] for p in js(live, "period", "list") if p["status"] == "stale"]
    assert stale[0] == "2026-09"  # the shadow rates it in its own month; Elo in October


def test_a_running_event_declared_holds_its_games_and_a_late_round_marks_nothing(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRACKER_TODAY", "2026-10-01")
    setup(cli)
    for rnd, day in enumerate(SWISS_DAYS[:3], 1):
        ok(cli("game", "add-round", "Autumn Swiss", "--date", day, "--round", str(rnd),
               input=_pairings(rnd, NAMES[:7])))  # fmt: skip
    report = js(cli, "period", "close", "2026-09")
    (held,) = [h for h in report["held"] if h["event"] == "Autumn Swiss"]
    assert (held["games"], held["rated_in"], held["running"], held["why"]) == (
        9, "2026-10", True, "round 3 of 9, ends 2026-10-11"
    )  # fmt: skip
    events = {e["event"]: e for e in js(cli, "event", "list")}
    assert events["Autumn Swiss"]["rated"] == (
        "running (round 3 of 9): rated on the 2026-11-01 list"
    )
    monkeypatch.setenv("TRACKER_TODAY", "2026-10-02")
    ok(cli("game", "add-round", "Autumn Swiss", "--date", "2026-10-02", "--round", "4",
           input=_pairings(4, NAMES[:7])))  # fmt: skip
    assert statuses(cli) == {"closed", "open"}


def test_an_undeclared_event_is_rated_at_its_last_game_and_an_extension_says_why(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRACKER_TODAY", "2026-10-01")
    setup(cli)
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-20", "--event",
           "Club Night"))  # fmt: skip
    done = " ".join(ok(cli("period", "close", "2026-09")).stderr.split())
    assert (
        "Club Night: no end declared; rated as ended 2026-09-20, its last game; "
        "`tracker event edit 'Club Night' --end DATE` if it goes on"
    ) in done
    monkeypatch.setenv("TRACKER_TODAY", "2026-10-04")
    r = ok(cli("game", "add", "Okafor", "Hart", "1-0", "--date", "2026-10-03", "--event",
               "Club Night"))  # fmt: skip
    said = " ".join(r.stderr.split())
    assert (
        "note: Club Night was rated as ended 2026-09-20, its last game then (no end declared); "
        "this game on 2026-10-03 extends it, so the lists that rated it change"
    ) in said
    assert said.endswith("closed standard period 2026-09 is now stale: run `tracker rerate`")


def test_games_that_do_not_fit_their_event_are_refused_at_every_door(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-20")
    setup(cli)
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-12-01", "--event",
           "Club Night"))  # fmt: skip
    typo = "the game's date 2025-12-01 is a month or more before the nearest game of 'Club Night'"
    cases = [
        (("game", "add", "Patel", "Sato", "1-0", "--date", "2025-12-01", "--event", "Club Night",
          "--yes"), typo),
        (("game", "add", "Patel", "Sato", "1-0", "--date", "2026-10-12", "--event",
          "Autumn Swiss", "--round", "1"),
         "the game's date 2026-10-12 is after 'Autumn Swiss' ends (2026-10-11, as declared)"),
        (("game", "add", "Patel", "Sato", "1-0", "--date", "2026-09-24", "--event",
          "Autumn Swiss", "--round", "1"),
         "the game's date 2026-09-24 is before 'Autumn Swiss' starts (2026-09-25)"),
        (("game", "add", "Patel", "Sato", "1-0", "--date", "2026-10-10", "--event",
          "Autumn Swiss", "--round", "10"),
         "round 10 of 'Autumn Swiss', which has 9 rounds (declared)"),
        (("game", "add", "Patel", "Sato", "1-0", "--date", "2026-10-10", "--event",
          "Autumn Swiss", "--round", "8", "--tc", "rapid"),
         "'Autumn Swiss' is a standard event (declared) and this game is rapid"),
    ]  # fmt: skip
    for args, reason in cases:
        assert reason in one_line_error(cli(*args), 1), args
        line = args[2] + " 1-0 " + args[3]
        rnd = args[args.index("--round") + 1] if "--round" in args else "1"
        tc = ["--tc", "rapid"] if "rapid" in args else []
        r = cli("game", "add-round", args[8], "--date", args[6], "--round", rnd, *tc, "--yes",
                input=line + "\n")  # fmt: skip
        assert r.exit_code == 1 and reason in r.stderr, (args, r.stderr)
    # a file's games too: the year typo in a CSV of the club night
    csv = tmp_path / "night.csv"
    csv.write_text(
        "date,white,black,result,event\n"
        '2026-12-01,"Patel, Arjun","Sato, Yuki",1-0,Club Night\n'
        '2025-12-01,"Sato, Yuki","Patel, Arjun",1-0,Club Night\n'
    )
    r = cli("import", str(csv), "--tc", "standard", "--yes")
    assert r.exit_code == 1 and f"{csv}:3: {typo}" in r.stderr, r.stderr
    # and another spelling of a declared event: named as stored, as `game add` names it
    csv.write_text(
        "date,white,black,result,event,round\n"
        '2026-10-10,"Patel, Arjun","Sato, Yuki",1-0,autumn  SWISS,10\n'
    )
    r = cli("import", str(csv), "--tc", "standard")
    said = " ".join(r.stderr.split())
    assert r.exit_code == 1 and f"{csv}:2: round 10 of 'Autumn Swiss', which has 9" in said, said
    assert len(js(cli, "game", "list")) == 1


def test_byes_and_double_forfeits_count_in_the_standings_never_in_a_rating(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-20")
    setup(cli)
    ok(cli("event", "add", "Rapid Swiss", "--start", "2026-11-07", "--rounds", "2"))
    ok(cli("game", "add-round", "Rapid Swiss", "--date", "2026-11-07", "--round", "1",
           input="Hart 1-0 Okafor\nPatel 0-0 Sato\nNovak bye 1/2\n"))  # fmt: skip
    ok(cli("game", "add", "Novak", "Hart", "+-", "--date", "2026-11-07", "--event",
           "Rapid Swiss", "--round", "2"))  # fmt: skip
    ok(cli("game", "add", "Okafor", "bye", "--event", "Rapid Swiss", "--round", "2", "--date",
           "2026-11-07"))  # fmt: skip
    report = js(cli, "event", "show", "Rapid Swiss")
    scores = {s["name"]: (s["score"], s["games"]) for s in report["standings"]}
    assert scores == {
        "Novak, Eva": (1.5, 1),  # half-point bye and a forfeit win
        "Okafor, Grace": (1.0, 1),  # a loss and a full-point bye
        "Hart, Daniel": (1.0, 2),
        "Patel, Arjun": (0.0, 1),  # the double forfeit: no point for either
        "Sato, Yuki": (0.0, 1),
    }
    okafor = next(s for s in report["standings"] if s["name"] == "Okafor, Grace")
    assert [(c["round"], c["bye"], c["result"]) for c in okafor["games_by_round"]] == [
        ("1", None, "0"),
        ("2", "U", "1"),
    ]
    ok(cli("period", "close", "2026-11"))
    hart = js(cli, "history", "Hart", "--month", "2026-11")
    assert [g["opponent"] for g in hart["games"]] == ["Okafor, Grace"]  # the forfeit: not rated
    # a bye in a round the player plays is refused; one typed by mistake comes out
    error = one_line_error(
        cli("game", "add", "Hart", "bye", "--event", "Rapid Swiss", "--round", "1", "--date",
            "2026-11-07"), 1)  # fmt: skip
    assert "Hart, Daniel plays game 1 in round 1 of Rapid Swiss" in error
    ok(cli("game", "remove-bye", "Okafor", "--event", "Rapid Swiss", "--round", "2"))
    assert "stale" not in statuses(cli)


def test_a_trf_header_declares_its_event(cli: Cli) -> None:
    from tests.cli.test_import_formats import TRF

    ok(cli("import", str(TRF)))
    (event,) = js(cli, "event", "list")
    assert (event["type"], event["start"], event["end"], event["rounds"]) == (
        "swiss",
        "2026-10-03",
        "2026-10-05",
        3,
    )
    # what the officer declared wins: a file that says otherwise is refused
    ok(cli("event", "edit", "Autumn Swiss 2026", "--rounds", "4"))
    r = cli("import", str(TRF), "--json")
    assert r.exit_code == 1
    assert "event 'Autumn Swiss 2026' has rounds: 4 as declared; the file says 3" in r.stderr
    data = json.loads(r.stdout)
    assert data["added"] == 0


def test_a_game_entered_again_under_another_name_is_refused_at_every_door(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """The same two players on the same day in one time control: the stored game again,
    whichever event name (or none) or round it carries, unless it is said to be another."""
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-20")
    setup(cli)
    ok(cli("game", "add-round", "Autumn Swiss", "--date", "2026-09-25", "--round", "1",
           input="Hart 1-0 Okafor\nPatel 1/2 Sato\n"))  # fmt: skip
    twin = (
        "error: this looks like game 1 (Hart, Daniel - Okafor, Grace, 2026-09-25, standard, "
        "Autumn Swiss round 1) again (the same players on the same day, standard): if it is "
        "another game of theirs, give --again"
    )
    for event in (("--event", "Autumn Swiss 2026"), ()):
        typed = ("game", "add", "Okafor", "Hart", "0-1", "--date", "2026-09-25", *event)
        assert one_line_error(cli(*typed), 1) == twin
        r = cli("game", "add-round", "Autumn Open", "--date", "2026-09-25", "--round", "3",
                input="Okafor 0-1 Hart\n")  # fmt: skip
        assert r.exit_code == 1 and "stdin:1: this looks like game 1" in r.stderr
    ok(cli("game", "add", "Hart", "Lund", "1-0", "--date", "2026-09-25", "--tc", "standard"))
    assert "this looks like game 1" in one_line_error(
        cli("game", "edit", "3", "--black", "Okafor"), 1
    )
    # a PGN of the Swiss already typed in, its event spelt another way: nothing added
    pgn = tmp_path / "swiss.pgn"
    pgn.write_text(
        '[Event "Autumn Swiss 2026"]\n[Date "2026.09.25"]\n[Round "1"]\n'
        '[White "Hart, Daniel"]\n[Black "Okafor, Grace"]\n[Result "1-0"]\n\n1-0\n\n'
        '[Event "Autumn Swiss 2026"]\n[Date "2026.09.25"]\n[Round "1"]\n'
        '[White "Patel, Arjun"]\n[Black "Sato, Yuki"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n'
    )
    r = cli("import", str(pgn), "--tc", "standard")
    assert r.exit_code == 1
    assert (
        f"{pgn}:1: this looks like game 1 (Hart, Daniel - Okafor, Grace, 2026-09-25, standard, "
        "Autumn Swiss round 1) again (the same players on the same day, standard), and so is "
        "1 more game of the file: the same event under another name? write it 'Autumn Swiss' "
        "in the file"
    ) in " ".join(r.stderr.split())
    assert len(js(cli, "game", "list")) == 3
    # said to be another game: kept
    ok(cli("game", "add", "Okafor", "Hart", "0-1", "--date", "2026-09-25", "--again"))
    assert len(js(cli, "game", "list")) == 4


def test_an_event_of_rounds_without_an_end_waits_for_its_last_round(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Rounds declared and no last day: it runs until its last round is played, and every
    command that says when it is rated says so (no period of its own yet)."""
    monkeypatch.setenv("TRACKER_TODAY", "2026-11-29")
    setup(cli)
    ok(cli("event", "add", "Rapid Ladder", "--start", "2026-11-10", "--rounds", "3"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-11-10", "--event",
           "Rapid Ladder", "--round", "1"))  # fmt: skip
    (event,) = [e for e in js(cli, "event", "list") if e["event"] == "Rapid Ladder"]
    assert event["rated"] == "running (round 1 of 3): rated once round 3 is played"
    assert js(cli, "event", "show", "Rapid Ladder")["rated"] == event["rated"]
    assert js(cli, "period", "list") == []  # its games wait for no period yet
    ok(cli("status"))
    ok(cli("list", "--live"))
    ok(cli("site", "build", str(tmp_path / "site")))
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-02")
    (held,) = js(cli, "period", "close", "2026-11")["held"]
    assert (held["rated_in"], held["why"]) == (None, "round 1 of 3, rated once round 3 is played")
    ok(cli("game", "add", "Okafor", "Hart", "1-0", "--date", "2026-12-01", "--event",
           "Rapid Ladder", "--round", "2"))  # fmt: skip
    ok(cli("game", "add", "Hart", "Okafor", "1/2", "--date", "2026-12-01", "--event",
           "Rapid Ladder", "--round", "3"))  # fmt: skip
    (event,) = [e for e in js(cli, "event", "list") if e["event"] == "Rapid Ladder"]
    assert event["rated"] == "will be rated on the 2027-01-01 list"
    assert "stale" not in statuses(cli)


def test_an_events_dates_are_read_as_every_date_is(cli: Cli) -> None:
    """``--start``/``--end`` go through the CLI's one date reader (``options.date_option``):
    tracker's words for a malformed or impossible day, as for every other date option."""
    assert one_line_error(cli("event", "add", "Autumn Swiss", "--start", "2026-13-01"), 1) == (
        "error: impossible --start '2026-13-01': no such day"
    )
    assert one_line_error(cli("event", "add", "Autumn Swiss", "--end", "26-9-1"), 1) == (
        "error: malformed --end '26-9-1': use YYYY-MM-DD"
    )
    ok(cli("event", "add", "Autumn Swiss", "--start", "2026-09-26", "--end", "2026-10-11"))
    (row,) = ok(cli("event", "list")).stdout.splitlines()[1:]
    assert row.split()[2:4] == ["2026-09-26", "2026-10-11"]
