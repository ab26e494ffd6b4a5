"""The installed program: the console script, ``python -m tracker``, and a plain wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.location import sqlite_url

ROOT = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRACKER_")}
    env.update(extra)
    return env


def test_console_script_end_to_end(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("tracker")
    assert exe.exists(), "the console script is not installed"
    db = str(tmp_path / "club.db")
    env = _env(TRACKER_DB=db)
    run = lambda *a: subprocess.run(  # noqa: E731
        [str(exe), *a], capture_output=True, text=True, env=env, timeout=60
    )
    assert (
        run("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240").returncode == 0
    )
    assert run("player", "add", "Kim, Ji-ho", "--external").returncode == 0
    r = run(
        "game",
        "add",
        "Hart, Daniel",
        "Kim, Ji-ho",
        "1-0",
        "--black-rating",
        "1803",
        "--date",
        "2026-01-08",
    )
    assert r.returncode == 0, r.stderr
    r = run("game", "list", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)[0]["black_rating"] == 1803
    r = run("game", "add", "Hart, Daniel", "Nobody", "1-0")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        "error: no player named 'Nobody' (no similar names; see `tracker player list`)"
    ]
    assert "Traceback" not in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "tracker", "--version"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 0 and r.stdout.startswith("tracker ")


@pytest.mark.slow
def test_plain_wheel_creates_and_upgrades_databases(tmp_path: Path) -> None:
    """A non-editable install (wheel) carries its migrations inside the package.

    Built without build isolation, with the hatchling of the test extra: an isolated build
    would fetch the build backend from the package index (no test uses the network)."""
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "-w",
            str(dist),
            str(ROOT),
        ],
        check=True,
        timeout=300,
        capture_output=True,
    )
    wheel = next(dist.glob("tracker-*.whl"))
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        timeout=300,
        capture_output=True,
    )
    assert (target / "tracker" / "_migrations" / "env.py").is_file()
    env = _env(PYTHONPATH=str(target))
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tracker", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=workdir,
            timeout=120,
        )

    r = subprocess.run(
        [sys.executable, "-c", "import tracker.db.migrate as m; print(m.migrations_dir())"],
        capture_output=True,
        text=True,
        env=env,
        cwd=workdir,
        timeout=60,
    )
    assert r.stdout.strip() == str(target / "tracker" / "_migrations")
    fresh = workdir / "fresh.db"
    r = run("--db", str(fresh), "player", "add", "A")
    assert r.returncode == 0, r.stderr
    old = workdir / "old.db"
    engine = make_engine(sqlite_url(old))
    migrate.upgrade(engine, migrate.all_revisions()[0])
    engine.dispose()
    assert run("--db", str(old), "player", "list").returncode == 1
    r = run("--db", str(old), "db", "upgrade")
    assert r.returncode == 0, r.stderr
    assert run("--db", str(old), "db", "check").returncode == 0
