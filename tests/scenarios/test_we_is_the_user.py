"""A speaker's "we" outside work is the speaker, both backends (zh + en).

The third-person rewrite once made every "we"/"我们" "the team": "Gran was diagnosed with
Parkinson's, so we're adjusting" was stored as "so the team is adjusting", "我爸跟我们住" as
"用户爸跟团队住" — wrong memories read back into every block. Outside a project "we" is the user;
in a project's conversation it is the project, unless the statement is about the user's own
household or circle (``data/we.json``, the catalogue's relations outside work)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryType
from tests.support.sessions import say


class Case(NamedTuple):
    turn: str
    project: str | None
    said: str  # the stored statement says this
    not_said: str  # …and never this


CASES = [
    Case(
        "We don't eat pork at home, so no pork recipes please.",
        None,
        "the user does not eat pork",
        "the team",
    ),
    Case("我们两口子都不吃辣，推荐菜别放辣椒。", None, "用户两口子", "团队"),
    # in a project's conversation a household "we" is still the user's
    Case(
        "We don't eat pork at home, so no pork recipes please.",
        "kanban",
        "the user does not eat pork",
        "kanban",
    ),
    Case("我们两口子都不吃辣，推荐菜别放辣椒。", "kanban", "用户两口子", "kanban"),
]


def stored(mem: Memory, fragment: str, project: str | None) -> list[str]:
    return [
        r.content
        for r in mem.records(user="u", project=project)
        if r.type is not MemoryType.EPISODE and fragment.casefold() in r.content.casefold()
    ]


@pytest.mark.parametrize("case", CASES, ids=["en", "zh", "en-project", "zh-project"])
def test_a_household_we_is_the_user(mem_e5: Memory, clock: FixedClock, case: Case) -> None:
    say(mem_e5, clock, [case.turn], "s1", project=case.project)
    found = stored(mem_e5, case.said, case.project)
    assert found, [r.content for r in mem_e5.records(user="u")]
    assert not [c for c in found if case.not_said.casefold() in c.casefold()], found


def test_a_work_we_in_a_project_is_the_project(mem_e5: Memory, clock: FixedClock) -> None:
    say(mem_e5, clock, ["我们每周五发版，发版前要跑完回归测试。"], "s1", project="kanban")
    assert stored(mem_e5, "项目 kanban每周五发版", "kanban")


@pytest.mark.parametrize(
    ("turn", "said"),
    [
        ("我们决定了：以后帮我写邮件落款就用阿珂这个名字。", "用户决定"),
        ("We decided to go with Hetzner because it's cheaper.", "The user decided"),
    ],
    ids=["zh", "en"],
)
def test_a_decision_outside_a_project_is_the_users(
    mem_e5: Memory, clock: FixedClock, turn: str, said: str
) -> None:
    """ "团队决定：以后帮用户写邮件落款…": outside a project no team decided anything."""
    say(mem_e5, clock, [turn], "s1")
    decisions = [r.content for r in mem_e5.records(user="u") if r.type is MemoryType.DECISION]
    assert decisions and all(d.startswith(said) for d in decisions), decisions


@pytest.mark.parametrize(
    ("note", "said"),
    [
        ("Remember: we moved the nightly backup to 3am.", "The team moved"),
        ("记住：我们把夜间备份挪到凌晨三点了。", "团队把"),
    ],
    ids=["en", "zh"],
)
def test_an_agents_we_is_its_team(mem: Memory, note: str, said: str) -> None:
    """An agent's "we" is the team it works in, not the user it works for."""
    mem.add(note, user="u", session="s1", role="assistant", agent="ops")
    mem.end_session(user="u", session="s1")
    mem.flush()
    notes = [r.content for r in mem.records(user="u") if r.key.startswith("note:")]
    assert notes and all(n.startswith(said) for n in notes), notes
