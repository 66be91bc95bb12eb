"""Is the clause around a bare weekday told in the past?

"I start at Dell on Monday" is the coming Monday; "Started at Tidepool on Monday" and
"周一入职了" the last one. A bare weekday resolves forward unless its own clause is plainly
past: a past verb, nothing that points ahead (a modal, "going to", a progressive, 要/会/打算),
and the weekday itself not a target ("moved the meeting *to* Friday") or a label of a thing
("cancelled the Saturday game", "周六的球局"). Verbs that arrange or report what is still to
come ("booked", "said", 约了) do not count: their weekday is the arranged day.
"""

from __future__ import annotations

import re
from functools import cache

from memquill.write.extract.lexicon import english_words
from memquill.write.timenorm.base import _around

# fmt: off
_EN_IRREGULAR = frozenset(
    "was were had did went came got took made saw met left began bought brought found gave knew"
    " felt kept lost paid ran sent sat spent stood won wrote drove flew ate fell forgot heard held"
    " led slept sold spoke taught threw understood woke wore broke chose hung rode rang sang swam"
    " became caught fought wasn weren didn hadn".split()
)
# past forms whose weekday is the day arranged or reported, not the day they happened
_EN_ARRANGE = frozenset(
    "said told thought asked booked scheduled rescheduled planned arranged agreed promised decided"
    " invited reminded texted emailed messaged mentioned wanted hoped expected offered confirmed"
    " registered signed postponed pushed announced warned suggested proposed requested needed"
    " organized organised set".split()
)
# -ed after these is an adjective or a passive in the present ("I'm excited", "gets decommissioned")
_EN_NOT_PAST_BEFORE = frozenset(
    "am is are 'm 're 's be been being get gets getting feel feels so very really too more most".split()
)
# fmt: on
_EN_AHEAD = re.compile(
    r"\b(?:will|shall|would|could|should|might|may|must|can|gonna|wanna|if|unless|next|upcoming"
    r"|tomorrow|going\s+to|about\s+to|plan(?:ning)?\s+to|hope\s+to|want\s+to|need\s+to|have\s+to)\b"
    r"|'ll\b|'d\b|\b(?:am|is|are|'m|'re|'s)\s+(?:\w+\s+)?\w+ing\b",
    re.I,
)
_EN_WORD = re.compile(r"[a-z]+|'[a-z]+", re.I)  # "I'm" is "I" + "'m", "wasn't" "wasn" + "'t"
_EN_CLAUSE = re.compile(r"[,;:!?()\n—–]|\.(?!\d)|\s(?:and|but|so|then|because|while|though|although)\s", re.I)
_EN_TARGET = re.compile(r"\b(?:to|for|until|till|by|before|through|the|a|an|my|our|every|each)\s+$", re.I)

# 了 after a verb; not 约了/订了 (arranged), 为了/除了/算了/对了, 了解, 不了/得了 (can't/can)
_ZH_PAST = re.compile(r"(?<![约订定排预报为除算对罢不得])了(?!解)|已经|刚(?!好)|那天")
_ZH_AHEAD = re.compile(
    r"要|会|将|准备|打算|计划|想|快|还没|明[天年早晚]|下(?:个|周|星期|礼拜|次|月)|再|就|太"
)
_ZH_CLAUSE = re.compile(r"[，。；！？,;!?\n]|然后|但是|可是|所以|不过")


@cache
def _regular_past(word: str) -> bool:
    """ "moved", "started", "stopped", "tried": an -ed word whose stem WordNet lists as a verb."""
    if len(word) < 5 or not word.endswith("ed"):
        return False
    stems = [word[:-2], word[:-1]]
    if word[-3] == word[-4]:
        stems.append(word[:-3])  # stopped
    if word.endswith("ied"):
        stems.append(word[:-3] + "y")  # tried
    verbs = english_words("verbs")
    return any(len(s) >= 3 and s in verbs for s in stems)


def en_past(text: str, start: int, end: int) -> bool:
    """Is the English clause holding ``text[start:end]`` (a weekday) told in the past?"""
    before, _, after = _around(text, start, end, _EN_CLAUSE).rpartition("\x00")
    if _EN_TARGET.search(before) or re.match(r"\s*'s\b", after):
        return False  # "to Friday", "the Saturday game", "Friday's match"
    clause = f"{before} {after}"
    if _EN_AHEAD.search(clause):
        return False
    words = [w.lower() for w in _EN_WORD.findall(clause.replace("’", "'"))]
    if _EN_ARRANGE.intersection(words):
        return False
    return any(
        w in _EN_IRREGULAR or (_regular_past(w) and (i == 0 or words[i - 1] not in _EN_NOT_PAST_BEFORE))
        for i, w in enumerate(words)
    )


def zh_past(text: str, start: int, end: int) -> bool:
    """Is the Chinese clause holding ``text[start:end]`` (a weekday) told in the past?
    "周一入职了", "周五已经交了"; not "周六约了同事", "周六的球局退了", "周一就要走了"."""
    before, _, after = _around(text, start, end, _ZH_CLAUSE).rpartition("\x00")
    if after.startswith("的"):
        return False  # the weekday labels a thing ("周六的球局")
    clause = before + after
    return _ZH_PAST.search(clause) is not None and _ZH_AHEAD.search(clause) is None
