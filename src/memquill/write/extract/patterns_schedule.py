"""Standing schedules: the day a recurring gathering is held on now.

"周会改到周四下午了", "Book club moved to Sundays", "my 1:1 with Karen is every Monday 9am",
"每周三晚上去上瑜伽课" — the gathering is an event (``event:<id>``, ``gatherings.py``) whose
``recurrence`` is single-valued, so the day said last supersedes the one before and a
restatement ("周四的周会…") is a no-op. A day said of someone else's gathering ("my
friend's book club meets Mondays", "他们组的周会") is not the user's, and an occasion
("这周周会挪到周三", "first 1:1 on Thursday") keeps its date as a plan.
"""

from __future__ import annotations

import re

from memquill import gatherings
from memquill.model import Candidate, MemoryType
from memquill.write.extract import span_path
from memquill.write.extract.clause import Clause
from memquill.write.extract.patterns_common import flags, part_blocked

# whose gathering it is, when not the user's (or the user's team's): the words right before it
_OTHERS = re.compile(
    r"(?:\b(?:his|her|their)\s+|\b(?:friend|friends|colleague|coworker|co-worker|neighbou?r|roommate|"
    r"flatmate|partner|wife|husband|sister|brother|mum|mom|dad)'s\s+)(?:[\w-]+\s+)?$|"
    r"(?:他|她|他们|她们|朋友|同事|同学|室友|邻居|老婆|老公)(?:们)?(?:组|团队|公司|部门)?的?$",
    re.IGNORECASE,
)

# "周会从这周起改到周一", "starting next week standup is at 10": the time said is when the day starts
_FROM_ON = re.compile(r"(?:起|开始|以后|往后)|\b(?:starting|from|as of|beginning)\b", re.IGNORECASE)


_DAY_NAME = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)
# a resolved time's label names its year ("2024年3月6日（周三）", "2024-03-12 (Tuesday)", "week 10 of 2024")
_DATED = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


def _attributive(text: str, found: gatherings.Schedule) -> bool:
    """Is the day said as the gathering's own, right before it ("周四下午的周会能不能改成异步",
    "can we move our Thursday standup")? A question about the gathering then still says its day."""
    before = text[: found.gathering.start].rstrip()
    before = before[:-1].rstrip() if before.endswith("的") else before
    return bool(found.day) and before.casefold().endswith(found.day.casefold())


def schedule(c: Clause) -> list[Candidate]:
    """A gathering's standing day, said as a statement of the user's own life."""
    found = gatherings.schedule(c.text)
    if (
        found is None
        or c.conditions
        # a time resolved where the day was said is an occasion's ("这周周会挪到周三"), unless it
        # says from when on; one said elsewhere is not ("…because half of us have tuesday things")
        or (c.when is not None and _DATED.search(found.part) and not _FROM_ON.search(c.event.content))
        or _OTHERS.search(c.text[: found.gathering.start])
        or (part_blocked(c, found.gathering.start, found.gathering.end) and not _attributive(c.text, found))
    ):
        return []
    g = found.gathering
    said = g.name or c.text[g.start : g.end]
    if g.start == 0 and said[:1].isupper() and said[1:2].islower():
        said = said[0].lower() + said[1:]  # "Book club moved to Sundays": the club, not a name
    if c.language == "zh":
        content = f"用户的{said}定在{found.day}"
    else:
        day = found.day if gatherings.EN_WEEKDAY.match(found.day) else found.day[:1].lower() + found.day[1:]
        day = _DAY_NAME.sub(lambda m: m[0].title(), day)  # "the last Thursday of the month"
        lead = (
            "on "
            if gatherings.EN_WEEKDAY.match(day) or day.startswith("the ")
            else "at "
            if day[:1].isdigit()
            else ""
        )
        content = f"The user's {said} is {lead}{day}"
    return [
        c.make(
            MemoryType.FACT,
            f"event:{g.id}",
            "recurrence",
            content,
            value=found.day,
            rule="schedule",
            span=span_path.TYPED,
            **flags(c),
        )
    ]
