"""A job said by what one does there: teaching a school subject ("我在公立初中教数学", "I teach
biology at a sixth-form college") is that subject's teacher, and a Chinese job said without its
subject ("在一家连锁药店当店长") is the speaker's. Teaching oneself or being asked to teach is no job;
someone else's job stays theirs (Chinese and English, both backends, rules only and with the
attribute model)."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import held, say

JOBS = [
    ("我在公立初中教数学，这学期带初三。", "数学老师"),
    ("在一家连锁药店当店长，周末基本都要上班。", "店长"),
    ("我上个月跳槽了，在一家做储能的公司当销售。", "销售"),
    ("I teach biology at a sixth-form college in Leeds.", "biology teacher"),
    ("I'm teaching year 3 maths this term and loving it.", "maths teacher"),
]


@pytest.mark.parametrize(("turn", "job"), JOBS)
def test_a_job_said_by_the_verb_is_the_users_occupation(
    mem_modes: Memory, clock: FixedClock, turn: str, job: str
) -> None:
    say(mem_modes, clock, [turn], "s1")
    jobs = [(s, v) for s, _, v in held(mem_modes, ("occupation",))]
    assert ("user", job) in jobs, jobs
    assert all(s != "user" or v == job for s, v in jobs), jobs  # no second, wrong job


NO_JOB = [  # (turn, whose job a reading may hold: none of the user's)
    ("教我做个番茄炒蛋，越简单越好。", ""),
    ("I'm teaching myself Spanish before the trip.", ""),
    ("我在讲台上站了三十年，教的化学，退休以后反倒不习惯了。", ""),
    ("我老公在医院当护士，天天倒夜班。", "person:husband"),
    ("老公说跑长途太累了，现在在小区附近的仓库当保管员。", ""),  # his, though no 我 names him
    ("My husband says the long hauls are too much, so he's a dispatcher at the depot now.", ""),
]


@pytest.mark.parametrize(("turn", "whose"), NO_JOB)
def test_teaching_oneself_a_past_job_or_someone_elses_is_no_job_of_the_user(
    mem_modes: Memory, clock: FixedClock, turn: str, whose: str
) -> None:
    say(mem_modes, clock, [turn], "s1")
    jobs = held(mem_modes, ("occupation",))
    assert all(s != "user" for s, _, _ in jobs), jobs
    assert not whose or all(s == whose for s, _, _ in jobs), jobs
