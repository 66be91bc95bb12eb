"""Project and business context: tech stack, architecture, company facts.

Keys: ``stack:<tech>`` (value = version, else the tech), ``architecture``,
``business:<aspect>`` (subject ``org``: domain, customers, team_size, competitors).
Project facts bind to ``project:<name>`` when the event has a project, else to the
generic ``project``. Architecture and business context are written at session end.
"""

from __future__ import annotations

import re

from memquill.model import Candidate, MemoryType, Polarity
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.write.extract import change_cues
from memquill.write.extract.clause import Clause
from memquill.write.extract.lexicon import TECH, tech_name
from memquill.write.extract.patterns_common import blocked, first, flags, project_subject, rx
from memquill.write.extract.phrasing import sentence, third_person

# --- tech stack -----------------------------------------------------------------------
_CTX = rx(
    r"项目|仓库|代码库|系统|服务|后端|前端|数据库|接口|平台|部署|线上|生产|我们|咱们|团队|版本|升级|迁移|",
    r"\b(?:project|repo|codebase|app|service|backend|frontend|api|database|ci|we|our|team|stack|",
    r"production|infra|version|upgraded?|migrated?)\b",
)
_USES = rx(
    r"用|使用|采用|基于|跑在|部署在|写的|重写|升级?|迁移|迁到|搬到|切到|换成|换到|是|",
    r"\b(?:uses?|using|runs? on|running|built (?:with|on)|written in|on|upgraded|migrated|moved|",
    r"switched|deploy\w*|is|are|it'?s)\b",
)
_DROPPED = rx(
    r"(?:不再?用|弃用|去掉了?|移除了?|下线了?)\s*$|",
    r"\b(?:don'?t use|do not use|no longer use|stopped using|dropped|removed|got rid of)\s*$",
)
_FROM_PART = rx(r"(?:从|\bfrom)\s*$")
_VERSION = r"(\d+(?:\.\d+){0,2})"
_VERSION_AFTER = rx(
    rf"^[^，,。.;；]{{0,8}}?(?:版本|version)\s*(?:统一|都|是|为|is|=)?\s*(?:用|使用)?\s*{_VERSION}|",
    rf"^[^，,。;；]{{0,16}}?(?:到|至|\bto)\s*了?\s*v?{_VERSION}(?![\d.])",
)


def _techs(c: Clause) -> list[tuple[str, str | None, bool, str]]:
    """(canonical name, version, dropped, name as written) per technology; the last mention wins."""
    found: dict[str, tuple[str, str | None, bool, str]] = {}
    said = [m.group(1) for m in TECH.finditer(c.text)]
    several = len({tech_name(x) for x in said}) > 1  # "MySQL 5.7 升级到 MySQL 8.0" is one tech
    gone = change_cues.old_spans(c.text, said) if several else set()
    for m in TECH.finditer(c.text):
        if m.group(1) in gone:
            continue  # "Jenkins 下线了，流水线全搬到 GitLab CI 了": Jenkins is no longer the stack
        before = c.text[max(0, m.start() - 14) : m.start()]
        name, version = tech_name(m.group(1)), m.group(2)
        if version is None and (after := _VERSION_AFTER.match(c.text[m.end() :])):
            version = after.group(1) or after.group(2)
        if _FROM_PART.search(before) and name not in found:
            continue  # "from MongoDB to PostgreSQL": the old one is not the stack any more
        found[name] = (name, version, bool(_DROPPED.search(before)), m.group(1))
    return list(found.values())


def _stack_sentence(c: Clause, written: str, version: str | None, dropped: bool) -> str:
    """ "项目 web 使用 Vite" — one sentence per technology when a clause names several, so each
    stays its own record (identical content would be merged as a near-duplicate)."""
    tech = f"{written} {version}" if version else written
    if c.language == "zh":
        return f"{(c.team or '项目').strip()}{'不再使用' if dropped else '使用'} {tech}"
    who = c.team.strip().capitalize() if c.team else "The project"
    return f"{who} {'no longer uses' if dropped else 'uses'} {tech}"


# someone else's team or company ("his team is still on MySQL 5.7", "他们组还在用 MySQL"):
# its stack is theirs, not the project's
_THEIRS = rx(
    r"\b(?:his|her|their)\s+(?:\w+\s+)?(?:team|company|project|startup|org|employer|shop|app|codebase)\b|",
    r"(?<![其吉])[他她]们?的?(?:组|公司|团队|项目|那边)",
)


def _stack(c: Clause, clause_taken: bool = False) -> list[Candidate]:
    if not (_CTX.search(c.text) and _USES.search(c.text)) or c.conditions or _THEIRS.search(c.text):
        return []
    subject, level = project_subject(c)
    out = []
    for i, (name, version, dropped, written) in enumerate(_techs(c)):
        pol = Polarity.NEGATIVE if dropped else Polarity.POSITIVE
        own = i == 0 and not clause_taken
        content = c.said() if own else _stack_sentence(c, written, version, dropped)
        value = f"{written} {version}" if version else written
        out.append(
            c.make(
                MemoryType.FACT,
                subject,
                f"stack:{name}",
                content,
                value=value,
                polarity=pol,
                level=level,
                trigger=Trigger.SIGNAL,
                rule="project.stack",
                **flags(c),
            )
        )
    return out


# --- architecture and business context (written at session end) ------------------------
_ARCH = rx(
    r"架构|微服务|单体|前后端分离|服务网格|中台|\d+\s*个(?:微)?服务|",
    r"\b(?:monolith\w*|microservices?|event-driven|serverless|service mesh|architecture|",
    r"\d+\s+(?:micro)?services)\b",
)
_ZH_NUM = r"[\d一二两三四五六七八九十百千]+"
_BUSINESS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "team_size",
        rx(
            r"(?:我们|用户的|团队|公司|组)(?:团队|公司|组)?(?:大概|大约|差不多|一共|总共|现在)?有\s*",
            rf"({_ZH_NUM}\s*(?:个|名|位)?(?:工程师|人|员工|开发|同事))|",
            r"\b(?:we have|our team has|there are)\s+(?:about |around |roughly |over |nearly |almost )?",
            r"(\d+\s+(?:engineers|people|developers|employees|staff))",
        ),
    ),
    (
        "competitors",
        rx(
            r"竞争对手(?:主要)?(?:是|有)\s*(.+)|",
            r"\b(?:main |biggest )?competitors? (?:is|are|include)\s+(.+)|\bwe compete with\s+(.+)",
        ),
    ),
    (
        "customers",
        rx(
            r"(?:客户|用户群)(?:主要|大多|基本上?)?(?:是|都是|为)\s*(.+)|",
            r"(?:我们|公司|团队)(?:主要|目前)?(?:服务|面向|服务于)\s*(.+)|",
            r"\bour (?:customers|clients|users) are\s+(.+)|",
            r"\bwe (?:mostly |mainly |primarily )?(?:serve|work with|sell to)\s+(.+)",
        ),
    ),
    (
        "domain",
        rx(
            r"(?:我们|咱们|我司)(?:公司|团队)?(?:主要|目前)?(?:是)?(?:一家|一个)?(?:做|从事|专注于?|提供)\s*(.+)|",
            r"我们的(?:主营)?业务是\s*(.+)|",
            r"\bwe (?:mainly |mostly |primarily )?(?:sell|build|make|provide|develop|offer)\s+(.+)|",
            r"\bour (?:main |core |flagship )?(?:product|company|business|startup) ",
            r"(?:is|does|builds|sells|makes)\s+(.+)",
        ),
    ),
)


def _business(c: Clause) -> list[Candidate]:
    for aspect, pattern in _BUSINESS:
        m = pattern.search(c.text)
        if m:
            company = "用户的公司" if c.language == "zh" else "the user's company"
            said = third_person(c.text, c.language, company)
            content = sentence(said, c.language)
            return [
                c.make(
                    MemoryType.FACT,
                    "org",
                    f"business:{aspect}",
                    content,
                    value=first(m),
                    level=Level.USER,
                    trigger=Trigger.SESSION_END,
                    rule=f"business.{aspect}",
                    **flags(c),
                )
            ]
    return []


def project_facts(c: Clause) -> list[Candidate]:
    """Architecture (session end) plus the stack it names; else business facts; else stack."""
    if blocked(c):
        return []
    if _ARCH.search(c.text):
        subject, level = project_subject(c)
        arch = c.make(
            MemoryType.FACT,
            subject,
            "architecture",
            c.said(),
            value=c.text,
            level=level,
            trigger=Trigger.SESSION_END,
            rule="project.architecture",
            **flags(c),
        )
        return [arch, *_stack(c, clause_taken=True)]
    return _business(c) or _stack(c)
