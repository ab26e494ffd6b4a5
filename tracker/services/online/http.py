"""One HTTP GET for the online platforms' public APIs: the standard library's urllib, a
timeout, a User-Agent that says who is asking, one attempt (no retries: a failure is
reported in one line and the command stops), and a size cap.

Lichess asks API users to make one request at a time and to wait a full minute after an
HTTP 429; Chess.com's published-data API allows serial requests and answers 429 to parallel
ones. tracker fetches one URL after another and stops at the first refusal.
"""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Final

from tracker import __version__
from tracker.errors import NetworkError, NotFoundError

Fetch = Callable[[str], bytes]
"""Something that GETs a URL and returns the body (tests pass their own)."""

USER_AGENT: Final = f"tracker/{__version__} (chess club rating tracker; Python urllib)"
TIMEOUT: Final = 20.0
"""Seconds to wait for a connection or for the next bytes of an answer."""
MAX_BYTES: Final = 50_000_000
"""A bigger answer is refused (a Chess.com month of a busy blitz player is a few MB)."""


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc or url


def get(url: str, *, timeout: float = TIMEOUT) -> bytes:
    """The body of ``url``; NotFoundError for a 404 or 410, NetworkError for anything else
    that goes wrong (no network, timeout, another HTTP error, an oversized answer)."""
    host = _host(url)
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body: bytes = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        if exc.code in (404, 410):
            raise NotFoundError(f"{host} has nothing at {url} (HTTP {exc.code})") from None
        if exc.code == 429:
            raise NetworkError(
                f"{host} asks to slow down (HTTP 429): wait a minute and try again"
            ) from None
        raise NetworkError(f"{host} answered HTTP {exc.code} ({exc.reason}) for {url}") from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, TimeoutError):
            raise NetworkError(f"{host} did not answer within {timeout:g} s") from None
        raise NetworkError(f"cannot reach {host} ({reason}): are you online?") from None
    except TimeoutError:
        raise NetworkError(f"{host} did not answer within {timeout:g} s") from None
    except OSError as exc:
        raise NetworkError(f"cannot read from {host}: {exc.strerror or exc}") from None
    if len(body) > MAX_BYTES:
        raise NetworkError(f"{host} sent more than {MAX_BYTES // 1_000_000} MB for {url}")
    return body
