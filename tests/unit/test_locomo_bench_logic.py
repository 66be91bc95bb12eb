"""Pure logic of bench/locomo.py: evidence normalisation, dates, recall arithmetic."""

from __future__ import annotations

import importlib.util
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "locomo.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("locomo_bench", _PATH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses need the module registered
    spec.loader.exec_module(mod)
    return mod


lb = _load()
VALID = {f"D{s}:{t}" for s in range(1, 31) for t in range(1, 30)}


@pytest.mark.parametrize(
    ("entries", "expected", "changed"),
    [
        (["D1:3", "D2:4"], ["D1:3", "D2:4"], False),
        (["D8:6; D9:17"], ["D8:6", "D9:17"], True),
        (["D1:3 D1:5 D2:1"], ["D1:3", "D1:5", "D2:1"], True),
        (["D:11:26"], ["D11:26"], True),
        (["D30:05"], ["D30:5"], True),
        (["D1:18", "D", "D1:20"], ["D1:18", "D1:20"], True),
        (["D1:3", "D27:99", "D31:1"], ["D1:3"], True),  # past the end of a session / convo
        (["D1:3", "D1:3"], ["D1:3"], True),
        (["D"], [], True),
        ([], [], False),
    ],
)
def test_normalise_evidence(entries: list[str], expected: list[str], changed: bool) -> None:
    assert lb.normalise_evidence(entries, VALID) == (expected, changed)


def test_load_conversation_counts_changed_and_unusable() -> None:
    sample = {
        "sample_id": "c",
        "conversation": {
            "speaker_a": "A",
            "speaker_b": "B",
            "session_1": [
                {"speaker": "A", "dia_id": "D1:1", "text": "hi"},
                {"speaker": "B", "dia_id": "D1:2", "text": "look", "blip_caption": "a dog"},
            ],
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_2_date_time": "2:00 pm on 9 May, 2023",  # timestamp without a session
        },
        "qa": [
            {"question": "q1", "category": 4, "evidence": ["D1:1"]},
            {"question": "q2", "category": 1, "evidence": ["D1:01; D1:2"]},
            {"question": "q3", "category": 3, "evidence": []},
            {"question": "q4", "category": 2, "evidence": ["D"]},
        ],
    }
    conv = lb.load_conversation(sample)
    assert [s.name for s in conv.sessions] == ["session_1"]
    assert conv.turns[1].content == "B: look [image: a dog]"
    assert (conv.changed, conv.unusable) == (2, 2)
    assert [q.gold for q in conv.qa] == [["D1:1"], ["D1:1", "D1:2"]]


def test_parse_session_datetime() -> None:
    assert lb.parse_session_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert lb.parse_session_datetime("12:48 am on 1 February, 2023") == datetime(
        2023, 2, 1, 0, 48, tzinfo=UTC
    )
    assert lb.parse_session_datetime("12:05 pm on 31 December, 2022").hour == 12
    with pytest.raises(ValueError):
        lb.parse_session_datetime("yesterday")


def test_recall_any_all() -> None:
    ranked = [["D1:1"], ["D2:2", "D3:3"], ["D4:4"]]
    gold = ["D3:3", "D4:4"]
    assert [lb.recall_any(gold, ranked, k) for k in (1, 2, 3, 10)] == [0.0, 1.0, 1.0, 1.0]
    assert [lb.recall_all(gold, ranked, k) for k in (1, 2, 3, 10)] == [0.0, 0.0, 1.0, 1.0]
    assert lb.recall_any(gold, [], 5) == 0.0
    assert lb.recall_all([], ranked, 5) == 0.0


def test_aggregate_rows_and_overall_excludes_category_5() -> None:
    r = lb.QAResult
    results = [
        r(1, ["D1:1", "D1:2"], [["D1:1"], ["D1:2"]], 10, 1.0),  # any@1, all@3
        r(4, ["D2:1"], [["D9:9"], ["D2:1"]], 20, 1.0),  # any@3 only
        r(4, ["D3:1"], [], 0, 1.0),  # miss
        r(5, ["D4:1"], [["D4:1"]], 30, 1.0),  # adversarial: reported apart
    ]
    rows = lb.aggregate(results)
    assert list(rows) == ["1 multi-hop", "4 single-hop", lb.OVERALL, "5 adversarial"]
    o = rows[lb.OVERALL]
    assert o["n"] == 3
    assert o["any@1"] == pytest.approx(1 / 3)
    assert o["any@3"] == pytest.approx(2 / 3)
    assert o["all@1"] == 0.0
    assert o["all@3"] == pytest.approx(2 / 3)
    assert o["tokens@5"] == pytest.approx(10.0)
    assert rows["4 single-hop"]["any@10"] == 0.5
    assert rows["5 adversarial"]["any@1"] == 1.0


def test_memquill_ingest_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []

    class FakeMemory:
        def __init__(self, path: str, settings: Any = None) -> None:
            calls.append(("init", path))

        def add(self, content: str, **kw: Any) -> None:
            calls.append(("add", (content, kw)))

        def end_session(self, **kw: Any) -> None:
            calls.append(("end", kw))

        def flush(self) -> None:
            calls.append(("flush", None))

        def search(self, q: str, **kw: Any) -> list[Any]:
            calls.append(("search", kw))
            mem = SimpleNamespace(evidence=["D1:1", "D2:1"], content="A: hi")
            return [SimpleNamespace(memory=mem, score=1.0)]

        def count(self, **kw: Any) -> int:
            return 1

        def records(self, **kw: Any) -> list[Any]:
            return []

    monkeypatch.setitem(sys.modules, "memquill", SimpleNamespace(Memory=FakeMemory))
    at1 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    at2 = datetime(2023, 5, 9, 9, 0, tzinfo=UTC)
    conv = lb.Conversation(
        "c",
        [
            lb.Session("session_1", at1, [lb.Turn("D1:1", "A: hi")]),
            lb.Session("session_2", at2, [lb.Turn("D2:1", "B: yo")]),
        ],
        [lb.QAItem("q", 1, ["D1:1", "D2:1"])],
    )
    run = lb.run_system(lb.MemquillSystem(None), [conv], lambda s: len(s.split()))
    assert calls[0] == ("init", ":memory:")
    assert calls[1] == (
        "add",
        (
            "A: hi",
            {
                "user": "c",
                "session": "session_1",
                "role": "user",
                "id": "D1:1",
                "at": at1.isoformat(),
            },
        ),
    )
    assert [c[0] for c in calls] == ["init", "add", "end", "add", "end", "flush", "search"]
    assert calls[-1][1] == {"user": "c", "k": 10, "at": at2.isoformat()}
    assert (run.stored, run.turns) == (1, 2)
    assert run.results[0].ranked == [["D1:1", "D2:1"]]
    assert lb.recall_all(run.results[0].gold, run.results[0].ranked, 1) == 1.0


def test_evidence_share_counts_gold_turns_cited_by_non_episode_records() -> None:
    def rec(kind: str, status: str, evidence: list[str], rule: str = "profile.city") -> Any:
        return SimpleNamespace(type=kind, status=status, evidence=evidence, attributes={"rule": rule})

    conv = lb.Conversation(
        "c",
        [],
        [lb.QAItem("q1", 1, ["D1:1", "D1:2"]), lb.QAItem("q2", 4, ["D1:3"]), lb.QAItem("adv", 5, ["D1:4"])],
    )
    share = lb.EvidenceShare()
    share.add(
        conv,
        [
            rec("episode", "active", ["D1:1", "D1:2", "D1:3"]),  # episodes do not count
            rec("fact", "active", ["D1:1"]),
            rec("preference", "active", ["D1:2"], rule="model:attribute-model@1 (p=0.9)"),
            rec("fact", "candidate", ["D1:3"]),
            rec("fact", "active", ["D1:4"]),  # adversarial gold is not counted
        ],
    )
    d = share.as_dict()
    assert d["gold_turns"] == 3
    assert d["active"] == pytest.approx(2 / 3)
    assert d["active_or_candidate"] == pytest.approx(1.0)
    assert (d["active_by_rules"], d["active_by_model"]) == (pytest.approx(1 / 3), pytest.approx(1 / 3))
