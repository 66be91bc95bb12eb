"""Decisions (DESIGN §4 rule 3): written when confirmed, with reasons and rejected options.

Key: ``decision:<topic>`` — the lexicon category of the choice or of the role it plays
("用 Redis 做缓存" → ``cache``, "gRPC instead of REST" → ``api_style``), else a slug of the
choice. Tentative talk ("要不要…", "maybe we should…", "not sure yet") and conditional
rules ("如果项目很小，就用 SQLite", a preference with conditions) never become decisions.
"""

from __future__ import annotations

import re

from memquill.model import Candidate, MemoryType
from memquill.model.candidate import Trigger
from memquill.write.extract.clause import Clause
from memquill.write.extract.lexicon import category, slug
from memquill.write.extract.patterns_common import blocked, flags, project_subject, rx
from memquill.write.extract.phrasing import clean_object, ensure_subject, strip_times, we_are

_STOP = (
    r"(?=$|[，,。;；:：]|因为|由于|原因|理由|不用|不选|而不是|而非|放弃|弃用|"
    r"\s+(?:because|since|instead of|rather than|over|due to|as)\b)"
)
_MARK_ZH = r"(?:定了|决定了?|确定了?|敲定了?|拍板了?|选定了?|定下来了?|结论是?|最终方案是?)"
_DECIDE = rx(
    rf"(?:(?:最终|最后|已经|方案|就这么)?{_MARK_ZH}[，,:：\s]*",
    r"(?:(?:就|统一|还是)?(?:用|使用|采用|选用?|上))?|",
    r"就(?:用|使用|采用|选用?)|(?:我们|团队|最终|最后)(?:还是)?(?:选择|选|选用|采用)了)",
    r"\s*(?P<zh>.+?)",
    _STOP,
    "|",
    r"(?:\b(?:we(?:'ll| will)?|we're|we are|let'?s|let us|we(?:'ve)?|i(?:'ve)?)\s+(?:go(?:ing)? with|",
    r"decided (?:to (?:use|go with|adopt|switch to|move to|migrate to)?|on)|chose|picked|settled on|",
    r"agreed (?:to use|on)|will use|'ll use)|^(?:we'?re\s+)?going with|",
    r"^(?:final |the )?decision(?: is)?:\s*(?:we(?:'ll| will)? (?:use|go with)\s+)?)\s*(?P<en>.+?)",
    _STOP,
)
_LEAD_MARK = re.compile(rf"^(?:方案|最终|最后|就这么|已经)?{_MARK_ZH}[，,:：\s]*")
_ROLE = rx(r"\s*(?:做|作为|当作?|来做|用作|用于|\bfor|\bas (?:the|our)?)\s*(.+)$")
_REASON = rx(
    r"(?:因为|由于|原因是|理由是|主要是|主要因为|考虑到|\bbecause(?: of)?|\bsince|\bdue to|\bgiven)\s*",
    r"(.+?)(?=$|[，,。;；.])",
)
_REJECT = rx(
    r"(?:不用|不选|而不是|而不用|而非|放弃(?:了)?|弃用|没选|\binstead of|\brather than|\bover|,\s*not)\s+?",
    r"(.+?)(?=$|[，,。.;；]|因为|由于|原因|\s+(?:because|since|for|due)\b)",
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
    who = we_are(c.text, c.language, c.team)  # a project's decision, else the user's
    if c.language == "zh" and _LEAD_MARK.match(c.text):
        return f"{who}决定：{c.said(_LEAD_MARK.sub('', c.text))}"
    lead = f"{who}决定：" if c.language == "zh" else f"{who[:1].upper()}{who[1:]} decided: "
    said = c.said(re.sub(r"^(?:final |the )?decision(?: is)?:\s*", "", c.text, flags=re.I))
    return ensure_subject(said, c.language, lead)


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
    return [
        c.make(
            MemoryType.DECISION,
            subject,
            f"decision:{topic}",
            _decision_content(c),
            value=choice,
            level=level,
            trigger=Trigger.CONFIRMED,
            rule="decision",
            reasons=reasons,
            rejected=rejected,
            **flags(c),
        )
    ]
