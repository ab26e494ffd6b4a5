"""SQLAlchemy 2 typed models: the schema every migration must match.

:data:`tracker.db.revision.SCHEMA_REVISION` names the Alembic head these models describe.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, MappedColumn, mapped_column

from tracker.ratings.glicko.presets import PRESETS
from tracker.vocabulary import (
    BYE_POINTS,
    DEFAULT_PRESET,
    EVENT_KINDS,
    LOGO_TYPES,
    ONLINE_PLATFORMS,
    PLATFORMS,
    RATING_MAX,
    RATING_MIN,
    RESULTS,
    TIME_CONTROLS,
    YEAR_MAX,
    YEAR_MIN,
)

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def _one_of(column: str, values: tuple[str, ...]) -> str:
    """A CHECK expression: ``column`` holds one of ``values``."""
    quoted = ", ".join(f"'{v}'" for v in values)
    return f"{column} IN ({quoted})"


def _rating_range(column: str) -> str:
    return f"{column} BETWEEN {RATING_MIN} AND {RATING_MAX}"


TC_CHECK = _one_of("tc", TIME_CONTROLS)


def _cascading_key(target: str, *, deferred: bool = False) -> MappedColumn[int]:
    """A column of the primary key that refers to ``target`` (``table.id``), its rows
    removed with the row they refer to. ``deferred``: the reference is checked when the
    transaction commits, not row by row (see :class:`ListEntry`)."""
    key = (
        ForeignKey(target, ondelete="CASCADE", deferrable=True, initially="DEFERRED")
        if deferred
        else ForeignKey(target, ondelete="CASCADE")
    )
    return mapped_column(key, primary_key=True)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    """A person: *tracked* (rated by us) or *external* (rating taken from each game)."""

    __tablename__ = "players"
    __table_args__ = (
        CheckConstraint("sex IN ('m', 'f')", name="sex"),
        CheckConstraint(f"birth_year BETWEEN {YEAR_MIN} AND {YEAR_MAX}", name="birth_year"),
        Index("ix_players_name", "name"),
        # Unique indexes rather than constraints: SQLite adds them without rebuilding the
        # table, which every other table references.
        Index("ix_players_lichess", "lichess", unique=True),
        Index("ix_players_chesscom", "chesscom", unique=True),
        {"sqlite_autoincrement": True},  # an id is never given twice (PostgreSQL: sequences)
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    fide_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    federation: Mapped[str | None] = mapped_column(String(3))
    birth_year: Mapped[int | None] = mapped_column(Integer)
    sex: Mapped[str | None] = mapped_column(String(1))
    title: Mapped[str | None] = mapped_column(String(4))
    external: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, server_default=func.now())
    # Linked online accounts (user names as the platform spells them).
    lichess: Mapped[str | None] = mapped_column(String(50))
    chesscom: Mapped[str | None] = mapped_column(String(50))


# A list's longest name without a scan of the list (``queries.lists.list_shape``).
Index("ix_players_name_length", func.length(Player.name))


class PlayerSeed(Base):
    """A tracked player's FIDE state on the list before tracking starts (one per list)."""

    __tablename__ = "player_seeds"
    __table_args__ = (
        CheckConstraint(TC_CHECK, name="tc"),
        CheckConstraint(_rating_range("rating"), name="rating"),
        CheckConstraint("games >= 0", name="games"),
    )

    player_id: Mapped[int] = _cascading_key("players.id")
    tc: Mapped[str] = mapped_column(String(8), primary_key=True)
    rating: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    ever_2400: Mapped[bool] = mapped_column(Boolean, default=False)
    ever_2300: Mapped[bool] = mapped_column(Boolean, default=False)


class OfficialRating(Base):
    """A tracked player's rating on one of FIDE's lists that tracker did not publish itself
    (an earlier list): an event that started while that list was in force is rated with it
    (as FIDE's published calculations do; Title Regulations §1.4.6a)."""

    __tablename__ = "official_ratings"
    __table_args__ = (
        CheckConstraint(TC_CHECK, name="tc"),
        CheckConstraint(_rating_range("rating"), name="rating"),
    )

    player_id: Mapped[int] = _cascading_key("players.id")
    tc: Mapped[str] = mapped_column(String(8), primary_key=True)
    list_date: Mapped[dt.date] = mapped_column(Date, primary_key=True)  # the list's 1st day
    rating: Mapped[int] = mapped_column(Integer)


class Event(Base):
    """A tournament. FIDE rates it with the list in force on its start date, in the period
    it ends in (a league month by month). What an officer knows of it is declared (``event
    add``/``edit``, or an imported file's header): its end, rounds, kind and time control;
    never guessed from the games entered so far (see tracker.ratings.fide.events)."""

    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_name_key", "name_key"),
        CheckConstraint(_one_of("kind", EVENT_KINDS), name="kind"),
        CheckConstraint(TC_CHECK, name="tc"),
        CheckConstraint("rounds BETWEEN 1 AND 999", name="rounds"),
        CheckConstraint("declared IN ('user', 'file')", name="declared"),
        CheckConstraint("end_date >= start_date", name="dates"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    # The name as every door compares it (tracker.services.intake.event_key): without case
    # or extra blanks. Not unique: two spellings stored before revision 0007 both stay.
    name_key: Mapped[str] = mapped_column(String(600))  # casefolding lengthens (ß is ss)
    site: Mapped[str | None] = mapped_column(String(200))
    start_date: Mapped[dt.date] = mapped_column(Date)
    # True when the user gave the start date; otherwise it follows the earliest game.
    start_fixed: Mapped[bool] = mapped_column(Boolean, default=False)
    # The rating period (its month's 1st day) FIDE rates the event in, when later than the
    # month it ends in (FIDE Rating Regulations 2024 §7.1.3: ended after the closing date, or
    # reported late); None: the month it ends in.
    rated_in: Mapped[dt.date | None] = mapped_column(Date)
    # Declared (None: not declared): its last day, its number of rounds, its kind
    # (tracker.vocabulary.EVENT_KINDS) and time control; ``declared`` says by whom: 'user'
    # (event add/edit: a game must fit it) or 'file' (an imported file's header or rounds:
    # a later file or game of a further round extends it).
    end_date: Mapped[dt.date | None] = mapped_column(Date)
    rounds: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str | None] = mapped_column(String(12))
    tc: Mapped[str | None] = mapped_column(String(8))
    declared: Mapped[str | None] = mapped_column(String(4))


class EventRating(Base):
    """The rating Ro FIDE rated a tracked player with in one event, where it is not his
    rating on the list in force at the event's start (a corrected rating)."""

    __tablename__ = "event_ratings"
    __table_args__ = (CheckConstraint(_rating_range("rating"), name="rating"),)

    event_id: Mapped[int] = _cascading_key("events.id")
    player_id: Mapped[int] = _cascading_key("players.id")
    rating: Mapped[int] = mapped_column(Integer)


class Import(Base):
    """One imported file: what it was, when, and what it brought (games are linked back)."""

    __tablename__ = "imports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    file_name: Mapped[str] = mapped_column(String(255))
    sha256: Mapped[str] = mapped_column(String(64))
    format: Mapped[str] = mapped_column(String(8))
    imported_at: Mapped[dt.datetime] = mapped_column(DateTime, server_default=func.now())
    games_added: Mapped[int] = mapped_column(Integer, default=0)
    games_present: Mapped[int] = mapped_column(Integer, default=0)
    games_skipped: Mapped[int] = mapped_column(Integer, default=0)
    games_invalid: Mapped[int] = mapped_column(Integer, default=0)
    byes: Mapped[int] = mapped_column(Integer, default=0)
    players_created: Mapped[int] = mapped_column(Integer, default=0)


class Game(Base):
    """One game. Forfeits (``+-``, ``-+``) are stored and never rated."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(TC_CHECK, name="tc"),
        CheckConstraint(_one_of("result", RESULTS), name="result"),
        CheckConstraint("white_id <> black_id", name="distinct_players"),
        CheckConstraint(_rating_range("white_rating"), name="white_rating"),
        CheckConstraint(_rating_range("black_rating"), name="black_rating"),
        Index("ix_games_tc_played_on", "tc", "played_on"),
        Index("ix_games_white_id", "white_id", "played_on"),  # a player's games of a month
        Index("ix_games_black_id", "black_id", "played_on"),
        Index("ix_games_event_id", "event_id", "played_on"),  # an event's first and last game
        Index("ix_games_import_id", "import_id"),
        {"sqlite_autoincrement": True},  # an id is never given twice (PostgreSQL: sequences)
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    white_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    black_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    result: Mapped[str] = mapped_column(String(7))
    played_on: Mapped[dt.date] = mapped_column(Date)
    tc: Mapped[str] = mapped_column(String(8))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))
    round: Mapped[str | None] = mapped_column(String(16))
    white_rating: Mapped[int | None] = mapped_column(Integer)
    black_rating: Mapped[int | None] = mapped_column(Integer)
    # date|white|black|event|round: the natural key that makes re-imports add nothing.
    natural_key: Mapped[str] = mapped_column(String(120), unique=True)
    # The import that brought the game (None when it was entered by hand).
    import_id: Mapped[int | None] = mapped_column(ForeignKey("imports.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, server_default=func.now())


class Bye(Base):
    """A round of an event in which a player had no opponent (a pairing-allocated, full,
    half or zero-point bye: ``code``, tracker.vocabulary.BYE_POINTS). It counts in the
    standings and the crosstable, never in a rating (FIDE rates played games only)."""

    __tablename__ = "byes"
    __table_args__ = (
        UniqueConstraint("event_id", "player_id", "round", name="uq_byes_event_id_player_id_round"),
        CheckConstraint(_one_of("code", tuple(BYE_POINTS)), name="code"),
        CheckConstraint(TC_CHECK, name="tc"),
        Index("ix_byes_player_id", "player_id"),
        Index("ix_byes_import_id", "import_id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    round: Mapped[str] = mapped_column(String(16))
    played_on: Mapped[dt.date] = mapped_column(Date)
    tc: Mapped[str] = mapped_column(String(8))
    code: Mapped[str] = mapped_column(String(1))
    import_id: Mapped[int | None] = mapped_column(ForeignKey("imports.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, server_default=func.now())


class RatingPeriod(Base):
    """A closed monthly rating period of one list; the list is dated the 1st of the next month."""

    __tablename__ = "rating_periods"
    __table_args__ = (
        UniqueConstraint("tc", "month", name="uq_rating_periods_tc_month"),
        CheckConstraint(TC_CHECK, name="tc"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tc: Mapped[str] = mapped_column(String(8))
    month: Mapped[dt.date] = mapped_column(Date)
    closed_at: Mapped[dt.datetime] = mapped_column(DateTime, server_default=func.now())
    # A game added, edited or removed in this or an earlier closed month: rerate needed.
    stale: Mapped[bool] = mapped_column(Boolean, default=False)


class EloHistory(Base):
    """One tracked player's line on one published list (exact figures in hundredths)."""

    __tablename__ = "elo_history"
    __table_args__ = (
        UniqueConstraint("period_id", "player_id", name="uq_elo_history_period_id_player_id"),
        Index("ix_elo_history_player_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    period_id: Mapped[int] = mapped_column(ForeignKey("rating_periods.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    rating_before: Mapped[int | None] = mapped_column(Integer)
    rating: Mapped[int | None] = mapped_column(Integer)
    k: Mapped[int | None] = mapped_column(Integer)
    next_k: Mapped[int | None] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer, default=0)
    score_c: Mapped[int] = mapped_column(Integer, default=0)
    expected_c: Mapped[int] = mapped_column(Integer, default=0)
    change_exact_c: Mapped[int] = mapped_column(Integer, default=0)
    change: Mapped[int] = mapped_column(Integer, default=0)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    ever_2400: Mapped[bool] = mapped_column(Boolean, default=False)
    ever_2300: Mapped[bool] = mapped_column(Boolean, default=False)
    # An unrated player's pending results (JSON), so a rerate can resume from any list.
    pool: Mapped[str | None] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)


class ListEntry(Base):
    """One rated line of a published list as the list shows it, stored when its period is
    closed (or rerated), so that reading a list never works it out again from the history:
    the rank (1 + those rated higher), the rating, the change, the games of the period, the
    K of the list, the rated games and the sticky flags. Every rated player of the list has
    one, his line carried over or seeded included; a player's current line is his entry on
    the latest list."""

    __tablename__ = "list_entries"
    __table_args__ = (
        Index("ix_list_entries_period_id_rank", "period_id", "rank"),
        Index("ix_list_entries_player_id", "player_id"),
    )

    # Its references are checked at commit: a close copies the list before, hundreds of
    # thousands of entries, and PostgreSQL checked both references of each row as it came (27
    # ms for 2,641 rows, 12 deferred). The live list's closes are rolled back: never checked.
    period_id: Mapped[int] = _cascading_key("rating_periods.id", deferred=True)
    player_id: Mapped[int] = _cascading_key("players.id", deferred=True)
    rank: Mapped[int] = mapped_column(Integer)
    rating: Mapped[int] = mapped_column(Integer)
    change: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    k: Mapped[int | None] = mapped_column(Integer)
    rated_games: Mapped[int] = mapped_column(Integer)  # to carry the line over (its K)
    ever_2400: Mapped[bool] = mapped_column(Boolean)
    ever_2300: Mapped[bool] = mapped_column(Boolean)


class GlickoHistory(Base):
    """The shadow rating after a game (``game_id``) or at a month's end (``period_id``)."""

    __tablename__ = "glicko_history"
    __table_args__ = (
        Index("ix_glicko_history_player_id", "player_id"),
        Index("ix_glicko_history_period_id", "period_id"),
        # the month-end rows alone, by player, with what a list reads of them (a list of
        # everyone's latest: compare --all)
        Index(
            "ix_glicko_history_month_ends",
            *("player_id", "period_id", "rating", "rd", "volatility", "last_played", "games"),
            sqlite_where=text("game_id IS NULL"),
            postgresql_where=text("game_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    preset: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    period_id: Mapped[int | None] = mapped_column(
        ForeignKey("rating_periods.id", ondelete="CASCADE")
    )
    as_of: Mapped[dt.date] = mapped_column(Date)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    # The date of the player's last game (idle RD growth starts from it) and his game count.
    last_played: Mapped[dt.date | None] = mapped_column(Date)
    games: Mapped[int] = mapped_column(Integer, default=0)


class OnlineRating(Base):
    """A player's real rating on an online platform at the end of one day, per perf (the
    platform's own rating category: Lichess ``classical``, Chess.com ``rapid``...)."""

    __tablename__ = "online_ratings"
    __table_args__ = (
        UniqueConstraint(
            "player_id",
            "platform",
            "perf",
            "day",
            name="uq_online_ratings_player_id_platform_perf_day",
        ),
        CheckConstraint(_one_of("platform", PLATFORMS), name="platform"),
        CheckConstraint(
            _one_of(
                "perf",
                tuple(
                    sorted({p for platform in ONLINE_PLATFORMS.values() for p in platform.perfs})
                ),
            ),
            name="perf",
        ),
        CheckConstraint(_rating_range("rating"), name="rating"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    platform: Mapped[str] = mapped_column(String(8))
    perf: Mapped[str] = mapped_column(String(16))
    day: Mapped[dt.date] = mapped_column(Date)
    rating: Mapped[int] = mapped_column(Integer)


class ShadowSettings(Base):
    """How this database computes its shadow rating (a single row, id 1)."""

    __tablename__ = "shadow_settings"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint(f"preset IN ({', '.join(map(repr, PRESETS))})", name="preset"),
        CheckConstraint("seed IN ('elo', 'fresh')", name="seed"),
        CheckConstraint("seed_rd IS NULL OR seed_rd > 0", name="seed_rd"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    preset: Mapped[str] = mapped_column(String(16), default=DEFAULT_PRESET)
    seed: Mapped[str] = mapped_column(String(8), default="elo")
    external_rd: Mapped[float] = mapped_column(Float, default=60.0)
    chesscom_start: Mapped[float] = mapped_column(Float, default=1200.0)
    # Chess.com publishes none of these: assumptions the user may change.
    chesscom_c: Mapped[float] = mapped_column(Float, default=8.1)
    chesscom_rd_min: Mapped[float] = mapped_column(Float, default=30.0)
    chesscom_rd_max: Mapped[float] = mapped_column(Float, default=350.0)
    # A seeded player's first RD: None derives it from his rated games (``auto``), a number
    # fixes it for everyone seeded.
    seed_rd: Mapped[float | None] = mapped_column(Float)


class SiteConfig(Base):
    """The club's site (``tracker site config``; a single row, id 1): kept for every build."""

    __tablename__ = "site_config"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint(_one_of("logo_type", LOGO_TYPES), name="logo_type"),
        CheckConstraint("(logo IS NULL) = (logo_type IS NULL)", name="logo"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(Text)
    about: Mapped[str | None] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    logo: Mapped[bytes | None] = mapped_column(LargeBinary)
    logo_type: Mapped[str | None] = mapped_column(String(8))


class ChangeLog(Base):
    """What one command that wrote did (``tracker log``): when, the command, and one entry per
    thing added, changed, removed or made stale (JSON: see :mod:`tracker.services.log`)."""

    __tablename__ = "change_log"
    __table_args__ = ({"sqlite_autoincrement": True},)  # an entry's number is never reused

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime)
    command: Mapped[str] = mapped_column(Text)
    entries: Mapped[str] = mapped_column(Text)


class RemovedGame(Base):
    """A removed game, as it was stored, so that ``tracker game restore ID`` can bring it back
    (with its id) while the period it changed has not been rerated."""

    __tablename__ = "removed_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # the game's own id
    log_id: Mapped[int] = mapped_column(ForeignKey("change_log.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(Text)  # its row (JSON)
    # The first period its removal changed: once a later command closes or rerates that
    # period (the log says so), the removal is settled.
    month: Mapped[dt.date] = mapped_column(Date)
