"""One span path for every record's value, whatever made the record.

The model extractor's values come from the learned span ranker (``span_scorer``); the rule
patterns capture a phrase with a regex, which is often a word too long or too short ("Arc
浏览器" for "Arc", "named Francesca", "神策和GrowingIO" for two competitors). Here a rule
record's value goes through the same typed candidates and ranker: the rule keeps the
attribute (rules have precedence there), and the ranker's best span replaces the rule's
value only when it overlaps it (a trim or an extension of the same words, never another
thing the clause mentions) and the ranker is surer of it than of the rule's own span.
Spans that do not overlap the rule's value are not scored at all, which keeps this cheap
enough for the hot path (a handful of candidates per record).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from memquill.catalogue import Attribute, load
from memquill.model import Candidate, Polarity
from memquill.retrieve import places
from memquill.write.extract import normalise, span_change, subjects, value_shapes
from memquill.write.extract.phrasing import CHAT_FILLER
from memquill.write.extract.span_features import Span, Token, context, tokens
from memquill.write.extract.span_scorer import STRICT, SpanScorer, _labels, coordinated

# The ranker's best overlapping span replaces the rule's value when it is at least this many
# times likelier than the rule's own span (or the rule's span is no candidate at all) and
# at least this likely among the overlapping spans; tuned on the training corpus's held-out
# share only.
SURER = 2.0
REACH = 2
FLOOR = 0.6


def own_words(text: str, subject: str) -> list[str]:
    """The subject's own words in the clause (relation word, name): never its value. The
    user's own attributes may well be someone named by a relation ("it's me, my partner and
    our two cats": lives with my partner)."""
    rel = subjects.relation(text) if subject != "user" else None
    words = [rel[1]] if rel else []
    if ":" in subject:
        words.append(subject.split(":", 1)[1])
    return words


def _same(a: str, b: str) -> bool:
    return "".join(a.split()).casefold() == "".join(b.split()).casefold()


def _where(text: str, value: str) -> tuple[int, int] | None:
    at = text.casefold().find(value.casefold())
    return (at, at + len(value)) if at >= 0 else None


def ranked_near(
    scorer: SpanScorer, text: str, zh: bool, attr: Attribute, value: str, own: Collection[str] = ()
) -> list[tuple[Span, float]]:
    """The ranker's spans that overlap ``value`` in ``text``, with their probabilities among
    those spans only, best first; empty when the value is not verbatim in the clause."""
    where = _where(text, value)
    if where is None:
        return []
    lo, hi = where
    ctx, spans = context(text, zh, attr.key, attr.value_type, scorer.known, own, _labels(attr))
    first, last = _token_cover(ctx.toks, lo, hi)
    near = [s for s in spans if s.start < hi and s.end > lo and _close(s, first, last)]
    if not any(s.start == lo and s.end == hi for s in near):
        near.append(Span(lo, hi, text[lo:hi], first, last))
    return scorer.rank(ctx, near)


def _close(s: Span, first: int, last: int) -> bool:
    """A trim or extension by at most ``REACH`` words at either end (every overlapping
    n-gram would cost the hot path more than the few that matter)."""
    return s.first < 0 or first < 0 or (abs(s.first - first) <= REACH and abs(s.last - last) <= REACH)


def _token_cover(toks: Sequence[Token], start: int, end: int) -> tuple[int, int]:
    inside = [i for i, t in enumerate(toks) if t.start < end and t.end > start]
    return (inside[0], inside[-1]) if inside else (-1, -1)


def choose(
    scorer: SpanScorer, text: str, zh: bool, attr: Attribute, value: str, own: Collection[str] = ()
) -> list[tuple[str, float]]:
    """``settle``, each value trimmed of structural residue (``trim``; not strict types)."""
    if attr.value_type not in STRICT:
        value = clause_cut(value, attr, zh)
    return trimmed(scorer, text, zh, attr, settle(scorer, text, zh, attr, value, own))


def trimmed(
    scorer: SpanScorer, text: str, zh: bool, attr: Attribute, chosen: list[tuple[str, float]]
) -> list[tuple[str, float]]:
    """Each chosen value of ``attr`` trimmed (``trim``); strict types are kept as matched."""
    if attr.value_type in STRICT or not chosen:
        return chosen
    toks = tokens(text, zh)
    out = [(trim(scorer, text, zh, clause_cut(v, attr, zh), toks), q) for v, q in chosen]
    if attr.value_type not in ("date", "datetime"):  # "2024-05" keeps the normaliser's wording
        out = [(value_shapes.model_name(attr.key, text, value_shapes.joined(text, v)), q) for v, q in out]
    out = [(value_shapes.unqualified(v), q) for v, q in out] if not zh else out
    out = [(value_shapes.ranged(text, value_shapes.whole_name(text, v)), q) for v, q in out]
    out = [(value_shapes.with_head(attr.key, text, v, zh), q) for v, q in out]
    out = [(_kind_tail(attr, v), q) for v, q in out] if not zh and attr.value_type == "enum" else out
    if value_shapes.in_parts(attr.key, attr.memory_type, attr.single):
        return [(value_shapes.through_parts(text, v, attr.key), q) for v, q in out]
    return out


def _kind_tail(attr: Attribute, value: str) -> str:
    """An English choice without the word for the kind of thing it is, when the catalogue's
    own words for the attribute name that kind ("Signal messages" → "Signal" for a contact
    channel, "aisle seat" → "aisle"): the choice is the first words, the kind is the slot."""
    words = value.split()
    if len(words) < 2 or not words[-1].islower() or normalise.lexicon_head(value):
        return value  # "dark mode" is the lexicon's own wording of the theme
    kinds = attr.words(described=True)
    last = words[-1].casefold()
    return " ".join(words[:-1]) if last in kinds or last.removesuffix("s") in kinds else value


# What ends a value in English: a relative or subordinate clause ("a retired engineer *who*
# now builds ships", "above 85% *or* the pipeline fails"), a comma before a new clause
# ("independent bookshops*, which* is…", "Greenly*, both* better funded"); for values that
# are no time, also a time or an adverb of time said after it ("yerba mate *a few months
# ago*", "a sub-4 marathon *before* I turn 40", "Helix *in 2025*", "Lagos *originally*").
_EN_CLAUSE = re.compile(
    r"\s*,\s*(?=(?:which|who|both|we|we're|it|it's|they|i|i'm|but|so|and|though|although|because|"
    r"since|as|all|each)\b)|\s+(?=(?:who|which|whose|whom|because|since|or|while|whereas|when|where|"
    r"unless|whenever)\b)",
    re.IGNORECASE,
)
_EN_TIME_TAIL = re.compile(
    r"\s+(?:(?:before|after|until|till)\b.*|(?:(?:a|an|one|two|three|four|five|six|a few|a couple of|"
    r"several|some|\d+)\s+)?(?:days?|weeks?|months?|years?)\s+ago|in\s+(?:19|20)\d\d|"
    r"(?:last|this|next)\s+(?:week|month|year|spring|summer|fall|autumn|winter)|by\s+(?:19|20)\d\d|"
    r"as\s+of\s+\w+|originally|full[- ]time|these\s+days|right\s+now|for\s+now|at\s+the\s+moment|"
    r"anymore)\s*$",
    re.IGNORECASE,
)
_TIMED = ("time", "schedule", "availability", "date", "deadline", "since", "duration")


def clause_cut(value: str, attr: Attribute, zh: bool) -> str:
    """``value`` up to where another clause or a time begins (English), or up to its first
    comma for a list item or a decision (one value per conjunct, one choice per decision:
    "县级医院，需求都很接地气" → "县级医院"); procedures, schedules and addresses keep
    their commas ("先打tag，再在Jenkins上点发布")."""
    if zh:
        if attr.single and attr.memory_type != "decision":
            return value
        head = re.split(r"[，,；;]", value, maxsplit=1)[0].strip()
        return head or value
    head = _EN_CLAUSE.split(value, maxsplit=1)[0].strip()
    timed = attr.value_type in ("date", "datetime", "duration") or any(w in attr.key for w in _TIMED)
    if not timed:
        head = _EN_TIME_TAIL.sub("", head).strip()
    return head or value


def settle(
    scorer: SpanScorer, text: str, zh: bool, attr: Attribute, value: str, own: Collection[str] = ()
) -> list[tuple[str, float]]:
    """The value(s) the span path settles on for a rule's ``value`` of ``attr``: the rule's
    own span unless the ranker is surer of an overlapping one; for a multi-valued attribute
    a list the rule captured whole ("神策和GrowingIO") becomes its conjuncts."""
    if attr.value_type in STRICT:
        return [(_shaped(text, zh, attr, value), 1.0)]
    ranked = ranked_near(scorer, text, zh, attr, value, own)
    if not ranked:
        return [(value, 1.0)]
    p_rule = next((q for s, q in ranked if _same(s.text, value)), 0.0)
    best, p_best = ranked[0]
    surer = not _same(best.text, value) and p_best >= FLOOR and p_best >= SURER * p_rule
    surer = surer and _keeps_content(scorer, text, zh, value, best)
    # an English job title ends in its head noun ("sales associate", "nurse practitioner"):
    # a span that keeps its first words only names another job
    surer = surer and not (attr.key in _HEAD_LAST and not zh and _cut_tail(value, best.text))
    own_span = next((s for s, _ in ranked if _same(s.text, value)), None)
    span, q = (best, p_best) if surer else (own_span, p_rule)
    if span is None or (attr.single and not surer):
        return [(value, q)]
    if attr.single:
        return [(span.text.strip(), q)]
    parts = [s.text.strip() for s in coordinated(text, [(span, q), *ranked]) if _inside(text, value, s)]
    return [(v, q) for v in parts] if len(parts) > 1 else [(span.text.strip() if surer else value, q)]


_HEAD_LAST = frozenset({"occupation"})


def _cut_tail(value: str, span: str) -> bool:
    v, c = value.casefold().split(), span.strip().casefold().split()
    return 0 < len(c) < len(v) and v[: len(c)] == c


def _shaped(text: str, zh: bool, attr: Attribute, value: str) -> str:
    """A strict value as its shape fixes it: the measurement or whole contact that holds
    the rule's capture ("5" of "5 foot 4", "204558" of "07911 204558"), else the capture."""
    where = _where(text, value)
    for v in value_shapes.exact(attr.key, attr.value_type, text, zh) or ():
        at = _where(text, v)
        if where and at and at[0] <= where[0] and where[1] <= at[1]:
            return v
    return value


# A Chinese numeral with its classifier ("一杯", "两个", "一名"): a count, not the value;
# a numeral with a time or measure unit ("三点", "三年", "两次") is part of what it says.
_QUANTIFIER = re.compile(r"^[一两二三四五六七八九十几每]+[^点年月日天号周时分秒岁次遍倍半刻斤两米\W\d]$")
# jieba's particle tags: 了 (ul), 的 (uj), sentence-final 吧/呢/啊 (y); not 过 (ug), which
# also starts words jieba splits wrongly ("选过道")
_PARTICLES = frozenset({"ul", "uj", "y"})
# degree words after a Chinese value qualify the statement, not the value ("虾蟹严重过敏" is
# allergic to 虾蟹, badly): no labelled value ends with one; four allergies in the held-out
# context stores did ("贝类海鲜严重")
_DEGREE = frozenset({"严重", "特别", "非常", "十分", "极其", "超级"})


def _residue(t: Token, learned: frozenset[str]) -> bool:
    if t.pos in _PARTICLES:
        return True
    return t.text.casefold() in learned


def _counted(t: Token, zh: bool) -> bool:
    return zh and t.pos == "m" and bool(_QUANTIFIER.match(t.text))


def trim(scorer: SpanScorer, text: str, zh: bool, value: str, toks: Sequence[Token] | None = None) -> str:
    """``value`` without structural residue at its edges: leading words the training
    corpus's labelled values never begin with ("called", "named", "I'm", "用") and quantifiers
    ("一杯", "一名"), trailing words they never end with ("now", "please"), particles ("了",
    "的", "吧", "呢") and degree words ("严重"). Whole tokens only, never the last one left."""
    where = _where(text, value)
    if where is None:
        return value
    lo, hi = where
    inside = [t for t in (toks if toks is not None else tokens(text, zh)) if lo <= t.start and t.end <= hi]
    while len(inside) > 1 and (_residue(inside[0], scorer.heads) or _counted(inside[0], zh)):
        inside.pop(0)
        lo = inside[0].start
    while len(inside) > 1 and (
        _residue(inside[-1], scorer.tails)
        or (zh and inside[-1].text in _DEGREE)
        or (not zh and inside[-1].text.casefold() in CHAT_FILLER)
    ):
        inside.pop()
        hi = inside[-1].end
    out = unwrapped(text[lo:hi].strip())
    return out if out and lo >= where[0] and hi <= where[1] else value


_PAIRS = {
    "《": "》",
    "“": "”",
    '"': '"',
    "'": "'",
    "「": "」",
    "『": "』",
    "(": ")",
    "（": "）",
    "[": "]",
    "【": "】",
}
# a bracketed aside after the value: "华东2（上海）", "Kollam (Kerala)"
_ASIDE = re.compile(r"^(?P<v>.*?\S)(?:\s+\([^()]*\)|\s*（[^（）]*）)$")


def unwrapped(value: str) -> str:
    """``value`` without the marks around a title or quote ("《繁花》" → "繁花") and
    without a bracketed aside after it ("华东2（上海）" → "华东2"): punctuation is never
    part of what a value says."""
    while len(value) > 2 and _PAIRS.get(value[0]) == value[-1] and value[-1] not in value[1:-1]:
        value = value[1:-1].strip()
    m = _ASIDE.match(value)
    return m.group("v") if m else value


# Words a value may lose at its start: function words, particles, pronouns, prepositions,
# verbs and adverbs ("named", "用", "是"), never a noun ("tea with milk" is no "milk").
_ZH_LEAD_POS = ("v", "p", "r", "m", "u", "y", "d", "c", "f")


def _keeps_content(scorer: SpanScorer, text: str, zh: bool, value: str, best: Span) -> bool:
    """A span the ranker prefers inside the rule's value may drop function words at the
    start and anything but a number at the end ("Arc 浏览器" → "Arc"; "Django 4.2" keeps
    its version)."""
    where = _where(text, value)
    if where is None:
        return True
    lo, hi = where
    toks = tokens(text, zh)
    lead = [t for t in toks if lo <= t.start and t.end <= best.start]
    tail = [t for t in toks if best.end <= t.start and t.end <= hi]
    function = (lambda t: t.pos.startswith(_ZH_LEAD_POS)) if zh else (lambda t: t.pos in ("f", "x"))
    if any(not (function(t) or t.text.casefold() in scorer.heads) for t in lead):
        return False
    return not any(ch.isdigit() for t in tail for ch in t.text)


def _inside(text: str, value: str, s: Span) -> bool:
    where = _where(text, value)
    return where is not None and where[0] <= s.start and s.end <= where[1]


# a proper name of several words: capitalised words, joined by "and", "of", "&" ("Colorado
# Parks and Wildlife", "Bank of America")
_PROPER = re.compile(r"[A-Z][\w&.'-]*(?:\s+(?:(?:and|of|&)\s+)?[A-Z][\w&.'-]*)+")


def _same_name(value: str, chosen: str) -> bool:
    return chosen in value or re.sub(r"['’]s$", "", chosen) == value


TYPED = "typed"  # a candidate attribute ``span`` value: the rule read its value by type


def respan(c: Candidate, text: str, zh: bool, scorer: SpanScorer | None) -> list[Candidate]:
    """A rule-made candidate with its value decided by the span path (one candidate per
    value; unchanged when its key is no catalogue attribute, when a typed reader chose the
    value — ``span`` is ``TYPED``: a schedule's day is no span to guess — or when nothing is
    surer)."""
    attr = load().get(c.key)
    if scorer is None or attr is None or not c.value or c.attributes.get("span") == TYPED:
        return [c]
    value = c.value
    now = span_change.current(text, zh, attr, value, c.polarity)
    if now is not None:  # the clause retires the captured value and names the new one
        value, was = now, {**c.attributes, "span": "change-cues"}
        c = c.model_copy(update={"value": value, "polarity": Polarity.POSITIVE, "attributes": was})
    chosen = choose(scorer, text, zh, attr, value, own_words(text, c.subject))
    if len(chosen) == 1 and chosen[0][0] == value:
        return [c]
    if attr.value_type == "place" and places.cities(value) and not any(places.cities(v) for v, _ in chosen):
        return [c]  # "I'm Marcus Hale, a … teacher from Denver": a known city is no guess to replace
    if (
        _PROPER.fullmatch(value)
        and len(chosen) == 1
        and chosen[0][0] != value
        and _same_name(value, chosen[0][0])
    ):
        return [c]  # "Colorado Parks and Wildlife": a rule's whole proper name is not cut short
        # (a list it splits stays split: "Hootsuite and Buffer"), nor made a possessive
        # ("Rebecca Stone's the full name")
    return [
        c.model_copy(
            update={"value": v, "attributes": {**c.attributes, "span": scorer.id, "span_score": round(q, 3)}}
        )
        for v, q in chosen
        if v
    ] or [c]
