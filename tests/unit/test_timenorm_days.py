"""Bare days of the month (DESIGN §4 rule 4): "七号" / "on the 7th" are dates only when they
say when; numbered things (七号线, 5号楼, 天狼七号, the 2nd floor) stay as they were said."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from memquill.write.timenorm import find_times, rewrite

SH = "Asia/Shanghai"
BERLIN = "Europe/Berlin"
DEC1 = datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo(SH))
DEC20 = datetime(2026, 12, 20, 9, 0, tzinfo=ZoneInfo(BERLIN))


@pytest.mark.parametrize(
    "text",
    [
        "我们的项目叫天狼七号",
        "天狼七号下周上线",
        "我住在5号楼302",
        "我住在三号楼",
        "七号线地铁很挤",
        "他是我的一号粉丝",
        "他住302号房间",
    ],
)
def test_chinese_numbered_names_are_not_dates(text: str) -> None:
    kept = [m.text for m in find_times(text, DEC1, SH) if "号" in m.text]
    assert kept == []
    assert all(ch in rewrite(text, find_times(text, DEC1, SH), "zh") for ch in ("号",))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("我们七号开会", date(2026, 12, 7)),
        ("周琴七号到北京", date(2026, 12, 7)),
        ("报告8号交", date(2026, 12, 8)),
        ("15号我请假", date(2026, 12, 15)),
    ],
)
def test_chinese_bare_days_still_resolve(text: str, day: date) -> None:
    (m,) = [m for m in find_times(text, DEC1, SH) if "号" in m.text]
    assert m.begin is not None and m.begin.astimezone(ZoneInfo(SH)).date() == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Meet me at Gate 7 on the 7th", date(2026, 12, 7)),  # nearest: 13 days back
        ("I'm off on the 28th at 9am", date(2026, 12, 28)),
        ("Rent is due on the 1st, please", date(2027, 1, 1)),  # a deadline looks forward
        ("The report is due on the 15th.", date(2027, 1, 15)),
        ("I have been here since the 22nd", date(2026, 11, 22)),  # "since" looks back
    ],
)
def test_english_ordinal_days_resolve_by_their_preposition(text: str, day: date) -> None:
    (m,) = find_times(text, DEC20, BERLIN)
    assert m.begin is not None and m.begin.astimezone(ZoneInfo(BERLIN)).date() == day
    assert "th" not in rewrite(text, [m], "en").split("on ")[-1][:4]


@pytest.mark.parametrize(
    "text", ["I live on the 2nd floor", "It was my 3rd time", "I finished 2nd in the race", "the 5th was fun"]
)
def test_english_ordinals_that_count_things_are_not_dates(text: str) -> None:
    assert find_times(text, DEC20, BERLIN) == []


def test_jionlp_failures_are_not_logged_as_errors(caplog: pytest.LogCaptureFixture) -> None:
    """jionlp logs each fragment it cannot parse as a root-logger ERROR with a traceback; for
    the time normaliser that is "no mention", and no such record may reach the user's logs."""
    import logging

    with caplog.at_level(logging.DEBUG):
        got = find_times("我爸妈在老家，我基本每个月回去一趟，开车两个多小时。", DEC1, SH)
        logging.getLogger().error("an error of the application itself")  # other records pass
    assert got == []
    assert [r.getMessage() for r in caplog.records] == ["an error of the application itself"]
