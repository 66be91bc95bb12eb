"""Profile facts about the speaker: name, contacts, role, employer, place, team, manager,
allergies. Keys: ``name``, ``email``, ``phone``, ``role``, ``employer``, ``location``,
``hometown``, ``team``, ``manager``, ``allergy:<thing>``. One clause may hold several
("I work as a data scientist at Spotify" → ``role`` and ``employer``)."""

from __future__ import annotations

import re

from memquill.model import Candidate, MemoryType
from memquill.write.extract.lexicon import classify, slug
from memquill.write.extract.patterns_common import END, I, blocked, first, flags, parts
from memquill.write.extract.phrasing import clean_object
from memquill.write.extract.rules import Clause

_X = r"([^，,。.!！?？;；]{1,40}?)"
_NAME = r"([^，,。.!！?？;；\s][^，,。.!！?？;；]{0,30}?)"
_ROLE_ZH = (r"工程师|开发|程序员|经理|设计师|老师|学生|医生|护士|律师|架构师|分析师|研究员|负责人|"
            r"运维|测试|创始人|CEO|CTO|总监|主管|实习生|顾问|科学家|会计|销售|博士|硕士")  # fmt: skip
_ROLE_EN = (r"engineer|developer|dev|programmer|manager|designer|teacher|student|doctor|nurse|"
            r"lawyer|architect|analyst|researcher|scientist|lead|founder|co-founder|consultant|"
            r"cto|ceo|director|intern|accountant|writer|product owner|sre|devops|pm")  # fmt: skip
_NOT_NAME = (r"Chinese|Japanese|American|British|German|French|Canadian|Indian|Korean|Australian|"
             r"Italian|Spanish|Russian|Dutch|Swiss|Swedish|English|Irish|Mexican|Brazilian|Vegan|"
             r"Vegetarian|Fine|Good|Okay|Ok|Sorry|Back|Done|Ready|Here|Sure|Busy|Free|Tired|Happy|"
             r"Glad|Home|Late|Excited|Not|Also|Just|Still|So|Very|Really|Actually")  # fmt: skip
_NOT_PLACE = r"家|这|那|外面|路上|公司|单位|学校里"
_EMPLOYER_AT = re.compile(r"\b(?:at|for)\s+([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})")

_PROFILE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("name", re.compile(rf"^(?:我叫|我的名字(?:是|叫)|my name is|call me|i'?m called|i go by)\s*{_NAME}{END}", I)),
    ("name", re.compile(r"^(?:hi,?\s+|hello,?\s+)?(?:I'm|I am|i'm)\s+((?!(?:" + _NOT_NAME + r")\b)[A-Z][a-z]+"
                        r"(?:\s+[A-Z][a-z]+)?)(?=$|\s*[,.!;])")),
    ("birthday", re.compile(rf"^(?:我的生日(?:是|在)|my birthday is(?: on)?)\s*{_X}{END}", I)),
    ("manager", re.compile(rf"^(?:我的(?:直属)?(?:领导|经理|老板|上司|主管|leader)(?:是|叫)|my (?:direct )?"
                           rf"(?:manager|boss|lead|supervisor|team lead) is|i report to)\s*{_NAME}{END}", I)),
    ("phone", re.compile(r"(?:手机|电话|号码|phone(?: number)?|mobile|cell|(?:call|text|reach) me at)"
                         r"\D{0,12}?(\+?\d[\d\s-]{6,18}\d)", I)),
    ("email", re.compile(r"([\w.+-]+@[\w-]+(?:\.[\w-]+)+)")),
    ("team", re.compile(rf"^(?:我在(.{{1,20}}?)(?:团队|小组|组|部门|事业部)$|i'?m (?:on|in|part of) the {_X} "
                        rf"(?:team|group|department|squad)|i work on the {_X} team)", I)),
    ("employer", re.compile(r"^我(?:现在|目前)?在((?!(?:" + _NOT_PLACE + r")).{1,20}?)(?:工作|上班|任职|就职|实习|做|当)")),
    ("employer", re.compile(rf"^i (?:(?:just|recently|now|currently|also)\s+)?(?:work (?:at|for)|am working (?:at|for)|"
                            rf"joined|am employed (?:at|by))\s*{_X}(?=$|[，,。.;；!！?？]|\s+(?:as|and|but|because|since)\b)", I)),
    ("employer", re.compile(rf"^i'?m (?:(?:now|currently)\s+)?(?:working (?:at|for)|employed (?:at|by))\s*{_X}{END}", I)),
    ("location", re.compile(r"^我(?:现在)?在(.{1,12}?)(?:生活|定居)")),
    ("location", re.compile(rf"^(?:我(?:现在)?住在|我搬(?:到|去)了?|i live in|i'?m based in|i(?:'ve)? moved to|"
                            rf"i relocated to|i'?m living in)\s*{_X}(?:了)?{END}", I)),
    ("hometown", re.compile(r"^我是(\S{2,4}?)人$")),
    ("hometown", re.compile(r"^我的?老家(?:是|在)(.{2,10}?)(?:的|人)?$")),
    ("hometown", re.compile(rf"^(?:i'?m from|i grew up in)\s*{_X}{END}", I)),
    ("role", re.compile(rf"^(?:我?是(?:一名|一个|一位|个)?|i(?:'m| am) (?:a|an) |i work as (?:a|an) )"
                        rf"([^，,。.!！?？]{{0,24}}?(?:{_ROLE_ZH}|\b(?:{_ROLE_EN})s?\b))(?=$|[，,。.]|\s+at\b|\s+for\b|\s+and\b)", I)),
    ("role", re.compile(rf"\bas (?:a|an) ([^，,。.!！?？]{{0,24}}?\b(?:{_ROLE_EN})s?\b)", I)),
    ("role", re.compile(r"^我?(?:是)?做(.{2,10}?)(?:的|工作)$")),
)  # fmt: skip
_CONTACT_CTX = re.compile(r"我|邮箱|邮件|\b(?:my|me|email|e-mail|reach|contact)\b", I)
_ALLERGY = re.compile(r"对(.{1,12}?)过敏|allergic to\s+" + _X + END, I)
_VALUE_TAIL = re.compile(r"\s*(?:now|these days|currently|了|啦)$", I)


def _value(key: str, raw: str) -> str:
    value = _VALUE_TAIL.sub("", raw.strip()).strip()
    return re.sub(r"\s+", " ", value) if key == "phone" else value


def _one_part(c: Clause, part: str, seen: set[str]) -> list[tuple[str, str]]:
    found = []
    for key, rx in _PROFILE:
        m = rx.search(part)
        if not m or key in seen or (key == "email" and not _CONTACT_CTX.search(c.text)):
            continue
        value = _value(key, first(m))
        if value:
            found.append((key, value))
            seen.add(key)
        if key == "role" and "employer" not in seen and (at := _EMPLOYER_AT.search(part, m.end(1))):
            found.append(("employer", at.group(1)))
            seen.add("employer")
    return found


def profile(c: Clause) -> list[Candidate]:
    if blocked(c):
        return []
    seen: set[str] = set()
    facts = [kv for part in parts(c.text) for kv in _one_part(c, part, seen)]
    out = [c.make(MemoryType.FACT, "user", key, c.said(), value=value, rule=f"profile.{key}", **flags(c))
           for key, value in facts]  # fmt: skip
    m = _ALLERGY.search(c.text)
    if m:
        thing = clean_object(first(m))
        head = classify(thing)
        key = f"allergy:{head[1] if head else slug(thing)}"
        out.append(c.make(MemoryType.FACT, "user", key, c.said(), value=thing, rule="profile.allergy"))
    return out
