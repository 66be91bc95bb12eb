"""Time-bound memories: reminders, task state, short-lived instructions, plans.

By the time these run, the time stage has rewritten every relative phrase to an absolute
label ("明天" → "2026年11月30日（周一）") and ``Clause.when`` holds the resolved instant, so
the words that made an instruction short-lived ("今天", "this week") are read from the raw
event text. Keys: ``reminder:<slug>``, ``task:<slug>``, ``temp:<slug>``, ``plan:<slug>``;
the slug is the activity without times and pronouns, so a rescheduled plan ("改到周四")
lands in the same slot with a new date.
"""

from __future__ import annotations

import re
from datetime import datetime

from memquill.model import Candidate, MemoryType
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.write.extract.clause import Clause
from memquill.write.extract.lexicon import slug
from memquill.write.extract.patterns_common import REMIND, I, blocked, flags, say
from memquill.write.extract.phrasing import ensure_subject, sentence, strip_times

_OTHER = {"zh": ("en", re.compile(r"[A-Za-z]{3}")), "en": ("zh", re.compile(r"[\u4e00-\u9fff]"))}


def resolved(c: Clause) -> tuple[str, tuple[datetime, datetime | None] | None]:
    """(text, when) of the clause. The time stage reads a mixed turn in one language
    ("记住：this week use the old API" as Chinese), so times of the other one are resolved here."""
    other, has_other = _OTHER.get(c.language, _OTHER["en"])
    if c.when is not None or not has_other.search(c.text):
        return c.text, c.when
    from memquill.write import timenorm

    found = timenorm.find_times(c.text, c.event.occurred_at, c.event.timezone, other)
    if not found:
        return c.text, None
    return timenorm.rewrite(c.text, found, other), (found[0].begin, found[0].until)


_FILLER = re.compile(
    r"下次|以后|到时候?|记得|请|帮我|提醒(?:一下)?我|我们|我|用户|要|会|得|"
    r"\b(?:please|remind me(?: to| about| that)?|i'?m|i am|i'll|i will|i|my|me|we'?re|we|our|"
    r"the user|the team|will|is|are|going to|have|has|a|an|the|on|at|in|by)\b",
    I,
)


def _activity(text: str) -> str:
    """Slot fragment of a time-bound memory: what happens, without when and who."""
    return slug(_FILLER.sub(" ", strip_times(text)))


# --- reminders ------------------------------------------------------------------------
def reminder(c: Clause) -> list[Candidate]:
    """ "下次提醒我带伞", "remind me to renew my passport in December 2026" (with its time);
    only a turn asking the memory (``explicit``: not a line said to someone else)."""
    if not (c.explicit and REMIND.search(c.text)):
        return []
    return [
        c.make(
            MemoryType.FACT,
            "user",
            f"reminder:{_activity(c.text)}",
            c.said(),
            value=c.text,
            when=c.when,
            trigger=Trigger.HOT,
            rule="reminder",
            **flags(c),
        )
    ]


# --- task state -----------------------------------------------------------------------
_TASK = re.compile(
    r"已经?完成|做完了?|搞定了?|完成了|跑完了?|弄好了?|下一步|待办|还没(?:有)?做|剩下的?|卡住了?|卡在|报错|阻塞|"
    r"参数确认|确认参数|已确认|第[一二三四五六七八九十\d]+步|前[一二三四五六七八九十\d]+步|还差|还剩|接下来做|"
    r"(?:已经|都)\S{0,8}?(?:改|写|做|弄|修|配|测|部署|上线)(?:好|完)了|"
    r"\b(?:done|finished|completed|next step|todo|to-do|pending|still need to|blocked|stuck|"
    r"in progress|confirmed|remaining|left to do|step \d+(?: of \d+)?|"
    r"waiting (?:on|for)|blocked on|in review|wip)\b|"
    r"(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bwas )\b(?:deployed|merged|shipped)\b",
    I,
)


def task_state(c: Clause) -> list[Candidate]:
    """Progress of the task at hand: done and pending steps, confirmed parameters."""
    if not _TASK.search(c.text) or blocked(c):
        return []
    return [
        c.make(
            MemoryType.TASK_STATE,
            "user",
            f"task:{_activity(c.text)}",
            c.said(),
            value=c.text,
            level=Level.SESSION,
            trigger=Trigger.HOT,
            rule="task_state",
            **flags(c),
        )
    ]


# --- short-lived instructions ----------------------------------------------------------
_SHORT = re.compile(
    r"今天|今晚|今早|今日|本周|这周|这星期|这几天|这两天|暂时|临时|这次|目前先|先(?:别|不要|用|走|停)|"
    r"\b(?:today|tonight|this (?:week|morning|afternoon|evening)|for now|temporarily|for the time being|"
    r"until|till|for this (?:sprint|release|session))\b",
    I,
)
_BOUND = re.compile(r"(?:日|\d{2}:\d{2}|）)前|\b(?:by|before|until|till)\s+\d{4}-\d{2}-\d{2}", I)
_INSTR = re.compile(
    r"用|发布|上线|部署|合并|冻结|暂停|停|走|改|切|别|不要|不能|禁止|需要|必须|维护|休假|请假|在家|远程|"
    r"\b(?:use|using|deploy|release|ship|merge|point|skip|avoid|don'?t|do not|need|must|freeze|pause|"
    r"hold|block|route|switch|keep|closed|down|working from|on leave|wfh|off|vacation|away|"
    r"out of office|ooo)\b",
    I,
)
_SESSION_ONLY = re.compile(r"暂时|临时|这次|先|\b(?:for now|temporarily|for the time being)\b", I)


def expiry(when: tuple[datetime, datetime | None] | None) -> datetime | None:
    """The end of the window ("this week", "by Friday"); a point in time expires at itself."""
    if when is None:
        return None
    start, until = when
    return until if until is not None else start


def short_lived(c: Clause) -> list[Candidate]:
    """Instructions that only hold for a while ("今天下午五点前发布", "this week use the old API")."""
    short = _SHORT.search(c.event.content) or _BOUND.search(c.text)
    if not (short and _INSTR.search(c.text)) or blocked(c):
        return []
    text, when = resolved(c)
    expires = expiry(when)
    level = Level.SESSION if expires is None and _SESSION_ONLY.search(c.event.content) else Level.USER
    content = say(c, text, order=c.language == "zh")  # Chinese short-lived turns are orders
    return [
        c.make(
            MemoryType.TEMPORARY,
            "user",
            f"temp:{_activity(text)}",
            content,
            value=text,
            level=level,
            trigger=Trigger.HOT,
            expires_at=expires,
            rule="temporary",
            **flags(c),
        )
    ]


# --- plans and appointments -----------------------------------------------------------
_PLAN = re.compile(
    r"出差|开会|会议|见面|约了|预约|面试|航班|飞|去|回|参加|旅行|旅游|体检|看牙|看病|复查|生日|考|截止|交付|提交|交|"
    r"汇报|答辩|聚会|婚礼|搬家|入职|出发|休假|请假|演唱会|比赛|演讲|分享|评审|发布会|[组例周站晨年早]会|上课|讲座|"
    r"活动|约|玩|吃饭|聚餐|约饭|电影|拜访|见|上班|加班|值班|回家|回国|接|送|办|签|搬|看房|打针|疫苗|手术|"
    r"\b(?:flight|trip|travel\w*|appointment|interview|dentist|doctor|birthday|exam|deadline|due|"
    r"conference|dinner|lunch|breakfast|call|demo|presentation|review|wedding|party|concert|"
    r"vacation|holiday|check-?up|game|match|(?:will|'ll) be (?:in|at|away|off|out)|staying|away|off|"
    r"pto|launch\w*|ship\w*|releas\w*|mov(?:e|es|ing)|start\w*|fly\w*|meet\w*|visit\w*|leav\w*|"
    r"seeing)\b",
    I,
)


_PAST = re.compile(
    r"\b(?:I|we|i)\s+(?:just\s+|already\s+)?(?:had|went|was|were|did|met|saw|ate|got|took|came|left|"
    r"[a-z]+ed)\b|(?<![约订])了(?!解)|过(?=[^来去]|$)"
)
_FUTURE = re.compile(r"要|会|将|准备|打算|计划|\b(?:will|'ll|going to|plan to|planning to|gonna)\b", I)


def plan(c: Clause) -> list[Candidate]:
    """Appointments and trips with a resolved, not yet past time: the time travels with it."""
    if c.when is None or not _PLAN.search(c.text) or blocked(c):
        return []
    start, until = c.when
    now = c.event.occurred_at
    if (until or start) <= now or (start <= now and _PAST.search(c.text) and not _FUTURE.search(c.text)):
        return []  # a past event ("昨天去了医院", "I had pasta for lunch today") is an episode
    lead = "用户" if c.language == "zh" else "The user's plan: "
    content = ensure_subject(sentence(c.said(), c.language), c.language, lead)
    return [
        c.make(
            MemoryType.FACT,
            "user",
            f"plan:{_activity(c.text)}",
            content,
            value=c.text,
            when=c.when,
            trigger=Trigger.SIGNAL,
            rule="plan",
            **flags(c),
        )
    ]
