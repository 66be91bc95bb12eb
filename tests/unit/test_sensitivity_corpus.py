"""The sensitivity corpora the shipped head is trained on (decision 0016n) repeat no bench
utterance or request: the context specs measure text the head has not read."""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ("train", "statements", "hardneg", "classes", "arrears")


def _bench_texts() -> set[str]:
    seen: set[str] = set()
    for path in sorted((ROOT / "bench/data").glob("context_utterances*.json")):
        seen |= {str(v) for v in json.loads(path.read_text("utf-8")).values()}
    for path in sorted((ROOT / "bench/data").glob("context_spec*.json")):
        for user in json.loads(path.read_text("utf-8"))["users"]:
            seen |= {r["text"] for r in user["requests"]}
    return seen


@pytest.mark.parametrize(
    ("name", "least"), [("classes", 90), ("routines", 120), ("matters", 360), ("topics", 400)]
)
def test_no_row_of_the_written_classes_repeats_a_bench_text(name: str, least: int) -> None:
    rows = [
        json.loads(x)
        for x in (ROOT / f"tests/data/sensitivity_{name}.jsonl").read_text("utf-8").splitlines()
        if x.strip()
    ]
    assert len(rows) >= least
    assert {r["lang"] for r in rows} == {"zh", "en"}
    assert not [r["text"] for r in rows if r["text"] in _bench_texts()]


@pytest.mark.parametrize("name", ["routines", "matters", "topics"])
def test_no_written_row_is_near_a_bench_text(name: str) -> None:
    """Rows written for a class, not for a bench sentence: none within string similarity 0.6."""
    seen = _bench_texts()
    for line in (ROOT / f"tests/data/sensitivity_{name}.jsonl").read_text("utf-8").splitlines():
        text = json.loads(line)["text"]
        near = [s for s in seen if SequenceMatcher(None, text, s).ratio() >= 0.6]
        assert not near, (text, near)


def test_every_corpus_the_trainer_reads_by_default_exists_and_is_labelled() -> None:
    for name in CORPORA:
        for line in (ROOT / f"tests/data/sensitivity_{name}.jsonl").read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                assert row["text"] and row["label"] and row["lang"] in ("zh", "en"), row
