"""The budget packer and the rendered context never exceed their limits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memquill.context import render
from memquill.model import MemoryType
from memquill.retrieve.budget import pack

TYPES = list(MemoryType)


@given(
    items=st.lists(st.tuples(st.integers(0, 300), st.sampled_from(TYPES)), max_size=60),
    budget=st.integers(0, 2000),
)
@settings(max_examples=200, deadline=None)
def test_pack_respects_budget_and_quotas(items: list[tuple[int, MemoryType]], budget: int) -> None:
    quotas = {MemoryType.EPISODE: 0.4, MemoryType.TEMPORARY: 0.3}
    p = pack(items, lambda i: i[0], lambda i: i[1], budget, quotas)
    assert p.tokens <= budget
    assert p.tokens == sum(items[i][0] for i in p.chosen)
    for t, share in quotas.items():
        assert sum(items[i][0] for i in p.chosen if items[i][1] is t) <= share * budget
    assert p.chosen == sorted(p.chosen)


@given(
    items=st.lists(st.tuples(st.integers(0, 300), st.sampled_from(TYPES)), max_size=60),
    budget=st.integers(0, 2000),
)
@settings(max_examples=200, deadline=None)
def test_refill_spends_only_room_the_quota_pass_left(
    items: list[tuple[int, MemoryType]], budget: int
) -> None:
    """With ``refill`` the budget still holds, everything the quota pass chose stays, and an
    item is left out only when it no longer fits."""
    quotas = {MemoryType.EPISODE: 0.4, MemoryType.TEMPORARY: 0.3}
    first = pack(items, lambda i: i[0], lambda i: i[1], budget, quotas)
    p = pack(items, lambda i: i[0], lambda i: i[1], budget, quotas, refill=True)
    assert p.tokens <= budget and p.tokens == sum(items[i][0] for i in p.chosen)
    assert set(first.chosen) <= set(p.chosen) and p.chosen == sorted(p.chosen)
    for i, (cost, _) in enumerate(items):
        if i not in p.chosen:
            assert cost > budget - p.tokens  # it would not have fitted the room left


class WordTokenizer:
    """Counts words, and one extra per line: deliberately not additive over concatenation."""

    def count(self, text: str) -> int:
        return len(text.split()) + text.count("\n")


@given(
    contents=st.lists(st.text(alphabet="abc xyz 茶咖啡", min_size=1, max_size=80), max_size=25),
    budget=st.integers(1, 400),
)
@settings(max_examples=100, deadline=None)
def test_rendered_context_never_exceeds_budget(contents: list[str], budget: int) -> None:
    from datetime import UTC, datetime

    from memquill.model import MemoryRecord, Scope, Source
    from memquill.model.result import Hit

    now = datetime(2026, 11, 29, tzinfo=UTC)
    hits = [
        Hit(
            memory=MemoryRecord(
                id=f"m{i}",
                type=MemoryType.FACT,
                scope=Scope(user="u"),
                subject="s",
                key=f"k{i}",
                content=c,
                confidence=0.9,
                source=Source.EXPLICIT,
                evidence=["e"],
                created_at=now,
                updated_at=now,
            ),
            score=1.0,
        )
        for i, c in enumerate(contents)
    ]
    ctx = render([], hits, WordTokenizer(), budget, "en")
    assert WordTokenizer().count(ctx.text) <= budget
    assert ctx.tokens <= budget


@given(
    lines=st.lists(
        st.tuples(st.text(alphabet="abc xyz 茶咖啡", min_size=1, max_size=60), st.booleans()), max_size=15
    ),
    contents=st.lists(st.text(alphabet="abc xyz 茶", min_size=1, max_size=60), max_size=15),
    budget=st.integers(1, 400),
    share=st.floats(0.0, 1.0),
)
@settings(max_examples=100, deadline=None)
def test_standing_sections_never_exceed_the_budget_and_critical_lines_lead(
    lines: list[tuple[str, bool]], contents: list[str], budget: int, share: float
) -> None:
    from datetime import UTC, datetime

    from memquill.model import MemoryRecord, Scope, Source
    from memquill.model.result import Hit
    from memquill.retrieve.attributes import Attribute
    from memquill.retrieve.profile import ProfileEntry, Standing

    now = datetime(2026, 11, 29, tzinfo=UTC)

    def rec(i: str, c: str) -> MemoryRecord:
        return MemoryRecord(
            id=i,
            type=MemoryType.FACT,
            scope=Scope(user="u"),
            subject="user",
            key=i,
            content=c,
            confidence=0.9,
            source=Source.EXPLICIT,
            evidence=[f"e{i}"],
            created_at=now,
            updated_at=now,
        )

    entries = sorted(
        [
            ProfileEntry(rec(f"p{i}", c), Attribute(key="k", profile="constraint", safety_critical=crit), 1.0)
            for i, (c, crit) in enumerate(lines)
        ],
        key=lambda e: not e.safety_critical,
    )
    hits = [Hit(memory=rec(f"m{i}", c), score=1.0) for i, c in enumerate(contents)]
    ctx = render([], hits, WordTokenizer(), budget, "en", [Standing("profile", entries, share)])
    assert WordTokenizer().count(ctx.text) <= budget and ctx.tokens <= budget
    critical = {e.record.id for e in entries if e.safety_critical}
    shown = [i.memory_id for i in ctx.items if i.section == "profile"]
    flags = [m in critical for m in shown]
    assert flags == sorted(flags, reverse=True)  # critical lines come first
