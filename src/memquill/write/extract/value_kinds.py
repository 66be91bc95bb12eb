"""Closed kinds of value: a pet is an animal, a usual drink is a drink.

The attribute model reads what a clause is *about*, and the span ranker then picks the
likeliest span of it; for a clause that only mentions an animal or a drink in passing
("Took the dog up Mount Tam", "周末带狗去爬了香山") that gives a junk fact ("pet = dog",
"pet = 香山"), and for a pet's introduction the ranker often takes its name ("我养的狗叫面条"
→ 面条) where the attribute holds the kind of animal. For the attributes listed in
``data/value_kinds.json`` a model reading must name one of the attribute's kind words —
said as the subject's own where the kind says ``owned`` ("my dog", "我家那只橘猫", "I have
two axolotls") — and when its span names none but the clause does, that word is the value.
A reading whose clause names none is no fact. Word lists are data: a new animal or drink is
a new line, not a new rule.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from memquill.catalogue import Attribute
from memquill.errors import ConfigError
from memquill.text import comma_part
from memquill.write.extract import change_cues, values
from memquill.write.extract.lexicon import everyday_word
from memquill.write.extract.span_features import negated

KINDS_FILE = "data/value_kinds.json"
# Words that say the animal is someone's own, right before it in its segment ("my old cat",
# "we adopted two kittens", "我家那只", "养了一条"); a possessive of someone else ("my
# neighbour's dog") is not.
_EN_OWNED = re.compile(
    r"(?:\b(?:my|our|his|her|their)|\b(?:have|has|had|got|keep|keeps|kept|adopted|adopt|rescued|own|owns|"
    r"owned|raise|raises|raised|bought|getting|fostering))\s+(?:(?![\w-]+'s\b)[\w-]+\s+){0,4}$",
    re.IGNORECASE,
)
_ZH_OWNED = re.compile(r"(?:我家|我们家|咱家|家里|养|我的|我有|有(?:一|两|三|几)?[只条个头]|收养|领养|捡)")
_SEGMENT_END = re.compile(r"[，,。；;！!？?]")


@dataclass(frozen=True)
class Kind:
    owned: bool
    en: re.Pattern[str]
    zh: tuple[str, ...]
    objects: bool = True  # a liked object naming a word fills the slot ("I love Coke Zero"); not a diet
    context: re.Pattern[str] | None = None  # words of the kind's domain (flying, a phone plan)
    closed: bool = True  # an open kind's words only type a value; its attribute holds others too
    zh_rx: re.Pattern[str] | None = None  # the Chinese words, longest first: one scan finds them all


@cache
def data() -> dict[str, Any]:
    """``data/value_kinds.json``, read once for every reader of it."""
    raw = json.loads(resources.files("memquill").joinpath(KINDS_FILE).read_text("utf-8"))
    if not isinstance(raw, dict):
        raise ConfigError(f"{KINDS_FILE}: expected an object")
    return raw


@cache
def kinds() -> dict[str, Kind]:
    """The kinds by attribute key, from the package data."""
    raw = data()
    table = raw.get("kinds")
    if not isinstance(table, dict):
        raise ConfigError(f"{KINDS_FILE}: expected kinds by attribute key")
    out = {}
    for key, spec in table.items():
        flags = 0 if spec.get("cased") else re.IGNORECASE  # "Three" the carrier, not three
        # edges by lookaround, not \b: "Disney+" ends in no word character
        rx = re.compile(r"(?<!\w)(?:" + _alternation(spec.get("en", [])) + r")(?:e?s)?(?!\w)", flags)
        zh = tuple(sorted(spec.get("zh", []), key=len, reverse=True))
        context = _context(spec["context"]) if spec.get("context") else None
        objects, closed = bool(spec.get("objects", True)), bool(spec.get("closed", True))
        zh_rx = re.compile(_alternation(list(zh))) if zh else None
        out[key] = Kind(bool(spec.get("owned")), rx, zh, objects, context, closed, zh_rx)
    return out


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _context(spec: dict[str, list[str]]) -> re.Pattern[str]:
    """Domain words (English as whole words, Chinese anywhere), in any case."""
    en, zh = _alternation(spec.get("en", [])), _alternation(spec.get("zh", []))
    return re.compile(rf"\b(?:{en})\b" + (f"|{zh}" if zh else ""), re.IGNORECASE)


@cache
def own_contexts() -> dict[str, re.Pattern[str]]:
    """Per attribute, the words that keep its reading whatever kind the value also names."""
    return {key: _context(spec) for key, spec in data().get("own_context", {}).items()}


def domain_kind(key: str, value: str, said: str) -> str | None:
    """The attribute a value of ``key``'s reading fills by its own kind: ``value`` is a word of
    another kind whose domain the clause speaks of ("switched to Telstra, porting my number…"
    a mobile carrier, not an employer; "went back to United, the open seating…" an airline, not
    a sport). When several kinds claim the value, the one whose domain word stands nearest it;
    none when the clause says a word of the reading's own (``own_context``: "I work at Verizon
    on the network team" stays an employer)."""
    at = said.find(value)
    own = own_contexts().get(key)
    if at < 0 or (own is not None and own.search(said)):
        return None
    best: tuple[int, str] | None = None
    for other, kind in kinds().items():
        if other == key or kind.context is None or not names_kind(other, value):
            continue
        gaps = [min(abs(m.start() - at), abs(m.end() - at)) for m in kind.context.finditer(said)]
        if gaps and (best is None or min(gaps) < best[0]):
            best = (min(gaps), other)
    return best[1] if best else None


CONDITION = "medical_condition"


@cache
def _condition_keeps() -> frozenset[str]:
    return frozenset(data().get("condition_keeps", ()))


def condition_named(text: str) -> bool:
    """The text names a condition of the lexicon, not negated, in words about health ("老婆在治
    乳腺癌", "I've got a sports betting habit I'm struggling to shake"): the sensitivity head
    may read it as ordinary, the lexicon knows what it is."""
    kind = kinds().get(CONDITION)
    if kind is None or kind.context is None or not kind.context.search(text):
        return False
    return any(not negated(text, a) for a, _ in _mentions(kind, text, not text.isascii()))


def condition_within(key: str, value: str, said: str) -> str | None:
    """The condition a reading holds, when its value says it only in part or as another
    attribute, in a clause about health: a reading of another attribute whose value ends with
    a condition ("老婆在治乳腺癌" read as an occupation "治乳腺癌", "以前得过乙肝" as a medication
    "乙肝") or is only a word of treating one ("我爸在做化疗，肺癌中期" read as an industry "化疗")
    states that condition, not a job or a medicine; a condition's own reading is the condition
    as the lexicon names it ("had hepatitis" in "had hepatitis B years ago"). Attributes whose
    value may name a condition and still be theirs (a diet for diabetes) keep it
    (``condition_keeps``), and so does a value the condition does not end: it names something
    else by it ("肿瘤医院", "cancer researcher")."""
    kind = kinds().get(CONDITION)
    if kind is None or kind.context is None or not kind.context.search(said):
        return None
    zh = not value.isascii()
    said_at = [(a, b) for a, b in _mentions(kind, said, not said.isascii()) if not negated(said, a)]
    if key == CONDITION:
        at = said.find(value)
        over = [said[a:b] for a, b in said_at if at >= 0 and a < at + len(value) and at < b]
        return over[0] if over and over[0] != value else None
    if key in _condition_keeps() and not names_kind(CONDITION, value):
        return None
    end = len(value.rstrip(" .。!！,，"))
    inside = [(a, b) for a, b in _mentions(kind, value, zh) if b == end and not negated(value, a)]
    if inside:
        a, b = max(inside, key=lambda x: x[1] - x[0])
        return value[a:b]
    if said_at and key not in _condition_keeps() and kind.context.fullmatch(value.strip()):
        return said[said_at[0][0] : said_at[0][1]]
    return None


def domain_words(text: str, zh: bool) -> list[tuple[str, str, int]]:
    """(attribute key, kind word, where) for each word of a kind with a domain that ``text``
    says in a comma part that also says a word of that domain ("giffgaff says I've used all
    my data", "一兆韦德那个私教又在推课") or right after a change cue ("moved everything into
    obsidian"), earliest first. Beside a domain word the word must name the kind by itself: no
    everyday word ("Three", "United"), a Chinese one cut out as a word or of three characters
    or more. Never a negated one."""
    said = [
        (key, kind.context, a, b)
        for key, kind in kinds().items()
        if kind.context is not None and not kind.owned
        for a, b in _mentions(kind, text, zh)
        if not negated(text, a)
    ]
    if not said:
        return []
    out: list[tuple[str, str, int, bool]] = []
    switched = _switched_to(text)
    for key, domain, a, b in said:
        word = text[a:b]
        if a in switched:
            out.append((key, word, a, domain.search(text.replace(word, " ")) is not None))
        elif domain.search(comma_part(text, a, b).replace(word, " ")) and (
            distinctive(word) or (not word.isascii() and whole_word(text, word))
        ):
            out.append((key, word, a, True))
    # a word of several kinds ("Optus": a carrier and an internet provider) switched to is the
    # kinds whose domain the clause speaks of; and the kind's other words in a clause that
    # switches to one are what it left ("switched to Telstra, the Optus dropouts…")
    kinds_of = Counter((w, a) for _, w, a, _ in out)
    new = {k for k, _, a, _ in out if a in switched}
    return sorted(
        (
            (k, w, a)
            for k, w, a, spoken in out
            if (spoken or kinds_of[(w, a)] == 1) and (a in switched or k not in new)
        ),
        key=lambda x: x[2],
    )


# change cues too common to say the value is now the speaker's ("it's Netflix night", "love Spotify's ads")
_WEAK_CUES = frozenset({"it's", "it is", "love", "use"})


def _switched_to(text: str) -> set[int]:
    """Where a change cue introduces a value right after it ("moved everything into Obsidian",
    "换成了渴望"): a brand there is what the speaker has now, whatever the clause's domain words."""
    return {
        c.value_start + (len(text[c.value_start :]) - len(text[c.value_start :].lstrip()))
        for c in change_cues.find(text)
        if c.kind == "new" and text[c.start : c.end].casefold() not in _WEAK_CUES
    }


def kind_of(obj: str) -> tuple[str, str] | None:
    """(attribute key, kind word) of the first consumable kind ``obj`` names ("Coke Zero" →
    beverage, "coke"): a preference object the lexicon does not list still fills its slot."""
    for key, kind in kinds().items():
        if kind.owned or not kind.objects:
            continue
        if m := kind.en.search(obj):
            return key, m.group(0).casefold()
        if word := next((w for w in kind.zh if w in obj), None):
            return key, word
    return None


def thing_word(word: str) -> bool:
    """Is ``word`` a kind word of a closed kind (a drink, an animal…)? Then it names a thing,
    not someone, even capitalised at the start of a sentence ("Matcha's been great")."""
    return any(k.en.fullmatch(word) or word in k.zh for k in kinds().values())


def _mentions(kind: Kind, text: str, zh: bool) -> list[tuple[int, int]]:
    """Where the kind's words stand in ``text``, earliest first, the longest at a place."""
    rx = kind.zh_rx if zh else kind.en
    return [] if rx is None else [(m.start(), m.end()) for m in rx.finditer(text)]


def words_said(key: str, text: str, zh: bool) -> list[str]:
    """``key``'s kind words as ``text`` says them ("telstra", "渴望"): values of that kind
    whatever their case."""
    kind = kinds().get(key)
    return [] if kind is None else [text[a:b] for a, b in _mentions(kind, text, zh)]


# A wish or a supposition owns nothing ("everyone should own a dog", "要是能养只猫就好了").
_EN_SUPPOSED = re.compile(
    r"\b(?:if|should|would|could|might|wish|hope|want|wants|wanna|someday|imagine)\b", re.IGNORECASE
)
_ZH_SUPPOSED = re.compile(r"要是|如果|假如|想|希望|打算|能不能|可不可以|应该")


def _owned(text: str, at: int, zh: bool) -> bool:
    seg = _SEGMENT_END.split(text[:at])[-1]
    if (_ZH_SUPPOSED if zh else _EN_SUPPOSED).search(seg):
        return False
    return bool(_ZH_OWNED.search(seg) if zh else _EN_OWNED.search(seg))


def _fits(kind: Kind, text: str, a: int, b: int, zh: bool) -> bool:
    return (not kind.owned or _owned(text, a, zh)) and (kind.owned or not negated(text, a))


def kind_value(key: str, value: str, said: str, zh: bool) -> str | None:
    """The value a model reading of ``key`` may hold: ``value`` itself when the attribute
    has no closed kind or the value names one of its words (owned where required); else the
    clause's first such word; None when the clause names none (no fact). An open kind's word
    said in the clause stands for a value in lower case that names none of them ("Monzo
    flagged a payment as fraud": the bank is Monzo, not "payment as fraud")."""
    kind = kinds().get(key)
    if kind is None:
        return value
    if not kind.closed:
        said_words = [said[a:b] for a, b in _mentions(kind, said, zh) if not negated(said, a)]
        plain = value.isascii() and value == value.lower() and not _mentions(kind, value, zh)
        return said_words[0] if plain and said_words else value
    at = said.find(value)
    inside = [(a, b) for a, b in _mentions(kind, said, zh) if at >= 0 and at <= a and b <= at + len(value)]
    if at < 0:
        inside = [(0, 0)] if _mentions(kind, value, zh) else []
    if inside and (at < 0 or _fits(kind, said, *inside[0], zh)):
        return _without_comment(value, said[inside[-1][0] : inside[-1][1]] if at >= 0 else "", zh)
    return said_kind(key, said, zh)


# what a Chinese value span may run on into after its kind word: a verdict on it ("渴望挺好",
# "皇家不错"), not a longer name ("皇家小型犬粮")
_ZH_COMMENT = ("d", "a", "v", "u", "y", "ul", "uj", "zg")


def _without_comment(value: str, word: str, zh: bool) -> str:
    """``value`` cut after its last kind word when what follows says how it is."""
    if not zh or not word or word not in value:
        return value
    end = value.rfind(word) + len(word)
    rest = values.pos_cut(value[end:])
    return value[:end] if rest and rest[0][1].startswith(_ZH_COMMENT) else value


def closed(key: str) -> bool:
    """Does ``key`` hold only values its kind words name (a pet, a carrier; not a bank)?"""
    kind = kinds().get(key)
    return kind is not None and kind.closed


def vouched(key: str, value: str, said: str) -> bool:
    """Does ``key``'s kind lexicon vouch for ``value``: a word of its closed kind ("matcha", a
    carrier, a pet food), or of its open kind in a clause about the kind's domain ("刚在超级猩猩
    办了次卡")? Such a value is as typed as a place or an e-mail address."""
    kind = kinds().get(key)
    if kind is None or not names_kind(key, value):
        return False
    return kind.closed or (kind.context is not None and kind.context.search(said) is not None)


def names_kind(key: str, value: str) -> bool:
    """Is ``value`` itself one of ``key``'s kind words ("United" an airline)?"""
    kind = kinds().get(key)
    return kind is not None and (kind.en.fullmatch(value.strip()) is not None or value.strip() in kind.zh)


def distinctive(word: str) -> bool:
    """Is a kind word a name no everyday word shares ("爱肯拿", "Bitwarden"; not "猫",
    "United", "Three")? Such a word says its kind wherever it stands."""
    if word.isascii():
        w = word.casefold()
        return " " in w or not everyday_word(w)
    return len(word) >= 3


def whole_word(text: str, word: str) -> bool:
    """Is Chinese ``word`` said in ``text`` as words of its own, not inside a longer one
    ("咖啡" in "咖啡因" is not)? Latin words are matched whole already."""
    if word.isascii():
        return True
    at = text.find(word)
    if at < 0:
        return False
    bounds, pos = {0}, 0
    for token, _ in values.pos_cut(text):
        pos += len(token)
        bounds.add(pos)
    return at in bounds and at + len(word) in bounds


def said_kinds(key: str, said: str, zh: bool) -> list[str]:
    """Every one of ``key``'s closed-kind words the clause says as a value of it, in order."""
    kind = kinds().get(key)
    if kind is None or not kind.closed:
        return []
    return [said[a:b] for a, b in _mentions(kind, said, zh) if _fits(kind, said, a, b, zh)]


def said_kind(key: str, said: str, zh: bool) -> str | None:
    """The first of ``key``'s kind words the clause says as a value of it (owned where the kind
    requires, not negated otherwise); None when it says none or ``key`` has no closed kind."""
    return next(iter(said_kinds(key, said, zh)), None)


# Value types whose every value a lexicon knows: a clause naming several of them for a
# multi-valued attribute states each ("我会说粤语，葡萄牙语也能日常交流", "I speak Farsi and
# Swedish, and my German is passable"), across commas too, unless it negates one.
CLOSED_TYPES = frozenset({"language"})


def closed_list(
    attr: Attribute, said: str, zh: bool, chosen: list[tuple[str, float]]
) -> list[tuple[str, float]]:
    """For a multi-valued attribute of a closed type, every value of the type the clause
    names and does not negate, with the chosen value's probability (the lexicon's match,
    not the ranker's wording: "my Farsi" is "Farsi"); else ``chosen`` as it is."""
    if attr.single or attr.value_type not in CLOSED_TYPES or not chosen:
        return chosen
    q = chosen[0][1]
    out: dict[str, tuple[str, float]] = {}
    for v in values.spans(attr.value_type, said, zh):
        if v.casefold() not in out and not negated(said, said.find(v)):
            out[v.casefold()] = (v, q)
    return list(out.values()) or chosen
