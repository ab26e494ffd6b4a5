"""``player edit --lichess/--chesscom``, ``online import``, ``online fetch`` (with recorded
responses in place of the network) and ``online show``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, js, ok, one_line_error, query
from tracker.errors import NetworkError
from tracker.services.online import http

DATA = Path(__file__).resolve().parent / "data" / "online"
LICHESS = DATA / "lichess_rating_history.json"
CC_JAN, CC_FEB = DATA / "chesscom_2026_01.json", DATA / "chesscom_2026_02.json"

LICHESS_URL = "https://lichess.org/api/user/dhart_fm/rating-history"
ARCHIVES_URL = "https://api.chess.com/pub/player/danielhart/games/archives"
JAN_URL = "https://api.chess.com/pub/player/danielhart/games/2026/01"
FEB_URL = "https://api.chess.com/pub/player/danielhart/games/2026/02"
RECORDED = {
    LICHESS_URL: LICHESS,
    ARCHIVES_URL: DATA / "chesscom_archives.json",
    JAN_URL: CC_JAN,
    FEB_URL: CC_FEB,
}


class Recorded:
    """Answers the recorded responses instead of the network; counts the requests."""

    def __init__(self, answers: dict[str, Path | Exception]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, url: str, *, timeout: float = http.TIMEOUT) -> bytes:
        self.asked.append(url)
        answer = self.answers.get(url)
        if isinstance(answer, Exception):
            raise answer
        if answer is None:
            raise AssertionError(f"unexpected request {url}")
        return answer.read_bytes()


@pytest.fixture
def network(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    recorded = Recorded(dict(RECORDED))
    monkeypatch.setattr(http, "get", recorded)
    return recorded


def linked(cli: Cli) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240",
           "--lichess", "dhart_fm"))  # fmt: skip
    ok(cli("player", "add", "Okafor, Grace", "--rating", "2105", "--games", "95"))
    ok(cli("player", "edit", "Hart, Daniel", "--chesscom", "DanielHart"))
    ok(cli("player", "edit", "Okafor, Grace", "--chesscom", "okafor_g"))


def fetch_error(cli: Cli, *args: str) -> str:
    """A fetch that failed: its progress lines, then one error line (returned)."""
    r = cli("online", "fetch", *args)
    assert r.exit_code == 1, (r.stdout, r.stderr)
    *progress, last = r.stderr.strip().splitlines()
    assert all(line.startswith("fetching ") for line in progress), r.stderr
    assert last.startswith("error: ")
    assert r.stdout == ""
    return last


def points(url: str) -> list[tuple[str, str, str, str, int]]:
    rows = query(
        url,
        "SELECT p.name, o.platform, o.perf, o.day, o.rating FROM online_ratings o "
        "JOIN players p ON p.id = o.player_id ORDER BY p.name, o.platform, o.perf, o.day",
    )
    return [(n, pl, pf, str(d), r) for n, pl, pf, d, r in rows]


# ---------------------------------------------------------------------------- linking


def test_link_show_and_clear_accounts(cli: Cli) -> None:
    r = ok(cli("player", "add", "Hart, Daniel", "--lichess", "dhart_fm", "--json"))
    assert r.stderr.strip() == "added #1 Hart, Daniel (tracked, Lichess dhart_fm)"
    hart = js(cli, "player", "show", "Hart, Daniel")
    assert (hart["lichess"], hart["chesscom"]) == ("dhart_fm", None)
    ok(cli("player", "edit", "Hart, Daniel", "--chesscom", " DanielHart "))
    shown = [line.split() for line in ok(cli("player", "show", "Hart, Daniel")).stdout.splitlines()]
    assert ["Lichess", "dhart_fm"] in shown and ["Chess.com", "DanielHart"] in shown
    ok(cli("player", "edit", "Hart, Daniel", "--clear", "lichess"))
    hart = js(cli, "player", "show", "Hart, Daniel")
    assert (hart["lichess"], hart["chesscom"]) == (None, "DanielHart")
    assert [p["chesscom"] for p in js(cli, "player", "list")] == ["DanielHart"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--lichess", "bad name"), "invalid Lichess user name 'bad name'"),
        (("--lichess", "x"), "invalid Lichess user name 'x'"),
        (("--chesscom", "a/b"), "invalid Chess.com user name 'a/b'"),
        (("--lichess", "DHART_FM"), "Lichess account DHART_FM is already linked to Hart, Daniel"),
    ],
)
def test_bad_or_taken_accounts_are_refused(
    cli: Cli, db_url: str, args: tuple[str, ...], message: str
) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--lichess", "dhart_fm"))
    ok(cli("player", "add", "Okafor, Grace"))
    before = fingerprint(db_url)
    assert message in one_line_error(cli("player", "edit", "Okafor, Grace", *args), 1)
    assert fingerprint(db_url) == before


# ----------------------------------------------------------------------------- import


def test_import_a_lichess_history_then_again_adds_nothing(cli: Cli, db_url: str) -> None:
    linked(cli)
    r = ok(cli("online", "import", str(LICHESS), "--player", "Hart, Daniel"))
    assert "14 new rating point(s) stored" in r.stderr
    assert "Hart, Daniel  Lichess   classical    6        0  2428 on 2026-03-15" in r.stdout
    stored = points(db_url)
    assert len(stored) == 14
    assert ("Hart, Daniel", "lichess", "classical", "2026-01-31", 2425) in stored
    again = js(cli, "online", "import", str(LICHESS), "--player", "Hart, Daniel")
    (only,) = again
    assert only["platform"] == "lichess" and only["user"] == "dhart_fm"
    assert sum(p["added"] for p in only["perfs"]) == 0
    assert sum(p["unchanged"] for p in only["perfs"]) == 14
    classical = next(p for p in only["perfs"] if p["perf"] == "classical")
    assert classical["latest"] == {"day": "2026-03-15", "rating": 2428}
    assert points(db_url) == stored


def test_a_changed_rating_for_a_stored_day_is_updated(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    linked(cli)
    ok(cli("online", "import", str(LICHESS), "--player", "Hart, Daniel"))
    later = tmp_path / "later.json"
    later.write_text(
        '[{"name": "Classical", "points": [[2026, 2, 15, 2431], [2026, 2, 20, 2440]]}]'
    )
    (out,) = js(cli, "online", "import", str(later), "--player", "Hart, Daniel")
    assert out["perfs"] == [
        {
            "perf": "classical",
            "added": 1,
            "updated": 1,
            "unchanged": 0,
            "latest": {"day": "2026-03-20", "rating": 2440},
        }
    ]
    classical = [p for p in points(db_url) if p[2] == "classical"]
    assert classical[-2:] == [
        ("Hart, Daniel", "lichess", "classical", "2026-03-15", 2431),
        ("Hart, Daniel", "lichess", "classical", "2026-03-20", 2440),
    ]
    assert len(classical) == 7  # the earlier days are kept: a history only grows


def test_import_chesscom_archives_finds_every_linked_player(cli: Cli, db_url: str) -> None:
    linked(cli)
    out = js(cli, "online", "import", str(CC_JAN), str(CC_FEB))
    assert [(s["player"], s["platform"]) for s in out] == [
        ("Hart, Daniel", "chesscom"),
        ("Okafor, Grace", "chesscom"),
    ] * 2
    assert [p for p in points(db_url) if p[0] == "Okafor, Grace"] == [
        ("Okafor, Grace", "chesscom", "rapid", "2026-01-04", 2101),
        ("Okafor, Grace", "chesscom", "rapid", "2026-02-22", 2110),
    ]
    hart = [p[2:] for p in points(db_url) if p[0] == "Hart, Daniel"]
    assert hart == [
        ("blitz", "2026-01-11", 2240),
        ("bullet", "2026-02-08", 2120),
        ("daily", "2026-01-30", 2001),
        ("rapid", "2026-01-04", 2295),
        ("rapid", "2026-01-25", 2290),
        ("rapid", "2026-02-07", 2297),
        ("rapid", "2026-02-22", 2301),
    ]
    only = js(cli, "online", "import", str(CC_JAN), "--player", "Okafor, Grace")
    assert [s["player"] for s in only] == ["Okafor, Grace"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((str(LICHESS),), "a Lichess rating history does not say whose it is: give --player"),
        ((str(LICHESS), "--player", "Okafor, Grace"), "Okafor, Grace has no linked Lichess"),
        ((str(DATA / "chesscom_archives.json"),), "a Chess.com archive list holds no ratings"),
        ((str(CC_JAN), "--player", "Nobody"), "no player named 'Nobody'"),
        ((str(DATA / "missing.json"),), "cannot read"),
        ((str(CC_JAN), str(DATA / "missing.json")), "cannot read"),  # all files or none
    ],
)
def test_import_errors_are_one_line_and_store_nothing(
    cli: Cli, db_url: str, args: tuple[str, ...], message: str
) -> None:
    linked(cli)
    before = fingerprint(db_url)
    assert message in one_line_error(cli("online", "import", *args), 1)
    assert fingerprint(db_url) == before


def test_import_of_something_else(cli: Cli, db_url: str, tmp_path: Path) -> None:
    linked(cli)
    odd = tmp_path / "odd.json"
    odd.write_text('{"username": "dhart_fm"}')
    assert "neither a Lichess rating history nor a Chess.com monthly archive" in one_line_error(
        cli("online", "import", str(odd), "--player", "Hart, Daniel"), 1
    )
    odd.write_text("[1, 2")
    assert "not JSON" in one_line_error(cli("online", "import", str(odd)), 1)


def test_relinking_an_account_drops_the_old_accounts_points(cli: Cli, db_url: str) -> None:
    linked(cli)
    ok(cli("online", "import", str(LICHESS), "--player", "Hart, Daniel"))
    ok(cli("online", "import", str(CC_JAN)))
    ok(cli("player", "edit", "Hart, Daniel", "--lichess", "DHART_FM"))  # the same account
    assert len([p for p in points(db_url) if p[1] == "lichess"]) == 14
    ok(cli("player", "edit", "Hart, Daniel", "--lichess", "someone_else"))
    assert [p for p in points(db_url) if p[1] == "lichess"] == []
    assert [p for p in points(db_url) if p[0] == "Hart, Daniel" and p[1] == "chesscom"]


# ------------------------------------------------------------------------------ fetch


def test_fetch_uses_the_public_apis_and_refetching_adds_only_new_points(
    cli: Cli, db_url: str, network: Recorded
) -> None:
    linked(cli)
    r = ok(cli("online", "fetch", "Hart, Daniel"))
    assert network.asked == [LICHESS_URL, ARCHIVES_URL, JAN_URL, FEB_URL]
    assert "fetching Hart, Daniel's Lichess rating history (dhart_fm)" in r.stderr
    assert "fetching Hart, Daniel's Chess.com games (DanielHart): 2 monthly archive(s)" in r.stderr
    assert "21 new rating point(s) stored" in r.stderr
    first = points(db_url)
    assert len(first) == 21

    network.asked.clear()
    r = ok(cli("online", "fetch", "Hart, Daniel"))
    # Lichess sends its whole history; of Chess.com only the month of the last point again
    assert network.asked == [LICHESS_URL, ARCHIVES_URL, FEB_URL]
    assert "1 monthly archive(s) (from the month of the last stored point)" in r.stderr
    assert "0 new rating point(s) stored" in r.stderr
    assert points(db_url) == first


def test_fetch_everyone_linked_and_one_platform(cli: Cli, db_url: str, network: Recorded) -> None:
    linked(cli)
    okafor = "https://api.chess.com/pub/player/okafor_g/games/archives"
    network.answers[okafor] = DATA / "chesscom_archives.json"  # lists Hart's months: no matter
    out = js(cli, "online", "fetch", "--platform", "chesscom")
    assert [(s["player"], s["platform"]) for s in out] == [
        ("Hart, Daniel", "chesscom"),
        ("Okafor, Grace", "chesscom"),
    ]
    assert LICHESS_URL not in network.asked and okafor in network.asked


def test_offline_is_one_line_and_stores_nothing(cli: Cli, db_url: str, network: Recorded) -> None:
    linked(cli)
    network.answers[FEB_URL] = NetworkError(
        "cannot reach api.chess.com ([Errno -3] Temporary failure in name resolution): "
        "are you online?"
    )
    before = fingerprint(db_url)
    line = fetch_error(cli, "Hart, Daniel")
    assert line == (
        "error: cannot reach api.chess.com ([Errno -3] Temporary failure in name resolution): "
        "are you online?"
    )
    assert network.asked == [LICHESS_URL, ARCHIVES_URL, JAN_URL, FEB_URL]  # no retries
    assert fingerprint(db_url) == before  # the Lichess points fetched first are not kept


def test_an_unknown_user_says_which_link_to_correct(cli: Cli, network: Recorded) -> None:
    from tracker.errors import NotFoundError

    linked(cli)
    network.answers[LICHESS_URL] = NotFoundError("lichess.org has nothing at ... (HTTP 404)")
    line = fetch_error(cli, "Hart, Daniel", "--platform", "lichess")
    assert line == (
        "error: Lichess has no user dhart_fm (linked to Hart, Daniel); correct it with "
        '`tracker player edit "Hart, Daniel" --lichess USER`'
    )


def test_fetch_needs_a_linked_account(cli: Cli, network: Recorded) -> None:
    ok(cli("player", "add", "Hart, Daniel"))
    assert "no player has a linked online account" in one_line_error(cli("online", "fetch"), 1)
    assert "Hart, Daniel has no linked Lichess account" in one_line_error(
        cli("online", "fetch", "Hart, Daniel", "--platform", "lichess"), 1
    )
    ok(cli("player", "edit", "Hart, Daniel", "--lichess", "dhart_fm"))
    assert "no player has a linked Chess.com account" in one_line_error(
        cli("online", "fetch", "--platform", "chesscom"), 1
    )
    assert "unknown platform 'fics'" in one_line_error(
        cli("online", "fetch", "--platform", "fics"), 1
    )
    assert network.asked == []


# ------------------------------------------------------------------------------- show


def test_show_lists_each_perf_and_what_it_stands_beside(cli: Cli) -> None:
    linked(cli)
    ok(cli("online", "import", str(LICHESS), "--player", "Hart, Daniel"))
    ok(cli("online", "import", str(CC_JAN), str(CC_FEB)))
    out = js(cli, "online", "show", "Hart, Daniel")
    assert (out["lichess"], out["chesscom"]) == ("dhart_fm", "DanielHart")
    assert [(p["platform"], p["perf"], p["tc"], p["points"]) for p in out["perfs"]] == [
        ("lichess", "classical", "standard", 6),
        ("lichess", "rapid", "rapid", 2),
        ("lichess", "blitz", "blitz", 4),
        ("lichess", "bullet", None, 2),
        ("chesscom", "rapid", "rapid", 4),
        ("chesscom", "blitz", "blitz", 1),
        ("chesscom", "bullet", None, 1),
        ("chesscom", "daily", None, 1),
    ]
    table = ok(cli("online", "show", "Hart, Daniel"))
    assert "Lichess    classical  standard     6  2025-11-15  2026-03-15    2428" in table.stdout
    assert "Hart, Daniel: Lichess dhart_fm, Chess.com DanielHart" in table.stderr
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
