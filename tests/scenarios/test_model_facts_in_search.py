"""Model facts beside episodes in search (zh + en, every backend): a sentence the attribute
model read from a turn and the episode holding that turn are one item; a model fact ranks
by its calibrated score; and model facts take no leg rank from other records."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source
from memquill.retrieve import derived
from memquill.retrieve.hybrid import Recall
from memquill.retrieve.recipes import Recipe


def put(
    mem: Memory,
    rid: str,
    content: str,
    evidence: list[str],
    kind: MemoryType = MemoryType.EPISODE,
    model_score: float | None = None,
) -> None:
    now = mem.clock.now()
    attrs: dict[str, object] = {}
    if model_score is not None:
        attrs = {"rule": f"model:m@1 (p={model_score:.2f})", "model": {"id": "m@1", "score": model_score}}
    rec = MemoryRecord(
        id=rid,
        type=kind,
        scope=Scope(user="u"),
        subject="conversation" if kind is MemoryType.EPISODE else "user",
        key=f"k-{rid}",
        content=content,
        confidence=model_score or 0.7,
        source=Source.EXPLICIT,
        evidence=evidence,
        attributes=attrs,
        created_at=now,
        updated_at=now,
    )
    vec = mem.embedder.embed_passages([content])[0].tolist()  # type: ignore[union-attr]
    mem.store.apply([Create(rec, Audit(RevisionOp.ADD, "t", "t"), vec)])


CASES = [
    pytest.param(
        "What do Melanie's kids like?",
        "Melanie's kids like dinosaurs.",
        "Melanie: We went to the museum. The kids like dinosaurs and they loved the fossils.",
        "Caroline: I started painting again, mostly sunsets over the lake.",
        id="en",
    ),
    pytest.param(
        "梅兰妮的孩子喜欢什么",
        "梅兰妮的孩子喜欢恐龙。",
        "梅兰妮：我们去了博物馆，孩子喜欢恐龙，看化石看得很开心。",
        "卡罗琳：我又开始画画了，大多画湖边的日落。",
        id="zh",
    ),
]


@pytest.mark.parametrize(("question", "fact", "episode", "other"), CASES)
def test_a_model_fact_and_the_episode_it_was_read_from_take_one_place(
    mem: Memory, question: str, fact: str, episode: str, other: str
) -> None:
    put(mem, "ep", episode, ["D1:1", "D1:2", "D1:3"])
    put(mem, "fact", fact, ["D1:2"], MemoryType.PREFERENCE, model_score=0.8)
    put(mem, "other", other, ["D2:1"])
    hits = mem.search(question, user="u", k=3)
    ids = [h.memory.id for h in hits]
    assert "fact" not in ids and ids[0] == "ep"  # the episode holds the turn, in context
    assert hits[0].why["collapsed"] == ["fact"]
    assert "other" in ids  # the place the fact would have taken goes to a different memory


@pytest.mark.parametrize(("question", "fact", "episode", "other"), CASES)
def test_a_model_fact_no_episode_holds_stays_a_hit(
    mem: Memory, question: str, fact: str, episode: str, other: str
) -> None:
    put(mem, "ep", episode, ["D1:1", "D1:3"])  # the fact's turn D1:2 is in no episode
    put(mem, "fact", fact, ["D1:2"], MemoryType.PREFERENCE, model_score=0.8)
    hits = mem.search(question, user="u", k=3)
    assert "fact" in [h.memory.id for h in hits]


def test_a_model_fact_weighs_by_its_calibrated_score(mem: Memory) -> None:
    put(mem, "guess", "x", ["D1:1"], MemoryType.FACT, model_score=0.4)
    put(mem, "rule", "y", ["D1:2"], MemoryType.FACT)
    guess, rule = mem.store.get_many(["guess", "rule"])
    assert derived.model_made(guess) and not derived.model_made(rule)
    assert derived.weight(guess) == pytest.approx(0.4)
    assert derived.weight(rule) == 1.0


def _pool(ranks: dict[str, int]) -> dict[str, Recall]:
    return {mid: Recall(mid, legs={"lexical": {"rank": r, "score": 1.0}}) for mid, r in ranks.items()}


def test_model_facts_take_no_leg_rank_from_other_records() -> None:
    r = Recipe("t", vector=0.0, depth=2, rrf_k=60)
    pool = _pool({"fact": 1, "e1": 2, "e2": 3, "e3": 4})
    derived.unshift(pool, {"fact"}, r)
    assert pool["e1"].fused == pytest.approx(1 / 61)  # first among the others, as without the fact
    assert pool["fact"].fused == pytest.approx(1 / 61)  # ties with the record after it
    assert pool["e2"].fused == pytest.approx(1 / 62)
    assert "e3" not in pool  # beyond the leg's depth once the fact no longer counts


def test_without_model_facts_the_legs_are_unchanged() -> None:
    r = Recipe("t", vector=0.0, depth=50, rrf_k=60)
    pool = _pool({"e1": 1, "e2": 2})
    derived.unshift(pool, set(), r)
    assert [pool["e1"].fused, pool["e2"].fused] == pytest.approx([1 / 61, 1 / 62])


class _Leg:
    """A lexical leg over fixed ids that records how deep it was read."""

    def __init__(self, ids: list[str]) -> None:
        self.ids, self.reads = ids, list[int]()

    def lexical(self, f: object, terms: object, n: int) -> list[tuple[str, float]]:
        self.reads.append(n)
        return [(i, 1.0) for i in self.ids[:n]]


@pytest.mark.parametrize(("facts", "reads"), [(set(), [2]), ({"b"}, [2, 4]), ({"d"}, [2])])
def test_a_leg_is_read_deeper_only_when_its_first_page_holds_model_facts(
    facts: set[str], reads: list[int]
) -> None:
    """Reading every leg twice as deep whenever a model exists cost a quarter of the search
    latency on stores whose pages hold no model facts; below the first page nothing
    counts unless a fact in it moved the others down."""
    from memquill.retrieve.hybrid import recall

    leg = _Leg(["a", "b", "c", "d"])
    r = Recipe("t", vector=0.0, depth=2, rrf_k=60)
    pool = recall(leg, None, "q", None, r, deepen=lambda ids: 4 if facts & set(ids) else 0)  # type: ignore[arg-type]
    assert leg.reads == reads
    assert list(pool) == ["a", "b", "c", "d"][: reads[-1]]


def test_deeper_asks_for_twice_the_depth_only_for_pages_with_model_facts(mem: Memory) -> None:
    put(mem, "fact", "The user likes oolong tea.", ["e1"], kind=MemoryType.PREFERENCE, model_score=0.8)
    put(mem, "ep", "我周末常去爬山，最近还买了新的登山鞋。", ["e2"])
    r = Recipe("t", vector=0.0, depth=3, rrf_k=60)
    deepen = derived.deeper(mem.store, r, facts_possible=True)
    assert deepen is not None and (deepen(["ep", "fact"]), deepen(["ep"])) == (6, 0)
    assert derived.deeper(mem.store, r, facts_possible=False) is None
