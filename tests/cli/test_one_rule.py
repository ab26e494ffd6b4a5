"""One rule at every door (issue 33's pipeline, issue 34 points 9 and 10): a rating no rating
system gives is refused, with the reason, typed or in a file; a FIDE id that is no FIDE id
(a number such as 9, or raw bytes) only warns, the player matched by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Cli, js, ok, one_line_error


@pytest.fixture
def club(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Cli:
    monkeypatch.setenv("TRACKER_TODAY", "2026-11-29")
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    return cli


@pytest.mark.parametrize(
    ("rating", "reason"),
    [
        ("-5", "a recorded rating of -5: no rating is below 0"),
        ("3500", "a recorded rating of 3500: no rating system gives one above 3000"),
    ],
)
def test_a_rating_no_system_gives_is_refused_at_every_door(
    club: Cli, tmp_path: Path, rating: str, reason: str
) -> None:
    typed = ("game", "add", "Hart", "Kim", "1-0", "--date", "2026-11-02", "--black-rating", rating)
    assert one_line_error(club(*typed), 1) == f"error: --black-rating {rating}: {reason}"
    if rating == "3500":  # a round's brackets hold digits: no negative one there
        r = club("game", "add-round", "Night", "--date", "2026-11-02", "--round", "1",
                 input=f"Hart 1-0 Kim [{rating}]\n")  # fmt: skip
        assert r.exit_code == 1 and reason in r.stderr
    ok(club("game", "add", "Hart", "Kim", "1-0", "--date", "2026-11-03", "--black-rating", "1803"))
    assert one_line_error(club("game", "edit", "1", "--black-rating", rating), 1) == (
        f"error: --black-rating {rating}: {reason}"
    )
    csv = tmp_path / "night.csv"
    csv.write_text(
        "date,white,black,result,black_rating\n"
        f'2026-11-04,"Hart, Daniel","Kim, Ji-ho",1-0,{rating}\n'
    )
    r = club("import", str(csv), "--tc", "standard")
    assert r.exit_code == 1 and f"{csv}:2: {reason}" in r.stderr
    pgn = tmp_path / "night.pgn"
    pgn.write_text(
        '[Event "Night"]\n[Date "2026.11.05"]\n[White "Hart, Daniel"]\n[Black "Kim, Ji-ho"]\n'
        f'[Result "1-0"]\n[BlackElo "{rating}"]\n\n1-0\n'
    )
    r = club("import", str(pgn), "--tc", "standard")
    assert r.exit_code == 1 and f"{pgn}:1: {reason}" in r.stderr
    assert len(js(club, "game", "list")) == 1


def test_a_typed_zero_is_no_rating_but_a_files_zero_is_none(club: Cli, tmp_path: Path) -> None:
    typed = ("game", "add", "Hart", "Kim", "1-0", "--date", "2026-11-02", "--black-rating", "0")
    assert one_line_error(club(*typed), 1) == (
        "error: --black-rating 0: a recorded rating of 0: for an unrated player leave it out"
    )
    csv = tmp_path / "night.csv"
    csv.write_text(
        'date,white,black,result,black_rating\n2026-11-04,"Hart, Daniel","Kim, Ji-ho",1-0,0\n'
    )
    ok(club("import", str(csv), "--tc", "standard"))
    (game,) = js(club, "game", "list")
    assert game["black_rating"] is None


@pytest.mark.parametrize("fide_id", ["9", "x1", "\x01\x02"])
def test_a_fide_id_that_is_none_only_warns(club: Cli, tmp_path: Path, fide_id: str) -> None:
    pgn = tmp_path / "night.pgn"
    pgn.write_text(
        '[Event "Night"]\n[Date "2026.11.05"]\n[White "Hart, Daniel"]\n[Black "Kim, Ji-ho"]\n'
        f'[Result "1-0"]\n[BlackElo "1803"]\n[WhiteFideId "{fide_id}"]\n\n1-0\n'
    )
    r = ok(club("import", str(pgn), "--tc", "standard"))
    assert "is not a FIDE id (FIDE's have six to eleven digits; a national id?): not stored as " \
        "one" in " ".join(r.stderr.split())  # fmt: skip
    (game,) = js(club, "game", "list")
    assert game["white"] == "Hart, Daniel"  # matched by name


def test_the_advice_for_a_file_dated_by_year_only_can_be_followed(
    club: Cli, tmp_path: Path
) -> None:
    pgn = tmp_path / "year.pgn"
    pgn.write_text(
        '[Event "Y"]\n[Date "2026.??.??"]\n[White "Hart, Daniel"]\n[Black "Kim, Ji-ho"]\n'
        '[Result "1-0"]\n[BlackElo "1803"]\n\n1-0\n'
    )
    r = club("import", str(pgn), "--tc", "standard", "--event-start", "2025-05-02")
    assert r.exit_code == 1
    assert (
        "--event-start 2025-05-02 is not in 2026: give a day of 2026 with --event-start"
        in " ".join(r.stderr.split())
    )
    ok(club("import", str(pgn), "--tc", "standard", "--event-start", "2026-05-02"))
    (game,) = js(club, "game", "list")
    assert game["date"] == "2026-05-02"
