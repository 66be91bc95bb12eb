"""The write policy as a value: identity, serialisation, diff, and the decisions it makes."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memquill.errors import ConfigError
from memquill.model import Candidate, MemoryType, Source
from memquill.model.candidate import Trigger
from memquill.settings import Settings
from memquill.write import noise
from memquill.write.policy import WritePolicy
from memquill.write.score import score

AT = datetime(2026, 3, 1, 9, tzinfo=UTC)


def cand(t: MemoryType = MemoryType.EPISODE, **attrs: object) -> Candidate:
    return Candidate(
        type=t,
        subject="user",
        key="k",
        content="用户上周去了杭州出差，见了客户",
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=["e1"],
        observed_at=AT,
        attributes=dict(attrs),
    )


def test_id_names_the_parameters_not_the_label() -> None:
    a = WritePolicy()
    assert a.id == WritePolicy(label="renamed").id
    assert a.id != WritePolicy(worthiness_threshold=0.55).id
    assert a.id.startswith("wp-") and len(a.id) == 15


def test_json_round_trip_keeps_identity_and_an_edited_file_gets_its_real_id() -> None:
    p = WritePolicy(type_thresholds={MemoryType.EPISODE: 0.7}, ttl_days={MemoryType.TEMPORARY: 2})
    back = WritePolicy.from_json(p.to_json())
    assert back == p and back.id == p.id
    edited = json.loads(p.to_json())
    edited["worthiness_threshold"] = 0.4  # the stale "id" line stays in the file
    assert WritePolicy.from_json(json.dumps(edited)).id != p.id


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"worthiness_threshold": 2}',
        '{"nonsense": 1}',
        '{"type_thresholds": {"episode": -1}}',
        '{"ttl_days": {"temporary": 0}}',
    ],
)
def test_bad_policy_files_are_config_errors(text: str) -> None:
    with pytest.raises(ConfigError):
        WritePolicy.from_json(text)


def test_diff_lists_changed_parameters_with_both_values() -> None:
    a, b = WritePolicy(), WritePolicy(confidence_floor=0.7, type_thresholds={MemoryType.FACT: 0.6})
    assert a.diff(b) == {"confidence_floor": (0.6, 0.7), "type_thresholds.fact": (None, 0.6)}
    assert a.diff(a) == {}


def test_settings_give_the_cold_start_policy() -> None:
    p = WritePolicy.from_settings(Settings(worthiness_threshold=0.45, duplicate_similarity=0.9))
    assert (p.worthiness_threshold, p.duplicate_similarity) == (0.45, 0.9)


def test_per_type_threshold_drops_only_that_type() -> None:
    strict = WritePolicy(type_thresholds={MemoryType.EPISODE: 0.65})
    kept, dropped = score([cand(MemoryType.EPISODE), cand(MemoryType.FACT)], strict.threshold_for)
    assert [c.type for c in kept] == [MemoryType.FACT]
    assert [c.type for c in dropped] == [MemoryType.EPISODE]


def test_safety_critical_attributes_are_never_harder_to_write() -> None:
    raised = WritePolicy(type_thresholds={MemoryType.FACT: 0.95})
    assert raised.threshold_for(cand(MemoryType.FACT)) == 0.95
    assert raised.threshold_for(cand(MemoryType.FACT, safety_critical=True)) == 0.5
    lowered = WritePolicy(type_thresholds={MemoryType.FACT: 0.3})
    assert lowered.threshold_for(cand(MemoryType.FACT, safety_critical=True)) == 0.3


def test_shape_applies_triggers_and_ttl_and_stamps_the_policy() -> None:
    p = WritePolicy(triggers={MemoryType.EPISODE: Trigger.BACKGROUND}, ttl_days={MemoryType.EPISODE: 10})
    c = p.shape(cand(MemoryType.EPISODE))
    assert c.trigger is Trigger.BACKGROUND
    assert c.expires_at == datetime(2026, 3, 11, 9, tzinfo=UTC)
    assert c.attributes["policy"] == p.id
    explicit = p.shape(cand(MemoryType.EPISODE, explicit=True).model_copy(update={"trigger": Trigger.HOT}))
    assert explicit.trigger is Trigger.HOT  # "remember …" stays on the hot path


def test_a_policy_may_relax_only_the_relaxable_gate_reasons() -> None:
    default, loose = WritePolicy(), WritePolicy(gate_drops=("joke",))
    assert default.drops("small talk") and not loose.drops("small talk") and loose.drops("joke")
    assert loose.drops("filler") and loose.drops("laughter")  # never relaxable
    assert (
        WritePolicy(gate_drops=("small talk", "joke")).id == WritePolicy(gate_drops=("joke", "small talk")).id
    )
    with pytest.raises(ConfigError):
        WritePolicy.from_json('{"gate_drops": ["filler"]}')


@pytest.mark.parametrize(
    ("text", "before"),
    [
        (
            "Biscuit and Juno destroyed a couch cushion today. Two dogs was a mistake. Kidding.",
            "Biscuit and Juno",
        ),
        ("我家两只猫，橘子和年糕，天天打架。养两只真是失误。开玩笑的。", "我家两只猫"),
    ],
)
def test_what_a_joke_leaves_is_read_unless_the_policy_keeps_jokes(text: str, before: str) -> None:
    """The gate's remainder of a joke is what the pipeline reads; a policy that lets jokes
    through (``gate_drops`` without "joke") reads the whole turn, as before the remainder."""
    verdict = noise.gate(text)
    assert not verdict.keep and verdict.reason == "joke"
    kept = verdict.said(text, WritePolicy().drops(verdict.reason))
    assert kept is not None and kept.startswith(before) and kept != text
    assert verdict.said(text, WritePolicy(gate_drops=("small talk",)).drops(verdict.reason)) == text
    assert noise.gate("I'm actually a cat, just kidding").said("I'm actually a cat, just kidding") is None
