"""Project and business context: tech stack, architecture, company facts, decisions.

Keys: ``stack:<tech>`` (value = version, else the tech), ``architecture``,
``business:<aspect>`` (subject ``org``: domain, customers, team_size, competitors),
``decision:<topic>`` (topic = lexicon category of the choice or of its role —
"用 Redis 做缓存" → ``cache`` — else a slug). Project facts bind to ``project:<name>``
when the event has a project, else to the generic ``project``.
"""

from __future__ import annotations

import re

from memquill.model import Candidate, MemoryType, Polarity
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.write.extract.lexicon import TECH, category, slug, tech_name
from memquill.write.extract.patterns_common import I, blocked, first, flags, project_subject
from memquill.write.extract.phrasing import clean_object, ensure_subject, strip_times
from memquill.write.extract.rules import Clause

# --- tech stack -----------------------------------------------------------------------
_CTX = re.compile(
    r"项目|仓库|代码库|系统|服务|后端|前端|数据库|接口|平台|部署|线上|生产|我们|咱们|团队|版本|升级|迁移|"
    r"\b(?:project|repo|codebase|app|service|backend|frontend|api|database|ci|we|our|team|stack|"
    r"production|infra|version|upgraded?|migrated?)\b",
    I,
)
_USES = re.compile(
    r"用|使用|采用|基于|跑在|部署在|写的|重写|升级?|迁移|换成|是|\b(?:uses?|using|runs? on|running|built (?:with|on)|"
    r"written in|on|upgraded|migrated|moved|switched|deploy\w*|is|are)\b",
    I,
)
_DROPPED = re.compile(
    r"(?:不再?用|弃用|去掉了?|移除了?|下线了?)\s*$|\b(?:don'?t use|do not use|no longer use|"
    r"stopped using|dropped|removed|got rid of)\s*$",
    I,
)
_FROM_PART = re.compile(r"(?:从|\bfrom)\s*$", I)
_VERSION_AFTER = re.compile(
    r"^[^，,。.;；]{0,8}?(?:版本|version)\s*(?:统一|都|是|为|is|=)?\s*(?:用|使用)?\s*(\d+(?:\.\d+){0,2})|"
    r"^[^，,。;；]{0,16}?(?:到|至|\bto)\s*了?\s*v?(\d+(?:\.\d+){0,2})(?![\d.])",
    I,
)


def _techs(c: Clause) -> list[tuple[str, str | None, bool, int]]:
    """(canonical name, version, dropped, position) per technology, the last mention winning."""
    found: dict[str, tuple[str, str | None, bool, int]] = {}
    for m in TECH.finditer(c.text):
        before = c.text[max(0, m.start() - 14) : m.start()]
        name, version = tech_name(m.group(1)), m.group(2)
        if version is None and (after := _VERSION_AFTER.match(c.text[m.end() :])):
            version = after.group(1) or after.group(2)
        if _FROM_PART.search(before) and name not in found:
            continue  # "from MongoDB to PostgreSQL": the old one is not the stack any more
        found[name] = (name, version, bool(_DROPPED.search(before)), m.start())
    return list(found.values())


def _stack(c: Clause) -> list[Candidate]:
    if not (_CTX.search(c.text) and _USES.search(c.text)) or c.conditions:
        return []
    subject, level = project_subject(c)
    out = []
    for name, version, dropped, _ in _techs(c):
        pol = Polarity.NEGATIVE if dropped else Polarity.POSITIVE
        out.append(c.make(MemoryType.FACT, subject, f"stack:{name}", c.said(), value=version or name,
                          polarity=pol, level=level, trigger=Trigger.SIGNAL, rule="project.stack",
                          **flags(c)))  # fmt: skip
    return out


# --- architecture and business context (written at session end) ------------------------
_ARCH = re.compile(
    r"架构|微服务|单体|前后端分离|服务网格|中台|\d+\s*个(?:微)?服务|\b(?:monolith\w*|microservices?|"
    r"event-driven|serverless|service mesh|architecture|\d+\s+(?:micro)?services)\b",
    I,
)
_BUSINESS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("team_size", re.compile(r"(?:我们|用户的|团队|公司|组)(?:团队|公司|组)?(?:大概|大约|差不多|一共|总共|现在)?有\s*"
                             r"([\d一二两三四五六七八九十百千]+\s*"
                             r"(?:个|名|位)?(?:工程师|人|员工|开发|同事))|\b(?:we have|our team has|there are)\s+"
                             r"(\d+\s+(?:engineers|people|developers|employees))", I)),
    ("competitors", re.compile(r"竞争对手(?:主要)?(?:是|有)\s*(.+)|\b(?:main |biggest )?competitors? "
                               r"(?:is|are|include)\s+(.+)|\bwe compete with\s+(.+)", I)),
    ("customers", re.compile(r"(?:客户|用户群)(?:主要|大多|基本上?)?(?:是|都是|为)\s*(.+)|\bour (?:customers|clients|"
                             r"users) are\s+(.+)|\bwe (?:mostly |mainly |primarily )?(?:serve|work with|sell to)\s+(.+)", I)),
    ("domain", re.compile(r"(?:我们|咱们|我司)(?:公司|团队)?(?:主要|目前)?(?:是)?(?:一家|一个)?(?:做|从事|专注于?|提供)\s*(.+)|"
                          r"我们的(?:主营)?业务是\s*(.+)|\bwe (?:mainly |mostly |primarily )?(?:sell|build|make|"
                          r"provide|develop|offer)\s+(.+)|\bour (?:main |core |flagship )?(?:product|company|business|startup) "
                          r"(?:is|does|builds|sells|makes)\s+(.+)", I)),
)  # fmt: skip


def _business(c: Clause) -> list[Candidate]:
    for aspect, rx in _BUSINESS:
        m = rx.search(c.text)
        if m:
            return [c.make(MemoryType.FACT, "org", f"business:{aspect}", c.said(), value=first(m),
                           level=Level.USER, trigger=Trigger.SESSION_END, rule=f"business.{aspect}",
                           **flags(c))]  # fmt: skip
    return []


def project_facts(c: Clause) -> list[Candidate]:
    """Architecture (session end) plus the stack it names; else business facts; else stack."""
    if blocked(c):
        return []
    if _ARCH.search(c.text):
        subject, level = project_subject(c)
        arch = c.make(MemoryType.FACT, subject, "architecture", c.said(), value=c.text, level=level,
                      trigger=Trigger.SESSION_END, rule="project.architecture", **flags(c))  # fmt: skip
        return [arch, *_stack(c)]
    return _business(c) or _stack(c)


# --- decisions ------------------------------------------------------------------------
_STOP = (r"(?=$|[，,。;；:：]|因为|由于|原因|理由|不用|不选|而不是|而非|放弃|弃用|\s+(?:because|since|instead of|"
         r"rather than|over|due to|as)\b)")  # fmt: skip
_DECIDE = re.compile(
    r"(?:(?:最终|最后|已经|方案|就这么)?(?:定了|决定了?|确定了?|敲定了?|拍板了?|选定了?|定下来了?|结论是?|最终方案是?)"
    r"[，,:：\s]*(?:(?:就|统一|还是)?(?:用|使用|采用|选用?|上))?|就(?:用|使用|采用|选用?)|"
    r"(?:我们|团队|最终|最后)(?:还是)?(?:选择|选|选用|采用)了)\s*(?P<zh>.+?)"
    + _STOP + "|"
    r"(?:\b(?:we(?:'ll| will)?|we're|we are|let'?s|let us|we(?:'ve)?|i(?:'ve)?)\s+(?:go(?:ing)? with|"
    r"decided (?:to (?:use|go with|adopt|switch to|move to|migrate to)?|on)|chose|picked|settled on|"
    r"agreed (?:to use|on)|will use|'ll use)|^(?:we'?re\s+)?going with|"
    r"^(?:final |the )?decision(?: is)?:\s*(?:we(?:'ll| will)? (?:use|go with)\s+)?)"
    r"\s*(?P<en>.+?)" + _STOP,
    I,
)
_LEAD_MARK = re.compile(r"^(?:方案|最终|最后|就这么|已经)?(?:定了|决定了?|确定了?|敲定了?|拍板了?|结论是?|最终方案是?)[，,:：\s]*")
_ROLE = re.compile(r"\s*(?:做|作为|当作?|来做|用作|用于|\bfor|\bas (?:the|our)?)\s*(.+)$", I)
_REASON = re.compile(
    r"(?:因为|由于|原因是|理由是|主要是|主要因为|考虑到|\bbecause(?: of)?|\bsince|\bdue to|\bgiven)\s*(.+?)(?=$|[，,。;；.])", I
)
_REJECT = re.compile(
    r"(?:不用|不选|而不是|而不用|而非|放弃(?:了)?|弃用|没选|\binstead of|\brather than|\bover|,\s*not)\s+?"
    r"(.+?)(?=$|[，,。.;；]|因为|由于|原因|\s+(?:because|since|for|due)\b)",
    I,
)


def _choice(c: Clause, m: re.Match[str]) -> tuple[str, str]:
    """(choice, topic hint) from "前端用 Vue 3" / "Redis 做缓存" / "Tailwind for styling"."""
    raw = (m.group("zh") or m.group("en") or "").strip()
    hint = c.text[: m.start()] if m.group("zh") else ""
    if split := re.match(r"(.{1,12}?)(?:用|使用|采用)\s*(.+)$", raw):
        hint, raw = split.group(1), split.group(2)
    if role := _ROLE.search(raw):
        hint, raw = role.group(1), raw[: role.start()]
    return clean_object(raw), hint


def _decision_content(c: Clause) -> str:
    who = (c.team or ("团队" if c.language == "zh" else "the team")).strip()
    if c.language == "zh" and _LEAD_MARK.match(c.text):
        return f"{who}决定：{c.said(_LEAD_MARK.sub('', c.text))}"
    lead = f"{who}决定：" if c.language == "zh" else f"{who[:1].upper()}{who[1:]} decided: "
    return ensure_subject(c.said(), c.language, lead)


def decision(c: Clause) -> list[Candidate]:
    """A confirmed choice with its reasons and the alternatives it rejected."""
    if blocked(c) or c.conditions:
        return []
    m = _DECIDE.search(c.text)
    if not m:
        return []
    choice, hint = _choice(c, m)
    if not choice:
        return []
    topic = category(choice) or category(hint) or slug(strip_times(hint or choice))
    subject, level = project_subject(c)
    reasons = [r.strip() for r in _REASON.findall(c.text) if r.strip()]
    rejected = [clean_object(r) for r in _REJECT.findall(c.text) if clean_object(r)]
    return [c.make(MemoryType.DECISION, subject, f"decision:{topic}", _decision_content(c), value=choice,
                   level=level, trigger=Trigger.CONFIRMED, rule="decision", reasons=reasons,
                   rejected=rejected, **flags(c))]  # fmt: skip
