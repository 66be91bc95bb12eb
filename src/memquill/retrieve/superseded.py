"""Replaced values stay out of a slot answer's company.

When a question is routed to a slot that holds a current value, the slot's replaced
versions (superseded or invalidated) say which values no longer hold. Any other hit —
an episode, a pending turn, a record under another key — that states one of those values
and not a current one would put the outdated answer next to the right one, so default
retrieval leaves it out (``include_history=True`` and as-of queries skip this filter).
A hit naming both ("switched from X to Y") states the change and stays.

Values match as whole words in Latin script ("Go" is not in "good") and as substrings in
Chinese (no spaces between words), in every wording the value lexicon knows for them
("Beijing" replaced: a hit practising "北京" names it too).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from memquill.model import MemoryRecord
from memquill.text import is_cjk, norm_value
from memquill.write.extract.normalise import forms

MIN_LATIN = 2  # a one-letter value ("R", "C") matches too much text to judge by


@dataclass
class Replaced:
    """Per routed slot: the values it holds now and the values it replaced."""

    current: set[str] = field(default_factory=set)
    old: set[str] = field(default_factory=set)
    evidence: set[str] = field(default_factory=set)  # turns of replaced versions only

    def add(self, found: Iterable[MemoryRecord], replaced: Iterable[MemoryRecord]) -> None:
        found = list(found)
        now = {_said(r) for r in found} - {""}
        self.current |= now
        cur_ev = {e for r in found for e in r.evidence}
        for r in replaced:
            value = _said(r)
            if value and not any(states_value(c, value) for c in now):
                self.old.add(value)
            self.evidence |= set(r.evidence) - cur_ev

    def outdated(self, rec: MemoryRecord) -> bool:
        """Does ``rec`` state a replaced value and none of the current ones?"""
        if not self.old:
            return False
        text = f"{rec.value or ''} {rec.content}"
        if any(states_value(text, v) for v in self.current):
            return False
        return any(states_value(text, v) for v in self.old)

    def values(self) -> list[str]:
        return sorted(self.old)


def _said(r: MemoryRecord) -> str:
    return (r.value or "").strip()


def states_value(text: str, value: str) -> bool:
    """Does ``text`` name ``value`` in any of its wordings (its other-language or synonym
    forms from the value lexicon: "北京" names "Beijing", "latte" names "拿铁")?"""
    # another wording of one character ("水" for "water") names too much text to judge by
    return any(_names(text, v) for v in forms(value) if v == value or len(norm_value(v)) > 1)


def _names(text: str, value: str) -> bool:
    """One wording: a whole word in Latin script, a substring in Chinese."""
    if is_cjk(value):
        v = norm_value(value)
        return bool(v) and v in norm_value(text)
    v = " ".join(value.casefold().split())
    if len(v) < MIN_LATIN:
        return False
    t = " ".join(text.casefold().split())
    # a Latin word's edges are Latin letters and digits: "用的postgres了" names postgres
    return re.search(rf"(?<![a-z0-9_]){re.escape(v)}(?![a-z0-9_])", t) is not None
