"""Relative time expressions -> absolute instants in the user's timezone (DESIGN §4 rule 4).

A memory that says "next Wednesday" is wrong a week later, so every relative phrase is
resolved against the *event's* instant (never the wall clock) in the *user's* zone and
rewritten to an absolute label; the mention keeps the original wording.

Own compiled regexes cover the frequent Chinese and English patterns with the semantics of
docs/decisions/0002-time-normalisation.md; jionlp is a lazy fallback for the Chinese long
tail (festivals, "下个月15号"). dateparser is not used: ms per call, and it reads "may",
"we" and "now" as dates.
"""

from memquill.text import detect_language
from memquill.write.timenorm.base import TimeMention
from memquill.write.timenorm.engine import find_times, may_contain_time, rewrite

__all__ = ["TimeMention", "detect_language", "find_times", "may_contain_time", "rewrite"]
