"""What to do with each game of a file (tracker.services.intake.plan): its state, refused or
present, and the counts that follow."""

from __future__ import annotations

from tests.services.intake.conftest import plan_of
from tracker.services.intake.plan import suffixed


def test_a_plans_states_and_counts() -> None:
    plan = plan_of(
        "2026-01-05,Hart,Sato,1-0,,,,,,\n"
        "2026-01-12,Sato,Hart,1-0,,,,,,\n"
        "2026-01-19,Berg,Sato,0-1,,,,,,\n"
    )
    assert (plan.added, plan.invalid, plan.present, plan.refused) == (3, 0, 0, 0)
    plan.refuse("club.csv", 1, "a reason")
    plan.refuse("club.csv", 1)  # refused once
    plan.mark_present(2)
    assert (plan.added, plan.refused, plan.present) == (1, 1, 1)
    assert list(plan.writable()) == [0]
    assert [str(p) for p in plan.problems] == ["club.csv:3: a reason"]


def test_a_suffixed_key() -> None:
    assert suffixed("2026-01-05|1|2||", 2) == "2026-01-05|1|2|||#2"
