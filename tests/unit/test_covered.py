"""Records that only repeat turns an episode above them shows give way to new turns."""

from __future__ import annotations

from memquill.model import MemoryType
from memquill.retrieve.covered import spread
from memquill.retrieve.rerank import Scored
from tests.conformance.builders import record


def scored(mid: str, kind: MemoryType, evidence: list[str]) -> Scored:
    return Scored(record(mid, type=kind, evidence=evidence), 1.0, {})


def ids(items: list[Scored]) -> list[str]:
    return [s.record.id for s in items]


def test_a_record_whose_turns_an_earlier_episode_shows_moves_behind_new_turns() -> None:
    ranked = [
        scored("ep1", MemoryType.EPISODE, ["D1:1", "D1:2", "D1:3"]),
        scored("fact", MemoryType.FACT, ["D1:2"]),  # repeats ep1's turn
        scored("ep2", MemoryType.EPISODE, ["D2:1", "D2:2"]),
        scored("pref", MemoryType.PREFERENCE, ["D3:1"]),  # a turn nobody showed
    ]
    assert ids(spread(ranked, lambda _: False)) == ["ep1", "ep2", "pref", "fact"]


def test_a_record_above_its_episode_or_a_slot_answer_keeps_its_place() -> None:
    ranked = [
        scored("fact", MemoryType.FACT, ["D1:2"]),  # first: it shows the turn first
        scored("ep1", MemoryType.EPISODE, ["D1:1", "D1:2"]),
        scored("slot", MemoryType.FACT, ["D1:1"]),  # asked for by the question
        scored("partly", MemoryType.FACT, ["D1:1", "D4:1"]),  # brings D4:1
        scored("ep2", MemoryType.EPISODE, ["D5:1"]),
    ]
    assert ids(spread(ranked, lambda mid: mid == "slot")) == ["fact", "ep1", "slot", "partly", "ep2"]
