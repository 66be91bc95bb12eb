"""Which span of a clause is the attribute's value: a small learned ranker.

Given the attribute (key and value type) and the clause, every candidate span from
``span_features`` gets a score ``w · φ(span)`` (hashed sparse features, one weight vector)
and the spans compete in a softmax — listwise logistic regression, trained with numpy by
``scripts/train_spans.py`` on the training corpus's labelled values and shipped as package
data (``data/span_model.npz``, with the known values per attribute it was trained beside).
Types with a strict shape (email, phone, URL, numbers, money, durations, languages) only
choose among spans that overlap what their regex found, so the ranker never invents one.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO

import numpy as np
import numpy.typing as npt

from memquill.catalogue import Attribute
from memquill.errors import ConfigError
from memquill.write.extract import value_shapes
from memquill.write.extract.span_features import Context, Span, context, features, label_words

MODEL_FILE = "data/span_model.npz"
DIM = 1 << 16
STRICT = frozenset({"email", "phone", "url", "number", "money", "duration", "language"})
Array = npt.NDArray[np.float32]


def hashed(feats: Sequence[str]) -> npt.NDArray[np.int64]:
    """Stable feature indices (crc32, not Python's salted hash)."""
    return np.fromiter((zlib.crc32(x.encode()) % DIM for x in feats), dtype=np.int64, count=len(feats))


# "我爸", "my sister": the subject's own word said as the speaker's is still the subject
_OWNER = re.compile(r"^(?:我们的?|我的?|咱们?的?|(?:my|our)\s+)", re.IGNORECASE)


def eligible(ctx: Context, spans: list[Span]) -> list[Span]:
    """Shaped values (``value_shapes.exact``) keep only their exact spans, other strict
    types only spans overlapping a typed match; the subject's own words ("表妹", "Dana")
    are never its value."""
    own = {w.casefold() for w in ctx.own}
    out = [s for s in spans if s.text.strip() and _OWNER.sub("", s.text.strip().casefold()) not in own]
    fixed = {v.casefold() for v in value_shapes.exact(ctx.key, ctx.value_type, ctx.text, ctx.zh) or ()}
    if fixed and (shaped := [s for s in out if s.text.strip().casefold() in fixed]):
        return shaped  # a measurement with its units, a whole contact, a title
    if ctx.value_type in STRICT:
        hits = [(ctx.text.find(t), ctx.text.find(t) + len(t)) for t in ctx.typed if t in ctx.text]
        out = [s for s in out if any(s.start < e and s.end > b for b, e in hits)]
    return out


_COORD = re.compile(r"^\s*(?:和|与|及|以及|跟|、|/|&|and|plus|,\s*and)\s*$", re.IGNORECASE)
_SPLIT = re.compile(r"\s*(?:和|与|以及|、|&|\band\b|,\s*and\b)\s*", re.IGNORECASE)
_PRONOUN = re.compile(r"^(?:我|你|他|她|我们|咱们|大家|I|me|you|we|us)$", re.IGNORECASE)
MAX_VALUES = 6


def coordinated(text: str, ranked: list[tuple[Span, float]]) -> list[Span]:
    """The best span's conjuncts: a best span that is itself a list is split at its
    coordinators; otherwise neighbours joined to it by one ("和", "、", "and") are added,
    the likeliest first, in both directions."""
    best = ranked[0][0]
    parts = [x for x in _SPLIT.split(best.text) if x.strip()]
    if len(parts) > 1:
        out, at = [], best.start
        for part in parts[:MAX_VALUES]:
            at = text.find(part, at)
            out.append(Span(at, at + len(part), part, -1, -1))
            at += len(part)
        return [s for s in out if not _PRONOUN.match(s.text)]
    chosen = [best]
    for _ in range(MAX_VALUES - 1):
        lo, hi = min(s.start for s in chosen), max(s.end for s in chosen)
        nxt = next(
            (
                s
                for s, _ in ranked
                if not _PRONOUN.match(s.text.strip())
                and (
                    (s.start >= hi and _COORD.match(text[hi : s.start]))
                    or (s.end <= lo and _COORD.match(text[s.end : lo]))
                )
            ),
            None,
        )
        if nxt is None:
            break
        chosen.append(nxt)
    return sorted(chosen, key=lambda s: s.start) if len(chosen) > 1 else chosen


# Value types whose values are names the typed extractors find ("Kindle Paperwhite", "Jaeger").
NAMED = frozenset({"tech", "person", "organisation", "place"})


def _named_inside(s: Span, typed: Sequence[str], text: str) -> Span:
    """A conjunct as the longest typed name starting inside it ("an old Kindle Paperwhite" →
    "Kindle Paperwhite", "traces to Jaeger" → "Jaeger", and a conjunct the ranker ended early,
    "an old Kindle", → "Kindle Paperwhite"): the ranker scored the conjunct only as a neighbour
    of the best span, the typed extractor found the whole name."""
    found = []
    for t in typed:
        at = text.find(t, s.start) if t else -1
        if t != s.text and s.start <= at < s.end:
            found.append((len(t), at, t))
    if not found:
        return s
    n, at, name = max(found)
    return Span(at, at + n, name, -1, -1)


@dataclass(frozen=True)
class SpanScorer:
    weights: Array
    known: Mapping[str, Collection[str]]
    version: str
    # words the training corpus's labelled values never begin / end with, though they often
    # stand right before / after one ("called", "I'm", "用", "换成" / "now", "please"):
    # ``span_path.trim`` strips them from a chosen value
    heads: frozenset[str] = frozenset()
    tails: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return f"span-ranker@{self.version}"

    def rank(self, ctx: Context, spans: list[Span]) -> list[tuple[Span, float]]:
        """The eligible spans with their softmax probabilities, best first."""
        spans = eligible(ctx, spans)
        if not spans:
            return []
        scores = np.array([self.weights[hashed(features(ctx, s))].sum() for s in spans])
        p = np.exp(scores - scores.max())
        p /= p.sum()
        order = np.argsort(-p, kind="stable")
        return [(spans[i], float(p[i])) for i in order]

    def pick(
        self, text: str, zh: bool, attr: Attribute, own: Collection[str] = ()
    ) -> tuple[str, float] | None:
        """The best value span of ``attr`` in ``text`` and its probability, or None."""
        found = self.pick_all(text, zh, attr, own)
        return found[0] if found else None

    def top(
        self, text: str, zh: bool, attr: Attribute, own: Collection[str] = (), k: int = 5
    ) -> list[tuple[str, float]]:
        """The ``k`` best distinct value spans, best first: the choices a change cue may
        overrule ("咖啡先戒了，改喝乌龙茶": the ranker may like 咖啡, the cue names 乌龙茶)."""
        ctx, spans = context(text, zh, attr.key, attr.value_type, self.known, own, _labels(attr))
        out: dict[str, float] = {}
        for s, q in self.rank(ctx, spans):
            out.setdefault(s.text.strip(), q)
            if len(out) >= k:
                break
        return [(t, q) for t, q in out.items() if t]

    def pick_all(
        self, text: str, zh: bool, attr: Attribute, own: Collection[str] = ()
    ) -> list[tuple[str, float]]:
        """The best value span, and for a multi-valued attribute also the spans coordinated
        with it ("招行和平安", "Priya and Omar", "Go、Rust"): each conjunct is one value."""
        ctx, spans = context(text, zh, attr.key, attr.value_type, self.known, own, _labels(attr))
        ranked = self.rank(ctx, spans)
        if not ranked:
            return []
        p = {(s.start, s.end): q for s, q in ranked}
        if not attr.single and value_shapes.titles(attr.key, text):  # every work the clause names
            chosen = sorted({(s.start, s.end): s for s, _ in ranked}.values(), key=lambda s: s.start)
        else:
            chosen = [ranked[0][0]] if attr.single else coordinated(text, ranked)
        top = ranked[0][1]
        named = (
            [chosen[0], *(_named_inside(s, ctx.typed, text) for s in chosen[1:])]
            if ctx.value_type in NAMED
            else chosen
        )
        return [(s.text.strip(), p.get((s.start, s.end), top)) for s in named]

    def to_bytes(self) -> bytes:
        keys = sorted(self.known)
        buf = BytesIO()
        np.savez_compressed(
            buf,
            weights=self.weights.astype(np.float32),
            version=np.array(self.version),
            known_keys=np.array(keys),
            known_values=np.array(["\x1f".join(sorted(self.known[k])) for k in keys]),
            heads=np.array(sorted(self.heads)),
            tails=np.array(sorted(self.tails)),
        )
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> SpanScorer:
        try:
            z = np.load(BytesIO(data), allow_pickle=False)
            known = {
                str(k): frozenset(str(v).split("\x1f"))
                for k, v in zip(z["known_keys"], z["known_values"], strict=True)
            }
            affix = {
                k: frozenset(str(x) for x in z[k]) if k in z.files else frozenset()
                for k in ("heads", "tails")
            }
            return cls(z["weights"], known, str(z["version"]), affix["heads"], affix["tails"])
        except (KeyError, ValueError, OSError) as exc:
            raise ConfigError(f"unreadable span model: {exc}") from exc


def _labels(attr: Attribute) -> tuple[str, ...]:
    return _label_cache(attr.key, tuple(sorted(attr.labels.model_dump().items())))


@cache
def _label_cache(key: str, labels: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return label_words(dict(labels))


@cache
def bundled() -> SpanScorer | None:
    """The shipped span ranker, or None when this build carries no weights."""
    path = resources.files("memquill").joinpath(MODEL_FILE)
    if not path.is_file():
        return None
    return SpanScorer.from_bytes(path.read_bytes())


# --- training (numpy only; used by scripts/train_spans.py and the tests) -------------------


@dataclass(frozen=True)
class Example:
    """One labelled (clause, attribute): each candidate's feature indices, which are right."""

    feats: list[npt.NDArray[np.int64]]
    gold: npt.NDArray[np.bool_]


def fit(examples: Sequence[Example], l2: float = 1e-4, epochs: int = 60, lr: float = 0.1) -> Array:
    """Listwise logistic regression (softmax over each example's candidates, the gold spans'
    total probability maximised) by full-batch Adam on hashed sparse features."""
    offsets = np.cumsum([0] + [len(e.feats) for e in examples])
    occurrences = [(offsets[k] + i, f) for k, e in enumerate(examples) for i, f in enumerate(e.feats)]
    flat = np.concatenate([np.full(len(f), c, dtype=np.int64) for c, f in occurrences])  # candidate of each
    idx = np.concatenate([f for _, f in occurrences])
    group = np.concatenate([np.full(len(e.feats), k, dtype=np.int64) for k, e in enumerate(examples)])
    gold = np.concatenate([e.gold for e in examples]).astype(np.float32)
    n_cand, n_ex = len(group), len(examples)
    w = np.zeros(DIM, dtype=np.float32)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, epochs + 1):
        s = np.bincount(flat, weights=w[idx], minlength=n_cand)
        s -= np.maximum.reduceat(s, offsets[:-1])[group]
        e = np.exp(s)
        z = np.bincount(group, weights=e, minlength=n_ex)
        zg = np.bincount(group, weights=e * gold, minlength=n_ex)
        # d(-log(zg/z))/ds_i = p_i - gold_i * e_i / zg
        g_cand = (e / z[group] - gold * e / np.maximum(zg[group], 1e-30)) / n_ex
        g = np.bincount(idx, weights=g_cand[flat], minlength=DIM).astype(np.float32) + l2 * w
        m *= 0.9
        m += 0.1 * g
        v *= 0.999
        v += 0.001 * g * g
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w
