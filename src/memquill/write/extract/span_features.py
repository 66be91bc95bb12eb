"""Candidate value spans of a clause and what they look like, for the learned span scorer.

The labelled value of a fact is the shortest span that states it ("我表妹在苏州做护士" →
"苏州"; "I have 3 cats" → "3"). The typed extractors (``values.py``) propose a few spans
each, often a word too long or too short. Here every token n-gram inside one clause segment
(no crossing of a comma or full stop) is a candidate, plus the typed extractors' own spans;
each candidate is described by structural features — part of speech of its first and last
token and of its neighbours, the neighbouring words (cue verbs, prepositions, particles),
length, shape (capitalised, digits, Latin inside Chinese), whether the typed extractor of
the attribute's value type proposed it, whether it is a known value of that attribute — so
that ``span_scorer`` can rank them with a linear model learned from the training corpus.
Features are strings, hashed to indices by the scorer.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

from memquill.text import EN_CALENDAR, word_cache
from memquill.write.extract import change_cues, value_shapes, values
from memquill.write.extract.lexicon import TECH

MAX_TOKENS = 8
# Bumped when the features change: a ranker's id names its corpus and its feature set
# (records carry the id; weights of another feature set hash different strings).
FEATURES_VERSION = "f5"
# Punctuation a value never spans (a comma ends "我住在苏州，离公司近").
_BOUNDARY = frozenset('，,。；;！!？?：:()（）[]【】"“”《》「」…—')
_EN_TOKEN = re.compile(r"[@#$¥￥€£]?\w(?:[\w'’+#@/.:&]*[\w+#%])?%?|[^\w\s]")
_EN_FUNCTION = frozenset(
    """a an the my our your his her their its some any this that these those is am are was were
    be been 's 'm 're i we you he she they it me us them to in on at of for with by from into
    as and or but so not no don't never always usually mostly now just really very also too
    like love use using called named""".split()
)
# Words before a span that deny or retire it ("不玩原神了", "left Google", "no longer").
_NEGATION = re.compile(
    r"不|没|别|无|戒|停|以前|之前|原来|曾经|\b(?:not|no|never|don'?t|doesn'?t|didn'?t|isn'?t|won'?t|can'?t|"
    r"avoid|quit|left|ex|used to|no longer|anymore|instead of|former|old|rather than)\b",
    re.IGNORECASE,
)
_CHANGE = re.compile(
    r"现在|改|换|如今|后来|\b(?:now|switched|moved|nowadays|these days|went back)\b", re.IGNORECASE
)
# what stands between the two values of "from X to Y" / "从 X 换成 Y" right before Y
_TO = re.compile(r"(?:\b(?:to|into|for|with)|成|到|为)\s*$", re.IGNORECASE)
_LABEL_STOP = frozenset("the a an or of and to in on for my your with is are what which who".split())
_CJK = re.compile(r"[\u4e00-\u9fff]")
# what a Chinese nickname starts with before a one-character surname jieba splits off ("小周")
_NAME_PREFIXES = frozenset({"小", "老", "阿"})
_LATIN = re.compile(r"^[A-Za-z0-9@#$.+/_:&' -]+$")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int
    pos: str


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str
    first: int  # index of the first token (-1: not token-aligned)
    last: int


def tokens(text: str, zh: bool) -> list[Token]:
    """Tokens with offsets; Chinese by jieba (with its POS), English by a regex (with a
    coarse shape tag). Whitespace is dropped; punctuation stays as ``x`` tokens. The last
    few clauses' tokens are kept: one clause's values are ranked and trimmed in turn."""
    return list(_tokens(text, zh))


@word_cache(maxsize=16)
def _tokens(text: str, zh: bool) -> tuple[Token, ...]:
    out: list[Token] = []
    if zh:
        at = 0
        for word, flag in values._posseg()(text):
            start, at = at, at + len(word)
            if not word.strip():
                continue
            if flag == "x" and word.isalnum():
                flag = "eng"
            if flag.startswith("nr") and len(word) == 1 and out and out[-1].text in _NAME_PREFIXES:
                out[-1] = Token(out[-1].text + word, out[-1].start, at, "nr")  # "小/周" is one name
                continue
            out.append(Token(word, start, at, flag))
        return tuple(out)
    for m in _EN_TOKEN.finditer(text):
        w = m.group(0)
        out.append(Token(w, m.start(), m.end(), _en_shape(w)))
    return tuple(out)


# English words of time and frequency, tagged like jieba's ``t``: a value of another type
# rarely ends with one ("by 2027", "twice a day", "a year"), which the ranker learns.
EN_TIME = EN_CALENDAR | frozenset(
    """today tomorrow yesterday tonight morning mornings afternoon afternoons evening evenings
    night nights weekend weekends day days daily week weeks weekly month months monthly year years
    yearly annually hour hours minute minutes ago next last once twice every each since until till
    spring summer autumn fall winter""".split()
)


def _en_shape(w: str) -> str:
    if not w[0].isalnum() and len(w) == 1:
        return "x"
    low = w.lower()
    if low in EN_TIME:
        return "t"
    if low in _EN_FUNCTION:
        return "f"
    if len(low) > 4 and low.endswith("ly") and w[0].islower():
        return "d"  # an adverb ("originally", "usually"), as jieba tags 副词
    if any(ch.isdigit() for ch in w):
        return "m"
    if w[0].isupper() or w[0] in "@#$":
        return "cap"
    return "w"


def candidates(text: str, toks: list[Token], typed: list[str]) -> list[Span]:
    """Token n-grams inside punctuation-free segments (at most ``MAX_TOKENS`` tokens), then
    the typed extractors' spans that no n-gram already covers."""
    out: dict[tuple[int, int], Span] = {}
    for i, t in enumerate(toks):
        if (t.pos == "x" and t.text in _BOUNDARY) or not t.text.strip("、-/ "):
            continue
        for j in range(i, min(i + MAX_TOKENS, len(toks))):
            last = toks[j]
            if last.text in _BOUNDARY:
                break
            if not last.text.strip("、-/ "):
                continue
            out.setdefault((t.start, last.end), Span(t.start, last.end, text[t.start : last.end], i, j))
    for i, t in enumerate(toks):
        for part in _pieces(t):
            out.setdefault((part[0], part[1]), Span(part[0], part[1], text[part[0] : part[1]], i, i))
    for s in typed:
        at = text.find(s)
        if s and at >= 0:
            out.setdefault((at, at + len(s)), Span(at, at + len(s), s, *_cover(toks, at, at + len(s))))
    return list(out.values())


def _pieces(t: Token) -> list[tuple[int, int]]:
    """Prefixes (two characters or more) of a Chinese word jieba did not split where a value
    ends ("煤炭行业" → "煤炭", "佛教徒" → "佛教"): which residue ("行业", "徒", "荣耀") stays
    outside a value is the ranker's to learn (feature ``cut``) from the training corpus, not
    a hand list."""
    n = len(t.text)
    if n < 3 or n > 6 or not _CJK.search(t.text) or t.pos == "x":
        return []
    return [(t.start, t.start + k) for k in range(2, n)]


def _cover(toks: list[Token], start: int, end: int) -> tuple[int, int]:
    inside = [i for i, t in enumerate(toks) if t.start < end and t.end > start]
    return (inside[0], inside[-1]) if inside else (-1, -1)


def _bucket(x: float, edges: tuple[float, ...]) -> int:
    return sum(x >= e for e in edges)


def _bigrams(s: str) -> set[str]:
    s = s.casefold()
    return {s[i : i + 2] for i in range(len(s) - 1)} or {s}


def similarity(span: str, known: Collection[str]) -> float:
    """Highest character-bigram Dice overlap of ``span`` with a known value (through an
    index of the known values' bigrams: this runs for every candidate of every value)."""
    a = _bigrams(span)
    index, sizes = _index(known if isinstance(known, frozenset) else frozenset(known))
    shared: Counter[int] = Counter()
    for g in a:
        shared.update(index.get(g, ()))
    return max((2 * n / (len(a) + sizes[i]) for i, n in shared.items()), default=0.0)


@lru_cache(maxsize=1024)
def _index(known: frozenset[str]) -> tuple[dict[str, list[int]], list[int]]:
    index: dict[str, list[int]] = {}
    sizes = []
    for i, k in enumerate(sorted(known)):
        grams = _bigrams(k)
        sizes.append(len(grams))
        for g in grams:
            index.setdefault(g, []).append(i)
    return index, sizes


def _word(t: Token | None, zh: bool) -> str:
    if t is None:
        return "<s>"
    return t.text if zh else t.text.lower()


@dataclass(frozen=True)
class Context:
    """Everything about the clause the features of one candidate need."""

    text: str
    zh: bool
    toks: list[Token]
    key: str
    value_type: str
    typed: list[str]
    known: Mapping[str, Collection[str]]  # value type / attribute → known values (folded)
    own: Collection[str]  # words naming the subject ("表妹", "Dana"): not its value
    labels: tuple[str, ...] = ()  # the attribute's label words ("salary", "工资")
    cues: tuple[change_cues.Cue, ...] = ()  # change cues of the clause ("switched to", "不再")


def label_words(labels: Mapping[str, str]) -> tuple[str, ...]:
    """Content words of an attribute's bilingual labels ("preferred name or nickname" →
    name, nickname, preferred; "昵称/希望的称呼" → 昵称, 称呼)."""
    out: list[str] = []
    for text in labels.values():
        for part in re.split(r"[/、,，()（）]|\s+or\s+|的", text):
            part = part.strip()
            if _CJK.search(part):
                out += [part] if len(part) >= 2 else []
            else:
                out += [w for w in re.findall(r"[a-z]+", part.lower()) if w not in _LABEL_STOP and len(w) > 2]
    return tuple(dict.fromkeys(out))


def _segments(text: str) -> list[tuple[int, int]]:
    bounds = [i for i, ch in enumerate(text) if ch in _BOUNDARY]
    edges = [-1, *bounds, len(text)]
    return [(a + 1, b) for a, b in itertools.pairwise(edges) if b > a + 1]


@word_cache(maxsize=64)
def cues_of(text: str) -> tuple[change_cues.Cue, ...]:
    """The clause's change cues, once per clause (its values are ranked and trimmed in turn)."""
    return tuple(change_cues.find(text))


def negated(text: str, start: int) -> bool:
    """Does a negation or retirement word ("不", "don't", "no longer") stand before
    ``start`` in its clause segment?"""
    a = max((i for i, ch in enumerate(text[:start]) if ch in _BOUNDARY), default=-1) + 1
    return bool(_NEGATION.search(text[a:start]))


def _where(ctx: Context, s: Span) -> list[str]:
    """Features of the span's place in the clause: which segment, what precedes it there
    (a negation, a change word, the attribute's label)."""
    vt, text = ctx.value_type, ctx.text
    segs = _segments(text)
    k = next((i for i, (a, b) in enumerate(segs) if a <= s.start < b), 0)
    name = "only" if len(segs) == 1 else "first" if k == 0 else "last" if k == len(segs) - 1 else "mid"
    a = segs[k][0] if segs else 0
    before, seg = text[a : s.start], text[a : segs[k][1]] if segs else text
    out = [f"seg|{vt}|{name}"]
    if _NEGATION.search(before):
        out.append(f"neg|{vt}")
    if _CHANGE.search(text[: s.start]):
        out.append(f"chg|{vt}|{'seg' if _CHANGE.search(before) else 'clause'}")
    low = seg.lower()
    hits = [low.find(w) for w in ctx.labels if w in low]
    if hits:
        out.append(f"lab|{vt}|{'before' if min(hits) + a < s.start else 'after'}")
    elif any(w in text.lower() for w in ctx.labels):
        out.append(f"labother|{vt}")
    if any(w in s.text.lower() for w in ctx.labels):
        out.append(f"labin|{vt}")
    return out + _changed(ctx, s)


def _changed(ctx: Context, s: Span) -> list[str]:
    """Where the span stands among the clause's change cues (``change_cues``): inside the
    value region of a cue of some kind ("switched from X to Y": X after an old cue, Y after a
    new one), or before a later cue ("Kafka's out, we're on Redpanda now"). The ranker learns
    from the training corpus's changes which of them names the value that holds now."""
    vt, out = ctx.value_type, []
    for c in ctx.cues:
        if c.value_start <= s.start <= c.value_end:
            gap = ctx.text[c.value_start : s.start].strip()
            out += [f"cue|{vt}|{c.kind}", f"cue|{vt}|{c.kind}|{'far' if gap else 'near'}"]
            if c.kind == "old" and gap and _TO.search(gap):
                out.append(f"cue|{vt}|from-to")  # "from X to Y", "从 X 换到 Y": Y
        elif c.start >= s.end:
            out.append(f"cuelater|{vt}|{c.kind}")
    return sorted(set(out))


def features(ctx: Context, s: Span) -> list[str]:
    """The feature strings of one candidate span (conjoined with the value type so that
    one model ranks places, tech names and free text differently)."""
    vt, toks, zh = ctx.value_type, ctx.toks, ctx.zh
    first = toks[s.first] if s.first >= 0 else None
    last = toks[s.last] if s.last >= 0 else None
    prev = toks[s.first - 1] if s.first > 0 else None
    nxt = toks[s.last + 1] if 0 <= s.last < len(toks) - 1 else None
    n = s.last - s.first + 1 if s.first >= 0 else 0
    aligned = first is not None and first.start == s.start and last is not None and last.end == s.end
    folded = s.text.casefold().strip()
    f = [
        f"fp|{vt}|{first.pos if first else '-'}",
        f"lp|{vt}|{last.pos if last else '-'}",
        f"pp|{vt}|{prev.pos if prev else '<s>'}",
        f"np|{vt}|{nxt.pos if nxt else '</s>'}",
        f"pw|{vt}|{_word(prev, zh)}",
        f"nw|{vt}|{_word(nxt, zh) if nxt else '</s>'}",
        f"pw|{_word(prev, zh)}",
        f"nw|{_word(nxt, zh) if nxt else '</s>'}",
        f"pwk|{ctx.key}|{_word(prev, zh)}",
        f"fw|{vt}|{_word(first, zh)}",
        f"lw|{vt}|{_word(last, zh)}",
        f"len|{vt}|{min(n, 6)}",
        f"clen|{vt}|{_bucket(len(s.text), (2, 3, 5, 8, 13, 21))}",
        f"lenk|{ctx.key}|{min(n, 4)}",
        f"posk|{ctx.key}|{first.pos if first else '-'}|{last.pos if last else '-'}",
        f"nwk|{ctx.key}|{_word(nxt, zh) if nxt else '</s>'}",
        f"pos2|{vt}|{first.pos if first else '-'}|{last.pos if last else '-'}",
        f"al|{aligned}",
        f"lang|{vt}|{'zh' if zh else 'en'}",
        f"rel|{vt}|{_bucket(s.start / max(len(ctx.text), 1), (0.2, 0.4, 0.6, 0.8))}",
    ]
    if first is not None and s.start > first.start:
        f += [f"cut|{vt}|pre|{ctx.text[first.start : s.start]}", f"cutn|{vt}|pre|{s.start - first.start}"]
    if last is not None and s.end < last.end:
        f += [f"cut|{vt}|suf|{ctx.text[s.end : last.end]}", f"cutn|{vt}|suf|{last.end - s.end}"]
        f.append(f"cut|suf|{ctx.text[s.end : last.end]}")
    if nxt is None or nxt.text in _BOUNDARY:
        f.append(f"segend|{vt}")
    if prev is None or prev.text in _BOUNDARY:
        f.append(f"segstart|{vt}")
    if zh:
        f += [f"lc|{vt}|{s.text[-1]}", f"fc|{vt}|{s.text[0]}"]
        if _LATIN.match(s.text):
            f.append(f"latin|{vt}")
        if " " in s.text and _CJK.search(s.text):
            f.append(f"mixed|{vt}")
    else:
        words = s.text.split()
        if all(w[:1].isupper() or not w[:1].isalpha() for w in words):
            f.append(f"caps|{vt}")
        if s.start == 0:
            f.append(f"initial|{vt}")
    if "、" in s.text or " and " in s.text:
        f.append(f"list|{vt}")
    if any(ch.isdigit() for ch in s.text):
        f.append(f"digit|{vt}")
    if TECH.fullmatch(s.text.strip()):
        f.append(f"tech|{vt}")
    if s.text in ctx.typed:
        f.append(f"typed|{vt}|{min(ctx.typed.index(s.text), 2)}")
    elif any(s.text in t for t in ctx.typed):
        f.append(f"intyped|{vt}")
    elif any(t in s.text for t in ctx.typed):
        f.append(f"hastyped|{vt}")
    known = ctx.known.get(ctx.key, ())
    if folded in known:
        f.append(f"lex|{vt}")
    elif folded in ctx.known.get(f"type:{vt}", ()):
        f.append(f"lextype|{vt}")
    if known:
        f.append(f"lexsim|{vt}|{_bucket(similarity(folded, known), (0.3, 0.5, 0.7, 0.9))}")
    if any(w and w.casefold() in folded for w in ctx.own):
        f.append(f"own|{vt}")
    return f + _where(ctx, s)


def context(
    text: str,
    zh: bool,
    key: str,
    value_type: str,
    known: Mapping[str, Collection[str]],
    own: Collection[str] = (),
    labels: tuple[str, ...] = (),
) -> tuple[Context, list[Span]]:
    """The clause context and its candidate spans for one attribute."""
    toks = tokens(text, zh)
    typed = values.spans(value_type, text, zh) if value_type not in ("date", "datetime") else []
    typed = value_shapes.typed(key, value_type, text, zh, typed)
    cues = cues_of(text)
    ctx = Context(text, zh, toks, key, value_type, typed, known, tuple(own), labels, cues)
    return ctx, candidates(text, toks, typed) + known_spans(text, toks, known.get(key, ()))


def known_spans(text: str, toks: list[Token], known: Collection[str]) -> list[Span]:
    """Known values of the attribute said verbatim in the clause, where the tokens cut
    across them (jieba's "发微/信" for "发微信", "斯瓦尔/巴/群岛"): no n-gram of tokens
    would offer them whole. Token-aligned ones are already candidates."""
    folded = text.casefold()
    starts, ends = {t.start for t in toks}, {t.end for t in toks}
    out = []
    for k in known:
        at = folded.find(k) if len(k) >= 2 else -1
        if at < 0 or (at in starts and at + len(k) in ends):
            continue
        if k.isascii() and re.search(r"\w", folded[at - 1 : at] + folded[at + len(k) : at + len(k) + 1]):
            continue  # inside an English word ("text" of "context")
        out.append(Span(at, at + len(k), text[at : at + len(k)], *_cover(toks, at, at + len(k))))
    return out


def retired(said: str, value: str | None) -> bool:
    """Does the clause negate ``value``, name it as an old value or set it aside ("把飞度卖了")?"""
    at = said.find(value) if value else -1
    if at < 0 or not value:
        return False
    return (
        negated(said, at) or bool(change_cues.old_spans(said, [value])) or change_cues.set_aside(said, value)
    )
