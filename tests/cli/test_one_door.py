"""One door, one rule: the same game through every door (game add, game edit, game add-round,
and the import of a CSV, a PGN and a TRF file) is refused, stored with a warning, or accepted
alike, and stored alike (tracker.services.intake states the rules)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.doors import Doors, Seen, Spec, at, same_everywhere
from tests.helpers import Cli, js, ok


@pytest.fixture
def doors(cli: Cli, db_url: str, tmp_path: Path) -> Doors:
    return Doors(cli, db_url, tmp_path)


def through_all(doors: Doors, spec: Spec, *more: str) -> dict[str, Seen]:
    return {door: doors.through(door, spec, *more) for door in doors.all()}


GAME = Spec()


def test_a_plain_game_is_the_same_game_through_every_door(doors: Doors) -> None:
    seen = through_all(doors, GAME)
    same_everywhere(seen)
    assert seen["csv"].outcome == "accepted"
    assert seen["csv"].stored == (
        "2026-10-10",
        "Hart, Daniel",
        "Sato, Yuki",
        "1-0",
        "standard",
        "Autumn Cup",
        "1",
        None,
        None,
    )


@pytest.mark.parametrize(
    ("spec", "more", "expected", "said"),
    [
        # a date before FIDE's first list: refused, --yes or not
        (at(GAME, date="1926-11-05"), (), "refused", "is before 1970"),
        (at(GAME, date="1926-11-05"), ("--yes",), "refused", "is before 1970"),
        # more than a year before the records start (2026-09): refused unless --yes
        (at(GAME, date="2016-10-10"), (), "refused", "more than a year before"),
        (at(GAME, date="2016-10-10"), ("--yes",), "accepted", None),
        # in the future: refused
        (at(GAME, date="2026-12-24"), ("--yes",), "refused", "is in the future"),
        # Sato was born in 2012: a game of 2014 is at the age of 2
        (at(GAME, date="2014-10-10"), ("--yes",), "refused", "was born in 2012"),
    ],
    ids=["1926", "1926-yes", "2016", "2016-yes", "future", "age-2"],
)
def test_a_date_gets_the_same_outcome_at_every_door(
    doors: Doors, spec: Spec, more: tuple[str, ...], expected: str, said: str | None
) -> None:
    seen = through_all(doors, spec, *more)
    same_everywhere(seen)
    assert seen["game add"].outcome == expected
    if said is not None:
        for door, s in seen.items():
            assert any(said in line for line in s.lines), (door, s.lines)


def test_a_rating_that_is_no_fide_rating_is_stored_as_none_with_a_warning(doors: Doors) -> None:
    """471: an Irish junior's national rating, in a TRF, a PGN WhiteElo or typed."""
    seen = through_all(doors, at(GAME, white_rating=2318, black_rating=471))
    same_everywhere(seen)
    assert seen["pgn"].outcome == "warned"
    assert seen["pgn"].stored is not None and seen["pgn"].stored[-2:] == (2318, None)
    for door, s in seen.items():
        assert any("471 is not a FIDE rating" in line for line in s.lines), (door, s.lines)


def test_an_external_opponent_without_a_rating_is_stored_unrated_with_a_warning(
    doors: Doors,
) -> None:
    seen = through_all(doors, at(GAME, black="Kim, Ji-ho"))
    same_everywhere(seen)
    assert seen["trf"].outcome == "warned"
    for door, s in seen.items():
        assert any("Kim, Ji-ho is an external player" in line for line in s.lines), door
    # with a FIDE rating recorded, the game is rated for Hart: no warning
    seen = through_all(doors, at(GAME, black="Kim, Ji-ho", black_rating=1803))
    same_everywhere(seen)
    assert seen["trf"].outcome == "accepted"


def test_spellings_of_an_event_and_a_round_are_one_event_and_one_round(doors: Doors) -> None:
    seen = through_all(doors, at(GAME, event="AUTUMN   cup", round="01", tc="Rapid"))
    same_everywhere(seen)
    assert seen["pgn"].stored is not None
    assert seen["pgn"].stored[4:7] == ("rapid", "AUTUMN cup", "1")


def test_the_same_game_spelled_another_way_is_not_stored_again(cli: Cli, doors: Doors) -> None:
    """``Autumn Cup`` round 01, then ``autumn cup`` round 1: one game and one event, at every
    door (game add and add-round refuse it as recorded; an import counts it present)."""
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-10-10", "--event",
           "Autumn Cup", "--round", "01"))  # fmt: skip
    doors.marks = {t: doors._max(t) for t in doors.marks}
    again = at(GAME, event="autumn  cup", round="1")
    for door in ("game add", "add-round", "csv", "pgn", "trf"):
        result = doors.all()[door](again)
        said = result.stderr
        if door in ("game add", "add-round"):
            assert result.exit_code == 1 and "already recorded as game" in said, (door, said)
        else:
            assert result.exit_code == 0 and "0 games added, 1 already present" in said, door
        games = js(cli, "game", "list", "--event", "AUTUMN CUP")
        assert [(g["event"], g["round"]) for g in games] == [("Autumn Cup", "1")], door
        doors.reset()


# -- the fuzz test: any values, every door, one outcome -----------------------------------

dates = st.sampled_from(
    ["2026-10-10", "2026-09-01", "2025-09-01", "2025-08-31", "2016-01-31", "1969-12-31",
     "1970-01-01", "2026-11-29", "2026-11-30", "2013-06-01", "2015-06-01"]
)  # fmt: skip
ratings = st.one_of(
    st.none(),
    st.sampled_from([471, 999, 1000, 1803, 2318, 3000, 3001, 3500]),
)
# (not the club's own "Club Night": a TRF states its event's start, which a stored event's
# earlier games contradict, a difference of what is said, not of a rule)
events = st.sampled_from(["Autumn Cup", "autumn cup", "AUTUMN  CUP"])
rounds = st.sampled_from(["1", "01", "001"])
results = st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+"])
tcs = st.sampled_from(["standard", "Rapid", "BLITZ"])
players = st.sampled_from([("Hart, Daniel", "Sato, Yuki"), ("Kim, Ji-ho", "Hart, Daniel"),
                           ("Sato, Yuki", "Patel, Arjun")])  # fmt: skip


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    pair=players,
    result=results,
    date=dates,
    event=events,
    round_=rounds,
    white_rating=ratings,
    black_rating=ratings,
    tc=tcs,
    yes=st.booleans(),
)
def test_any_values_get_the_same_outcome_at_every_door(
    doors: Doors,
    pair: tuple[str, str],
    result: str,
    date: str,
    event: str,
    round_: str,
    white_rating: int | None,
    black_rating: int | None,
    tc: str,
    yes: bool,
) -> None:
    spec = Spec(pair[0], pair[1], result, date, event, round_, white_rating, black_rating, tc)
    same_everywhere(through_all(doors, spec, *(("--yes",) if yes else ())))


def test_an_event_is_played_at_one_time_control_at_every_door(
    cli: Cli, doors: Doors, tmp_path: Path
) -> None:
    """A rapid round 1 and a standard round 2 of one event: refused at every door (an event
    is rated on one list), in one line."""
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-10-10", "--event", "Autumn Cup",
           "--round", "1", "--tc", "rapid"))  # fmt: skip
    doors.marks = {t: doors._max(t) for t in doors.marks}
    standard = at(GAME, round="2", black="Patel, Arjun")
    for door in ("game add", "add-round", "csv", "pgn", "trf"):
        if door == "trf":
            continue  # a TRF's one round is round 1: see below
        seen = doors.through(door, standard)
        assert seen.outcome == "refused", (door, seen)
        assert any(
            "is a rapid event" in line and "rated on one list" in line for line in seen.lines
        ), (door, seen.lines)
    mixed = tmp_path / "mixed.csv"
    mixed.write_text(
        "date,white,black,result,event,round,tc\n"
        '2026-10-17,"Hart, Daniel","Sato, Yuki",1-0,Winter Cup,1,rapid\n'
        '2026-10-18,"Sato, Yuki","Hart, Daniel",1-0,Winter Cup,2,standard\n'
    )
    r = cli("import", str(mixed))
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (
        f"{mixed}:2: event 'Winter Cup' has games of several time controls (rapid, "
        "standard): an event is rated on one list; give each time control its own event"
    )


def test_control_characters_and_a_late_event_start_are_refused_at_every_door(
    cli: Cli, doors: Doors
) -> None:
    """What a file import refuses, game add refuses too: control characters in an event, a
    round or a name, and an event start after the event's stored games."""
    for spec in (at(GAME, event="Cup\x1b[31m"), at(GAME, round="1\x07")):
        seen = {door: doors.through(door, spec) for door in ("game add", "add-round", "csv")}
        assert {s.outcome for s in seen.values()} == {"refused"}, seen
        assert all(any("contains control characters" in line for line in s.lines)
                   for s in seen.values()), seen  # fmt: skip
    r = cli("player", "add", "Evil\x1b[2JName")
    assert r.exit_code == 1 and "contains control characters" in r.stderr
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-10-05", "--event", "Autumn Cup"))
    r = cli("event", "edit", "Autumn Cup", "--start", "2026-10-10")
    assert r.stderr.strip() == (
        "error: cannot declare that of Autumn Cup: it has a game on 2026-10-05, before its "
        "start 2026-10-10"
    )
