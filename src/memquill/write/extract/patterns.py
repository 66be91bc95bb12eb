"""The rule table of the bilingual extractor, most specific first.

Every pattern reads one clause and returns candidates or ``[]``. Keys follow one
convention so reconciliation can find conflicts: ``name``/``email``/``phone``/``role``/
``employer``/``location``/``team`` for profile facts, the lexicon category for exclusive
preferences (``theme``), ``<category>:<object>`` for others, ``stack:<tech>`` for versions,
``decision:<topic>`` for decisions, ``plan:<slug>``, ``task:<slug>``, ``temp:<slug>``.
"""

from __future__ import annotations

import re

from memquill.model import Candidate, MemoryType, Polarity
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.write.extract.lexicon import EXCLUSIVE, TECH, category, slug
from memquill.write.extract.rules import Clause, Pattern

I = re.IGNORECASE  # noqa: E741
END = r"(?=$|[，,。.;；!！?？]|\s+(?:and|but|because|so)\b)"


def _obj(text: str) -> str:
    """Trim a preference object: leading verbs and particles, trailing filler."""
    t = re.sub(r"^(?:喝|吃|用|使用|玩|看|听|穿|the|a|an|to|using|drinking|eating)\s*", "", text.strip(), flags=I)
    t = re.sub(r"(?:了|啦|的|吧|呢|啊|anymore|any more|at all|very much|a lot|so much)\s*$", "", t, flags=I)
    return t.strip(" ，,。.")


def _pref_key(obj: str) -> str:
    cat = category(obj)
    if cat in EXCLUSIVE:
        return cat
    return f"{cat or 'likes'}:{slug(obj)}"


# --- profile facts --------------------------------------------------------------------
_PROFILE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("name", re.compile(r"^(?:我叫|我的名字(?:是|叫)|my name is|call me|i'?m called)\s*([^，,。.!！?？]{1,40}?)" + END, I)),
    ("email", re.compile(r"(?:邮箱|邮件地址|email(?: address)?|e-mail)\D{0,12}?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)", I)),
    ("phone", re.compile(r"(?:手机|电话|手机号|phone(?: number)?|mobile|cell)\D{0,12}?(\+?\d[\d\s-]{6,18}\d)", I)),
    ("employer", re.compile(r"^(?:我在|i work (?:at|for)|i'?m working (?:at|for)|i joined)\s*([^，,。.!！?？]{1,40}?)(?:工作|上班|任职)?" + END, I)),
    ("location", re.compile(r"^(?:我住在|我(?:现在)?在(.{1,20}?)生活|我搬到了?|i live in|i'?m based in|i moved to|i relocated to)\s*([^，,。.!！?？]{0,40}?)" + END, I)),
    ("role", re.compile(r"^(?:我是(?:一名|一个|一位)?|i(?:'m| am) (?:a|an) |i work as (?:a|an) )([^，,。.!！?？]{1,30}?(?:工程师|经理|设计师|产品经理|老师|学生|医生|护士|律师|架构师|分析师|研究员|负责人|engineer|developer|manager|designer|teacher|student|doctor|nurse|lawyer|architect|analyst|researcher|scientist|lead|founder|consultant))" + END, I)),
    ("team", re.compile(r"^(?:我在(.{1,20}?)(?:团队|组|部门)|i'?m (?:on|in) the (.{1,30}?) (?:team|group|department))", I)),
)  # fmt: skip


def profile(c: Clause) -> list[Candidate]:
    for key, rx in _PROFILE:
        m = rx.search(c.text)
        if not m:
            continue
        value = next((g for g in m.groups() if g), "").strip()
        if key == "employer" and re.search(r"团队|组|部门", c.text):
            continue
        if not value:
            continue
        return [c.make(MemoryType.FACT, "user", key, c.said(), value=value, rule=f"profile.{key}")]
    return []


# --- preferences ----------------------------------------------------------------------
_SWITCH = re.compile(
    r"(?:我|i)?\s*(?:(?:已经|现在)?(?:改用|换成|换到|改成|切换到|转用)了?|(?:现在)?改为|"
    r"(?:have |'ve )?switched (?:over )?to|moved (?:over )?to|now use|started using|"
    r"changed to)\s*(.+?)(?:了)?" + END,
    I,
)
_FROM = re.compile(r"(?:从|from)\s*(.+?)\s*(?:换到|换成|改用|切换到|to)\s*", I)
_NEG = re.compile(
    r"(?:我|i)\s*(?:现在)?(?:不(?:再)?(?:喜欢|爱|喝|吃|用|想要)|讨厌|受不了|对(.+?)过敏|"
    r"don'?t (?:like|drink|eat|use|want|enjoy)|do not (?:like|drink|eat|use|want)|"
    r"(?:hate|dislike|can'?t stand|no longer (?:drink|eat|use|like))|"
    r"(?:am|'m) allergic to)\s*(.+?)" + END
    + r"|(?:别|不要|不用)(?:再)?给我(?:推荐|安排|发)\s*(.+?)" + END
    + r"|(?:stop|don'?t|do not) (?:suggesting|recommending|sending|offering)(?: me)?\s*(.+?)" + END,
    I,
)
_POS = re.compile(
    r"(?:我|i)\s*(?:(?:很|最|比较|更|特别|超)?(?:喜欢|爱|偏好|偏爱|习惯(?:用)?|爱喝|爱吃)|"
    r"(?:really |also )?(?:like|love|prefer|enjoy|adore)s?)\s*(.+?)" + END
    + r"|(?:我的)?(?:偏好|首选)(?:是)?\s*(.+?)" + END
    + r"|(?:my )?favou?rite (?:\w+ )?is\s*(.+?)" + END,
    I,
)
_OVER = re.compile(r"(.+?)\s*(?:over|rather than|instead of|而不是|胜过)\s*(.+)", I)


def preference(c: Clause) -> list[Candidate]:
    m = _SWITCH.search(c.text)
    if m:
        obj = _obj(m.group(1))
        prev = _FROM.search(c.text)
        attrs = {"previous": _obj(prev.group(1))} if prev else {}
        key = category(obj) or f"uses:{slug(obj)}"
        return [c.make(MemoryType.PREFERENCE, "user", key, c.said(), value=obj,
                       rule="pref.switch", **attrs)]  # fmt: skip
    m = _NEG.search(c.text)
    if m:
        obj = _obj(next(g for g in m.groups() if g))
        allergy = re.search(r"过敏|allergic", c.text, I)
        kind = MemoryType.FACT if allergy else MemoryType.PREFERENCE
        key = f"allergy:{slug(obj)}" if allergy else _pref_key(obj)
        if key in EXCLUSIVE:
            key = f"{key}:{slug(obj)}"
        return [c.make(kind, "user", key, c.said(), value=obj, polarity=Polarity.NEGATIVE,
                       rule="pref.negative")]  # fmt: skip
    m = _POS.search(c.text)
    if m:
        obj = _obj(next(g for g in m.groups() if g))
        attrs: dict[str, object] = {}
        over = _OVER.match(obj)
        if over:
            obj, attrs["rejected"] = _obj(over.group(1)), _obj(over.group(2))
        if len(obj) > 60 or not obj:
            return []
        return [c.make(MemoryType.PREFERENCE, "user", _pref_key(obj), c.said(), value=obj,
                       rule="pref.positive", **attrs)]  # fmt: skip
    return []


# --- project facts: stack, architecture -----------------------------------------------
_STACK_CTX = re.compile(r"项目|仓库|我们|系统|服务|用的是|使用|升级|project|repo|we |our |upgrade|uses?|running|stack|版本|version", I)
_ARCH = re.compile(r"架构|微服务|单体|服务共|共\s*\d+\s*个服务|architecture|microservices?|monolith|\d+\s+services", I)


def _project_subject(c: Clause) -> tuple[str, Level]:
    return (f"project:{c.project}", Level.PROJECT) if c.project else ("project", Level.USER)


def stack(c: Clause) -> list[Candidate]:
    if not _STACK_CTX.search(c.text):
        return []
    subject, level = _project_subject(c)
    out = []
    for m in TECH.finditer(c.text):
        tech, version = m.group(1).lower().replace("nodejs", "node.js"), m.group(2)
        if tech == "node":
            tech = "node.js"
        if version is None and not re.search(r"用的是|使用|用|uses?|using|we use|built (?:with|on)", c.text, I):
            continue
        out.append(c.make(MemoryType.FACT, subject, f"stack:{tech}", c.said(), value=version or tech,
                          level=level, trigger=Trigger.SIGNAL, rule="project.stack"))  # fmt: skip
    return out


def architecture(c: Clause) -> list[Candidate]:
    if not _ARCH.search(c.text):
        return []
    subject, level = _project_subject(c)
    return [c.make(MemoryType.FACT, subject, "architecture", c.said(), value=c.text, level=level,
                   trigger=Trigger.SESSION_END, rule="project.architecture")]  # fmt: skip


# --- decisions ------------------------------------------------------------------------
_DECIDE = re.compile(
    r"(?:(?:最终|最后)?(?:定了|决定了?|确定了?|敲定了?|就这么定)[，,:：\s]*(?:用|使用|采用|选)?|就用|最终(?:选|用)了?|选定)\s*(.+?)"
    r"(?=$|[，,。;；]|因为|由于|不用|而不(?:是|用)|放弃)"
    r"|(?:we(?:'ll| will)? go(?:ing)? with|we(?:'ve)? decided (?:to (?:use|go with)|on)|"
    r"let'?s go with|we chose|decision:)\s*(.+?)(?=$|[,.;]|\s+because|\s+since|\s+instead of|\s+rather than|\s+over\b)",
    I,
)
_REASON = re.compile(r"(?:因为|由于|原因是|because|since)\s*(.+?)(?=$|[，,。;；]\s*(?:不用|而不|放弃)|\s+instead of|\s+rather than|[.;])", I)
_REJECT = re.compile(r"(?:不用|不选|而不是|而不用|放弃(?:了)?|instead of|rather than|over)\s*(.+?)(?=$|[，,。.;；]|因为|because)", I)


def decision(c: Clause) -> list[Candidate]:
    m = _DECIDE.search(c.text)
    if not m:
        return []
    choice = _obj(next(g for g in m.groups() if g))
    if not choice:
        return []
    subject, level = _project_subject(c)
    reason = _REASON.search(c.text)
    rejected = [_obj(x) for x in _REJECT.findall(c.text)]
    topic = category(choice) or slug(choice)
    return [c.make(MemoryType.DECISION, subject, f"decision:{topic}", c.said(), value=choice,
                   level=level, trigger=Trigger.CONFIRMED, rule="decision",
                   reasons=[reason.group(1).strip()] if reason else [], rejected=rejected)]  # fmt: skip


# --- short-lived instructions, plans, task state --------------------------------------
_TEMP = re.compile(r"(?:今天|今晚|本周|这周|这几天|暂时|临时|先|这次|for now|temporarily|this week|today|tonight|until)", I)
_INSTR = re.compile(r"用|发布|上线|部署|走|改|别|不要|use|deploy|release|ship|skip|avoid|don'?t|point", I)
_PLAN = re.compile(
    r"出差|开会|会议|见面|约了|预约|面试|航班|飞|去|回|参加|旅行|体检|看牙|生日|考试|截止|交付|"
    r"meeting|flight|fly|trip|travel|appointment|interview|visit|dentist|doctor|birthday|exam|"
    r"deadline|conference|going to|will be in|leave for|dinner|lunch|call with",
    I,
)
_TASK = re.compile(
    r"(?:已经?完成|做完了|搞定了|完成了|下一步|待办|还没做|参数确认|确认参数|"
    r"\bdone\b|finished|completed|next step|todo|to-do|pending|still need to|confirmed (?:that )?)",
    I,
)


def short_lived(c: Clause) -> list[Candidate]:
    """Instructions that only hold for a while: expire at the end of their time window."""
    if not (_TEMP.search(c.text) and _INSTR.search(c.text)):
        return []
    expires = None
    if c.when is not None:
        start, until = c.when
        before = re.search(r"之前|以前|前|before|by|until", c.text, I)
        expires = start if before and until is not None and (until - start).days < 1 else until
    session_only = expires is None and re.search(r"for now|暂时|这次|临时|先", c.text, I)
    return [c.make(MemoryType.TEMPORARY, "user", f"temp:{slug(c.text)}", c.said(),
                   level=Level.SESSION if session_only else Level.USER, trigger=Trigger.HOT,
                   expires_at=expires, rule="temporary")]  # fmt: skip


def task_state(c: Clause) -> list[Candidate]:
    if not _TASK.search(c.text):
        return []
    return [c.make(MemoryType.TASK_STATE, "user", f"task:{slug(c.text)}", c.said(),
                   level=Level.SESSION, trigger=Trigger.HOT, rule="task_state")]  # fmt: skip


def plan(c: Clause) -> list[Candidate]:
    """Appointments and trips with a resolved time: the time travels with the record."""
    if c.when is None or not _PLAN.search(c.text):
        return []
    return [c.make(MemoryType.FACT, "user", f"plan:{slug(c.text)}", c.said(), value=c.text,
                   trigger=Trigger.SIGNAL, when=c.when, rule="plan")]  # fmt: skip


PATTERNS: tuple[Pattern, ...] = (
    task_state,
    short_lived,
    decision,
    profile,
    preference,
    stack,
    architecture,
    plan,
)
