"""Turns already carried by a structured record need no episode.

A session of one or two turns ("Dropped zsh, I'm on fish now") used to leave two records:
the `shell` slot and an episode quoting the same turn. The episode adds nothing a search
needs — the slot record holds the value, its evidence names the turn, and the event archive
keeps the words — while every later change leaves one more outdated episode to trim. So at
session end an episode whose every turn is the user's own and already became sure
structured records (one per clause it says; rule-made, catalogue attributes of the user or
the project, confident enough to be active) is not written. Talk between people (transcript
lines, facts about a speaker), assistant turns, requests and filler keep their episode, and
so does a turn only the attribute model read: its reading ("Took the dog up Mount Tam" as
`pet` = dog) is an interpretation that says less than the turn, and an episode is evidence.

``clauses`` is also how the slot timeline reads a long turn clause by clause
(``retrieve/timeline.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from memquill.catalogue import load
from memquill.model import Candidate, MemoryType
from memquill.text import is_cjk

# Where a long turn splits into what it says one by one: sentence ends, commas, semicolons,
# dashes and the conjunctions that start a new statement ("…broke twice, so I'm on Floorp
# now", "网易那边没待多久，现在跳到同程了").
_CLAUSE = re.compile(
    r"(?<=[。！？!?；;，,…\n])|(?<=\.)\s+|\s+[-–—]\s+|\s+(?=(?:so|but|and now|and (?:i|we|my|our))\s)", re.I
)
MIN_CLAUSE = 4  # characters (Chinese) or…
MIN_WORDS = 3  # …words (English) for a clause to be read on its own


def clauses(text: str) -> list[str]:
    """The clauses of a turn worth reading on their own; none when the turn is one clause.
    The classifier reads a long, story-like turn by its first topic ("Vivaldi's sync broke
    twice, so I'm on Floorp now" as a browser complaint, or as ``medical_condition``); read
    clause by clause, the change it tells is read as what it is."""
    parts = [p.strip(" ，,。.;；!！?？-–—") for p in _CLAUSE.split(text)]
    kept = [p for p in parts if (len(p) >= MIN_CLAUSE if is_cjk(p) else len(p.split()) >= MIN_WORDS)]
    return kept if len(kept) >= 2 else []


def uncovered(cands: Sequence[Candidate], sure: Callable[[Candidate], bool]) -> list[Candidate]:
    """``cands`` without the episodes whose every turn is already carried by ``sure``
    structured candidates among them (see the module docstring)."""
    cat = load()
    made: Counter[str] = Counter()
    for c in cands:
        own = c.subject == "user" or c.subject.startswith("project")
        ruled = not (c.rule or "").startswith("model:")  # a model reading is no stand-in for the turn
        if c.type is not MemoryType.EPISODE and own and ruled and cat.get(c.key) is not None and sure(c):
            made.update(set(c.evidence))

    def covered(ep: Candidate) -> bool:
        turns = ep.attributes.get("statements")
        if not isinstance(turns, list) or not turns or len(turns) != len(ep.evidence):
            return False  # someone else's turns are quoted too
        return all(made[str(t.get("event"))] >= max(1, len(clauses(str(t.get("text", ""))))) for t in turns)

    return [c for c in cands if c.type is not MemoryType.EPISODE or not covered(c)]
