"""Throughput of time normalisation on a mixed bilingual batch (the write path needs ≥1,000/s).

    .venv/bin/python bench/bench_timenorm.py [--seconds 1.0]

200 sentences: 50 Chinese and 50 English with a time expression, 50 + 50 without. The
first call (which may import jionlp for the Chinese long tail) is timed on its own; the
table is steady state, find_times + rewrite per sentence, anchored on a fixed instant.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from itertools import cycle, islice

from memquill.write.timenorm import find_times, rewrite

ANCHOR = datetime(2026, 11, 29, 2, 0, tzinfo=UTC)
ZONE = "Asia/Shanghai"

ZH_TIMES = [
    "明天下午三点",
    "后天",
    "下周三",
    "上周五",
    "三个月后",
    "下个季度",
    "今天下午",
    "月底",
    "今天下午五点前",
    "本周",
    "下个月",
    "2023年5月8日",
    "5月8日",
    "今晚八点",
    "明早八点半",
    "周五前",
    "两周后",
    "年底",
    "下周末",
    "3天前",
    "半小时后",
    "本季度",
    "下个月15号",
    "国庆节",
    "明年",
]
ZH_PLAIN = [
    "好的，明白了",
    "我喜欢喝美式咖啡，不加糖",
    "这个方案不错，就按这个来",
    "谢谢你的帮助",
    "我住在杭州西湖区",
    "项目用的是 PostgreSQL 数据库",
    "请用中文回答我",
    "我对花生过敏",
    "代码风格请用四个空格缩进",
    "我的猫叫小白",
    "把这个接口改成异步的",
    "我是后端工程师",
    "不要在回复里用表情符号",
    "这个需求先放一放",
    "我们团队有五个人",
    "测试覆盖率要达到八成",
    "部署脚本在仓库的根目录",
    "我更喜欢简洁的回答",
    "这家餐厅的菜很好吃",
    "以后都用英文写注释",
    "我女儿在读小学",
    "我们用飞书沟通",
    "请帮我检查一下拼写",
    "我不喝酒",
    "文档写得很清楚",
]
EN_TIMES = [
    "tomorrow at 3pm",
    "the day after tomorrow",
    "next Wednesday",
    "last Friday",
    "in three months",
    "next quarter",
    "by the end of the month",
    "this afternoon",
    "this week",
    "tonight",
    "on 8 May, 2023",
    "May 8",
    "2023-05-08",
    "at 9:30 am on Monday",
    "before 5pm today",
    "next month",
    "in 2 hours",
    "3 days ago",
    "this weekend",
    "next year",
    "yesterday",
    "tomorrow morning",
    "Q1 2027",
    "end of next week",
    "on Friday",
]
EN_PLAIN = [
    "ok thanks",
    "I prefer tabs over spaces",
    "Use PostgreSQL for the orders service",
    "My cat is called Pixel",
    "I am allergic to peanuts",
    "Please answer in English",
    "The build script lives in the repo root",
    "I work on the payments team",
    "Keep the replies short",
    "That plan sounds good to me",
    "I don't drink coffee",
    "We deploy with GitHub Actions",
    "Sorry, I meant the other file",
    "Great, that works",
    "The API must stay backwards compatible",
    "I live in Lisbon",
    "No emojis please",
    "Our team uses Python and Go",
    "Let's go with option B",
    "That's not what I asked",
    "I like concise answers",
    "The tests are flaky",
    "Ship it",
    "Write the docs in Markdown",
    "My daughter plays the piano",
]


def batch() -> list[tuple[str, str, bool]]:
    """(sentence, language, has_time); 50 per (language, has_time) cell."""
    zh_t = [f"我们{t}开会" if i % 2 else f"他说{t}要交报告" for i, t in enumerate(ZH_TIMES * 2)]
    en_t = [f"I fly to Paris {t}" if i % 2 else f"The review is {t}" for i, t in enumerate(EN_TIMES * 2)]
    zh_p = list(islice(cycle(ZH_PLAIN), 50))
    en_p = [f"{s}." if i >= 25 else s for i, s in enumerate(islice(cycle(EN_PLAIN), 50))]
    return (
        [(s, "zh", True) for s in zh_t]
        + [(s, "en", True) for s in en_t]
        + [(s, "zh", False) for s in zh_p]
        + [(s, "en", False) for s in en_p]
    )


def run(items: list[tuple[str, str, bool]], seconds: float) -> tuple[float, float, float]:
    """Sentences/s, mentions/s and µs per sentence over at least ``seconds``."""
    loops, mentions, start = 0, 0, time.perf_counter()
    while True:
        for text, lang, _ in items:
            found = find_times(text, ANCHOR, ZONE, lang)
            rewrite(text, found, lang)
            mentions += len(found)
        loops += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            n = loops * len(items)
            return n / elapsed, mentions / elapsed, elapsed / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    items = batch()
    t0 = time.perf_counter()
    for text, lang, _ in items:
        find_times(text, ANCHOR, ZONE, lang)
    print(f"cold pass over {len(items)} sentences (lazy imports): {time.perf_counter() - t0:.3f}s")
    rows = [
        ("all", items),
        ("with time", [i for i in items if i[2]]),
        ("without time", [i for i in items if not i[2]]),
        ("zh with time", [i for i in items if i[2] and i[1] == "zh"]),
        ("en with time", [i for i in items if i[2] and i[1] == "en"]),
        ("zh without", [i for i in items if not i[2] and i[1] == "zh"]),
        ("en without", [i for i in items if not i[2] and i[1] == "en"]),
    ]
    print(f"{'subset':<14}{'n':>5}{'sentences/s':>14}{'mentions/s':>13}{'µs/sentence':>13}")
    for name, subset in rows:
        sps, mps, us = run(subset, args.seconds)
        print(f"{name:<14}{len(subset):>5}{sps:>14,.0f}{mps:>13,.0f}{us:>13.1f}")


if __name__ == "__main__":
    main()
