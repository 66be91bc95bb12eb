"""The write path's bars on the attribute model's scores, fitted and shipped with its weights.

A refit moves every probability the model gives: a bar fixed in code (a single-valued guess
needed 0.35) then sits wherever the last weights put a few readings, and the next weights
move those readings across it ("The light in Lisbon is unreal" city 0.43 → 0.23, decision
0011s). So ``scripts/train_attributes.py`` picks the bars on the same held-out share of plain
statements that picks the heads' temperature, by the criteria of :func:`fit`, and writes them
into the weights file; :meth:`Thresholds.of` reads them back, so weights and bars travel
together. Weights without bars (older files) keep the defaults below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields, replace

# the share of held-out guesses that must name a labelled attribute of their clause before a
# single-valued guess may replace the slot's value: with a typed value (a place, a name, a
# number) and with free text, which a typed extractor did not vouch for (decision 0011u)
TYPED_FLOOR = 0.85
FREE_FLOOR = 0.95
GRID = tuple(round(0.05 + 0.01 * i, 2) for i in range(91))  # 0.05 … 0.95


@dataclass(frozen=True)
class Thresholds:
    memory: float = 0.5  # P(clause holds a memory) needed to propose anything…
    joint: float = 0.15  # …unless P(memory) × P(top attribute) reaches this (then a candidate)
    # A further attribute of the same clause needs this probability and at least `ratio` of
    # the top one's ("my son Leo is 7": name and age). On the training corpus's held-out share
    # (0.25, 0.35) → (0.15, 0.25) raised attribute accuracy 0.687 → 0.720 while the share of
    # candidates with a labelled attribute fell 0.625 → 0.577; the extra ones mostly score
    # under the confidence floor and wait as `candidate` records for a recurrence.
    second: float = 0.15
    ratio: float = 0.25
    # a single-valued slot holds one value: each new guess replaces the last and retires
    # the episodes quoting it, so a guess below this joint score is not proposed at all
    # (multi-valued guesses coexist as candidates)…
    single: float = 0.35
    # …and below this one only when a typed extractor found the value (a place, a name, a
    # number), not free text ("a dream to adopt" is no housing)
    single_free_text: float = 0.6

    @classmethod
    def of(cls, stored: dict[str, float]) -> Thresholds:
        """The bars shipped with a model's weights; the defaults for any it does not carry."""
        known = {f.name for f in fields(cls)}
        return replace(cls(), **{k: float(v) for k, v in stored.items() if k in known})

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class Reading:
    """One held-out clause as the model read it, and what it is labelled with."""

    memory: float  # P(memory)
    attribute: str  # the top attribute
    score: float  # P(memory) × P(top attribute)
    labelled: frozenset[str]  # the clause's labelled attributes (empty: nothing to remember)


def fit(
    readings: Sequence[Reading], single: Callable[[str], bool], typed: Callable[[str], bool]
) -> Thresholds:
    """The bars for held-out ``readings`` (``single`` / ``typed``: is an attribute
    single-valued / of a typed value):

    * ``memory``: the bar on P(memory) with the best F1 of "is there a memory";
    * ``single`` / ``single_free_text``: the lowest joint score at which single-valued guesses
      (typed / free-text values) name a labelled attribute of their clause at least
      ``TYPED_FLOOR`` / ``FREE_FLOOR`` of the time, counted over every guess at or above it —
      a wrong guess replaces a right value, so their precision, not recall, sets the bar;
    * ``joint``, ``second``, ``ratio`` keep their defaults: too few held-out clauses fall in
      their ranges to set them.
    """
    base = Thresholds()
    memory = max(GRID, key=lambda t: (_f1(readings, t), -abs(t - base.memory)))
    guesses = [r for r in readings if single(r.attribute) and r.memory >= memory]
    return replace(
        base,
        memory=memory,
        single=_lowest(guesses, typed, TYPED_FLOOR, base.single),
        single_free_text=_lowest(guesses, lambda a: not typed(a), FREE_FLOOR, base.single_free_text),
    )


def _f1(readings: Sequence[Reading], bar: float) -> float:
    tp = sum(1 for r in readings if r.memory >= bar and r.labelled)
    fp = sum(1 for r in readings if r.memory >= bar and not r.labelled)
    fn = sum(1 for r in readings if r.memory < bar and r.labelled)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def _lowest(guesses: Sequence[Reading], kind: Callable[[str], bool], floor: float, default: float) -> float:
    """The lowest bar whose guesses of this kind are right at least ``floor`` of the time."""
    mine = [r for r in guesses if kind(r.attribute)]
    for bar in GRID:
        above = [r for r in mine if r.score >= bar]
        if above and sum(r.attribute in r.labelled for r in above) / len(above) >= floor:
            return bar
    return default if not mine else GRID[-1]


def describe(t: Thresholds) -> str:
    return " ".join(f"{k}={v:g}" for k, v in t.as_dict().items())
