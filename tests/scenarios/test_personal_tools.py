"""A user's own software tools are slots (cloud storage, password manager, notes app), and a
named gym or bank is typed by what its clause talks about (zh + en, every backend).

Before: "Nextcloud sync finished, 40GB migrated from Dropbox" and "LastPass got breached again
so I moved everything to Bitwarden" reached no slot; "joined Nuffield Health near the office,
… it's got a pool" became the user's employer. A gym's or a bank's lexicon word in a clause
about a membership or a salary types the reading (an open kind: names it does not list still
fill the slot)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import held, say_apart, switched_and_answered


@pytest.mark.parametrize(
    ("turns", "question", "key", "was", "now"),
    [
        (
            [
                "My Evernote is a mess, 4000 notes. How do I tag them better?",
                "Moved all my notes from Evernote to Obsidian this weekend, the markdown export worked. Best plugins?",
            ],
            "which notes app do I use these days?",
            "notes_app",
            "Evernote",
            "Obsidian",
        ),
        (
            [
                "笔记一直记在印象笔记里，现在广告好多",
                "笔记全迁到语雀了，印象笔记不续费了。语雀的知识库怎么分类好",
            ],
            "我现在笔记记在哪个软件里",
            "notes_app",
            "印象笔记",
            "语雀",
        ),
        (
            [
                "LastPass keeps logging me out of the browser extension, annoying. Any fix?",
                "LastPass got breached again so I moved everything to Bitwarden. How do I turn on 2FA there?",
            ],
            "what do I keep my passwords in now?",
            "password_manager",
            "LastPass",
            "Bitwarden",
        ),
        (
            [
                "照片都存在百度网盘，下载限速太恶心了",
                "百度网盘不续了，照片全搬到阿里云盘了，怎么批量整理相册",
            ],
            "我的文件现在存在哪个网盘",
            "cloud_storage",
            "百度网盘",
            "阿里云盘",
        ),
    ],
    ids=["en-notes", "zh-notes", "en-passwords", "zh-cloud"],
)
def test_a_switched_tool_supersedes_and_answers(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, key: str, was: str, now: str
) -> None:
    switched_and_answered(mem_e5, clock, turns, question, key, now)


@pytest.mark.parametrize(
    ("text", "key", "value", "not_key"),
    [
        (
            "cancelled PureGym, the nearest one's miles away now. joined Nuffield Health near the office, "
            "pricier but it's got a pool. beginner swimming plan?",
            "gym",
            "Nuffield Health",
            "employer",
        ),
        ("刚在超级猩猩办了次卡，团课有啥适合新手的", "gym", "超级猩猩", "employer"),
    ],
    ids=["en-gym", "zh-gym"],
)
def test_a_gym_said_with_its_domain_is_the_gym(
    mem_e5: Memory, clock: FixedClock, text: str, key: str, value: str, not_key: str
) -> None:
    say_apart(mem_e5, clock, [text], gap_days=1)
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert value in {r.value for r in recs if r.key == key}, [(r.key, r.value) for r in recs]
    assert value not in {r.value for r in recs if r.key == not_key}, [(r.key, r.value) for r in recs]


@pytest.mark.parametrize(
    "text",
    ["Is 1Password worth it over Bitwarden for a family of four?", "Notion和Obsidian哪个更适合做读书笔记？"],
    ids=["en", "zh"],
)
def test_a_tool_weighed_is_no_tool_held(mem_e5: Memory, clock: FixedClock, text: str) -> None:
    say_apart(mem_e5, clock, [text], gap_days=1)
    assert not held(mem_e5, ("password_manager", "notes_app"))
