"""Stage 1: the noise gate (rule 2). Filler, greetings, laughter, small talk, one-off
requests, jokes and hypotheticals produce no long-term record; every skip carries a reason
for metrics and explain().

The gate only drops a turn when the *whole* turn is noise: "ok, remember that I'm vegan"
is not filler, "哈哈，我对花生过敏" is not laughter. A turn is read as a run of units
("好的", "谢谢", "哈哈哈", "👍"): it is filler when every unit is filler, greeting,
laughter or emoji, whatever their order and repetition ("好的好的，谢啦~ 👍").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memquill.model import Role
from memquill.text import SENTENCE, tokens

_SEP = r"[\s,.!?~…，。！？、～:：;；'\"“”‘’()（）\-—]*"
_PARTICLE = r"(?:啦|呀|啊|呢|哦|嘛|吧|哈|哒|滴|咯|喽|嘞|了)*"

_FILLER_ZH = (
    r"好的?|好吧|好滴|好嘞|好哒|行|成|可以的?|嗯+|恩+|哦+|噢+|喔+|唔+|收到|明白(?:了)?|知道了?|"
    r"了解|懂了?|稍等|等一下|没问题|对|是|是的|对的|没错|谢(?:谢|了)?(?:你|您)?|多谢|感谢|辛苦(?:了)?|"
    r"不客气|没事|没关系|算了|不用了|马上|棒|赞|厉害|太好了|好厉害|没毛病|完美|妥|ok(?:ay)?"
)
_FILLER_EN = (
    r"ok(?:ay|ie dokie)?|k+|sure(?: thing)?|yes|yep|yeah|yup|no|nope|got it|gotcha|"
    r"thanks?(?: you| u)?(?: (?:a lot|so much|very much|again))?|thank u|thx|ty|tysm|cool|great|"
    r"nice(?: one)?|alright|all right|understood|noted|sounds good|will do|makes sense|i see|"
    r"interesting|hmm+|uh+|um+|right|fine|perfect|awesome|no problem|np|one sec(?:ond)?|"
    r"hold on|wait|you'?re welcome|good job|well done|exactly|indeed|agreed|lgtm|that works|"
    r"that'?s (?:great|perfect|helpful|fine)|love it|wow|oh|ah|oops|good|excellent|"
    r"(?:that was )?(?:really |very )?helpful"
)
_GREETING = (
    r"hi|hello|hey|yo|hiya|howdy|good (?:morning|afternoon|evening|night)|bye|goodbye|see you|"
    r"see ya|cheers|have a (?:nice|good|great) (?:day|one|weekend|evening)|(?:there|all|everyone|guys)|"
    r"你好|您好|嗨|哈喽|哈罗|早(?:上好|安)?|中午好|下午好|晚上好|晚安|再见|拜拜|回头见|周末愉快|新年快乐"
)
_LAUGH = r"哈{2,}|呵{2,}|嘿{2,}|嘻{2,}|(?:ha){2,}h?|(?:he){2,}|lo+l|lmao|rofl|xd|233+"
_EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+"
_UNITS = (
    ("laughter", _LAUGH),
    ("emoji only", _EMOJI),
    ("greeting", _GREETING),
    ("filler", _FILLER_ZH),
    ("filler", _FILLER_EN),
)
_UNIT = re.compile(
    "|".join(f"(?P<u{i}>(?:{rx}){_PARTICLE})(?![a-z])" for i, (_, rx) in enumerate(_UNITS)),
    re.IGNORECASE,
)
_SMALL_TALK = re.compile(
    r"^(?:how are you(?: doing)?(?: today)?|how'?s it going|what'?s up|how was your (?:day|weekend)|"
    r"nice weather|你(?:最近)?怎么样|最近好吗|最近(?:过得)?怎么样|吃了吗|吃饭了吗|今天(?:天气)?(?:真|很|好|有点|太)"
    r"(?:好|不错|冷|热|累|困)|周末过得怎么样|你是谁|你叫什么(?:名字)?)" + _PARTICLE + r"[\s?？!！。.~]*$",
    re.IGNORECASE,
)
_ONE_OFF = re.compile(
    r"^(?:(?:请|帮我|帮忙)?(?:查|查一下|看看|看一下)(?:今天|明天|现在)?的?(?:天气|气温|汇率|股价|时间))|"
    r"^(?:今天|明天|现在)?的?天气(?:怎么样|如何|好吗|好不好)|"
    r"^(?:what(?:'s| is) the (?:weather|time|temperature)|how(?:'s| is) the weather|what time is it)|"
    r"^(?:请|麻烦)?(?:帮我|帮忙)?(?:把.{0,30}?)?(?:翻译|译成)|^translate\b|"
    r"^(?:what(?:'s| is)|calculate|compute|帮我算一下|算一下|计算)?\s*[\d\s.,+\-*/×÷^%()=]*\d[\d\s.,+\-*/×÷^%()=]*"
    r"(?:\s*(?:times|plus|minus|divided by|multiplied by|of|乘以|除以|加|减|等于多少|是多少|等于几)\s*[\d.,%]*)*\s*[?？=]?\s*$|"
    r"^(?:tell me a joke|讲个笑话|说个笑话|来个笑话)",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"^(?:如果|假如|要是|假设|万一)我(?:中了|中彩票|是(?:你|他|她|老板|总统|皇帝|国王|亿万富翁|富翁|有钱人|超人|明星|"
    r"马云|马斯克|ceo)|有(?:[一二两三四五六七八九十百千万亿\d]+(?:万|亿|块|元|美元)?|很多钱|好多钱|花不完)|会飞|能飞|"
    r"穿越|长生不老|变成)|^假设我|"
    r"^(?:if i (?:won|were|had (?:a (?:million|billion)|millions|billions|\$?\d)|could (?:fly|time)|"
    r"was (?:a|the) (?:king|queen|president|billionaire|millionaire))|imagine (?:if|that) i|what if i|"
    r"suppose i|pretend i|if only i|i wish i (?:were|was|had|could))|"
    r"(?:要是|如果|假如|但愿).{1,30}?就好了" + _PARTICLE + r"[\s。！!~]*$",
    re.IGNORECASE,
)
# "…开玩笑的" / "just kidding": the speaker marks the turn as a joke — the marker is a clause
# of its own ("哈哈开玩笑的", "我是宇宙第一帅，开个玩笑", "Kidding!"). Said of someone else, or
# reported, it is content: "不少人都以为我开玩笑", "I thought he was kidding", "不是开玩笑".
_CLAUSE_START = r"(?:^|(?<=[，,。！!？?；;\s~～…])|(?<=哈))"
_CLAUSE_END = r"(?=$|[，,。！!？?；;\s~～…哈])"
_JOKE = re.compile(
    _CLAUSE_START
    + r"(?:我?(?:只是|就是)?开(?:个)?玩笑(?:的|啦|而已|呢)?|逗你(?:玩)?的|骗你的)"
    + _CLAUSE_END
    + "|"
    r"(?<!not )(?<!no )\b(?:just|only) kidding\b|\bjk\b|\bj/k\b|"
    r"(?:^|(?<=[,.;!?]\s)|(?<=[,.;!?]))\s*kidding\b(?!\s+me)",
    re.IGNORECASE,
)
_MEMORY_WORDS = re.compile(
    r"记住|别忘|记得|记一下|提醒我|remember|don'?t forget|note that|keep in mind|remind me",
    re.IGNORECASE,
)
_SEP_RX = re.compile(_SEP)
# Instructions aimed at the agent or at its memory, inside content that is not the user's own
# words (rule 6): never a memory, never quoted in an episode.
INJECTION = re.compile(
    r"ignore (?:all |any )?(?:(?:your|the|previous|prior|above|earlier) )+(?:instructions|prompts|rules)|"
    r"disregard (?:the |your |all )?(?:previous|above|prior|rules|instructions)|"
    r"forget (?:all |any )?(?:(?:your|the|previous|prior) )+(?:rules|instructions|guidelines)|"
    r"you are now|system prompt|new instructions|"
    r"(?:store|save|write|add|put|record) (?:this|that|the following)\b.{0,40}?\b(?:memory|memories|profile)|"
    r"忽略(?:你的|之前|以上|前面|所有)(?:的|所有)*(?:指令|指示|说明|规则)|无视(?:之前|以上|你的)|"
    r"忘(?:记|掉)(?:你的|之前的?|所有的?)(?:规则|指令|设定)|你现在是|系统提示|"
    r"(?:存|写|记|保存)(?:入|进|到)(?:你的)?(?:记忆|长期记忆|档案)",
    re.IGNORECASE,
)


def injected(text: str) -> bool:
    """True when the text tries to instruct the agent or write to its memory."""
    return bool(INJECTION.search(text))


@dataclass(frozen=True)
class Verdict:
    keep: bool
    reason: str = ""
    rest: str = ""  # a turn dropped as a joke: what it said before the joke, which may carry memory

    def said(self, text: str, drops: bool = True) -> str | None:
        """What of ``text`` may carry memory: all of it when kept (or when the write policy
        keeps what ``reason`` names: ``drops`` false), else what it said before its joke, if
        anything. The write pipeline and the pending turns read a turn through this."""
        return text if self.keep or not drops else (self.rest or None)


KEEP = Verdict(True)


def _units_reason(text: str) -> str | None:
    """The reason when the whole text is a run of filler-like units, else None."""
    pos, kinds = _SEP_RX.match(text).end(), []  # type: ignore[union-attr]
    while pos < len(text):
        m = _UNIT.match(text, pos)
        if not m or m.end() == pos:
            return None
        kinds.append(_UNITS[int(m.lastgroup[1:])][0])  # type: ignore[index]
        pos = _SEP_RX.match(text, m.end()).end()  # type: ignore[union-attr]
    for kind in ("laughter", "greeting", "filler", "emoji only"):
        if kind in kinds:
            return kind
    return "filler"


def filler(text: str) -> bool:
    """Is the whole text a run of filler, greeting, laughter or emoji units ("好的", "makes
    sense", "yes")? The slot timeline reads a clause like this as an acknowledgement."""
    return bool(text.strip()) and _units_reason(text) is not None


def gate(text: str, role: Role = Role.USER) -> Verdict:
    """Decide whether a turn may carry memory; the reason names the rule that dropped it."""
    t = text.strip()
    if _MEMORY_WORDS.search(t):
        return KEEP
    reason = _units_reason(t)
    if reason:
        return Verdict(False, reason)
    checks = (
        (_SMALL_TALK, "small talk"),
        (_ONE_OFF, "one-off request"),
        (_HYPOTHETICAL, "hypothetical"),
        (_JOKE, "joke"),
    )
    for pattern, reason in checks:
        if pattern.search(t):
            return Verdict(False, reason, _unjoked(t) if pattern is _JOKE else "")
    return KEEP


_MARKER_ONLY = re.compile(r"^[\s,.!?~，。！？～…哈]*$")
JOKE_KEEPS = 4  # terms a turn keeps before its joke to still say something


def _unjoked(text: str) -> str:
    """What a turn says before the sentence its joke marker takes back: "Biscuit (beagle) and
    Juno (total mutt) just destroyed a couch cushion together. Two dogs was a mistake. Kidding.
    Mostly." was dropped whole as a joke, and its two dogs with it. The marker retracts its own
    sentence, or the one before when it stands alone ("Kidding.", "开玩笑的。"); what follows it
    qualifies the joke. Empty when what is left says nothing."""
    parts = [p for p in SENTENCE.split(text) if p.strip()]
    at = next((i for i, p in enumerate(parts) if _JOKE.search(p)), 0)
    alone = _MARKER_ONLY.match(_JOKE.sub("", parts[at])) is not None
    rest = " ".join(parts[: at - 1 if alone else at]).strip()
    return rest if len(tokens(rest)) >= JOKE_KEEPS else ""
