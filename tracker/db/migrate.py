"""The migrations API: Alembic driven from code, for installed copies too.

The Alembic scripts live in the repository's top-level ``migrations/`` folder; the wheel
ships them as ``tracker/_migrations`` (see ``pyproject.toml``), so a plain, non-editable
``pip install .`` can create and upgrade databases.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from tracker.db.engine import schema_change
from tracker.db.models import Base
from tracker.errors import DatabaseError


def migrations_dir() -> Path:
    """Find the Alembic scripts: inside the installed package, else beside it in a checkout."""
    packaged = Path(str(resources.files("tracker"))) / "_migrations"
    if (packaged / "env.py").is_file():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "migrations"
    if (checkout / "env.py").is_file():
        return checkout
    raise DatabaseError("cannot find the tracker migrations; the installation is incomplete")


def config(engine: Engine | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if engine is not None:
        url = engine.url.render_as_string(hide_password=False)
        # Alembic's options are ConfigParser values: a % (an escaped character of the URL)
        # would be read as interpolation.
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def all_revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory.from_config(config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def head() -> str:
    head_rev = ScriptDirectory.from_config(config()).get_current_head()
    assert head_rev is not None
    return head_rev


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade in one write transaction (DDL is transactional on SQLite and PostgreSQL)."""
    _run(engine, "upgrade", revision)


def downgrade(engine: Engine, revision: str) -> None:
    _run(engine, "downgrade", revision)


def _run(engine: Engine, action: str, revision: str) -> None:
    cfg = config(engine)
    with schema_change(engine) as conn:
        cfg.attributes["connection"] = conn
        getattr(command, action)(cfg, revision)


def current(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def differences(engine: Engine) -> list[str]:
    """How the database's schema differs from the models (empty when they match)."""
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "render_as_batch": True}
        )
        diffs = compare_metadata(context, Base.metadata)
    return [str(d) for d in diffs]
