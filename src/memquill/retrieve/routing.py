"""Query routing: exact slot lookups and time windows, before any fuzzy search.

"我的邮箱是什么" / "what's my email" is answered from the ``email`` slot; time words in
the query ("明天", "last week", "on 8 May") are resolved with the write path's normaliser
and become a window that boosts records dated inside it.
"""

from __future__ import annotations

import re
from datetime import datetime

from memquill.write import timenorm

SLOT_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"邮箱|邮件地址|e-?mail", re.I)),
    ("phone", re.compile(r"手机|电话|phone|mobile number", re.I)),
    ("name", re.compile(r"我叫什么|我的名字|my name|who am i", re.I)),
    ("location", re.compile(r"我住(?:在)?哪|住址|where do i live|my (?:city|address|location)", re.I)),
    ("employer", re.compile(r"我在哪(?:家公司|里)?(?:工作|上班)|where do i work|my employer|my company", re.I)),
    ("role", re.compile(r"我(?:的)?(?:职位|岗位|角色)|my (?:job|role|title)|what do i do for", re.I)),
    ("team", re.compile(r"我在哪个(?:团队|组)|my team|which team", re.I)),
)  # fmt: skip


def slot_keys(query: str) -> list[str]:
    return [key for key, rx in SLOT_WORDS if rx.search(query)]


def time_window(query: str, at: datetime, tz: str) -> tuple[datetime, datetime] | None:
    mentions = timenorm.find_times(query, at, tz)
    if not mentions:
        return None
    m = mentions[0]
    return (m.begin, m.until or m.begin)
