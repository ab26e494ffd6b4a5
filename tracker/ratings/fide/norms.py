"""FIDE title norms (GM, IM, WGM, WIM): FIDE Title Regulations (FIDE Handbook B.01), the text
"Applied from 1 January, 2024" (https://handbook.fide.com/chapter/B012024), the articles that
decide a norm from a player's games in one event. Pure: the opponents come in as plain
records; what tracker does not store is said by the caller.

The rules, article by article (quoted from the 2024 text where it gives a number):

- §1.4.1 a) at least 9 games; c) in a 9-round tournament, 8 games played count as a 9-game
  norm where the round missing is a forfeit win or a pairing-allocated bye, the mix of
  opponents is met and the 8 give a title result (``short``; the exceptions of b) for 7-
  and 8-game team events and the World Cup are not modelled);
- §1.4.1 e)-f) the games a player may leave out (:func:`best`): after a title result, the
  later games, except where the pairings were predetermined (a round robin); and any games
  against opponents he defeated, provided the games kept still meet the number of games and
  the mix of opponents (in a round robin the mix of the complete tournament must allow a
  norm). Of the subsets that give the norm, the one kept is the one with the most games
  (they count towards the 27 of §1.5.1), then the highest Rp and Ra, then the one that
  leaves out the latest games;
- §1.4.2 c) games decided by forfeit are not included (the caller leaves them out);
- §1.4.3 at least two federations other than the player's among the opponents ("FID" is no
  federation); its exemptions a)-d) (national championships, national team championships,
  zonals, large Swiss opens with 20 foreign rated players of 3 federations, 10 of them
  titled, in every round) waive it and §1.4.4: tracker stores no event type, so they are
  named, not applied;
- §1.4.4 at most 3/5 of the opponents from the player's federation and at most 2/3 from one
  federation; "minimum numbers are rounded up, maximum numbers rounded down";
- §1.4.5 a) at least 50% of the opponents title holders (GM, IM, FM, WGM, WIM, WFM: CM and
  WCM do not count); b)-e) at least 1/3, minimum 3, with the norm's title: GM for a GM
  norm; IM or GM for an IM norm; WGM, IM or GM for a WGM norm; WIM, WGM, IM or GM for a WIM
  norm (the double round-robin rule of §1.4.5 f) is not modelled);
- §1.4.6 a) the ratings of the list in force at the start of the event; b)-c) at most one
  opponent, the lowest rated, is raised to the adjusted rating floor (GM 2200, IM 2050, WGM
  2000, WIM 1850); d) an unrated opponent not so raised counts 1400;
- §1.4.7 Ra, the average of those ratings, rounded to the nearest whole number, 0.5 up;
- §1.4.8 Rp = Ra + dp at least GM 2600, IM 2450, WGM 2400, WIM 2250 (2599.5 ... before
  rounding: Ra and dp are whole, so the same); a) Ra at least GM 2380, IM 2230, WGM 2180,
  WIM 2030; b) a score of at least 35%;
- §1.4.9 dp from p, the score's percentage "rounded to the nearest whole number, 0.5% is
  rounded up", by a table identical to table 8.1.1 of the Rating Regulations
  (:data:`tracker.ratings.fide.tables.DP_BY_PERCENT`).

A worked example with published numbers: FIDE Arbiters' Commission, Arbiters' Manual (2016,
Spanish edition p. 183, example 3): an IM of Armenia after 8 rounds of a 9-round Swiss
(NOR GM 2470 0, GEO 2150 1, GER 2410 1, ARM IM 2570 0, GEO 2340 1, GEO FM 2380 1, ARM GM
2675 ½, ENG IM 2540 1; round 9 against USA GM 2695): 9 games, 6 title holders, 3 GMs, 3
from one federation, 2 from his own; 2150 raised to 2200; tests/ratings/test_norms.py
reproduces it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from typing import Final

from tracker.ratings.fide.arithmetic import quantize_half_away, round_half_away
from tracker.ratings.fide.tables import DP_BY_PERCENT

#: §1.4.6 d): an unrated opponent not raised to the floor counts this.
UNRATED: Final = 1400
#: §1.4.1 a): the least number of games.
MIN_GAMES: Final = 9
#: §1.4.8 b): the least score, as a fraction of the games.
MIN_SCORE: Final = Fraction(35, 100)
#: §1.4.5 a): the titles that make a title holder (CM and WCM do not).
TITLE_HOLDERS: Final = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
#: A remaining opponent's average above this is taken as out of reach.
MAX_RATING: Final = 3000
#: §1.4.2 a): FIDE's own flag is no federation for the federation rules.
NO_FEDERATION: Final = "FID"


@dataclass(frozen=True)
class Norm:
    """One title's norm requirements."""

    title: str
    floor: int  # §1.4.6 b)
    min_ra: int  # §1.4.8 a)
    min_rp: int  # §1.4.8
    titles: frozenset[str]  # §1.4.5 b)-e): the titles that count for this norm
    article: str  # the §1.4.5 letter
    women: bool  # a women's title (B.01 §0.3: for women only)


NORMS: Final[tuple[Norm, ...]] = (
    Norm("GM", 2200, 2380, 2600, frozenset({"GM"}), "1.4.5b", False),
    Norm("IM", 2050, 2230, 2450, frozenset({"GM", "IM"}), "1.4.5c", False),
    Norm("WGM", 2000, 2180, 2400, frozenset({"GM", "IM", "WGM"}), "1.4.5d", True),
    Norm("WIM", 1850, 2030, 2250, frozenset({"GM", "IM", "WGM", "WIM"}), "1.4.5e", True),
)
NORM_BY_TITLE: Final = {n.title: n for n in NORMS}


@dataclass(frozen=True)
class Opponent:
    """One game counted for a norm: the opponent's rating on the list in force (None:
    unrated), title and federation (None: not known), and the player's score."""

    rating: int | None
    title: str | None
    federation: str | None
    score: Decimal


@dataclass(frozen=True)
class Check:
    """One requirement: its article, what it asks, what the games give, and whether it is
    met (None: not checked, for want of data; ``detail`` says which)."""

    article: str
    rule: str
    found: str
    ok: bool | None


@dataclass(frozen=True)
class Dropped:
    """A game left out of a norm: its place among the games as given (in the order played)
    and the article that allows it: ``1.4.1e`` (played after the title result) or ``1.4.1f``
    (a win)."""

    index: int
    article: str


@dataclass(frozen=True)
class NormResult:
    """A player's result against one norm, over the games kept (all of them unless
    ``dropped`` names some, §1.4.1e-f)."""

    norm: str
    games: int
    score: Decimal
    p: Decimal  # the percentage as §1.4.9 rounds it, 0.00 .. 1.00
    dp: int
    raised: int | None  # the rating raised to the floor (§1.4.6 c), if one was
    ra: int | None  # None without games
    rp: int | None
    checks: tuple[Check, ...]
    dropped: tuple[Dropped, ...] = ()

    @property
    def achieved(self) -> bool:
        return all(c.ok is True for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.ok is False)

    @property
    def unchecked(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.ok is None)


def open_to(norm: Norm, title: str | None, sex: str | None) -> bool:
    """Whether a player holding ``title`` (of ``sex``, "f" a woman) can gain ``norm``: a
    women's norm is for women only (B.01 §0.3), and no norm is shown for a title the player
    holds or outranks: one of the titles that count for it (§1.4.5b-e: GM for a GM norm; GM
    or IM for an IM norm; GM, IM or WGM for a WGM norm; GM, IM, WGM or WIM for a WIM norm)."""
    return (not norm.women or sex == "f") and title not in norm.titles


def at_least(n: int, share: Fraction) -> int:
    """§1.4.4: a minimum number of opponents is rounded up."""
    return -((-n * share.numerator) // share.denominator)


def at_most(n: int, share: Fraction) -> int:
    """§1.4.4: a maximum number of opponents is rounded down."""
    return n * share.numerator // share.denominator


def percentage(score: Decimal, games: int) -> Decimal:
    """§1.4.9: p rounded to a whole percent, 0.5% up."""
    return quantize_half_away(score / games, 2)


def dp_of(p: Decimal) -> int:
    """§1.4.9: dp for a percentage p (0.00 .. 1.00)."""
    return DP_BY_PERCENT[int(p * 100)]


def rating_average(ratings: list[int | None], floor: int) -> tuple[int, int | None]:
    """§1.4.6-1.4.7: Ra with the lowest opponent (an unrated one first) raised to ``floor``
    when below it, the others unrated at 1400; and the rating raised (None: none was)."""
    counted = [UNRATED if r is None else r for r in ratings]
    raised: int | None = None
    below = [i for i, r in enumerate(ratings) if r is None or r < floor]
    if below:
        # The lowest rated is raised; an unrated opponent is "not covered" by 1.4.6b only if
        # another one is raised, so an unrated one (1400 or less effectively) goes first.
        lowest = min(below, key=lambda i: (ratings[i] is not None, counted[i]))
        raised = counted[lowest]
        counted[lowest] = floor
    return round_half_away(Decimal(sum(counted)) / len(counted)), raised


#: §1.4.1c: the games of a 9-round tournament that count as 9 where the round missing is a
#: forfeit win or a pairing-allocated bye.
SHORT_GAMES: Final = 8


def _games_check(n: int, short: bool) -> Check:
    """§1.4.1a, or §1.4.1c for 8 games of 9 rounds with a forfeit win or a pairing bye."""
    if short and n == SHORT_GAMES:
        return Check("1.4.1c", "8 games of 9 rounds and a forfeit win or pairing bye", "8", True)
    return Check("1.4.1a", f"at least {MIN_GAMES} games", str(n), n >= MIN_GAMES)


def assess(
    norm: Norm, federation: str | None, opponents: list[Opponent], *, short: bool = False
) -> NormResult:
    """Whether ``opponents`` (the games counted: no forfeits) give ``norm`` to a player of
    ``federation`` (None: not known); ``short``: the event has 9 rounds and the one the player
    did not play is a forfeit win or a pairing-allocated bye (§1.4.1c)."""
    n = len(opponents)
    score = sum((o.score for o in opponents), Decimal(0))
    if n == 0:
        none = (Check("1.4.1a", f"at least {MIN_GAMES} games", "0", False),)
        return NormResult(norm.title, 0, score, Decimal(0), 0, None, None, None, none)
    p = percentage(score, n)
    dp = dp_of(p)
    ra, raised = rating_average([o.rating for o in opponents], norm.floor)
    rp = ra + dp
    holders = sum(o.title in TITLE_HOLDERS for o in opponents)
    titled = sum(o.title in norm.titles for o in opponents)
    need_holders = at_least(n, Fraction(1, 2))
    need_titled = max(3, at_least(n, Fraction(1, 3)))
    checks = [
        _games_check(n, short),
        Check(
            "1.4.5a",
            f"at least {need_holders} title holders",
            str(holders),
            holders >= need_holders,
        ),
        Check(
            norm.article,
            f"at least {need_titled} of {'/'.join(sorted(norm.titles))}",
            str(titled),
            titled >= need_titled,
        ),
        *_federations(federation, opponents),
        Check("1.4.8a", f"Ra at least {norm.min_ra}", str(ra), ra >= norm.min_ra),
        Check(
            "1.4.8b",
            f"a score of at least 35% ({Decimal(at_least(2 * n, MIN_SCORE)) / 2})",
            f"{score}/{n}",
            Fraction(score) >= MIN_SCORE * n,
        ),
        Check("1.4.8", f"Rp at least {norm.min_rp}", str(rp), rp >= norm.min_rp),
    ]
    return NormResult(norm.title, n, score, p, dp, raised, ra, rp, tuple(checks))


def _federations(federation: str | None, opponents: list[Opponent]) -> list[Check]:
    """§1.4.3 and §1.4.4: not checked when the player's or an opponent's federation is not
    known."""
    own_max = at_most(len(opponents), Fraction(3, 5))
    one_max = at_most(len(opponents), Fraction(2, 3))
    rules = (
        ("1.4.3", "at least 2 other federations"),
        ("1.4.4", f"at most {own_max} from the player's federation"),
        ("1.4.4", f"at most {one_max} from one federation"),
    )
    unknown = sum(o.federation is None for o in opponents)
    if federation is None or unknown:
        why = "player's federation not known" if federation is None else f"{unknown} unknown"
        return [Check(article, rule, why, None) for article, rule in rules]
    feds = [o.federation for o in opponents if o.federation not in (None, NO_FEDERATION)]
    others = {f for f in feds if f != federation}
    own = sum(f == federation for f in feds)
    most = max((feds.count(f) for f in set(feds)), default=0)
    return [
        Check(*rules[0], str(len(others)), len(others) >= 2),
        Check(*rules[1], str(own), own <= own_max),
        Check(*rules[2], str(most), most <= one_max),
    ]


#: The articles of the mix of opponents (§1.4.3-1.4.5), beside each norm's own §1.4.5 letter.
MIX_ARTICLES: Final = frozenset({"1.4.3", "1.4.4", "1.4.5a"})


def best(
    norm: Norm,
    federation: str | None,
    opponents: list[Opponent],
    *,
    round_robin: bool = False,
    short: bool = False,
) -> NormResult:
    """The norm over the best set of games the Title Regulations let the player keep
    (``short``: §1.4.1c applies to his games, see :func:`assess`).

    ``opponents``: every game counted (no forfeits), in the order played. §1.4.1e: in a
    tournament whose pairings were not predetermined, the games after a title result may be
    left out (a tail of the games); §1.4.1f: any games against opponents the player
    defeated, in every kind of tournament; the games kept must still number at least 9 and
    meet the mix of opponents (both are checked by :func:`assess` on the games kept), and in
    a round robin (``round_robin``, predetermined pairings: no tail is left out) the mix of
    the complete tournament must allow a norm.

    Of the sets kept that fail no check, a norm (every check met) comes first, then the most
    games (a norm's games count towards the 27 of §1.5.1), the highest Rp, the highest Ra and
    the one leaving out the latest games. Without one, the result over all the games.
    """
    everything = assess(norm, federation, opponents, short=short)
    spare = len(opponents) - MIN_GAMES
    if everything.achieved or spare <= 0:
        return everything
    mix = MIX_ARTICLES | {norm.article}
    if round_robin and any(c.article in mix for c in everything.failed):
        return everything  # §1.4.1f: the complete tournament's mix allows no norm
    chosen = None if everything.failed else everything
    chosen_key = None if chosen is None else _rank(chosen, ())
    for size in range(1, spare + 1):
        if chosen is not None and chosen.achieved:
            break  # a norm over more games was found: fewer games cannot come first
        for result, key in _sets_without(norm, federation, opponents, size, round_robin):
            if chosen_key is None or key > chosen_key:
                chosen, chosen_key = result, key
    return everything if chosen is None else chosen


def _sets_without(
    norm: Norm, federation: str | None, opponents: list[Opponent], size: int, round_robin: bool
) -> Iterator[tuple[NormResult, tuple[object, ...]]]:
    """Each set of games that leaves out ``size`` of them as the regulations allow (a tail
    after the title result, §1.4.1e, but not in a round robin; games the player won,
    §1.4.1f) and fails no check, with its rank (:func:`_rank`)."""
    n = len(opponents)
    for tail in (0,) if round_robin else range(size, -1, -1):
        kept_until, wins_out = n - tail, size - tail
        games = opponents[:kept_until]  # the tail left out (§1.4.1e)
        wins = [i for i, o in enumerate(games) if o.score == 1]  # §1.4.1f
        if wins_out > len(wins) or not _within_reach(norm, federation, games, wins, wins_out):
            continue
        score = sum((o.score for o in games), Decimal(0)) - wins_out
        least_ra = max(norm.min_ra, norm.min_rp - dp_of(percentage(score, n - size)))
        for left_out in combinations(wins, wins_out):
            out = set(left_out)
            kept = [o for i, o in enumerate(games) if i not in out]
            if rating_average([o.rating for o in kept], norm.floor)[0] < least_ra:
                continue  # §1.4.8-1.4.8a: the quickest check first
            result = assess(norm, federation, kept)
            if result.failed:
                continue
            dropped = tuple(Dropped(i, "1.4.1f") for i in left_out) + tuple(
                Dropped(i, "1.4.1e") for i in range(kept_until, n)
            )
            key = _rank(result, tuple(d.index for d in dropped))
            yield replace(result, dropped=dropped), key


def _rank(result: NormResult, dropped: tuple[int, ...]) -> tuple[object, ...]:
    """What :func:`best` prefers, greatest first (see there)."""
    return (result.achieved, result.games, result.rp, result.ra, sorted(dropped, reverse=True))


def _within_reach(
    norm: Norm, federation: str | None, games: list[Opponent], wins: list[int], drop: int
) -> bool:
    """Whether leaving out some ``drop`` of the ``wins`` from ``games`` may still give the
    norm: what every such set must have (each check of :func:`assess` at its most generous),
    so that sets none of which can pass are not tried one by one."""
    n = len(games) - drop
    score = sum((o.score for o in games), Decimal(0)) - drop
    if Fraction(score) < MIN_SCORE * n:
        return False
    counted = [UNRATED if o.rating is None else o.rating for o in games]
    lowest_wins = sorted(counted[i] for i in wins)[:drop]
    most = sum(counted) - sum(lowest_wins) + max(0, norm.floor - min(counted))
    ra = round_half_away(Decimal(most) / n)
    if ra < norm.min_ra or ra + dp_of(percentage(score, n)) < norm.min_rp:
        return False
    holders = sum(o.title in TITLE_HOLDERS for o in games)
    titled = sum(o.title in norm.titles for o in games)
    if holders < at_least(n, Fraction(1, 2)) or titled < max(3, at_least(n, Fraction(1, 3))):
        return False
    if federation is None or any(o.federation is None for o in games):
        return True  # the federation rules are not checked (None, never False)
    feds = [o.federation for o in games]
    if len({f for f in feds if f not in (federation, NO_FEDERATION)}) < 2:
        return False
    for fed in set(feds) - {NO_FEDERATION}:
        won = sum(games[i].federation == fed for i in wins)
        least = feds.count(fed) - min(drop, won)
        if least > at_most(n, Fraction(2, 3)) or (
            fed == federation and least > at_most(n, Fraction(3, 5))
        ):
            return False
    return True


@dataclass(frozen=True)
class Outlook:
    """While the event runs: for each final score, the least average rating the remaining
    opponents must have (for Ra and Rp), or None where no rating is enough or needed."""

    remaining: int
    needs: tuple[tuple[Decimal, int | None], ...]  # (points in the remaining rounds, average)


def outlook(norm: Norm, played: list[Opponent], remaining: int) -> Outlook:
    """What the ``remaining`` rounds still require for Ra and Rp (§1.4.6-1.4.8), assuming
    every remaining opponent is rated at or above the norm's floor (so the floor raise, if
    any, stays on the games played): for each score in those rounds, the least average
    rating of their opponents (None: impossible below 3000, or the score is under 35%)."""
    n = len(played) + remaining
    so_far = sum((o.score for o in played), Decimal(0))
    _, raised = rating_average([o.rating for o in played], norm.floor) if played else (0, None)
    counted = [UNRATED if o.rating is None else o.rating for o in played]
    total = sum(counted) + (norm.floor - raised if raised is not None else 0)
    needs: list[tuple[Decimal, int | None]] = []
    for halves in range(2 * remaining + 1):
        more = Decimal(halves) / 2
        score = so_far + more
        if Fraction(score) < MIN_SCORE * n:
            needs.append((more, None))
            continue
        rp_ra = norm.min_rp - dp_of(percentage(score, n))
        least_ra = max(rp_ra, norm.min_ra)
        # Ra rounds 0.5 up: the total must reach (least_ra - 0.5) * n.
        need_total = (Fraction(2 * least_ra - 1, 2)) * n - total
        average = math.ceil(need_total / remaining) if remaining else 0
        needs.append((more, max(average, norm.floor) if average <= MAX_RATING else None))
    return Outlook(remaining, tuple(needs))
