"""``StillNear``: what is left of a trimmed episode stays when it shares a word of the request
(its situation terms too), was asked for by a slot, states a safety need by its stored reading,
or sits within the focus margin of the best vector match — judged on the leftover's own vector."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memquill.model import MemoryType
from memquill.model.result import Hit
from memquill.retrieve.pipeline import StillNear
from memquill.text import query_terms
from tests.unit.test_focus_standing import hit, rec

Q = np.array([1.0, 0.0], dtype=np.float32)


class TwoDims:
    """The query is (1, 0); a passage's cosine with it is looked up by its text."""

    name = "two-dims"
    dim = 2

    def __init__(self, cosines: dict[str, float]) -> None:
        self.cosines = cosines
        self.passages: list[str] = []

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return Q

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.passages.extend(texts)
        c = [self.cosines[t] for t in texts]
        return np.array([[x, float(np.sqrt(1 - x * x))] for x in c], dtype=np.float32)


def episode(content: str, statements: list[dict[str, object]] | None = None):  # type: ignore[no-untyped-def]
    r = rec(content, "episode", MemoryType.EPISODE)
    if statements:
        r.attributes["statements"] = statements
    return r


def test_a_leftover_is_judged_by_its_own_vector_against_the_best_match() -> None:
    emb = TwoDims({"正在准备秋招。": 0.80, "Been learning the cello.": 0.87})
    ep = episode("我不吃香菜。 正在准备秋招。")
    near = StillNear(emb, "宿舍聚餐点外卖", [hit(ep, 0.88)], asked=["聚餐", "外卖"])
    assert near(ep, "正在准备秋招。") is False  # 0.80 < 0.88 - 0.02
    assert near(ep, "Been learning the cello.") is True  # within the margin
    near(ep, "正在准备秋招。")
    assert emb.passages == ["正在准备秋招。", "Been learning the cello."]  # each leftover embedded once


def test_words_of_the_request_a_slot_or_a_safety_need_keep_a_far_leftover() -> None:
    emb = TwoDims({})  # any embedding asked for would fail the lookup
    ep = episode("x", [{"text": "有哮喘，包里永远揣着吸入器。", "sensitive": ["health", 0.08, 0.89, "v"]}])
    asked = Hit(memory=ep, score=1.0, why={"legs": {"slot": {"rank": 1}}})
    terms = query_terms("when does the library close")
    assert StillNear(emb, "q", [hit(ep, 0.9)], asked=terms)(ep, "Library every night.") is True
    assert StillNear(emb, "q", [asked], asked=[])(ep, "anything") is True
    assert StillNear(emb, "q", [hit(ep, 0.9)], asked=[])(ep, "有哮喘，包里永远揣着吸入器。") is True
    assert emb.passages == []


def test_a_far_leftover_stating_what_the_request_needs_stays() -> None:
    emb = TwoDims({"Biscuit chewed the sofa again.": 0.70})
    reading = [0.9, [["pet", 0.91], ["name", 0.05]]]
    ep = episode("x", [{"text": "Biscuit chewed the sofa again.", "reading": reading}])
    hits = [hit(ep, 0.9)]
    assert StillNear(emb, "q", hits, asked=[], needs=["pet", "commute"])(ep, "Biscuit chewed the sofa again.")
    assert not StillNear(emb, "q", hits, asked=[], needs=["commute"])(ep, "Biscuit chewed the sofa again.")
