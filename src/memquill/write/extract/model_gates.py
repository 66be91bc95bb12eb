"""What the attribute model may propose: wording that names a value, from a clause as said.

The classifier says what a clause is *about*; a typed extractor then picks a span. On open
conversation (two people chatting, photos described in brackets) both go wrong in ways a
rule can see, and a wrong value in a single-valued slot is worse than none: it replaces the
right one and retires the episodes that quote the old one. So before a model candidate is
made:

* a transcript label ("Caroline: …") is the speaker, not a statement of a name — it is cut
  off, and the facts about "the user" are the speaker's (as for rules);
* bracketed media captions ("[image: a photo of …]") are no statement by the speaker;
* a name is only a ``name``-like value when the clause introduces it ("my manager is called
  Zhou Qin", "我领导叫周琴"), never when it addresses someone ("Thanks, Melanie");
* a value must name something: pronouns ("me", "it"), judgements ("so pretty", "awesome",
  "the best") and caption fragments are no value;
* a change cue ("now", "since", "here's …") says that something is new, not what: it may
  lift a guess that is already sure enough for a single-valued slot over the confidence
  floor, never an unsure one (in open conversation nearly every turn has such a word);
* episodes are evidence: a model reading that replaced a value closes no episode, unless it
  is the user's own change, said as one, and sure (``may_retire``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from memquill.catalogue import load
from memquill.model import MemoryRecord, Status
from memquill.retrieve import places
from memquill.text import EN_STOP, ZH_STOP, is_cjk, jieba_frequency, tokens
from memquill.write.extract import change_cues, value_kinds
from memquill.write.extract.appositions import relation_names
from memquill.write.extract.lexicon import english_words, everyday_word, given_name, only_verb, tech_roles
from memquill.write.extract.span_features import EN_TIME
from memquill.write.extract.values import LANGUAGES, org_introduced
from memquill.write.extract.values import pos_cut as values_pos

CAPTION = re.compile(r"\s*\[(?:image|photo|video|audio|link|sticker)[^\]]*\]?", re.IGNORECASE)
NAMING = re.compile(
    r"名字|叫|姓|称呼|\b(?:name(?:d|s)?|call(?:s|ed)?|goes by|i'?m|i am|this is|meet)\b", re.IGNORECASE
)
_GREETING = r"(?:hey|hi|hello|thanks|thank you|thx|yes|yep|yeah|no|congrats|bye|dear|oh|wow|sure|ok|okay|aw+)"
# Judgements and fillers: what a clause says about something, not a value it states.
JUDGEMENT = frozenset(
    """so very really super too quite kinda pretty awesome amazing great good nice cool best
    better favorite favourite fave faves special important powerful rewarding beautiful lovely
    wonderful fantastic incredible invaluable right wrong fun happy glad proud sad true real
    bold vivid bright freeing relaxing creative inspiring meaningful tough hard easy rewarding
    pretty fab lot lots few bit thing things stuff way one ones""".split()
)
_PERSON_VALUED = frozenset({"person"})
# value types whose extractor only returns a span of that type (no free-text fallback)
TYPED_VALUES = frozenset("place person email phone url number money language duration date datetime".split())
_CJK = re.compile(r"[^\u4e00-\u9fff]+")


def without_captions(text: str) -> str:
    """The clause without bracketed media descriptions."""
    return CAPTION.sub("", text).strip()


def addressed(name: str, text: str) -> bool:
    """Is ``name`` used to address someone in ``text`` ("Thanks, Melanie", "Hey Caroline!")?"""
    n = re.escape(name)
    return bool(
        re.search(rf"\b{_GREETING}\b[\s,!]*{n}\b", text, re.IGNORECASE)
        or re.search(rf"(?:^|[,，])\s*{n}\s*(?:[.!?。！？]|$)", text)
        or re.match(rf"\s*{n}\s*[,，]", text)
    )


def names_value(value: str) -> bool:
    """Does the span name something (not a pronoun, a judgement or a fragment)?"""
    if not value or value.rstrip().endswith("]") or re.sub(r'(?<=\d)["″]', "", value).count('"') % 2:
        return False  # a fragment of a quotation (an inch mark is no quote: 5'10")
    latin = re.findall(r"[a-z0-9][a-z0-9'+#.-]*", value.casefold())  # unstemmed: "awesome"
    words = [w.strip("'.") for w in latin] + [t for t in tokens(_CJK.sub(" ", value)) if t.strip()]
    if not words:
        return False
    content = [t for t in words if t not in EN_STOP and t not in ZH_STOP and t not in JUDGEMENT]
    return bool(content)


# A judgement said of something: one adjective after a copula or a degree word ("Kakoune's
# multiple selections are *addictive*", "这家店的菜真*好吃*"), never the value of a slot.
_EN_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|'s|'re|be|been|so|very|really|too|super|pretty|quite|kinda|extremely)\s+$",
    re.IGNORECASE,
)
_EN_ADJECTIVE = re.compile(r"^[a-z]+(?:ive|ous|ful|able|ible|less)$", re.IGNORECASE)
_ZH_DEGREE = re.compile(r"(?:真|很|太|好|超|超级|特别|挺|蛮|非常|有点|越来越)$")


def predicate(value: str, said: str) -> bool:
    """Is ``value`` a lone adjective the clause predicates of something, or (Chinese) a degree
    word with its adjective ("挺低", "很贵")?"""
    at = said.find(value)
    if at < 0:
        return False
    if not is_cjk(value):  # English, accents included ("Ní Bhriain")
        return bool(_EN_ADJECTIVE.match(value.strip())) and bool(_EN_PREDICATE.search(said[:at]))
    pos = [(w, t) for w, t in values_pos(value) if w.strip()]
    if len(pos) >= 2 and pos[0][1][:1] == "d" and all(t[:1] in ("a", "d") for _, t in pos[1:]):
        return pos[-1][1][:1] == "a"  # a degree word and its adjective: "油耗挺低" gives no car
    return len(pos) == 1 and pos[0][1][:1] in ("a", "v") and bool(_ZH_DEGREE.search(said[:at]))


# Words that point or react but name nothing: indefinite pronouns, interjections, nouns of
# any place or thing.
_EN_EMPTY = frozenset(
    """everyone everybody someone somebody anyone anybody nobody everything something anything
    nothing ugh lol lmao haha hahaha hmm meh yay oops omg literally really actually basically
    honestly totally probably definitely seriously
    place places spot thing things stuff somewhere someplace""".split()  # "at a place near work"
)
_CONTRACTED = frozenset("s ve ll re d m t".split())  # the tails of "it's", "I've", "we'll"…
_ZH_EMPTY_WORDS = frozenset("大家 别人 人家 有人 所有人 每个人 任何人 谁 什么 啥 地方 东西".split())
# jieba tags of words that name nothing: pronoun, adverb, particles, modal, preposition,
# conjunction, interjection, onomatopoeia, punctuation ("大家", "太多" is d + a: not all)
_ZH_EMPTY = ("r", "d", "u", "y", "p", "c", "e", "o", "x")


def empty(value: str) -> bool:
    """Does ``value`` consist of words that name nothing ("大家", "literally everyone", "ugh")?"""
    if not is_cjk(value):  # English, accents included ("Ní Bhriain"); "it's" is "it" + "s"
        words = [w for w in re.findall(r"[a-z]+", value.casefold()) if w not in _CONTRACTED]
        return bool(words) and all(w in _EN_EMPTY or w in EN_STOP for w in words)
    if places.cities(value):
        return False  # jieba tags 大连 an adverb
    pos = [(w, p) for w, p in values_pos(value) if w.strip()]
    return bool(pos) and all(p.startswith(_ZH_EMPTY) or w in _ZH_EMPTY_WORDS for w, p in pos)


# A reference points back at something named before it: a demonstrative with a common noun
# ("that place", "the same one", "这家公司", "那个健身房") or a pronoun with a measure word
# ("他们家", "那一家"). It is a value only as what it points at (``model._antecedent``).
_EN_POINTER = re.compile(
    r"^(?:(?:that|this|the same|their|the)\s+(?:one|place|spot|company|firm|outfit)"
    r"|(?:that|this|the same)\s+(?P<noun>[a-z]+))$"
)  # not "the red one" (a colour is said), nor "these days" (a time)
_ZH_POINTERS = tuple("这那他她它该此")  # demonstratives and third persons (not 我, 你, 大家)
_NAME_TAGS = ("n", "j", "eng", "b")  # nouns (places, names, organisations), abbreviations, Latin


def _pointed(tag: str) -> bool:
    """May a word of this jieba tag follow the pronoun of a reference: a measure word, a
    number, a common noun or another pronoun ("他们/家", "那/一家", "这家/公司"), not a place or
    a name (ns, nr, nz)?"""
    return tag in ("n", "q", "r") or tag.startswith("m")


def refers(value: str) -> bool:
    """Is ``value`` a reference to something named elsewhere ("他们家", "that place")
    rather than a name of its own?"""
    v = value.strip()
    if not is_cjk(v):
        m = _EN_POINTER.match(" ".join(v.split()))  # a capital names: "The Bay", "That Place"
        noun = (m.group("noun") or "") if m else ""
        return m is not None and noun not in EN_STOP and noun not in EN_TIME  # "that is", "this week"
    pos = [(w, p) for w, p in values_pos(v) if w.strip()]
    if not pos or pos[0][1] != "r" or not pos[0][0].startswith(_ZH_POINTERS):
        return False  # "我", "大家": the speaker or everyone, not something named before
    return all(_pointed(p) for _, p in pos[1:])


def references(text: str) -> list[tuple[int, str]]:
    """The references a clause says, with where each starts: "换成他们家了" → (…, "他们家"),
    "switched to that one" → (…, "that one"); the longest at each place."""
    out: list[tuple[int, str]] = []
    words = list(re.finditer(r"[A-Za-z]+", text))
    for i, word in enumerate(words):  # the longest reading (up to four words) at each word
        for j in range(min(len(words), i + 4), i + 1, -1):
            said = text[word.start() : words[j - 1].end()]
            if refers(said):
                out.append((word.start(), said))
                break
    at, toks = 0, list(values_pos(text))
    for i, (w, p) in enumerate(toks):
        # right after a name it is the name's ("张江那边", "小米那台"), not a reference to one
        after_name = i > 0 and toks[i - 1][1].startswith(_NAME_TAGS)
        if p == "r" and w.startswith(_ZH_POINTERS) and is_cjk(w) and not after_name:
            j = i + 1
            while j < len(toks) and _pointed(toks[j][1]) and is_cjk(toks[j][0]):
                j += 1
            out.append((at, "".join(x for x, _ in toks[i:j])))
        at += len(w)
    return sorted(set(out))


# Attributes whose value may be a time said alone ("afternoons", "every other week", "每周三").
_TIME_TYPES = frozenset({"date", "datetime", "duration", "number", "money"})
_TIME_KEYS = re.compile(r"time|schedule|availability|recurrence|deadline|date|since|duration|anniversary")
_ZH_TIME_UNIT = re.compile(r"[年月日天周次点时分秒号]|星期|礼拜")
_EN_TIME_GLUE = frozenset(
    """a an the in on at of every each per time times one two three four five six seven eight nine ten
    few couple several other""".split()
)


def only_time(value: str, value_type: str, key: str) -> bool:
    """Is ``value`` nothing but a time or a frequency ("March", "three times a week", "两次",
    "每天") while ``key`` holds no time? "I retired in March after 31 years at the post
    office" names no employer "March"; "I swim three times a week" no sport "three times"."""
    if value_type in _TIME_TYPES or _TIME_KEYS.search(key):
        return False
    if not is_cjk(value):  # English, accents included ("Ní Bhriain")
        # a hyphenated compound is one word: "24-hour" (time) is a format, not an hour
        words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", value.casefold())
        said = [w in EN_TIME or (w.endswith("s") and w[:-1] in EN_TIME) for w in words]  # "Sundays"
        glue = [w in _EN_TIME_GLUE or w.isdigit() for w in words]
        return any(said) and all(t or g for t, g in zip(said, glue, strict=True))
    pos = [(w, p) for w, p in values_pos(value) if w.strip()]
    timed = any(p == "t" or _ZH_TIME_UNIT.search(w) for w, p in pos)  # "朵朵" is a measure word, no time
    return timed and all(p in ("t", "m", "q", "mq") or w.startswith("每") for w, p in pos)


# What a comparison holds up against the value ("比挤地铁强多了", "tea over coffee"): a foil.
# "比" may take the compared verb ("比挤地铁"), not "比较" (rather: "比较爱喝茶" names the value).
_FOIL = re.compile(
    r"(?:比起|相比|不如|比(?!较)[\u4e00-\u9fff]?|\b(?:than|rather than|instead of|over))\s*$", re.I
)
# A name of a place, person, organisation or technology holds no copula: "Dublin office
# *is* only", "MacBook*是*我2021年" ran on into the clause that says something about it.
_NAMED = frozenset({"place", "person", "organisation", "tech"})
_EN_COPULA = re.compile(r"\s(?:is|are|was|were|am)\s", re.IGNORECASE)


def foil(value: str, said: str) -> bool:
    """Is ``value`` what the clause compares something else with?"""
    at = said.find(value)
    return at > 0 and bool(_FOIL.search(said[:at]))


# What holds now and then beside the usual value ("主要写Elixir，*偶尔*写点Python", "mostly
# tea, *sometimes* coffee"): never the one value of a single-valued slot.
_NOW_AND_THEN = re.compile(
    r"(?:偶尔|有时候?|间或|偶然|\b(?:sometimes|occasionally|now and then|once in a while|rarely|"
    r"every so often))[^，,。；;!?！？]*$",
    re.IGNORECASE,
)


def now_and_then(value: str, said: str) -> bool:
    """Is ``value`` said as what happens only now and then (in its own part of the clause)?"""
    at = said.find(value)
    return at > 0 and bool(_NOW_AND_THEN.search(said[:at]))


# The usual value said as such ("*主要*写Elixir，…写点Rust", "I *mostly* write OCaml, Python
# for scripts"): beside it, another value of a single-valued slot is the occasional one.
_USUAL = re.compile(
    r"(?:主要|基本上?|大多|大部分|\b(?:mostly|mainly|primarily|largely|usually)\b)[^，,。；;!?！？]*$",
    re.IGNORECASE,
)


def usual(value: str, said: str) -> bool:
    """Is ``value`` said as the usual one (in its own part of the clause)?"""
    at = said.find(value)
    return at > 0 and bool(_USUAL.search(said[:at]))


def runs_on(value: str, value_type: str) -> bool:
    """Does a name-typed ``value`` run on into a clause about it (a copula inside)?"""
    if value_type not in _NAMED:
        return False
    return bool(_EN_COPULA.search(value)) if not is_cjk(value) else "是" in value[1:-1]


# The value's place (marked \0) followed by 年 or a year's "born in": a year, not an age.
_A_YEAR = re.compile(r"\0\s*年(?!纪|龄)|\bborn in\s*\0", re.IGNORECASE)


def acceptable(
    value: str, value_type: str, key: str, said: str, speaker: str | None, region: bool = False
) -> bool:
    """May the model store ``value`` for ``key`` from the clause ``said``? ``region``: the
    attribute names a region (the catalogue's flag), which ``region_like`` checks."""
    if not names_value(value) or predicate(value, said) or empty(value) or only_time(value, value_type, key):
        return False
    if foil(value, said) or runs_on(value, value_type):
        return False
    if value_type in _NAMED and re.fullmatch(r"[\d\s.,:]+", value):
        return False  # "31" of "after 31 years at the post office" names no employer
    if value_type == "organisation" and plain_word(value, said, key):
        return False  # "帮我做个三十天入职计划": a plan, no employer; "taking a job in toronto"
    if value_type == "organisation" and places.cities(value) == [value.strip()]:
        return False  # "Aoife's been offered a job in Galway": a city, no employer
    if value_type in ("organisation", "place") and load().relation(value.strip()) is not None:
        return False  # "以前的领导想让我回去": the old manager, no employer
    if names_slot(value, key):
        return False  # "auth" of "focused on auth and onboarding" is the slot, no value of it
    if value_type in _NAMED and clausal(value):
        return False  # "said keep it" of "IT sent me a Dell XPS 13 and said keep it"
    if counted(value, value_type, key) or opener(value, said):
        return False  # "Three rowing sessions a week", "Getting so many scam calls", "Ha, no"
    if _single(key) and counted_before(value, said):
        return False  # "supervising two master's students": several of them, no one's role
    if key == "age" and _A_YEAR.search(said.replace(value, "\0", 1)):
        return False  # "本人王磊，95年的": born in 1995, not 95 years old
    if value_type in ("place", "organisation") and len(value.strip()) == 1:
        return False  # "美" of a name jieba split wrongly ("美/团干"): no place or company is one character
    if stray_letter(value, said):
        return False  # "allergic to sesame, it sends me to A&E" was an allergy to "e"
    if region and not region_like(value):
        return False  # "置换了台秦PLUS" was read as a city
    if value_type in _PERSON_VALUED and acts(value):
        return False  # "急事直接打电话" names how to reach the user, not an emergency contact
    if value_type in _PERSON_VALUED or key in ("name", "nickname"):
        if speaker and value.casefold() == speaker.casefold():
            return False
        if addressed(value, said):
            return False
        if key in ("name", "nickname") and not NAMING.search(said):
            return False
    return True


# jieba tags of proper names and unknown words: a brand may be any of them ("腾讯" nz, "美团" nt)
_PROPER = ("nt", "nz", "nr", "ns", "eng", "x")
# a span opening with a preposition, a pronoun, a particle, an adverb or a conjunction names
# nothing ("给自己咖啡店", "得细"); a number may open a brand ("三只松鼠", "一兆韦德")
_NO_NAME_START = ("p", "r", "u", "d", "c")
# jieba's count of a word that is one of the commonest nouns and verbs ("计划" 19,799, "问题",
# "公司", "学校"); brands that are words stay below it ("百度" 11,008, "小米" 396, "字节" 87)
_COMMONEST = 15_000
# whose, not what: "my primary" of "…taking over as my primary"
_POSSESSIVES = frozenset({"my", "our", "your", "his", "her", "their", "its"})


def plain_word(value: str, said: str, key: str) -> bool:
    """Is an organisation ``value`` an everyday word the clause does not bring in as a place of
    work, study or custom ("计划", "问题", "job"; not "在小米上班"), or a phrase about one? A kind
    word of the slot ("渴望" a pet food) is a name whatever else it means."""
    v = value.strip()
    if not v or value_kinds.names_kind(key, v):
        return False
    if any(unicodedata.category(ch) == "So" for ch in v):
        return True  # "june 😭 amara osei": an emoji is said about something, never in its name
    cut = values_pos(v) if is_cjk(v) else ()
    if cut and (cut[0][1].startswith(_NO_NAME_START) or "的" in v[:-1] or _time_word_first(cut[0])):
        return True  # "一个月的小结", "乐刻的卡", "年卡": a phrase about something, not its name
    if org_introduced(v, said):
        return False
    if cut:
        return len(cut) == 1 and not cut[0][1].startswith(_PROPER) and jieba_frequency(v) >= _COMMONEST
    if v.casefold().split()[0] in _POSSESSIVES:
        return True
    at_start = said.lstrip().startswith(v)  # "Case studies" opening the sentence
    plain = all(everyday_word(_lemma(w)) for w in v.casefold().split())
    return plain and (v.islower() or at_start)


def _time_word_first(token: tuple[str, str]) -> bool:
    """A span opening with a measure word jieba counts as a number but no numeral opens ("年卡"
    of "健身房年卡快到期了"); a numeral may open a brand ("三只松鼠")."""
    word, flag = token
    return flag.startswith("m") and word[0] not in "一二三四五六七八九十百千万两零0123456789"


def _lemma(word: str) -> str:
    """A plural's singular, the way WordNet lists it ("studies" → "study", "banks" → "bank")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and everyday_word(word[:-1]) else word


_CONJUNCTS = re.compile(r"\s+(?:and|or|&)\s+|[、,，/]|(?<=[\u4e00-\u9fff])[和与及](?=[\u4e00-\u9fff])")


def names_slot(value: str, key: str) -> bool:
    """Is ``value`` (or one of the things it lists) the word the catalogue names the attribute
    by ("auth" for ``stack:auth``, "数据库" for ``stack:database``)?"""
    attr = load().get(key)
    words = attr.words() if attr is not None else frozenset(re.split(r"[:_]", key))
    return any(w.strip().casefold().removesuffix("s") in words for w in _CONJUNCTS.split(value))


_EN_NUMBER = frozenset(
    """zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
    hundred thousand dozen couple few several half""".split()
)
_EN_INTERJECTION = frozenset(
    "ha hah haha hey hi oh ok okay yes yeah yep yup nope nah no well so anyway lol ugh wow hmm sure "
    "thanks".split()
)


_IS_OR_HAS = re.compile(
    r"^['’]s\s+(?:been|got|gone|had|not|plenty|so|really|pretty|just|still|now|always|never|also|"
    r"great|good|fine|better|worse|the|a|an|my|our|\w+ing|\w+ed)\b",
    re.IGNORECASE,
)


def uncontracted(value: str, said: str) -> str:
    """``value`` without an "'s" that is "is"/"has" in the clause ("Zed's plenty good",
    "Matcha's been great"): a possessive name keeps it ("Trader Joe's", "McDonald's is")."""
    v = value.rstrip()
    if not v.endswith(("'s", "’s")) or (at := said.find(v)) < 0:
        return value
    return v[:-2] if _IS_OR_HAS.match(said[at + len(v) - 2 :]) else value


def past_opening_verb(value: str, said: str) -> str:
    """``value`` without the verb that opens its clause when the span starts there ("Started
    Dutch" of "Started Dutch lessons on Tuesdays": the subject left out is the speaker, and the
    verb is capitalised by position); a given name stays ("Will Turner")."""
    words = value.split()
    if len(words) < 2 or not said.lstrip().startswith(value) or not words[0][:1].isupper():
        return value
    first = words[0].lower()
    return " ".join(words[1:]) if only_verb(first) and not given_name(first) else value


# what a Chinese model name does not run on into: a verb, a preposition, a particle, an adverb
_AFTER_MODEL = ("v", "p", "u", "d", "c", "y")


def model_name_only(value: str) -> str:
    """A Chinese span cut after the model number it names when the clause runs on ("华为P40用了
    四年" → "华为P40", "小米15的电池" → "小米15"): the verb phrase says how it is, not what."""
    if not is_cjk(value):
        return value
    cut = values_pos(value)
    for i, (word, flag) in enumerate(cut[:-1]):
        numbered = flag in ("eng", "m") and any(ch.isdigit() for ch in word)
        if numbered and i > 0 and cut[i + 1][1].startswith(_AFTER_MODEL):
            return "".join(w for w, _ in cut[: i + 1])
    return value


_EN_PERSONAL = frozenset("i me you he him she her it we us they them".split())


def clausal(value: str) -> bool:
    """Is an English ``value`` part of a clause rather than a name: several words opening with
    a lowercase word that is only a verb, or a personal pronoun ("said keep it", "honestly it's")?"""
    if is_cjk(value) or not (words := value.split()):
        return False
    if len(words) > 1 and words[0].islower() and only_verb(words[0]):
        return True  # one lowercase word may be a tool's name ("ruff", "black")
    return any(w in _EN_PERSONAL for w in re.findall(r"[a-z]+", value.casefold()))


def counted(value: str, value_type: str, key: str) -> bool:
    """Is ``value`` only a count ("Three", "a couple") while ``key`` holds no number?"""
    if value_type in _TIME_TYPES or _TIME_KEYS.search(key) or is_cjk(value):
        return False
    words = re.findall(r"[a-z0-9]+", value.casefold())
    said = any(w in _EN_NUMBER for w in words)  # digits alone may be a phone number or a code
    return said and all(w in _EN_NUMBER or w.isdigit() or w in ("a", "an") for w in words)


@cache
def _single(key: str) -> bool:
    attr = load().get(key)
    return attr is not None and attr.single


_COUNT_BEFORE = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|dozen|several|many|a few|a couple of|\d+)"
    r"(?:\s+(?!(?:in|at|to|from|for|on|near|after|since|with)\b)[\w'’-]+){0,2}\s+$",
    re.IGNORECASE,
)


def counted_before(value: str, said: str) -> bool:
    """Does an English count stand right before ``value`` or the words qualifying it in
    ``said`` ("two master's students", "a few interns")? It names several things then, not
    one slot's value. A count of something else before a preposition does not ("Two weeks in
    Amsterdam", "3 years at Google")."""
    at = said.find(value)
    return at > 0 and not is_cjk(value) and _COUNT_BEFORE.search(said, 0, at) is not None


def opener(value: str, said: str) -> bool:
    """Is ``value`` the word that opens the clause, capitalised only because it does, and no
    name: an interjection ("Ha, no, I'm a cyclist now") or a word only a verb ("Ditched…")?
    A word the clause capitalises again, or that is a noun too ("Pop."), may be a name."""
    v = value.strip()
    if not re.fullmatch(r"[A-Z][a-z]+", v) or not said.lstrip().startswith(v):
        return False
    w = v.casefold()
    if re.search(rf"\b{v}\b", said.lstrip()[len(v) :]):
        return False
    return w in _EN_INTERJECTION or only_verb(w)


def stray_letter(value: str, said: str) -> bool:
    """Is ``value`` one Latin letter that is no word of its own in the clause? A language may
    be one capital ("R", "C"), said alone; a letter of "A&E", "B&Q" or "e-bike" names nothing."""
    v = value.strip()
    if len(v) != 1 or not v.isascii() or not v.isalpha():
        return False
    return not v.isupper() or re.search(rf"(?<![\w&'’.-]){re.escape(v)}(?![\w&'’.-])", said) is None


# The last word of an organisation's name, not a region's ("Saguaro Health", "星河科技")
_ORG_END = re.compile(
    r"(?:\b(?:health|bank|inc|labs?|ltd|llc|corp|co|group|systems|technologies|software|capital"
    r"|partners|studios?|media|motors|airlines?|airways|insurance|pharma|robotics|hospital|clinic"
    r"|university|academy|institute)\.?"
    r"|公司|科技|集团|银行|医院|学校|大学|中学|小学|诊所|工作室|有限|传媒|餐厅|咖啡馆?)$",
    re.IGNORECASE,
)


def region_like(value: str) -> bool:
    """Can ``value`` name a city, country or hometown? Not with a digit or a Latin model code
    beside Chinese ("秦PLUS", "Rivian R1S", "Model 3": a car), nor a language ("German"), nor
    ending as a company does
    ("Saguaro Health"), nor as Chinese words that are a verb, an adverb or a number
    (``phrase``: "我这来住", "爬山徒步", "好多次"). None of 674 labelled region values (training
    corpus, dev sets, the knowledge-update answers) fails this."""
    v = value.strip()
    mixed = is_cjk(v) and re.search(r"[A-Za-z]", v) is not None
    # "my German is useless here" names no city: a language, or anything the speaker owns
    language = LANGUAGES.fullmatch(v) is not None or re.match(r"(?:my|our|his|her|their)\s", v) is not None
    generic = _PLACE_NOUN.fullmatch(v) is not None  # "换了工作换了城市": the word for a city is none
    return not (re.search(r"\d", v) or mixed or language or generic or _ORG_END.search(v) or phrase(v))


_PLACE_NOUN = re.compile(
    r"城市|地方|城|老家|家乡|国家|省|县|小区|新城市|"
    r"(?:the |a |new |another )?(?:city|town|place|country|area|suburb)s?",
    re.IGNORECASE,
)


# jieba's tags of words no place name holds: a verb, an adverb, a numeral, a particle, a
# preposition, a conjunction. Of 331 labelled Chinese region values only 大连 has one (an
# adverb, "大"+"连"): a city of the gazetteer is a place whatever its tags.
_NOT_A_NAME = ("v", "d", "m", "u", "p", "c")


def phrase(value: str) -> bool:
    """A Chinese value that is a phrase, not a place's name ("搬到用户这来住" read as a city)."""
    if not is_cjk(value) or places.cities(value):
        return False
    return any(flag.startswith(_NOT_A_NAME) for word, flag in values_pos(value) if word.strip())


def acts(value: str) -> bool:
    """Is ``value`` an action, not someone: a Chinese verb phrase with no noun or pronoun in
    it ("直接打电话"), an English phrase opening with a lowercase verb ("call me")?"""
    if is_cjk(value):
        pos = [p for w, p in values_pos(value) if w.strip()]
        verb = any(p.startswith("v") or p == "l" for p in pos)  # jieba tags 打电话 as an idiom (l)
        return verb and not any(p.startswith(("n", "r", "eng", "x")) for p in pos)
    first = value.split()[0] if value.split() else ""
    return first.islower() and first in english_words("verbs")


def fits_role(value: str, value_type: str, key: str) -> bool:
    """A value the lexicon knows as a technology fills only its own roles: "Deno" is no CI
    system, no project lead, no place (the classifier's attribute is a guess; the lexicon's
    word for what the value is, is not)."""
    roles = tech_roles(value)
    return (
        roles is None
        or (value_type == "tech" and key in roles)
        or value_type not in (TYPED_VALUES | {"tech"})
    )


def cue_may_lift(score: float, single_floor: float, value: str, said: str) -> bool:
    """May a change cue raise this guess to a stated value? When the model's own joint score
    already reaches the floor for single-valued guesses, or when the value is the one a
    change cue introduces ("I'm on *fish* now", "switched to *Postgres*"). On LoCoMo, guesses
    lifted by a cue elsewhere in the clause ("*adoption* agencies I'm looking into", "now
    that I'm … a *stepping stone*") replaced one another, and each replacement retired the
    episodes quoting the old value."""
    return score >= single_floor or introduced(value, said)


def introduced(value: str, said: str) -> bool:
    """Does ``value`` start inside the value region of a change cue of ``said``?"""
    if not value:
        return False
    rx = re.escape(value) if not value.isascii() else rf"(?<![A-Za-z0-9_]){re.escape(value)}(?![A-Za-z0-9_])"
    cues = change_cues.find(said)
    return any(change_cues.introduces(cues, m.start()) for m in re.finditer(rx, said, re.IGNORECASE))


def model_made(rec: MemoryRecord) -> bool:
    """Was ``rec`` written by the attribute model (not a rule, a person or an LLM)?"""
    return str(rec.attributes.get("rule", "")).startswith("model:")


def may_retire(by: MemoryRecord | None) -> bool:
    """May the record that replaced a value take that value out of the episodes quoting it?

    A rule's change, a correction, an erasure: yes. A model reading only when it is the
    user's own statement of a change or of the present ("I'm on fish now", "现在改喝茶",
    "these days I …"), sure enough to hold the slot (not a ``candidate``). A model guess about someone
    else — a speaker of a transcript, a friend, a project — or one made without a change cue
    replaces the structured value but leaves the turns where it was said as they were: on
    open conversation such guesses replaced one another ("diet" = "another", then
    "dairy-free"), and every replacement closed the episodes that held the real answers."""
    if by is None or not model_made(by):
        return True
    return by.subject == "user" and by.status is not Status.CANDIDATE and bool(by.attributes.get("change"))


# Where a clause shows a name as a person rather than an organisation: the one the user
# reports to ("I now report to Pieter Olivier", "改成向郑凯汇报"), the one a manager is
# ("our new manager is Anand"), or one who acts as only people do ("Meera left to do her own
# startup": Meera is not a company the user left).
_PERSON_BEFORE = (
    r"\breport(?:s|ing|ed)?\s+(?:directly\s+)?to\s+|"
    r"\b(?:manager|boss|supervisor|lead)\s+(?:is|was|now is)\s+|"
    r"汇报给|向|(?:领导|上司|老板|经理)(?:是|叫|换成了?|变成了?)?"
)
_PERSON_ACTS = r"\s*(?:已经|刚)?(?:离职|辞职|退休|走了|调走)|\s+(?:just\s+)?(?:left|quit|retired|resigned)\b"


def names_person(value: str, said: str) -> bool:
    """Does ``said`` show ``value`` as a person (see above, and "新领导郑凯…" beside a relation
    word)? Such a value is no employer or school, whatever the classifier read."""
    if not value:
        return False
    v = re.escape(value)
    if re.search(rf"(?:{_PERSON_BEFORE}){v}", said, re.IGNORECASE):
        return True
    if re.match(rf"^\W*{v}(?:{_PERSON_ACTS})", said, re.IGNORECASE):
        return True
    return any(name == value for _, name in relation_names(said, is_cjk(said)))
