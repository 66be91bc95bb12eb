"""Shared helpers for benchmarks: synthetic bilingual records, percentiles, tables."""

from __future__ import annotations

import platform
import random
import statistics
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source

NOW = datetime(2026, 11, 29, 2, 0, tzinfo=UTC)

EN_SUBJ = ["The user", "The team", "Project web", "The client", "Alice", "Bob"]
EN_VERB = ["prefers", "uses", "dislikes", "deployed", "migrated", "reviewed", "scheduled", "owns"]
EN_OBJ = [
    "dark mode",
    "PostgreSQL 16",
    "green tea",
    "the billing service",
    "Kubernetes",
    "weekly reports",
    "the mobile app",
    "React 18",
    "a trip to Berlin",
    "pnpm workspaces",
    "the staging database",
    "TypeScript",
    "on-call rotation",
    "the search API",
]
ZH_SUBJ = ["用户", "团队", "项目 web", "客户", "张伟", "李娜"]
ZH_VERB = ["喜欢", "使用", "不喜欢", "部署了", "迁移了", "评审了", "安排了", "负责"]
ZH_OBJ = [
    "深色主题",
    "PostgreSQL 16",
    "绿茶",
    "计费服务",
    "Kubernetes",
    "周报",
    "移动端应用",
    "React 18",
    "去杭州出差",
    "微服务架构",
    "预发数据库",
    "接口文档",
    "值班安排",
    "搜索接口",
]


def sentence(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.choice(EN_SUBJ)} {rng.choice(EN_VERB)} {rng.choice(EN_OBJ)} ({rng.randint(1, 9999)})."
    return f"{rng.choice(ZH_SUBJ)}{rng.choice(ZH_VERB)}{rng.choice(ZH_OBJ)}（{rng.randint(1, 9999)}）。"


def records(n: int, user: str, seed: int = 7, dim: int = 384, vecs: np.ndarray | None = None) -> list[Create]:
    """n active records with unit vectors (random unless ``vecs`` are given); content from a
    small bilingual grammar."""
    rng = random.Random(seed)
    if vecs is None:
        vecs = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    out = []
    scope = Scope(user=user)
    for i in range(n):
        rec = MemoryRecord(
            id=f"mem-{uuid.UUID(int=rng.getrandbits(128)).hex[:20]}",
            type=MemoryType.FACT,
            scope=scope,
            subject="user",
            key=f"k{i}",
            content=sentence(rng),
            confidence=0.9,
            source=Source.EXPLICIT,
            evidence=[f"e{i}"],
            created_at=NOW,
            updated_at=NOW,
        )
        out.append(Create(rec, Audit(RevisionOp.ADD, "bench", "bench"), vecs[i].tolist()))
    return out


def pct(values: Sequence[float], q: float) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summary(values: Sequence[float]) -> tuple[float, float, float]:
    return statistics.median(values), pct(values, 0.95), statistics.fmean(values)


def machine() -> str:
    import os

    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [
        [str(c) for c in header],
        *[[f"{c:.2f}" if isinstance(c, float) else str(c) for c in r] for r in rows],
    ]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"  # noqa: E731
    out = [f"\n### {title}\n", line(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in cells[1:]]
    return "\n".join(out)
