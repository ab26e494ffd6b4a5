"""``tracker event show EVENT --norms``: the title norms (GM, IM, WGM, WIM) each player's games
in an event give, with the articles of the FIDE Title Regulations they rest on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from tracker.cli.context import state
from tracker.cli.render import message, pick, print_json_or, print_table, rating, score
from tracker.user_input import today

if TYPE_CHECKING:
    from tracker.ratings.fide.norms import NormResult, Outlook
    from tracker.services.norms import EventNorms, PlayerNorms


def _dropped_json(p: PlayerNorms, r: NormResult) -> list[dict[str, Any]]:
    return [
        pick(
            p.played[d.index],
            "round date=played_on opponent opponent_id rating score article",
            article=d.article,
        )
        for d in r.dropped
    ]


def _result_json(p: PlayerNorms, r: NormResult, o: Outlook | None) -> dict[str, Any]:
    return pick(
        r,
        "norm games dropped score p dp raised ra rp achieved checks outlook",
        dropped=_dropped_json(p, r),
        checks=[pick(c, "article rule found ok") for c in r.checks],
        outlook=None
        if o is None
        else {
            "remaining": o.remaining,
            "needs": [{"points": points, "average": average} for points, average in o.needs],
        },
    )


def norms_json(e: EventNorms) -> dict[str, Any]:
    return pick(
        e,
        "event start list=list_date rounds players round_robin not_checked",
        players=[
            pick(
                p,
                "id name title federation games forfeits score remaining norms",
                norms=[_result_json(p, r, o) for r, o in zip(p.results, p.outlooks, strict=True)],
            )
            for p in e.players
        ],
    )


def _verdict(r: NormResult) -> str:
    if r.achieved:
        return "norm"
    if r.failed:
        c = r.failed[0]
        more = f" (+{len(r.failed) - 1})" if len(r.failed) > 1 else ""
        return f"no: {c.rule} (§{c.article}: {c.found}){more}"
    articles = dict.fromkeys(f"§{c.article}" for c in r.unchecked)  # each article once
    return "if " + ", ".join(articles) + (" holds" if len(articles) == 1 else " hold")


#: What each article lets a player leave out (§1.4.1e-f).
LEFT_OUT = {"1.4.1e": "after the title result", "1.4.1f": "a win"}


def print_norms(e: EventNorms, detail: bool) -> None:
    rows: list[tuple[object, ...]] = []
    for p in e.players:
        if not p.results:
            rows.append((p.name, "", "", "", "", "", f"none to gain: holds {p.title}"))
        for i, r in enumerate(p.results):
            rows.append(
                (
                    p.name if i == 0 else "",
                    r.norm,
                    r.games,
                    score(r.score),
                    "" if r.ra is None else r.ra,
                    "" if r.rp is None else r.rp,
                    _verdict(r),
                )
            )
    print_table(
        ["player", "norm", "games", "score", "Ra", "Rp", "result"],
        rows,
        title=f"{e.event}: title norms (ratings of the {e.list_date:%Y-%m} list)",
        right=["games", "score", "Ra", "Rp"],
        wrap=["player", "result"],
        break_words=["player"],
        empty=f"no player has a standard game in {e.event}",
    )
    _print_left_out(e)
    for p in e.players:
        if detail:
            _print_checks(p)
        _print_outlook(p)


def _print_left_out(e: EventNorms) -> None:
    """The games each norm leaves out (§1.4.1e-f), one line each."""
    rows: list[tuple[object, ...]] = []
    for p in e.players:
        first = True
        for r in p.results:
            for d in r.dropped:
                g = p.played[d.index]
                rows.append(
                    (
                        p.name if first else "",
                        r.norm,
                        g.round or g.played_on.isoformat(),
                        g.opponent,
                        rating(g.rating),
                        score(g.score),
                        f"§{d.article}: {LEFT_OUT[d.article]}",
                    )
                )
                first = False
    if not rows:
        return
    typer.echo("")
    print_table(
        ["player", "norm", "round", "opponent", "rating", "score", "left out"],
        rows,
        title="the norms over fewer games: the games left out (Title Regulations §1.4.1e-f)",
        right=["rating", "score"],
        wrap=["player", "opponent", "left out"],
        break_words=["player", "opponent"],
    )


def _print_checks(p: PlayerNorms) -> None:
    for r in p.results:
        typer.echo("")
        raised = f"; {r.raised} raised to the floor" if r.raised is not None else ""
        if r.dropped:
            raised += f"; over {r.games} of {p.games} games"
        print_table(
            ["article", "requirement", "found", "met"],
            [
                (f"§{c.article}", c.rule, c.found, "?" if c.ok is None else "yes" if c.ok else "no")
                for c in r.checks
            ],
            title=f"{p.name}, {r.norm} norm: p {r.p}, dp {r.dp}{raised}",
            wrap=["requirement", "found"],
        )


def _print_outlook(p: PlayerNorms) -> None:
    for r, o in zip(p.results, p.outlooks, strict=True):
        if o is None:
            continue
        typer.echo("")
        print_table(
            ["points", "average needed"],
            [
                (score(points), "out of reach" if average is None else average)
                for points, average in o.needs
            ],
            title=f"{p.name}, {r.norm} norm: {o.remaining} round(s) to play; each score and the "
            "least average rating of those opponents",
            right=["points", "average needed"],
        )


def show_norms(ctx: typer.Context, event: str, player: str | None, json: bool) -> None:
    """``event show EVENT --norms``: print the norms of the event (see its help)."""
    from tracker.services.norms import event_norms

    e = state(ctx).read(lambda db: event_norms(db, event, player=player, today=today()))
    print_json_or(json, e, norms_json, lambda e: print_norms(e, detail=player is not None))
    message("not checked (not stored): " + "; ".join(e.not_checked))
    tails = any(d.article == "1.4.1e" for p in e.players for r in p.results for d in r.dropped)
    if tails:
        message(
            "games after a title result are left out as §1.4.1e allows where the pairings "
            "were not predetermined; a round robin is declared so: `tracker event edit "
            f"{e.event!r} --type round-robin`"
        )
    if any(o is not None for p in e.players for o in p.outlooks):
        message(
            "the remaining opponents are assumed rated at least the norm's floor (the floor "
            "raise stays on the games played) and their titles and federations are not "
            "counted: check §1.4.3-1.4.5 with the pairings"
        )
