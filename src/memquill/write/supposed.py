"""A value said only inside a supposition, or only as what someone else urges, is not stated
(write rule 2: hypotheticals make no memory; other people's opinions are not the user's facts).

"要是我哪天搬去深圳，通勤肯定很惨", "假如我去字节上班的话，估计天天加班", "if I ever moved to
Lisbon…": the extractors read a city or an employer in such clauses, and a single-valued slot then
superseded the value the user really has. The noise gate drops whole turns that are fantasies
("如果我中了彩票"); this stage drops the candidates whose value the turn says only inside the
antecedent of a conditional. A value also said outside one ("我在杭州，要是搬去深圳…") is kept, and
so are standing rules whose condition is not their value ("如果下雨就取消", "if the build fails,
roll back"). "主要是", "只要是" hold no "要是". A negated counterfactual asserts its clause
("要不是搬到了杭州…", "if it weren't for the move to Porto…") and is no supposition.

A proposal is the same: "同事一直劝我换成Cursor，我还是习惯用VS Code", "Someone pitched CircleCI for
parallel tests, but we're sticking with what we have" stored Cursor as the editor and CircleCI as
the CI. What follows a proposal verb up to the end of its phrase is proposed, not stated — unless
the turn says it was taken up ("…suggested Postgres and we went with it", "听了他的，换成了…").
"Told me to" is not one: a doctor's instruction is the user's restriction.

What the user only seeks is the same: "Applied for a trail crew job with Jefferson County Open
Space", "下周去字节面试" stored the employer the user does not have yet. Until the turn says it
was landed ("got the job", "拿到offer", "被录取了"), the place applied to is not the user's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memquill.model import Candidate, MemoryType

_ZH = re.compile(
    r"(?:如果|假如|(?<![主只需重还想正])要是|若是|万一|假设|倘若|倘使|假使)(?!不是|没有)(.+?)(?=的话|[，,。；;！!？?\n]|那就|那么|就|$)"
)
_EN = re.compile(
    r"\b(?:if|suppose|supposing|imagine|in case|unless)\b"
    r"(?!\s+(?:it\s+)?(?:weren't|wasn't|hadn't been|were not|was not|had not been)\s+for\b)"
    r"(.+?)(?=[,;.!?\n]|\bthen\b|$)",
    re.IGNORECASE,
)
_PROPOSED_ZH = re.compile(
    r"(?:劝我|建议我|推荐我|安利我|撺掇我|怂恿我|说服我|非要我|一直让我|老让我|总让我|让我试试?|想让我|想拉我|拉我去|叫我去)"
    r"([^，,。；;！!？?\n]+?)(?=但|可是|不过|[，,。；;！!？?\n]|$)"
)
_PROPOSED_EN = re.compile(
    r"\b(?:pitched|suggested|suggests|recommended|recommends|proposed|proposes|urged me|"
    r"(?:tried|trying|tries) to (?:convince|persuade|talk|get|convert) me|"
    r"(?:keeps?|kept) (?:telling|pushing|nagging|bugging|asking) me|"
    r"(?:wants?|wanted|would like) me (?:to|back)|(?:is|are|was|were|been) pushing(?: for| me)?)\b"
    r"([^,;.!?\n]+?)(?=[,;.!?\n]|\bbut\b|$)",
    re.IGNORECASE,
)
_TAKEN_UP = re.compile(
    r"听了|照做|就换了|就去了|果然|已经|定了|办完|办好|下周起|现在(?:都|基本|就)|"
    r"\b(?:went with it|took (?:his|her|their|the) advice|already|now (?:use|using|on|at|in)|"
    r"(?:and|so) (?:i|we)(?:'ve| have)? (?:switched|moved|went|signed up|joined|started))\b",
    re.IGNORECASE,
)
_SOUGHT_ZH = re.compile(
    r"(?:投了?(?:份|个)?(?:简历)?(?:给|到)|申请了?|面试了|在面)([^，,。；;！!？?\n]+?)(?=[，,。；;！!？?\n]|$)|"
    r"去([^，,。；;！!？?\n]{2,16}?)(?:面试|应聘)|投了([^，,。；;！!？?\n]{2,16}?)的简历"
)
_SOUGHT_EN = re.compile(
    r"\b(?:(?:applied|applying|apply|put in an application|sent (?:my|a) (?:cv|resume)) (?:for|to|at|with)"
    r"|interview(?:ed|ing)? (?:with|at|for)|round (?:with|at|for))\b"
    r"([^,;.!?\n]+?)(?=[,;.!?\n]|\bbut\b|$)",
    re.IGNORECASE,
)
_LANDED = re.compile(
    r"拿到了?(?:\S{0,8}的)?offer|录取了|被录用|录用了|入职|签了|"
    r"\b(?:got|landed|accepted|took) (?:the|an|that|their) (?:job|gig|offer|position|role|place|spot)\b|"
    r"\b(?:got|was) (?:hired|accepted|in)\b",
    re.IGNORECASE,
)
# what a supposition can wrongly state: a value of a slot or a passing state
_STATED = frozenset({MemoryType.FACT, MemoryType.TEMPORARY, MemoryType.PREFERENCE})


def antecedents(text: str) -> list[tuple[int, int]]:
    """Character spans of the conditions a text supposes, of what someone else urges when the
    text does not say it was taken up, and of what the user seeks when it does not say it was
    landed (both languages)."""
    rxs = [_ZH, _EN, *_unsettled(text)]
    return [m.span(g) for rx in rxs for m in rx.finditer(text) for g in range(1, rx.groups + 1) if m.group(g)]


def _unsettled(text: str) -> list[re.Pattern[str]]:
    """The proposal and seeking patterns ``text`` has not settled (taken up, landed)."""
    return [
        *(() if _TAKEN_UP.search(text) else (_PROPOSED_ZH, _PROPOSED_EN)),
        *(() if _LANDED.search(text) else (_SOUGHT_ZH, _SOUGHT_EN)),
    ]


def urged_or_sought(text: str) -> bool:
    """Does ``text`` say what someone else urges, or what the user only applied for, without
    saying it was taken up or landed? (A condition is judged by its value: ``only_supposed``.)"""
    return any(rx.search(text) for rx in _unsettled(text))


# the supposition's own word at the start of a value a rule captured with it ("如果2026年暑假去
# 北京实习" stored as a plan)
_IF_WORD = re.compile(
    r"^(?:如果|假如|要是|若是|万一|假设|倘若|(?:if|suppose|supposing|in case)\b)\s*", re.IGNORECASE
)


def only_supposed(value: str, text: str) -> bool:
    """True when ``value`` occurs in ``text`` and every occurrence lies inside an antecedent."""
    spans = antecedents(text)
    value = _IF_WORD.sub("", value.strip())
    if not spans or not value:
        return False
    found = [m.span() for m in re.finditer(re.escape(value), text, re.IGNORECASE)]
    return bool(found) and all(any(a <= s and e <= b for a, b in spans) for s, e in found)


def drop(candidates: Sequence[Candidate], text_of: Callable[[str], str | None]) -> list[Candidate]:
    """Candidates minus those whose value their turn only supposes; ``text_of`` maps an event
    id to the text the extractors read (None: unknown, kept)."""
    out = []
    for c in candidates:
        text = text_of(c.evidence[0]) if c.evidence else None
        if c.type in _STATED and c.value and text and only_supposed(c.value, text):
            continue
        out.append(c)
    return out
