"""The HTTP client: a User-Agent, a timeout, one attempt, every failure a one-line tracker
error. urllib's ``urlopen`` is replaced: no test touches the network."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
from email.message import Message
from typing import Any

import pytest

from tracker import __version__
from tracker.errors import NetworkError, NotFoundError
from tracker.services.online import http

URL = "https://lichess.org/api/user/dhart_fm/rating-history"


class Answer(io.BytesIO):
    def __enter__(self) -> Answer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fake(monkeypatch: pytest.MonkeyPatch, outcome: Any) -> list[tuple[Any, float]]:
    """urlopen answering ``outcome`` (bytes, or an exception to raise); records each call."""
    calls: list[tuple[Any, float]] = []

    def urlopen(request: Any, timeout: float) -> Answer:
        calls.append((request, timeout))
        if isinstance(outcome, BaseException):
            raise outcome
        return Answer(outcome)

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    return calls


def http_error(code: int, reason: str) -> urllib.error.HTTPError:
    return urllib.error.HTTPError(URL, code, reason, Message(), io.BytesIO(b""))


def test_a_get_says_who_asks_and_waits_at_most_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake(monkeypatch, b'[{"name": "Classical", "points": []}]')
    assert http.get(URL) == b'[{"name": "Classical", "points": []}]'
    ((request, timeout),) = calls
    assert request.full_url == URL
    assert (
        request.get_header("User-agent")
        == f"tracker/{__version__} (chess club rating tracker; Python urllib)"
    )
    assert request.get_header("Accept") == "application/json"
    assert timeout == http.TIMEOUT == 20.0
    http.get(URL, timeout=3)
    assert calls[-1][1] == 3


@pytest.mark.parametrize(
    ("outcome", "kind", "text"),
    [
        (http_error(404, "Not Found"), NotFoundError, "lichess.org has nothing at"),
        (http_error(410, "Gone"), NotFoundError, "(HTTP 410)"),
        (http_error(429, "Too Many Requests"), NetworkError, "asks to slow down (HTTP 429)"),
        (http_error(503, "Service Unavailable"), NetworkError, "HTTP 503 (Service Unavailable)"),
        (
            urllib.error.URLError(OSError(-2, "Name or service not known")),
            NetworkError,
            "cannot reach lichess.org",
        ),
        (urllib.error.URLError(TimeoutError()), NetworkError, "did not answer within 20 s"),
        (TimeoutError("read timed out"), NetworkError, "did not answer within 20 s"),
        (ConnectionResetError(104, "Connection reset by peer"), NetworkError, "cannot read"),
    ],
)
def test_failures_are_one_tracker_error_after_one_attempt(
    monkeypatch: pytest.MonkeyPatch, outcome: BaseException, kind: type[Exception], text: str
) -> None:
    calls = fake(monkeypatch, outcome)
    with pytest.raises(kind) as caught:
        http.get(URL)
    assert text in str(caught.value)
    assert "\n" not in str(caught.value)
    assert len(calls) == 1  # no retries


def test_an_oversized_answer_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http, "MAX_BYTES", 10)
    fake(monkeypatch, b"x" * 11)
    with pytest.raises(NetworkError, match="sent more than"):
        http.get(URL)
    fake(monkeypatch, b"x" * 10)
    assert http.get(URL) == b"x" * 10
