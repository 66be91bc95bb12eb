"""Stage 1: the noise gate (rule 2). Filler, greetings, laughter, small talk and one-off
requests produce no long-term record; every skip carries a reason for metrics and explain().

The gate only drops a turn when the *whole* turn is noise: "ok, remember that I'm vegan"
is not filler.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memquill.model import Role

_P = r"[\s,.!?~…，。！？、~～:：;；'\"“”‘’()（）\-—]*"

_FILLER = re.compile(
    rf"^{_P}(?:好的?|好吧|好滴|行|可以|嗯+|哦+|噢|喔|收到|明白了?|知道了|了解|懂了|稍等|等一下|没问题|"
    rf"对|是的?|谢谢(?:你|啦)?|多谢|感谢|辛苦了|不客气|ok(?:ay)?|k|kk|sure|yes|yep|yeah|no|nope|"
    rf"got it|thanks?(?: you| a lot| so much)?|thx|ty|cool|great|nice|alright|all right|"
    rf"understood|noted|sounds good|will do|makes sense|i see|hmm+|uh+|um+|right|fine|perfect|"
    rf"awesome|no problem|np|one sec(?:ond)?|hold on|wait|sure thing|you'?re welcome)"
    rf"(?:{_P}(?:好的?|谢谢|thanks?|ok(?:ay)?|got it|cool|great|sure|明白|收到|知道了)){{0,3}}{_P}$",
    re.IGNORECASE,
)
_GREETING = re.compile(
    rf"^{_P}(?:hi|hello|hey|yo|good (?:morning|afternoon|evening|night)|bye|goodbye|see you|"
    rf"see ya|cheers|你好|您好|嗨|哈喽|早上好|早安|晚上好|晚安|再见|拜拜|回头见)(?: there| all| everyone)?"
    rf"{_P}$",
    re.IGNORECASE,
)
_LAUGH = re.compile(rf"^{_P}(?:哈{{2,}}|呵{{2,}}|嘿{{2,}}|(?:ha){{2,}}h?|lo+l|lmao|rofl|xd|233+){_P}$",
                    re.IGNORECASE)  # fmt: skip
_EMOJI_ONLY = re.compile(r"^[\s\W\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]*$")
_SMALL_TALK = re.compile(
    r"^(?:how are you|how's it going|what's up|how was your (?:day|weekend)|nice weather|"
    r"你(?:最近)?怎么样|最近好吗|吃了吗|今天天气(?:真|很)?(?:好|不错)|周末过得怎么样)[\s?？!！。.]*$",
    re.IGNORECASE,
)
_ONE_OFF = re.compile(
    r"(?:^(?:(?:请|帮我|帮忙)?(?:查|查一下|看看|看一下)(?:今天|明天|现在)?的?(?:天气|气温|汇率|股价|时间))|"
    r"^(?:what(?:'s| is) the (?:weather|time|temperature)|how(?:'s| is) the weather)|"
    r"^(?:帮我|请)?(?:翻译|translate\b)|"
    r"^(?:what(?:'s| is)|calculate|compute|算一下|计算)?\s*[\d\s.+\-*/×÷()=]+[?？=]?\s*(?:等于多少|是多少)?$|"
    r"^(?:tell me a joke|讲个笑话|说个笑话))",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"^(?:如果我(?:中了|是|有)|假如|要是我|假设我|if i (?:won|were|was|had)|imagine if|"
    r"what if i|suppose i)",
    re.IGNORECASE,
)
# "…开玩笑的" / "just kidding": the turn is a joke (but "not kidding" is serious).
_JOKE = re.compile(
    r"(?<!不是)(?:开(?:个)?玩笑(?:的|啦|而已)?|逗你(?:玩)?的|骗你的)|"
    r"(?<!not )(?<!no )\b(?:just kidding|only kidding|kidding|jk|j/k)\b",
    re.IGNORECASE,
)
_MEMORY_WORDS = re.compile(
    r"记住|别忘|记得|记一下|提醒我|remember|don'?t forget|note that|keep in mind|remind me",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Verdict:
    keep: bool
    reason: str = ""


KEEP = Verdict(True)


def gate(text: str, role: Role = Role.USER) -> Verdict:
    """Decide whether a turn may carry memory; the reason names the rule that dropped it."""
    t = text.strip()
    if _MEMORY_WORDS.search(t):
        return KEEP
    checks = (
        (_FILLER, "filler"),
        (_GREETING, "greeting"),
        (_LAUGH, "laughter"),
        (_SMALL_TALK, "small talk"),
        (_ONE_OFF, "one-off request"),
        (_HYPOTHETICAL, "hypothetical"),
        (_JOKE, "joke"),
    )
    for pattern, reason in checks:
        if pattern.search(t):
            return Verdict(False, reason)
    if _EMOJI_ONLY.match(t):
        return Verdict(False, "emoji only")
    return KEEP
