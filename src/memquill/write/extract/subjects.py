"""Who a clause is about: the user, a person in the user's life, a project, an event, a thing.

"我表妹在苏州做护士" is about ``person:cousin``; "my boss's name is Dana" about
``person:manager``; "那个读书会定在周六下午" about ``event:读书会``; "my car is a white
Civic" about ``item:car``. The relation words come from the catalogue; the model's subject
kind is the fallback when no word decides (DESIGN §4 rule 9: third parties, events and
belongings are subjects too).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import accumulate

from memquill.catalogue import load
from memquill.text import EN_STOP, dictionary_words, jieba_frequency
from memquill.write import truecase
from memquill.write.extract.lexicon import TECH, english_words, given_name, only_verb, place_name
from memquill.write.extract.patterns_common import THIRD_PERSON
from memquill.write.extract.phrasing import after_time
from memquill.write.extract.value_kinds import thing_word
from memquill.write.extract.values import pos_cut

_EVENT_ZH = re.compile(
    r"([\u4e00-\u9fffA-Za-z]{0,6}(?:会|聚会|聚餐|婚礼|活动|派对|比赛|演唱会|讲座|培训|面试|旅行|旅游|"
    r"展|峰会|年会|沙龙|典礼|生日宴|饭局|音乐节|马拉松))"
)
_EVENT_EN = re.compile(
    r"\b(?:the|my|our|a|this|that)\s+((?:[\w'-]+\s+){0,3}?(?:meetup|party|wedding|conference|"
    r"concert|trip|reunion|dinner|workshop|interview|game|match|marathon|festival|ceremony|"
    r"class|course|talk|summit|offsite|retreat|show|appointment|club))\b",
    re.IGNORECASE,
)
_ITEM_ZH = re.compile(
    r"(?:我们|咱们|我|咱)(?:的|家|家的|养的)?(猫|狗|车|电脑|笔记本|手机|自行车|电动车|摩托|房子|相机|手表|平板)"
)
_ITEM_EN = re.compile(
    r"\b(?:my|our)\s+((?:[\w-]+\s+)?(?:cat|dog|car|laptop|phone|bike|bicycle|motorbike|camera|watch|"
    r"tablet|puppy|kitten|rabbit|parrot|house|apartment|flat))\b",
    re.IGNORECASE,
)
_PROJECT = re.compile(
    r"项目|仓库|代码库|服务端?|后端|前端|接口|部署|线上|生产环境|测试环境|\b(?:project|repo|codebase|"
    r"service|backend|frontend|api|deploy\w*|staging|production|prod|ci|pipeline|branch|"
    r"pull request|prs?)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"我|咱|\b(?:I|I'm|I've|I'd|my|me|we|we're|our|us)\b", re.IGNORECASE)
# a clause whose grammatical subject is the speaker: it opens with "I" / "我"
_USER_OPENS = re.compile(r"我(?!们)|I\b")
_ORG = re.compile(r"公司|我司|\b(?:company|startup|our firm|the business)\b", re.IGNORECASE)


@cache
def relation_alternations() -> tuple[str, str]:
    """The catalogue's relation words as two regex alternations, Chinese and English, longest
    first (so "表妹" is tried before "妹"). The Chinese one holds the Latin words Chinese says
    a relation by too ("新leader陈姐让我…"); the English one every Latin word."""
    cat = load()
    zh = sorted({w for r in cat.relations for w in r.zh}, key=len, reverse=True)
    latin = (w for w in cat.relation_words() if not re.search(r"[\u4e00-\u9fff]", w))
    en = sorted(latin, key=len, reverse=True)
    return "|".join(map(re.escape, zh)), "|".join(map(re.escape, en))


@cache
def _relation_pattern() -> tuple[re.Pattern[str], re.Pattern[str]]:
    zh, en = relation_alternations()
    # "我现在的上级", "my new manager": the current one is still the relation
    zh_rx = re.compile(r"(?:我|我的|我们|我家|咱)(?:现在的|新的?)?(" + zh + ")")
    en_rx = re.compile(r"\b(?:my|our)\s+(?:(?:new|current)\s+)?(" + en + r")(?:'s)?\b", re.IGNORECASE)
    return zh_rx, en_rx


# A relation after a preposition or in brackets is no one the clause is about: "I've gone
# vegan (my boyfriend's influence)", "moved to Denver with my sister", "陪我妈去了趟医院".
_BESIDE = re.compile(
    r"(?:[(（]|\b(?:of|with|for|from|by|about|like|than|to|at|because of)\s+|[跟和给为帮陪替同](?:着)?)$",
    re.IGNORECASE,
)


def _first_relation(text: str, at_start: bool = False) -> tuple[str, str] | None:
    zh_rx, en_rx = _relation_pattern()
    if at_start:
        m = zh_rx.match(text) or en_rx.match(text)
    else:
        found = sorted([*zh_rx.finditer(text), *en_rx.finditer(text)], key=lambda x: x.start())
        # … unless a pronoun takes them up: "Had dinner with my mom, she just moved to Lisbon"
        beside = not THIRD_PERSON.search(text)
        m = next((x for x in found if not (beside and _BESIDE.search(text[: x.start()]))), None)
    if not m:
        return None
    key = load().relation(m.group(1))
    return (key, m.group(1)) if key else None


_SAYS = re.compile(r"(?:又|还|都|也)?(?:说|讲|告诉|提到|觉得|让|叫|要我|劝)")


def bare_opening(text: str) -> tuple[str, int] | None:
    """(relation key, where its segment ends) when a Chinese relation word opens the clause
    without "我" ("老公跳槽去比亚迪了", "女朋友刚换了iPhone 15 Pro，天天在我面前晃"): Chinese
    often drops the possessive. Weaker than "我老公": the clause's later segments may drop
    their subject for the speaker ("房东要卖房，只好又搬，现在住望京"), so the model extractor
    gives the relation only the values of its own segment. Not when the word begins a longer
    dictionary word ("朋友圈", "老板娘") or is no whole word ("老公司"), nor when the person
    speaks or bids ("领导说…", "老师让我们…"): reported speech is about whoever it names; nor
    when the person drew the speaker into something ("同事带我入坑了飞盘")."""
    lead = _LEAD.match(text.lstrip())
    t = text.lstrip()[lead.end() if lead else 0 :]
    if not re.match(r"[\u4e00-\u9fff]", t) or _DREW_ME.search(text):
        return None
    cut = pos_cut(t[:16])
    word = cut[0][0] if cut else ""
    if not word or (len(t) > len(word) and jieba_frequency(t[: len(word) + 1]) > 0):
        return None
    if _SAYS.match(t, len(word)) or (key := load().relation(word)) is None:
        return None
    at = text.find(word)
    stop = _SEGMENT.search(text, at)
    return key, stop.start() if stop else len(text)


# Reported speech: "我妈说我姐下个月去杭州上班", "my mom says my sister works at Google now",
# "我老公说他下个月去字节上班". What is reported is about whoever its own clause names; a
# third-person pronoun there is the reporter; a first person is the user.
_REPORTED_ZH = re.compile(r"^(?:听)?(.{1,12}?)(?:说|讲|告诉我|跟我说|提到)(?:了|过)?[，,:：]?\s*(.+)$")
_REPORTED_EN = re.compile(
    r"^(.{1,40}?)\b(?:says|said|told me|tells me|mentioned|thinks)\b(?:\s+that)?[,:]?\s+(.+)$",
    re.IGNORECASE,
)
_THIRD = re.compile(r"^(?:他|她)(?![们人])|^(?:he|she)\b", re.IGNORECASE)
_SELF = re.compile(r"^(?:我|咱)(?!们|的?[\u4e00-\u9fff]{0,2}(?:说|讲))|^(?:I|I'm|I've|my|me)\b")


def reported(text: str) -> tuple[tuple[str, str] | None, str] | None:
    """(the reporter's relation, what is reported) when the clause reports someone's words."""
    m = _REPORTED_ZH.match(text) or _REPORTED_EN.match(text)
    if not m:
        return None
    reporter = _first_relation(m.group(1))
    bare = m.group(1).strip()
    if reporter is None and _THIRD.match(m.group(2)) and (key := load().relation(bare)):
        reporter = (key, bare)  # "同事说她坐飞机只选第一排": a relation named without "my" reports on her
    return (reporter, m.group(2)) if reporter else None


# Someone drew the speaker into something: the speaker is the one who now does it ("my
# neighbor got me into pickleball", "同事带我入坑了飞盘").
_DREW_ME = re.compile(
    r"\b(?:got|talked|roped|dragged|introduced|turned|hooked|converted)\s+me\s+(?:into|onto|on|to)\b"
    r"|(?:带|拉|领)(?:我|用户)(?:入坑|入门|迷上|爱上)|安利(?:我|用户)|(?:让|害)(?:我|用户)(?:迷上|爱上|入坑)",
    re.IGNORECASE,
)


def relation(text: str) -> tuple[str, str] | None:
    """(relation key, the word as written) of the person the clause is about: the first "my
    <relation>", or in reported speech the one the reported words name (see above); nobody
    when the person only drew the speaker into something."""
    if _DREW_ME.search(text):
        return None
    if said := reported(text):
        reporter, words = said
        if _THIRD.match(words):
            return reporter
        if own := _first_relation(words):
            return own
        if _SELF.match(words):
            return None
        return reporter
    return _first_relation(text)


_LEAD = re.compile(r"^(?:(?:现在|最近|后来|今年|去年|明年|下个月|上个月|刚刚?|已经)\s*)+")


def about_other(text: str) -> tuple[str, str] | None:
    """The relation a clause is about when it is not the user: it starts with "my <relation>"
    (after a time word) or reports words about someone ("我妈说我姐…", "my mom says he…"); or
    the person it opens with by name, in a clause that says nothing of the speaker ("小杨办了
    超级猩猩的次卡": 小杨's gym) — ``(name, name)``, filed as ``person:<name>`` like a relation."""
    if reported(text):
        return relation(text)
    if rel := _first_relation(_untimed(text), at_start=True):
        return rel
    return (name, name) if (name := _named_opening(text)) else None


def named_other(text: str) -> str | None:
    """The name of the person (or pet) a clause is about, when it opens with one and says
    nothing of the speaker (``about_other`` by name, not by relation)."""
    if reported(text) or _first_relation(_untimed(text), at_start=True):
        return None
    return _named_opening(text)


def _untimed(text: str) -> str:
    """The clause without the time it opens with ("下个月", "2024年3月（…）")."""
    return _LEAD.sub("", after_time(text), count=1)


def _named_opening(text: str) -> str | None:
    """The plain name (``_opening``) a clause that says nothing of the speaker opens with."""
    found = None if speaks_of_self(text) else _opening(_untimed(text))
    return found[0] if found and found[1] else None


def event_name(text: str) -> str | None:
    m = _EVENT_ZH.search(text) or _EVENT_EN.search(text)
    if not m:
        return None
    name = m.group(1).rsplit("的", 1)[-1]  # "下个月的读书会" → "读书会"
    return re.sub(r"^(?:那个|这个|我们|我|一个|这次|下次|上次)", "", name).strip().lower() or None


def item_name(text: str) -> str | None:
    m = _ITEM_ZH.search(text) or _ITEM_EN.search(text)
    return m.group(1).lower() if m else None


# a pet said by its kind in a word of its things ("猫粮换成渴望了", "the dog food we use")
# or opening the clause ("猫现在吃渴望挺好的", "the dog's on Black Hawk now")
_PET_ZH = re.compile(r"(猫|狗)(?=粮|罐头|零食|砂)|^\W*(?:家里的?)?(猫|狗)")
_PET_EN = re.compile(
    r"\b(cat|dog|puppy|kitten)(?= (?:food|kibble|treats|litter)\b)"
    r"|^\W*(?:the|our)\s+(cat|dog|puppy|kitten)\b",
    re.IGNORECASE,
)


def item_before(text: str, value: str) -> str | None:
    """The belonging or pet a clause names before ``value`` with no "I" between them: "我家猫叫
    芝士，今年两岁" is the cat's age; "my car's a 2019 Civic and I'm 34" is the user's."""
    at = text.find(value)
    if at < 0:
        return None
    before = [m for rx in (_ITEM_ZH, _ITEM_EN) for m in rx.finditer(text, 0, at)]
    last = max(before, key=lambda m: m.end(), default=None)
    if last is None or _FIRST_PERSON.search(text, last.end(), at):
        return None
    return last.group(1).lower()


def pet_said(text: str) -> str | None:
    """The pet a clause names by kind, possessed or not ("猫粮…", "dog food")."""
    if name := item_name(text):
        return name
    m = _PET_ZH.search(text) or _PET_EN.search(text)
    return (m.group(1) or m.group(2)).lower() if m else None


def subject_for(text: str, kind: str, project: str | None, turn: str = "") -> str | None:
    """The subject string of a clause given the model's kind; words in the clause win, then
    the rest of the turn ("I'm going to the photo meetup; it's in Xiamen on the 11th")."""
    if rel := relation(text):
        return f"person:{rel[0]}"
    if kind == "event" and (name := event_name(text) or event_name(turn)):
        return f"event:{name}"
    if kind == "item" and (name := item_name(text) or item_name(turn)):
        return f"item:{name}"
    if kind == "project" or (kind != "user" and _PROJECT.search(text)):
        return f"project:{project}" if project else "project"
    if kind == "org" or (kind != "user" and _ORG.search(text)):
        return "org"
    about_someone = kind == "person" or not speaks_of_self(text)
    name = opening_name(text) if about_someone else None
    if name and (kin := load().relation(name)):
        return f"person:{kin}"  # "Mum's moved to Freiburg": a relation said without "my"
    if name and not TECH.match(name) and not thing_word(name) and (kind == "person" or _named(text, name)):
        return f"person:{name}"  # "Dana Lee grew up in Denver" is about Dana
    return "user" if kind == "user" else None


def speaks_of_self(text: str) -> bool:
    """The text has a first-person word ("I", "my", "we", 我, 咱)."""
    return _FIRST_PERSON.search(text) is not None


def verb_opens(text: str) -> bool:
    """An English clause opening with a verb and naming no one ("bought a MacBook Air M2 for
    coding", "Switched to a Pixel 8"): chat drops the speaker as subject."""
    first = re.match(r"\W*([A-Za-z]+)\b", text)
    if first is None or not text.isascii() or relation(text) is not None or person_name(text):
        return False
    return only_verb(first.group(1).lower())


def user_opens(text: str) -> bool:
    """The clause opens with the speaker as its subject ("我今年32岁，在北京做律师", "I'm a
    teacher in Boston"): about the user unless a relation or a name says otherwise."""
    return _USER_OPENS.match(text.lstrip()) is not None


_SEGMENT = re.compile(r"[，,；;。.!！?？]")


# what opens a reason or a consequence: its relation is not who the clause before it is about
_REASON = re.compile(r"\b(?:because|since|so)\b|因为|由于|所以|因此")


_SENTENCE_END = re.compile(r"[。！？!?]|\.(?:\s|$)")


def carried(said: str, turn: str) -> str | None:
    """The person the turn's sentence before ``said`` opens with, when ``said`` names no one
    itself: Chinese drops a subject the sentence before set ("我姐辞职了！护士不干了，跑去做
    房产中介…" — the sister's new job)."""
    at = turn.find(said)
    if at <= 0 or user_opens(said) or relation(_SEGMENT.split(said, maxsplit=1)[0]) is not None:
        return None
    before = [x for x in _SENTENCE_END.split(turn[:at]) if x.strip()]
    rel = about_other(before[-1].strip()) if before else None
    return f"person:{rel[0]}" if rel else None


def value_owner(text: str, value: str, subject: str, single: bool = False, topic: str | None = None) -> str:
    """Whose value ``value`` is when the clause was read as about a relation: the user's when
    the nearest segment up to the value's that names anyone says "I" and no relation
    ("iPhone 15 给我妈用了，我又换回安卓，入了台Pixel 8": the Pixel is the user's, the
    iPhone now the mother's); else ``subject``. For a ``single``-valued attribute only a
    reason or a consequence ends a segment: "I signed up at Equinox because my cousin gets a
    discount there" is the user's gym, "我妈住在杭州，我在上海" keeps its comma reading. A
    relation named only after the value does not own it when the turn's ``topic`` (``carried``)
    does: "护士不干了，跑去做房产中介，我妈气得两天没吃下饭" after "我姐辞职了！"."""
    if not subject.startswith("person:") or (at := text.find(value)) < 0:
        return subject
    named = relation(text)
    if topic and topic != subject and named and f"person:{named[0]}" == subject and text.find(named[1]) > at:
        return topic
    bounds = _REASON if single else _SEGMENT
    if single and not bounds.search(text):
        return subject
    stop = bounds.search(text, at + len(value))
    cuts = [0, *(m.end() for m in bounds.finditer(text, 0, at))]
    end = stop.start() if stop else len(text)
    for lo in reversed(cuts):
        seg, end = text[lo:end], lo
        if relation(seg) is not None:
            return subject
        if speaks_of_self(seg):
            return "user"
    return subject


_NAME_EN = re.compile(r"^([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)(?:'s)?\s")
_NAME_ZH = re.compile(r"^([\u4e00-\u9fff]{2,3}?)(?:是|在|住|喜欢|做|现在|今年|的|也|又|最近|刚|已经|叫)")


def person_name(text: str) -> str | None:
    """A name the clause starts with ("周琴是成都人", "Dana's birthday is …")."""
    m = _NAME_EN.match(text)
    if m and m.group(1).split()[0].casefold() not in EN_STOP:  # "She's the one who…": no name
        # "Phone's an iPhone 15 now": an ordinary noun opening a sentence is no one's name, nor
        # a verb ("Started Dutch lessons on Tuesdays": the subject left out is the speaker)
        word, first = m.group(1).lower(), m.group(1).split()[0].lower()
        if given_name(first):
            return m.group(1)
        return None if word in english_words("nouns") or only_verb(first) else m.group(1)
    m = _NAME_ZH.match(text)
    if (
        m
        and not re.match(r"我|你|他|她|它|这|那|咱|大家|我们", m.group(1))
        and _nominal(text, m.group(1))
        and not _common_noun(m.group(1))
    ):
        if text[m.end(1) :].startswith("的") and not zh_person_word(m.group(1)):
            return None  # "新租的房子", "家里的猫": a thing's owner is a person only by name
        return m.group(1)
    return None


_WORD_NOT_NAME = 100  # jieba's count above which an opener is a word, not a name ("小米", "老家")
_DOUBLED_WORD = 300  # a doubled syllable said as a word ("天天", "宝宝" 301; "乐乐" 14, "嘟嘟" 90)
_FULL_NAME_WORD = 50  # a surname-shaped word the dictionary knows this often is a word ("格式化" 54)
_INTERJECTIONS = "嗯哈呵嘿哦噢啊呀嘻哼呜"
_THE_WORD = re.compile(r"(?:这|那)?个?名字")


def opening_name(text: str) -> str | None:
    """The name a clause opens with, whatever follows it: ``person_name``, else a Chinese
    name by its shape, after any time word ("上周老周查出来高血压"): a doubled syllable
    ("乐乐从上个月开始学围棋"), a nickname of 小/老/大/阿 ("阿杰搬进来一个多月了", "小杨办了
    乐刻的年卡"), or a surname and a given name jieba reads as one ("陈思远在字节").
    People in one's life are named bare far more often than with the word that says who they
    are, and ``person_name`` knows a name only by a verb after it. Not a word the dictionary
    knows well, a relation word, a thing's kind ("狗狗", "小猫"), a name with nothing said
    after it, nor one who only speaks or bids ("老周说下周二要review代码": reported speech is
    about whoever it names)."""
    found = _opening(text)
    return found[0] if found else None


def _opening(text: str) -> tuple[str, bool] | None:
    """(the name a clause opens with, whether it is plainly one): a Chinese name by its shape,
    an English given name that is no word people also write ("Long day at work", "Golden
    hour"); ``person_name``'s other readings ("Desert Bloom got acquired", "瑞幸最近…") are
    names only as far as the model's reading of the clause says a person."""
    t = text.lstrip()
    if (name := person_name(t)) and name.isascii():
        return name, _plain_en(name.split()[0])
    if t.isascii():
        # "took Mia to the allergist, she's allergic to dust mites": the one taken is who it is about
        taken = _TAKEN_EN.match(t)
        m = re.match(r"[A-Z][a-z]+\b", t[taken.end() :]) if taken else None
        if m and _plain_en(m.group(0)):
            return m.group(0), True
        return None
    cut = pos_cut(t[:16])
    shaped = _zh_name_shape(t, cut)
    if shaped is None and name is None and cut and cut[0][1].startswith("t") and len(cut) > 1:
        t = t[len(cut[0][0]) :].lstrip()
        cut = pos_cut(t[:16])
        shaped = _zh_name_shape(t, cut)
    if shaped is None and name is None and (done_for := _FOR.match(t)):
        # "暑假给乐乐报了个围棋课", "今天带乐乐复诊": what is done for them is about them
        t = t[done_for.end() :]
        shaped = _zh_name_shape(t, pos_cut(t[:16]))
    name = shaped or name
    if name is None or not re.match(r"[\u4e00-\u9fffA-Za-z0-9]", t[len(name) :]) or _SAYS.match(t, len(name)):
        return None
    if _THE_WORD.match(t, len(name)) or _thing_or_kin(name) or load().names_thing(t[:16], 0, len(name)):
        return None  # "小七这名字我越叫越不顺口": the name as a word, not someone; "凯美瑞上周卖了": a car
    return name, shaped is not None and _plain_zh(name) and not place_name(name)


def _plain_en(first: str) -> bool:
    """An English given name that is no word people also write nor a city ("Long day…", "Austin")."""
    return given_name(first) and not truecase.word_too(first) and not place_name(first)


_FOR = re.compile("[给带帮陪替]")
_TAKEN_EN = re.compile(
    r"(?:(?:just|finally|today|yesterday)\s+)?(?:took|take|taking|brought|bring|dropped|drop|picked up|"
    r"signed|enrolled|registered)\s+",
    re.IGNORECASE,
)


def _plain_zh(name: str) -> bool:
    """A Chinese name by a shape nothing else has: a doubled syllable, 阿 and a character (not
    a dictionary word: "阿里"), or a common surname first ("周凯", "老周"); jieba reads many a
    brand, car or day as a name ("爱肯拿", "轩逸", "平安夜") by a surname no one is called by."""
    doubled = len(name) == 2 and name[0] == name[1]
    nickname = name[0] == "阿" and jieba_frequency(name) < _WORD_NOT_NAME  # "阿杰", not "阿里" (726)
    return doubled or nickname or name[0 if name[0] not in "小老大" else 1] in zh_surnames()


@cache
def zh_surnames() -> frozenset[str]:
    """The hundred most common Chinese surnames (``data/zh_surnames.json``)."""
    raw = resources.files("memquill").joinpath("data/zh_surnames.json").read_text("utf-8")
    return frozenset(json.loads(raw)["surnames"])


# what stands in for a name the clause opens with when the attribute model reads it
_STAND_IN = {"zh": "她", "en": "She"}


def stand_in(text: str) -> str:
    """``text`` as the attribute model reads it: the name it opens with ("乐乐从上个月开始在少年宫
    学围棋了", "noah started at riverside elementary") said as a pronoun ("她从上个月…", "She
    started at…"). The model learnt attributes from clauses about "我", "my sister" or "she";
    a name it has never seen pulls its reading toward names, places and events ("Noah moved
    to Riverside Elementary" read as an event's venue, "She moved to…" as a school); the two
    readings are averaged (``ModelExtractor._read_all``). Whose the fact is, the clause's own
    words say (``subject_for``)."""
    found = _opening(truecase.restore(text))
    if found is None or (text.isascii() and not found[1]):
        return text  # "Lights out at 9pm every night for me": a capital, no one's name
    name = found[0]
    if not text.isascii():
        return text.replace(name, _STAND_IN["zh"], 1)
    lead = re.compile(rf"^(\W*){re.escape(name)}", re.IGNORECASE)
    return lead.sub(lambda m: m.group(1) + _STAND_IN["en"], text, count=1)


def _thing_or_kin(name: str) -> bool:
    """A relation word or a thing said by its kind ("狗狗", "小猫"), not a name."""
    return bool(load().relation(name)) or thing_word(name) or any(thing_word(ch) for ch in name)


def _zh_name_shape(t: str, cut: Sequence[tuple[str, str]]) -> str | None:
    """The Chinese name ``t`` opens with by its shape (see ``opening_name``); ``cut`` is
    jieba's reading of its start. The name ends where a word of jieba's does ("老地方" is no
    老地, "小伙伴" no 小伙)."""
    from memquill.write.extract.appositions import surname  # they read relations from here
    from memquill.write.extract.introductions import zh_full_name

    if not cut or not re.match(r"[\u4e00-\u9fff]{2}", t):
        return None
    word, flag = cut[0]
    bounds = set(accumulate(len(w) for w in dictionary_words(t[:16])))
    pair = t[:2]
    if pair[0] == pair[1] and t[2:3] != pair[0] and pair[0] not in _INTERJECTIONS:
        return pair if 2 in bounds and jieba_frequency(pair) < _DOUBLED_WORD else None
    if pair[0] in "小老大阿" and 2 in bounds:
        named = word == pair and flag.startswith(("nr", "nz"))
        shaped = pair[0] == "阿" or surname(pair[1]) or named
        return pair if shaped and (named or jieba_frequency(pair) < _WORD_NOT_NAME) else None
    if (
        2 <= len(word) <= 3
        and flag.startswith("nr")
        and zh_full_name(word)
        and jieba_frequency(word) < _FULL_NAME_WORD
    ):
        return word
    return None


def named_doer(prefix: str) -> str | None:
    """The person an English rule's match is said of when the words before it open with a
    name and no first-person word ("Dana just accepted an offer at Lurie Children's": Dana's
    employer, not the user's); None for the speaker ("So I finally started at Dell")."""
    opening = prefix.lstrip()
    if speaks_of_self(opening) or (name := person_name(opening)) is None:
        return None
    if TECH.match(name) or thing_word(name) or load().relation(name) or not _named(opening, name):
        return None
    return name


_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
_ZH_OPENER = re.compile(r"\s*([\u4e00-\u9fff]{2,3})")


def named_person(text: str, skip: str = "") -> str | None:
    """The first person the clause names by name outside ``skip`` (a value it states): a
    common given name anywhere in English ("we're moving Maya to Maple Grove Montessori"), a
    Chinese opener that reads as a name or nickname ("乐乐9月要转园了"), or a word jieba reads
    as one ("让小宇转到育才中学")."""
    rest = text.replace(skip, " ") if skip else text
    if not rest.isascii():
        if (m := _ZH_OPENER.match(rest)) and (
            name := next((n for n in (m.group(1)[:2], m.group(1)) if _named(rest, n)), None)
        ):
            return name
        return next(
            (w for w, f in pos_cut(rest) if f.startswith("nr") and 1 < len(w) < 4 and zh_person_word(w)), None
        )
    return next(
        (w for w in _CAPITALISED.findall(rest) if given_name(w) and not thing_word(w) and not TECH.match(w)),
        None,
    )


def zh_person_word(name: str) -> bool:
    """Does jieba read ``name`` as a person's name ("周琴", "陈姐"), or is it a nickname: 小/老/阿
    before a surname ("小张", "老李", "小刘": jieba tags them a noun or splits them, but reads
    "张某" as a name, unlike "婆某" of 老婆), when it is no relation word ("老师", "老公")?"""
    cut = pos_cut(name)
    if len(cut) == 1 and cut[0][1].startswith("nr"):
        return load().relation(name) is None
    if len(name) != 2 or name[0] not in "小老阿" or load().relation(name):
        return False
    tail = pos_cut(name[1] + "某")
    return len(tail) == 1 and tail[0][1].startswith("nr")


# How often jieba's dictionary must know a word for it to be a common noun rather than a
# name: things people open a clause with are frequent there ("手机" 4789, "电脑" 3427,
# "奶茶" 89); pets' names and nicknames are rare ("豆豆" 3, "花花" 12) or not listed ("周琴").
_COMMON = 50


def _common_noun(name: str) -> bool:
    """Is ``name`` one ordinary dictionary word rather than a name? jieba tags "手机" and
    "豆豆" both 'n', so the tag cannot tell; its dictionary frequency can. A name jieba
    tags as one ('nr': "李娜", "元宝") or a doubled syllable ("团团", a nickname) stays a name."""
    cut = pos_cut(name)
    if len(cut) != 1 or cut[0][1].startswith("nr") or (len(name) == 2 and name[0] == name[1]):
        return False
    return jieba_frequency(name) >= _COMMON


# jieba POS flags no name is made of: time, adverb, preposition, locality, pronoun, particle,
# conjunction, numeral, measure word, verb ("现在不在杭州了" starts with no person "现在不")
_NOT_NAME = ("t", "d", "p", "f", "r", "u", "c", "m", "q", "v", "z")


def _nominal(text: str, name: str) -> bool:
    """The name is whole words at the start of the clause, none of them a function word."""
    at = 0
    for word, flag in pos_cut(text):
        if at >= len(name):
            break
        if flag.startswith(_NOT_NAME):
            return False
        at += len(word)
    return at == len(name)


def _named(text: str, name: str) -> bool:
    """Without the model's word that the clause is about a person, a capitalised first word
    is only a name when it looks like one: a Chinese word jieba reads as a name (or a nickname,
    or a doubled syllable), a full name, a possessive, or a common given name ("Maya starts at
    Maple Grove this fall"). "Cut out coffee…", "Matcha got expensive…", "Honestly it's mostly
    Rust…" start with a capital because a sentence does."""
    if not name.isascii():  # "工资卡是招行的" opens with a thing jieba does not know well
        return zh_person_word(name) or (len(name) == 2 and name[0] == name[1])
    return " " in name or text.startswith(f"{name}'s") or given_name(name)
