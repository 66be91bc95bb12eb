"""A weekday in a turn told in the past is the last one (DESIGN §4 rule 4), end to end: no
plan is written for what already happened, and the turn's record carries the right date.
Said on Wednesday 2 December 2026 (Shanghai)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import MemoryType

WED = "2026-12-02T02:00:00+00:00"  # 10:00 Wednesday in Shanghai


def _said(mem: Memory, text: str) -> list[str]:
    mem.add(text, user="u", session="s", at=WED, timezone="Asia/Shanghai")
    mem.end_session(user="u", session="s")
    mem.flush()
    return [f"{r.type.value}:{r.key} {r.content}" for r in mem.records(user="u", statuses=None)]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Had a job interview at Carver Health on Friday, fingers crossed", "2026-11-27 (Friday)"),
        ("周五下午去医院复查了，医生说没事", "2026年11月27日（周五）"),
    ],
)
def test_a_past_appointment_is_no_plan_and_keeps_its_day(mem: Memory, text: str, label: str) -> None:
    found = _said(mem, text)
    assert not any(":plan:" in f for f in found), found
    assert any(label in f for f in found), found


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("I have a job interview at Carver Health on Friday", "2026-12-04 (Friday)"),
        ("周五下午去医院复查", "2026年12月4日（周五）"),
    ],
)
def test_a_coming_appointment_is_a_plan_on_the_coming_day(mem: Memory, text: str, label: str) -> None:
    found = _said(mem, text)
    plans = [f for f in found if f.startswith(f"{MemoryType.FACT.value}:plan:")]
    assert plans and all(label in f for f in plans), found


@pytest.mark.parametrize(
    ("before", "started", "employer", "label"),
    [
        (
            "I work at Kestrel",
            "Started at Tidepool on Monday, fully remote",
            "Tidepool",
            "2026-11-30 (Monday)",
        ),
        ("我在蓝鲸科技上班", "周一已经去云栈科技报到了", "云栈科技", "2026年11月30日（周一）"),
    ],
)
def test_a_new_job_started_on_a_past_weekday_is_the_employer(
    mem: Memory, before: str, started: str, employer: str, label: str
) -> None:
    mem.add(before, user="u", session="s", at="2026-11-20T02:00:00+00:00", timezone="Asia/Shanghai")
    found = _said(mem, started)
    current = [r for r in mem.records(user="u", statuses=["active"]) if r.key == "employer"]
    assert [r.value for r in current] == [employer], found
    assert any(label in f for f in found), found
