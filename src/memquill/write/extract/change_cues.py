"""Change cues: the words that say a single-valued attribute changed, as data.

``data/change_cues.json`` lists, per language, cues typed by what follows them: ``new``
(the new value: "switched to X", "改成X"), ``start`` (a new employer, school or place:
"I start at X", "去X报到"), ``back`` (a return: "went back to X", "重新开始X"), ``old``
(the value that no longer holds: "dropped X", "不再X") and ``present`` (the clause says how
things are now: "these days", "现在"). One table instead of a pattern per sentence: a new
phrasing is a new line of data.

Two readers use it. The model extractor picks, among the typed spans of a clause, the one
after a new/start/back cue and never one right after an old cue ("Cut out coffee,
switched to matcha" → matcha); and a clause that states a change or the present is a
statement, not a guess, so its candidate is not left below the confidence floor.
Reconciliation then needs no change word at all: a different value of a single-valued
slot supersedes (``reconcile._comparable``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from memquill.errors import ConfigError

CUES_FILE = "data/change_cues.json"
# A clause recalling an earlier value ("back when I lived in Graz…", "以前在字节的时候…") says
# how things were, not how they are (the slot timeline and the present-statement rule read it).
RECALL = re.compile(
    r"以前|曾经|当年|那时候|那会儿|那几年|(?:还|之前|原来|当初)(?:在|用)?.{1,12}?的时候|怀念|想念|"
    r"\b(?:back when|back in my|when (?:i|we) (?:was|were|lived|worked|used to)|"
    r"(?:i|we) (?:still |really |sometimes |kinda |kind of )*miss(?:ed)?|"
    r"in my (?:\w+ ){0,3}days|during my (?:time|years)|(?:i|we) used to)\b",
    re.IGNORECASE,
)
KINDS = ("new", "start", "back", "old", "present")
CHANGE = frozenset({"new", "start", "back"})
NEAR = 16  # characters between a cue and the value it introduces ("switched over to the …")


@dataclass(frozen=True)
class Cue:
    kind: str
    start: int
    end: int
    value_start: int  # where the value it introduces may start…
    value_end: int  # …and end (``NEAR`` characters after the cue unless the cue encloses it)


@cache
def _table() -> tuple[tuple[str, re.Pattern[str]], ...]:
    raw = json.loads(resources.files("memquill").joinpath(CUES_FILE).read_text("utf-8"))
    cues = raw.get("cues") if isinstance(raw, dict) else None
    if not isinstance(cues, dict) or set(cues) - set(KINDS):
        raise ConfigError(f"{CUES_FILE}: expected cues by kind ({', '.join(KINDS)})")
    out = []
    for kind, langs in cues.items():
        words = sorted({w for ws in langs.values() for w in ws}, key=len, reverse=True)
        if kind == "old":  # "after quitting soda", "giving up coffee": what is left behind
            words = sorted(
                {*words, *filter(None, map(_progressive, langs.get("en", [])))}, key=len, reverse=True
            )
        rx = "|".join(_cue_rx(w, f"{kind}{i}") for i, w in enumerate(words))
        out.append((kind, re.compile(rx, re.IGNORECASE)))
    return tuple(out)


_ING = {"quit": "quitting", "gave": "giving", "cut": "cutting", "got": "getting", "left": "leaving"}


def _progressive(cue: str) -> str | None:
    """The cue with its verb in -ing ("dropped X" → "dropping X", "gave up" → "giving up").
    Only an old value's cues are read so: "quitting soda" leaves soda behind either way,
    while "moving to Denver" may be a plan, not the new value."""
    verb, _, rest = cue.partition(" ")
    ing = _ING.get(verb) or (verb[:-2] + "ing" if verb.endswith("ed") and len(verb) > 4 else None)
    return f"{ing} {rest}".strip() if ing else None


def _cue_rx(word: str, name: str) -> str:
    """One cue as a pattern: English words on word boundaries; an ``X`` in a cue
    ("去X报到") marks where the value is (a named group), a "…" in an English one where what
    is changed is named, one to four words ("moved … to": "moved the reading-list CLI to")."""
    if "X" in word and not word.isascii():
        head, tail = word.split("X", 1)
        value = f"(?P<{name}>[^，,。；;！!？?]{{1,{NEAR}}}?)"
        return f"{re.escape(head)}{value}{re.escape(tail)}"
    if "…" in word:
        head, tail = (re.escape(x.strip()) for x in word.split("…", 1))
        thing = r"(?!(?:from|back|off|away)\b)[\w'./-]+"  # "moved from Leeds to": from-to, not a thing
        return rf"(?<![\w']){head}\s+(?:{thing}\s+){{0,3}}?{thing}\s+{tail}(?![\w'])"
    if word.isascii():
        return rf"(?<![\w']){re.escape(word)}(?![\w'])"
    return re.escape(word)


_WORKS = re.compile(r"\b(?:work|works|working|worked|remote|remotely)\s+$", re.IGNORECASE)


def find(text: str) -> list[Cue]:
    """Every cue in ``text``, left to right; of overlapping ones the longest wins."""
    found = []
    for kind, rx in _table():
        for m in rx.finditer(text):
            if m.group(0).casefold() == "from" and _WORKS.search(text, 0, m.start()):
                continue  # "working from home": where the work is done, nothing left behind
            inner = next((n for n, v in m.groupdict().items() if v is not None), None)
            vs, ve = (m.start(inner), m.end(inner)) if inner else (m.end(), m.end() + NEAR)
            found.append(Cue(kind, m.start(), m.end(), vs, ve))
    found.sort(key=lambda c: (c.start, -(c.end - c.start)))
    kept: list[Cue] = []
    for c in found:
        if kept and c.start < kept[-1].end:
            continue
        kept.append(c)
    kept = _from_to(text, kept)
    nexts: list[Cue | None] = [*kept[1:], None]
    return [_clipped(text, c, nxt) for c, nxt in zip(kept, nexts[: len(kept)], strict=True)]


# "从UI设计师转产品经理": a bare 转 inside the region of 从 turns from the old value to the new
# one (a cue of its own elsewhere, bare 转 would open 转账, 转发…)
_TURN = re.compile(r"转(?![账发告载述身])")


def _from_to(text: str, kept: list[Cue]) -> list[Cue]:
    out: list[Cue] = []
    for c, nxt in zip(kept, [*kept[1:], None], strict=False):
        out.append(c)
        if c.kind != "old" or text[c.start : c.end] != "从":
            continue
        end = min(c.end + NEAR, nxt.start if nxt else len(text))
        if (m := _TURN.search(text, c.end + 1, end)) is not None and not _STOP.search(text, c.end, m.start()):
            out.append(Cue("new", m.start(), m.end(), m.end(), m.end() + NEAR))
    return out


_STOP = re.compile(r"[，,。.;；!！?？]")


def _clipped(text: str, c: Cue, nxt: Cue | None) -> Cue:
    """A value region ends at the next cue and at the end of its phrase."""
    end = min(c.value_end, nxt.start if nxt else len(text))
    if (m := _STOP.search(text, c.value_start, end)) is not None:
        end = m.start()
    return replace(c, value_end=max(c.value_start, end))


def kind(text: str) -> str | None:
    """The strongest cue of a clause: a start, a return or a new value, else the present."""
    kinds = {c.kind for c in find(text)}
    for k in ("start", "back", "new", "present"):
        if k in kinds:
            return k
    return None


def _distance(text: str, cue: Cue, span: str) -> int | None:
    """How far after the cue ``span`` starts, if it starts inside the cue's value region
    (a Latin span only as a whole Latin word: "API" is not in "FastAPI", "bun" is in "换成bun")."""
    rx = re.escape(span) if not span.isascii() else rf"(?<![A-Za-z0-9_]){re.escape(span)}(?![A-Za-z0-9_])"
    for m in re.finditer(rx, text):
        if cue.value_start <= m.start() <= cue.value_end:
            return m.start() - cue.value_start
    return None


def introduces(cues: Iterable[Cue], at: int, kinds: Collection[str] = CHANGE) -> bool:
    """Does a cue of one of ``kinds`` introduce a value starting at ``at`` (inside the
    region after the cue where its value may start)?"""
    return any(c.kind in kinds and c.value_start <= at <= c.value_end for c in cues)


def old_spans(text: str, spans: Sequence[str]) -> set[str]:
    """The spans old cues name: values that no longer hold ("Jenkins 下线了")."""
    out: set[str] = set()
    for c in (c for c in find(text) if c.kind == "old"):
        near = [(d, s) for s in spans if (d := _distance(text, c, s)) is not None]
        if near:  # the nearest one only: "from MongoDB to PostgreSQL" names one old value
            out.add(min(near, key=lambda x: x[0])[1])
    return out


def pick(text: str, spans: Sequence[str]) -> list[str]:
    """``spans`` reordered by the cues: a span introduced by a new/start/back cue first
    (the last such cue wins: "从 A 换成 B，后来又改成 C" → C), spans introduced by an old
    cue dropped unless nothing else is left."""
    cues = find(text)
    old = old_spans(text, spans)
    new: list[str] = []
    for c in reversed([c for c in cues if c.kind in CHANGE]):
        near = [
            (d, s)
            for s in spans
            if s not in new and s not in old and (d := _distance(text, c, s)) is not None
        ]
        new += [s for _, s in sorted(near, key=lambda x: x[0])]
    rest = [s for s in spans if s not in new and s not in old]
    return [*new, *rest] or list(spans)


# A segment of a clause: where a set-aside phrase says something of the value beside it.
_SEGMENT = re.compile(r"[，,。.;；!！?？:：—]")


@cache
def _aside(section: str) -> tuple[re.Pattern[str], ...]:
    """The phrases of a section (``set_aside``, ``ended``) of ``data/change_cues.json`` as
    patterns: a phrase with an X encloses its value ("sold my X") or whom it went to ("给X用了");
    one without an X says so of whatever its segment names."""
    out = []
    for w in _phrases(section):
        if "X" in w:
            head, tail = (re.escape(x) for x in w.split("X", 1))
            b = r"(?<![\w'])" if w.isascii() else ""
            out.append(
                re.compile(rf"{b}{head}(?P<v>[^，,。；;！!？?]{{1,{NEAR * 2}}}?){tail}", re.IGNORECASE)
            )
        else:
            out.append(re.compile(_cue_rx(w, "w"), re.IGNORECASE))
    return tuple(out)


@cache
def _ended_any() -> re.Pattern[str]:
    """One search for any ended phrase's words: most turns end nothing and pay one search."""
    parts = {max(w.split("X"), key=len).strip() for w in _phrases("ended")}
    return re.compile(
        "|".join(re.escape(p) for p in sorted(parts, key=len, reverse=True) if p), re.IGNORECASE
    )


def says_ended(text: str) -> bool:
    """Might the text end a value the user held ("cancelled", "卖了", "分手")?"""
    return _ended_any().search(text) is not None


def _segment_of(text: str, at: int, end: int) -> tuple[int, int]:
    starts = [m.end() for m in _SEGMENT.finditer(text, 0, at)]
    stop = _SEGMENT.search(text, end)
    return (starts[-1] if starts else 0), (stop.start() if stop else len(text))


# A model's name without its number ("小米14" → "小米", "Galaxy S21" → "Galaxy"): how a clause
# refers back to the thing it sets aside ("已经不是小米那台了", "the Pixel died").
_LINE = re.compile(r"^([A-Za-z][A-Za-z-]+|[\u4e00-\u9fff]{2,})\s*[A-Za-z]{0,3}\s*\d")


def _as_said(text: str, value: str) -> str:
    """``value`` as the clause names it: whole, else its line name when only that is said."""
    if not value or value.casefold() in text.casefold():
        return value
    m = _LINE.match(value)
    return m.group(1) if m and m.group(1).casefold() in text.casefold() else value


def set_aside(text: str, value: str) -> bool:
    """Does the clause set ``value`` aside (an X at a phrase's end: the value starts at most
    ``NEAR`` characters into it, "sold my old Kindle") — name it with an old cue ("dropped the Kindle"),
    or say right after it in its segment that it broke, was sold, given away or is now the
    backup ("the Pixel 7 is now my backup", "小米14摔了", "iPhone 15 给我妈用了")? For a
    multi-valued attribute (devices, vehicles) the clause's other value then replaces it."""
    value = _as_said(text, value)
    if not value or (at := text.casefold().find(value.casefold())) < 0:
        return False
    if value in old_spans(text, [value]):
        return True
    end = at + len(value)
    for m, x, _seg, lo in _phrase_hits(text, at, end, "set_aside"):
        inside = x >= 0 and (value.casefold() in m.group("v").casefold() or 0 <= at - x <= NEAR)
        if inside or 0 <= m.start() + lo - end <= NEAR:
            return True  # the value in the phrase's X, or the phrase said right after it
    return False


# "用了一周回不去了": what the user cannot go back from stays
_STAYS = re.compile("回不去|离不开|舍不得")
# what someone else ended is not the user's ("cancelled her Netflix", "she sold the Civic", "他把车卖了")
_THEIRS = re.compile(r"^\s*(?:his|her|their)\b|^(?:他|她)", re.IGNORECASE)
_THEY_DID = re.compile(
    r"(?:他|她|他们|她们)(?:把|将)?$|\b(?:he|she|they|my\s+\w+)\s+(?:\w+\s+)?$", re.IGNORECASE
)


def ends_held(text: str, value: str) -> bool:
    """Does the clause end ``value`` by itself ("Netflix is cancelled", "Sold the Civic",
    "爱奇艺会员退订了", "跟大伟分手了": the ``ended`` phrases), the user's own? Stricter than
    ``set_aside``: an X phrase's X must hold the value — up to its tail ("离开X了"), or a few words
    in when the X ends the phrase ("sold the old Civic"; Chinese: right there) — and a phrase
    without an X must follow it."""
    value = _as_said(text, value)
    if not value or (at := text.casefold().find(value.casefold())) < 0:
        return False
    end = at + len(value)
    for m, x, seg, lo in _phrase_hits(text, at, end, "ended"):
        doers = (seg[: m.start()], seg[: at - lo])  # who did it: said before the phrase or the value
        if _STAYS.search(m.group(0)) or any(_THEY_DID.search(d) for d in doers):
            continue
        if x < 0:
            if 0 <= m.start() + lo - end <= NEAR:
                return True
            continue
        if _THEIRS.match(seg[m.start("v") :]) or at < x:
            continue
        tail_less = m.end("v") == m.end() and (at == x or value.isascii())
        if end <= m.end("v") + lo or (tail_less and at - x <= NEAR):
            return True
    return False


def _phrase_hits(text: str, at: int, end: int, section: str) -> Iterator[tuple[re.Match[str], int, str, int]]:
    """The phrases of ``section`` in the segment of ``text[at:end]``: (match, where its X starts
    in ``text`` or -1, the segment, the segment's start)."""
    lo, hi = _segment_of(text, at, end)
    seg = text[lo:hi]
    for rx in _aside(section):
        for m in rx.finditer(seg):
            yield m, (m.start("v") + lo if "v" in m.groupdict() else -1), seg, lo


def _phrases(section: str) -> list[str]:
    """A phrase section of ``data/change_cues.json`` (languages → phrases), longest first."""
    raw = json.loads(resources.files("memquill").joinpath(CUES_FILE).read_text("utf-8"))
    spec = raw.get(section, {}) if isinstance(raw, dict) else None
    if not isinstance(spec, dict):
        raise ConfigError(f"{CUES_FILE}: {section} must map languages to phrases")
    words = {w for lang, ws in spec.items() if lang != "description" for w in ws}
    return sorted(words, key=len, reverse=True)


@cache
def _kept_beside() -> re.Pattern[str] | None:
    words = _phrases("kept_beside")
    return (
        re.compile("|".join(_cue_rx(w, f"w{i}") for i, w in enumerate(words)), re.IGNORECASE)
        if words
        else None
    )


def changed_from(text: str, new: str, old: str) -> bool:
    """Does the clause change to ``new`` from ``old``: a "new" cue introduces the new value
    and the clause names the old one, not as a value a cue brings in too ("日语学了几个月实在
    坚持不下去，干脆改学西班牙语了", "moved the newsletter from Substack to Ghost")? For a
    multi-valued attribute the new value then replaces that one only, however the clause
    says the old one is done with; a start or a return ("又开始学韩语") may add one, and the
    caller reads ``kept_beside`` ("日语还在学", "on top of Spanish") first."""
    new, old = _as_said(text, new), _as_said(text, old)
    folded = text.casefold()
    at, was = folded.find(new.casefold()), folded.find(old.casefold())
    if at < 0 or was < 0 or not new or not old or old.casefold() in new.casefold():
        return False
    cues = find(text)
    return introduces(cues, at, ("new",)) and not introduces(cues, was)


def kept_beside(text: str) -> bool:
    """Does the clause keep its value beside the one of its kind held now, as a second one
    ("I also got a work phone", "公司又多配了一部手机，华为Mate 60") or one from long ago ("as
    a kid I had…")? Words setting the old one aside are read first (``set_aside``)."""
    rx = _kept_beside()
    return rx is not None and rx.search(text) is not None


def sets_aside_any(text: str) -> bool:
    """Does the clause set anything aside (an old cue, or a set-aside phrase)?"""
    return any(c.kind == "old" for c in find(text)) or any(rx.search(text) for rx in _aside("set_aside"))


def leading(text: str, value: str) -> tuple[str, str] | None:
    """(the cue's kind, the value after it) when ``value`` begins with a change cue's words
    ("ditched Neovim", "switched to fish", "改用Zed"): a span cut with its verb."""
    at = text.find(value)
    if at < 0:
        return None
    for c in find(text):
        if c.start == at and c.end < at + len(value):
            rest = text[c.end : at + len(value)].strip()
            return (c.kind, rest) if rest else None
    return None


def holds_old(text: str, value: str) -> bool:
    """Does ``value`` hold an old-value cue inside it, words on both sides ("after quitting
    soda")? Such a span names what the clause retires, never the current value. A cue opening
    the value is an adjective there ("retired pilot") or the verb ``leading`` strips."""
    at = text.find(value)
    return at >= 0 and any(
        c.kind == "old" and at < c.start and c.end < at + len(value) and not text[c.start].isupper()
        for c in find(text)  # a capitalised cue word is part of a name ("The Left Hand of Darkness")
    )


# A negation right before a value ("我还没结婚", "tabs not spaces", "生日不是6号"): stricter than the
# span ranker's negation feature, whose single characters also sit inside words that negate
# nothing ("特别喜欢", "停在B2") and which reads a whole segment ("I'm not religious but my
# grandma is a devout Catholic").
_NOT_RIGHT_BEFORE = re.compile(
    r"(?:不是|没有?|不再|从不|并不)$|\b(?:not|never|no longer|isn'?t|aren'?t|wasn'?t)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
# "from" alone names where someone comes from as often as what they left ("下个月从温哥华回国":
# she lives in Vancouver): no sign the value ended
_ORIGIN = frozenset({"从", "from"})


def ended(said: str, value: str) -> bool:
    """Does the clause name ``value`` only as what ended or what is not so ("深圳的房子已经退了",
    "我还没结婚")? The span as the ranker chose it: a negation right before it, or, in a clause
    that states no change, an old-value cue whose value it opens ("ditched Jenkins for
    CircleCI": Jenkins, not CircleCI)."""
    at = said.find(value)
    if at < 0:
        return False
    if _NOT_RIGHT_BEFORE.search(said[max(0, at - 24) : at]):
        return True
    cues = find(said)
    if any(c.kind in CHANGE for c in cues):
        return False
    return any(
        c.kind == "old" and 0 <= at - c.value_start <= 2 and said[c.start : c.end].casefold() not in _ORIGIN
        for c in cues
    )
