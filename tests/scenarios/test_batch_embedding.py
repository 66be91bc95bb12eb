"""Write-path embedding: a batch of candidates is embedded in one call, each text once, the
vector stored is the one the decision used, and re-runs that are no-ops never embed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pytest

from memquill import FixedClock, Memory
from memquill.model import Candidate, MemoryType, Scope, Source
from memquill.model.query import RecordFilter
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings
from memquill.store.base import Store
from memquill.write.pipeline import SESSION_END_TRIGGERS
from memquill.write.vectors import CandidateVectors, embedding_text

ALL = RecordFilter(Scope(user="u"), statuses=None, owner=True)


class Counting(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[str]] = []

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.batches.append(list(texts))
        return super().embed_passages(texts)


SESSIONS = {
    "en": [
        "Alice: I spent the weekend repairing the old sailing boat with my brother in Portland.",
        "Bob: The hull needed new fiberglass and the mast was cracked near the base.",
        "Alice: We sanded every plank, then painted the deck a deep navy blue colour.",
        "Bob: My brother found antique brass fittings at a flea market downtown.",
        "Alice: Next month we plan to sail it across the lake to the island campsite.",
        "Bob: The campsite has a small lighthouse that volunteers restored last year.",
        "Alice: I joined a pottery class on Thursday evenings at the community centre.",
        "Bob: The teacher showed us how to centre clay on the wheel and trim bowls.",
        "Alice: My first glazed mug cracked in the kiln, but the second survived.",
        "Bob: I am collecting old vinyl records from the seventies jazz scene now.",
    ],
    "zh": [
        "张伟：周末我和哥哥在青岛修那条旧帆船，船体要换新的玻璃纤维。",
        "李娜：桅杆底部裂了，你们后来是找哪家船厂换的材料？",
        "张伟：我们把甲板每块木板都打磨了一遍，然后刷成深蓝色油漆。",
        "李娜：我哥哥在旧货市场淘到一套老式黄铜配件，装上去很好看。",
        "张伟：下个月我们打算开船穿过海湾去对面小岛的露营地。",
        "李娜：那个露营地有座小灯塔，去年志愿者刚刚修好重新开放。",
        "张伟：我最近报了社区中心的陶艺课，每周四晚上去上课。",
        "李娜：老师教我们怎么在转盘上定中心，还有修坯做碗的方法。",
        "张伟：我第一个上釉的杯子在窑里烧裂了，第二个总算成功了。",
        "李娜：我现在开始收藏七十年代爵士乐的黑胶唱片，已经有三十张。",
    ],
}


@pytest.fixture
def counted(make_store: Callable[..., Store]) -> tuple[Memory, Counting]:
    emb = Counting()
    mem = Memory(
        store=make_store(),
        clock=FixedClock("2026-11-29T02:00:00+00:00"),
        embedder=emb,
        settings=Settings(default_timezone="Asia/Shanghai"),
    )
    return mem, emb


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_session_end_embeds_its_episodes_in_one_call(counted: tuple[Memory, Counting], lang: str) -> None:
    mem, emb = counted
    for i, text in enumerate(SESSIONS[lang]):
        mem.add(text, user="u", session="s1", id=f"{lang}{i}")
    mem.flush()
    emb.batches.clear()
    mem.end_session(user="u", session="s1")
    mem.flush()
    episodes = [r for r in mem.store.find(ALL) if r.type is MemoryType.EPISODE]
    assert len(episodes) >= 2
    assert len(emb.batches) == 1  # one call for the whole session end
    texts = emb.batches[0]
    assert len(texts) == len(set(texts))  # each text once
    stored = mem.store.embeddings([r.id for r in episodes])
    for rec in episodes:  # the vector the decision used is the one stored with the record
        text = str(rec.attributes.get("search_text") or rec.content)
        assert text in texts
        np.testing.assert_allclose(stored[rec.id], HashEmbedder().embed_passages([text])[0], rtol=1e-6)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replayed_session_end_embeds_nothing(counted: tuple[Memory, Counting], lang: str) -> None:
    mem, emb = counted
    for i, text in enumerate(SESSIONS[lang]):
        mem.add(text, user="u", session="s1", id=f"{lang}{i}")
    mem.end_session(user="u", session="s1")
    mem.flush()
    before = len(mem.store.find(ALL))
    emb.batches.clear()
    events = mem.store.session_events(Scope(user="u"), "s1")
    mem.pipeline.run(events, SESSION_END_TRIGGERS)  # a crash-and-retry of the same job
    assert emb.batches == []
    assert len(mem.store.find(ALL)) == before


def test_identical_texts_share_one_embedding() -> None:
    emb = Counting()
    cands = [_cand("the user likes green tea"), _cand("用户喜欢绿茶"), _cand("the user likes green tea")]
    vectors = CandidateVectors(emb, cands)
    assert vectors.get(1) is not None
    assert emb.batches == [["用户喜欢绿茶", "the user likes green tea"]]  # from 1 on, deduplicated
    v0, v2 = vectors.get(0), vectors.get(2)
    assert emb.batches[1:] == []  # already embedded with the batch
    assert v0 is not None and v2 is not None and np.array_equal(v0, v2)
    assert embedding_text(cands[0]) == "the user likes green tea"


def _cand(content: str) -> Candidate:
    return Candidate(
        type=MemoryType.FACT,
        subject="user",
        key="note:x",
        content=content,
        evidence=["e1"],
        confidence=0.9,
        source=Source.EXPLICIT,
    )
