"""Preferences (likes, dislikes, switches, reply language/style) and standing instructions.

Keys: ``<category>`` for an exclusive positive choice (``editor``, ``theme``…),
``<category>:<head>`` for other known objects (``beverage:coffee``, ``diet:cilantro``) and
for negatives of exclusive ones (``theme:dark_mode``), ``likes:<slug>`` for unknown objects,
``instruction:<slug>`` for standing "if/when/always … do …" instructions.
"""

from __future__ import annotations

import re
from typing import Any

from memquill.catalogue import load
from memquill.keymap import to_catalogue
from memquill.model import Candidate, MemoryType, Polarity
from memquill.write.extract import subjects
from memquill.write.extract.clause import Clause
from memquill.write.extract.lexicon import EXCLUSIVE, TECH, classify, slug
from memquill.write.extract.patterns_common import END, I, blocked, flags, imperative, pref_key, rx, say
from memquill.write.extract.phrasing import clean_object, strip_times
from memquill.write.extract.value_kinds import said_kind

_X = r"(?P<obj>[^，,。.!！?？;；]{1,60}?)"
_ADV_EN = r"(?:(?:really|just|also|honestly|now|still)\s+)?"
_PERSON = re.compile(r"[他她]|\b(?:he|she|his|her|him)\b", I)  # "我不喜欢他的做法": an opinion of someone
_PROJECT_WORDS = re.compile(
    r"项目|仓库|代码|服务|后端|前端|流水线|\b(?:ci|cd|repo|project|backend|frontend|service|api|pipeline)\b",
    I,
)
_WE = re.compile(r"我们|咱们|团队|项目|\b(?:we|our|us|team|project)\b", I)


_SWITCH = rx(
    r"(?:(?:已经|现在)?(?:改用|换成|换到|改成|切换到|转用)了?|(?:现在)?改为|",
    r"\b(?:have |'ve )?switched(?: over)?(?: from .{1,30}?)? to|\b(?:moved|migrated) from .{1,30}? to|",
    r"\bnow use|\bstarted using|\bchanged to)\s*",
    _X,
    "(?:了)?",
    END,
)
_FROM = rx(r"(?:从|\bfrom)\s*(.+?)\s*(?:换到|换成|改用|切换到|\bto\b)")
_LANGS = r"(?:简体|繁体)?中文|英文|英语|普通话|日语"
_REPLY_LANG = rx(
    rf"(?:用|使用)(?P<obj>{_LANGS})(?:来)?(?:回复|回答|答复|交流|沟通|写)|",
    rf"(?:回复|回答|答复)(?:都|请|一律|最好)?(?:用|使用)\s*(?P<o2>{_LANGS})|",
    r"\b(?:answer|reply|respond|write|talk|speak)(?: to me)? (?:only )?in (?P<o3>English|Chinese|Mandarin)",
)
_REPLY_STYLE = rx(
    r"(?:回答|回复|答复)[^，,。]{0,6}?(?:请|尽量|要|都)?(?P<obj>简洁|简短|详细)|",
    r"\bkeep (?:your |the )?(?:answers|replies|responses)\s+(?P<o2>short|brief|concise|detailed)",
)
_NEGATIVE = (
    rx(
        r"(?:我|\bi\b)\s*(?:现在|平时|从来|已经|也|一般|真的|其实)?\s*",
        r"(?:不(?:再|太|怎么)?(?:能|会|敢)?(?:喜欢|爱|喝|吃|用|想要|碰|看|听|抽|玩)|讨厌|受不了|反感|戒(?:掉)?了?)",
        r"\s*",
        _X,
        END,
    ),
    rx(
        r"\bi\s+",
        _ADV_EN,
        r"(?:can'?t stand|cannot stand|hate|dislike|stopped|quit|gave up|avoid)\s+",
        r"(?:(?:drinking|eating|using|having)\s+)?",
        _X,
        END,
    ),
    rx(
        r"\bi\s+",
        _ADV_EN,
        r"(?:don'?t|do not|never|no longer)\s+",
        r"(?:like|drink|eat|use|want|enjoy|care for|touch)\s+",
        _X,
        END,
    ),
    rx(r"(?:^|\bi'?m\s+|\bi am\s+)not (?:a (?:big |huge )?fan of|into|keen on|fond of)\s+", _X, END),
    rx(r"(?:别|不要|不用|请勿)(?:再)?(?:给我|跟我|向我|帮我)?(?P<verb>推荐|安排|发|推送|提|打)\s*", _X, END),
    rx(
        r"\b(?:stop|don'?t|do not|never|no more)\s+",
        r"(?P<verb>suggest|recommend|send|offer|mention|call|text|email|ping|schedule|book|use|add|include|put)",
        r"(?:ing|s)?(?:\s+me)?\s*",
        _X,
        "?",
        END,
    ),
    rx(r"^(?:please\s+)?no (?P<obj>[^,.]{1,30}?)(?=\s+(?P<scope>in|for|please)\b|,|$)"),
    rx(r"(?:回复|回答|消息|邮件)里?(?:不要|别|不用|请勿)(?:再)?(?:用|加|带|使用)\s*", _X, END),
)
_FIRST_REQUEST = 4  # _NEGATIVE entries from here on are requests to the assistant
_POSITIVE = (
    rx(r"我最喜欢的(?P<hint>.{1,8}?)是\s*", _X, END),
    rx(r"\bmy (?:absolute )?favou?rite (?P<hint>[\w ]{1,20}?) is\s+", _X, END),
    rx(
        r"(?:我|\bi\b)\s*(?:现在|平时|一般|也|真的|其实)?\s*(?:很|最|比较|更|特别|超|非常|还是)?",
        r"(?:喜欢|爱|偏好|偏爱|习惯(?:用)?)\s*",
        _X,
        END,
    ),
    rx(
        r"\bi\s+(?:(?:really|also|just|absolutely|much|usually|always|generally|mostly)\s+)?",
        r"(?:like|love|prefer|enjoy|adore)s?\s+",
        _X,
        END,
    ),
    rx(r"(?:我的)?(?:偏好|首选)(?:是)?\s*", _X, END),
    rx(
        r"\bi(?:'d| would) rather (?:have |drink |eat |use |go with |get )?",
        r"(?P<obj>[^,.;]{1,40}? than [^,.;]{1,40})",
    ),
    rx(r"(?:^|[，,]\s*)(?:就|都|一律|总是|一直|始终)\s*(?:用|使用)\s*", _X, END),
    rx(r"\b(?:always|just)\s+use\s+", _X, END),
)
_FIRST_STANDING = 6  # _POSITIVE entries from here on are standing rules
_CONSUME = rx(r"\bi\s+(?:usually\s+|always\s+)?(?:take|drink|have|eat)\s+", _X, END)
_DIET = rx(r"我(?:平时|一直)?(?:吃素|是素食(?:者|主义者)?)|\bi'?m (?:a )?(vegetarian|vegan|pescatarian)\b")
_OVER = rx(r"(.+?)\s*(?:\bover\b|\brather than\b|\binstead of\b|\bthan\b|而不是|胜过|而非)\s*(.+)")
_HABIT = rx(
    r"我(?:一般|平时|通常|一直|都|基本)(?:都)?(?:用|使用)\s*",
    _X,
    END,
    "|",
    r"我(?:主要|平时)?(?:用|使用)\s*(?P<o2>[^，,。]{1,30}?)\s*(?:比较多|多一些|居多|最多|为主)",
)


def _candidate(
    c: Clause, key: str, obj: str, polarity: Polarity, rule: str, *, order: bool = False, **attrs: Any
) -> Candidate:
    """Preferences are the user's statements ("用户最近换成了 Firefox"); requests to the assistant
    (``order``: "回复里不要用表情符号", "以后都用中文") read "用户要求：…" (``say``)."""
    return c.make(
        MemoryType.PREFERENCE,
        "user",
        key,
        say(c, order=order),
        value=obj,
        polarity=polarity,
        rule=rule,
        **attrs,
        **flags(c),
    )


def _group(m: re.Match[str], *names: str) -> str:
    return next((m.group(n) for n in names if n in m.groupdict() and m.group(n)), "") or ""


def _reply(c: Clause) -> list[Candidate]:
    for pattern, cat in ((_REPLY_LANG, "reply_language"), (_REPLY_STYLE, "reply_style")):
        m = pattern.search(c.text)
        if m:
            obj = _group(m, "obj", "o2", "o3")
            return [_candidate(c, cat, obj, Polarity.POSITIVE, f"pref.{cat}", order=True)]
    return []


def _negative(c: Clause) -> list[Candidate]:
    for i, pattern in enumerate(_NEGATIVE):
        m = pattern.search(c.text)
        if not m:
            continue
        obj, verb = clean_object(_group(m, "obj")), _group(m, "verb")
        if verb.lower() in ("use", "add", "include", "put") and _WE.search(c.text):
            continue  # "we don't use Redux": a project fact, not the user's taste
        if verb and classify(obj) is None and classify(verb):
            obj = verb  # "don't call me after 9pm": the verb names the slot
        if not obj or len(obj) > 40 or _PERSON.search(obj):
            continue
        if "scope" in m.groupdict() and not m.group("scope") and classify(obj) is None:
            continue  # a bare "no worries" / "no problem" scopes nothing: an interjection, no request
        order = i >= _FIRST_REQUEST  # "别给我推荐…", "stop suggesting …": a request, not a taste
        return [
            _candidate(c, pref_key(obj, negative=True), obj, Polarity.NEGATIVE, "pref.negative", order=order)
        ]
    return []


def _positive_key(obj: str, hint: str) -> str:
    """The object's slot; "我最喜欢的编程语言是 X" takes the category from the hint."""
    if classify(obj) is not None or not hint or classify(hint) is None:
        return pref_key(obj)
    cat = classify(hint)[0]  # type: ignore[index]
    return cat if cat in EXCLUSIVE else f"{cat}:{slug(obj)}"


def _positive(c: Clause) -> list[Candidate]:
    for i, pattern in enumerate(_POSITIVE):
        m = pattern.search(c.text)
        if not m:
            continue
        obj, attrs = clean_object(_group(m, "obj")), {}
        if over := _OVER.match(obj):
            obj, attrs["rejected"] = clean_object(over.group(1)), [clean_object(over.group(2))]
        if not obj or len(obj) > 40 or _PERSON.search(obj):
            continue
        key = _positive_key(obj, _group(m, "hint"))
        order = i >= _FIRST_STANDING  # "就用 SQLite", "always use Python": a standing rule
        return [_candidate(c, key, obj, Polarity.POSITIVE, "pref.positive", order=order, **attrs)]
    return []


def _habit(c: Clause) -> list[Candidate]:
    """ "我一般用 Chrome": habitual use of a known kind of thing is a preference."""
    m = _HABIT.search(c.text)
    obj = clean_object(_group(m, "obj", "o2")) if m else ""
    if not obj or classify(obj) is None:
        return []
    return [_candidate(c, pref_key(obj), obj, Polarity.POSITIVE, "pref.habit")]


def _consumption(c: Clause) -> list[Candidate]:
    """ "I take my coffee black", "I drink oat milk lattes", "我吃素": food and drink habits."""
    m = _DIET.search(c.text)
    if m:
        obj = m.group(1) or "vegetarian"
        return [_candidate(c, f"diet:{slug(obj)}", obj, Polarity.POSITIVE, "pref.diet")]
    m = _CONSUME.search(c.text)
    found = classify(m.group("obj")) if m else None
    if not m or not found or found[0] not in ("beverage", "diet"):
        return []
    return [
        _candidate(
            c, f"{found[0]}:{found[1]}", found[1].replace("_", " "), Polarity.POSITIVE, "pref.consumption"
        )
    ]


def _switch(c: Clause) -> list[Candidate]:
    m = _SWITCH.search(c.text)
    if not m or _WE.search(c.text) or "把" in c.text[: m.start()]:
        return []  # "we switched to …" is a project fact; "把 X 改成 Y" is an edit request
    obj = clean_object(m.group("obj"))
    if TECH.search(obj) and _PROJECT_WORDS.search(c.text):
        return []  # "CI 也换成 GitHub Actions": the project's stack (patterns_project)
    prev = _FROM.search(c.text)
    before = clean_object(prev.group(1)) if prev else ""
    attrs: dict[str, Any] = {"previous": before} if before else {}
    if classify(obj):
        key = pref_key(obj)
    elif before and (known := classify(before)):  # "from Chrome to Arc": Arc fills Chrome's slot
        key = known[0] if known[0] in EXCLUSIVE else f"{known[0]}:{slug(obj)}"
    elif said_kind("diet", obj, c.language == "zh"):  # "改成轻断食16:8": a way of eating
        key = "diet"
    else:
        key = f"uses:{slug(obj)}"
    return [_candidate(c, key, obj, Polarity.POSITIVE, "pref.switch", **attrs)] if obj else []


def preference(c: Clause) -> list[Candidate]:
    if blocked(c):
        return []
    for family in (_reply, _switch, _negative, _consumption, _positive, _habit):
        found = family(c)
        if found:
            return _theirs(c, found)
    return []


# "My wife and I…", "我和老婆…": the user is in it too
_WITH_ME = re.compile(r"和我|跟我|我们|咱们|\band (?:I|me)\b|\b(?:we|us)\b", re.IGNORECASE)


def _theirs(c: Clause, found: list[Candidate]) -> list[Candidate]:
    """A preference said of someone in the user's life ("My wife switched to black coffee",
    "我老婆换成喝黑咖啡了") is theirs, not the user's: kept under the relation where the
    catalogue lets a person hold it (a freeform like/use too), else not stored."""
    other = subjects.about_other(c.text)
    if other is None or _WITH_ME.search(c.text):
        return found
    subject = f"person:{other[0]}"
    cat = load()
    out = []
    for x in found:
        key = to_catalogue("user", x.key, x.polarity is Polarity.NEGATIVE)[1]
        if cat.get(key) is None or cat.allows(key, subject):
            out.append(x.model_copy(update={"subject": subject}))
    return out


# --- standing instructions ------------------------------------------------------------
_STANDING = rx(r"以后|今后|每次|总是|一律|永远|务必|\b(?:always|never|every time|from now on|whenever)\b")
_ZH_ACTION = re.compile(
    r"(?:请|就|才|需要|要|别|不要|先|都|务必|必须|一定要|第一时间|马上|立刻|立即|及时|直接|记得)(.{1,40})$|"
    r"^(?:打|发|找|通知|告诉|联系|回滚|重启|停|用|给|叫|提醒|抄送|切)(.{1,40})$"
)
# what the user cannot do is no instruction ("我每次都起不来", "每次都搞不定")
_ZH_UNABLE = re.compile(r"[\u4e00-\u9fff]不(?:来|了|到|动|着|起|下|住|完|好|定)(?![要需])|没法|没办法")
_CONSEQUENCE = re.compile(r"(?:那就|就|才|则|便)\S")


def _main_part(c: Clause) -> str:
    """The clause without its condition: "If the build fails, roll back" → "roll back"."""
    text = c.text
    for cond in c.conditions:
        i = text.find(cond)
        if i >= 0:
            after = text[i + len(cond) :]
            text = after if after.strip(" ，,的话时") else text[:i]
    return re.sub(r"^[\s，,]*(?:的话|时|否则|就|then)?[\s，,]*", "", text).strip()


def instruction(c: Clause) -> list[Candidate]:
    """ "If the build fails, roll back", "只有…才需要上缓存", "always cc Anna": kept with conditions."""
    if blocked(c) or not (c.conditions or _STANDING.search(c.text)):
        return []
    main = _main_part(c)
    if c.language == "zh":  # "如果下雨就取消…": a consequence joined by 就/才/则 is the action
        action = bool(_ZH_ACTION.search(main)) or bool(c.conditions and _CONSEQUENCE.search(c.text))
        action = action and not _ZH_UNABLE.search(main)
    else:
        action = imperative(main, "en")
    if not action or len(main) < 2:
        return []
    negative = re.match(r"(?:please\s+)?(?:never|don'?t|do not)\b|别|不要|请勿", main, I)
    polarity = Polarity.NEGATIVE if negative else Polarity.POSITIVE
    key = f"instruction:{slug(strip_times(main))}"
    return [
        c.make(
            MemoryType.PREFERENCE,
            "user",
            key,
            say(c, order=True),
            value=main,
            polarity=polarity,
            rule="instruction",
            **flags(c),
        )
    ]
