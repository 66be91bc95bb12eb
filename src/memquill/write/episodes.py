"""Episodes: what a session talked about, distilled at session end (DESIGN §4 rule 3).

Rules extract the frequent, structured patterns; most conversation is neither filler nor a
slot fact ("I went to a support group on 2023-05-07; it was powerful"). Such turns are kept
as *episodes*: a few consecutive content-bearing turns, compressed sentence by sentence
(reactions and pleasantries dropped, times already absolute), with every turn's id as
evidence. Fewer records than turns, each more self-contained than a single turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memquill.model import Candidate, Event, MemoryType, Role, Source, Trust
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.retrieve import places
from memquill.text import EN_STOP, SENTENCE, ZH_STOP, is_cjk, tokens
from memquill.write import covered, noise

_SPEAKER = re.compile(r"^\s*([A-Z][\w'.-]{0,20}(?: [A-Z][\w'.-]{0,20})?|[\u4e00-\u9fff]{1,4})\s*[:：]\s*")
_REACTION = re.compile(
    r"^(?:wow|oh|aw+|omg|yay|haha+|lol|hey|hi|hello|thanks?(?: you)?|thank you so much|congrat(?:s|ulations)|"
    r"good luck|take care|bye|see you|that'?s (?:so |really |very )?(?:great|awesome|amazing|cool|nice|"
    r"wonderful|fantastic|interesting|sweet|lovely|good|true|tough|hard)|sounds (?:great|good|fun|amazing)|"
    r"i'?m (?:so )?(?:happy|glad|proud) (?:for|of) you|you'?re welcome|no problem|me too|same here|"
    r"how about you|what about you|you too|definitely|absolutely|totally|exactly|"
    r"哇|哈哈+|谢谢|太好了|真棒|好的|恭喜|加油|没问题|是啊|对啊)\b",
    re.IGNORECASE,
)
MIN_CONTENT_TERMS = 3


@dataclass(frozen=True)
class Turn:
    event: Event
    speaker: str | None
    text: str  # compressed, without the speaker prefix


def content_terms(text: str) -> int:
    return sum(1 for t in tokens(text) if t not in EN_STOP and t not in ZH_STOP and len(t) > 1)


_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|yours)\b|你", re.IGNORECASE)
_SPECIFIC = re.compile(r"\d|\b[A-Z][a-z]+\b|[\u4e00-\u9fff]{2,}")


def sentence_score(s: str) -> float:
    """How much a sentence says: content terms, specifics (names, numbers, dates), first person."""
    if _REACTION.match(s) and content_terms(s) < MIN_CONTENT_TERMS + 2:
        return 0.0
    score = float(content_terms(s))
    score += 0.5 * len(_SPECIFIC.findall(s[1:]))  # the capital at the start is no name
    if s.rstrip().endswith(("?", "？")):
        score *= 0.5
    if _SECOND_PERSON.search(s):
        score *= 0.6
    return score


def _split_speaker(text: str) -> tuple[str | None, str]:
    m = _SPEAKER.match(text)
    return (m.group(1), text[m.end() :]) if m else (None, text)


def _words(text: str) -> int:
    return len(text) // 2 if re.search(r"[\u4e00-\u9fff]", text) else len(text.split())


def eligible(event: Event, text: str) -> bool:
    """May this turn be quoted in an episode? Only what a trusted party said in the chat.

    User turns and the assistant's own turns (as what the assistant said); never tool or
    external content (kept in the evidence archive only), system notes, or anything carrying
    an instruction aimed at the memory or the agent."""
    if event.role is Role.USER:
        trusted = event.source is Trust.USER
    elif event.role is Role.ASSISTANT:
        trusted = event.source in (Trust.AGENT, Trust.USER)
    else:
        trusted = False
    return trusted and not noise.injected(text)


_ASK_EN = re.compile(
    r"^(?:please\s+)?(?:(?:can|could|would|will) you|write|translate|convert|explain|summari[sz]e|"
    r"recommend|suggest|give me|tell me|help me|show me|list|draft|proofread|find|check|make|create|"
    r"generate|calculate|compute|rewrite|describe|compare|remind me)\b|"
    r"^(?:what|what's|whats|how|why|when|where|which|who|is|are|do|does|did|can|could|should|any)\b.*\??$",
    re.IGNORECASE,
)
_ASK_ZH = re.compile(
    r"^(?:请|麻烦)?(?:帮我|帮忙|给我|替我|你能|能不能|推荐|翻译|解释|总结|介绍一下|写|算一下|查一下|列一|讲个|"
    r"讲讲|告诉我|说说)|(?:什么|哪[个些里儿种]|谁|多少|怎么|如何|为什么|有没有|能不能|是不是|[吗呢么])[^，,。]*[？?]?$"
)
# First person that is no statement about the speaker: "how do I…", "帮我…", "tell me…".
_ASKING_ME = re.compile(
    r"\b(?:how (?:do|can|should) i|can i|should i|do i|help me|give me|tell me|show me|remind me|for me)\b|"
    r"帮我|给我|替我|告诉我|我该|我应该|我想问",
    re.IGNORECASE,
)
FIRST_PERSON = re.compile(r"我|咱|\b(?:i|i'm|i've|i'd|my|me|mine|we|our|us)\b", re.IGNORECASE)
# A request that also sets how things should be done from now on is no one-off: "帮我写东西
# 别太官方，口语一点就行", "write it short, and never use emoji" — the standing part is kept.
_STANDING = re.compile(
    r"以后|今后|每次|一律|总是|永远|都要|都别|别太|不要太|别再|不要再|"
    r"\b(?:always|never|from now on|in future|going forward|every time|don't ever|no more)\b",
    re.IGNORECASE,
)


def request(text: str) -> bool:
    """A one-off request or question put to the assistant ("write a haiku about Mondays",
    "帮我查一下明天的天气", "how do I boil an egg"): it says nothing about the speaker, so
    it is no episode material. A transcript line ("Caroline: …") is talk between people,
    and any first person beyond the asking itself ("my cat…", "我朋友说…") keeps a turn;
    so does someone in the user's life ("给我妈治乳腺癌借了10万的贷款…" is no "give me"), and
    a Chinese clause that says something of its own beside the asking — the speaker goes
    unsaid ("休息日最爱去白云山徒步，有没有人少点的路线？", "给我发消息用大白话就好，清清楚楚的
    中文，不要夹英文术语"): each was kept in no memory at all."""
    speaker, body = _split_speaker(text)
    body = body.strip()
    if (
        speaker is not None
        or not body
        or FIRST_PERSON.search(_ASKING_ME.sub(" ", body))
        or _STANDING.search(body)
        or places.people(body)
        or any(_says(c) for c in covered.clauses(body))
    ):
        return False
    return asks(body)


SAYS_TERMS = MIN_CONTENT_TERMS + 1  # a clause's content terms to say something beside a request


def _says(clause: str) -> bool:
    """A Chinese clause that is neither asked nor a request's detail: it states something."""
    return is_cjk(clause) and not asks(clause) and content_terms(clause) >= SAYS_TERMS


def asks(sentence: str) -> bool:
    """Is the sentence a request or question put to the assistant ("Give me something I can
    make with eggs…", "帮我列个清单")? Unlike ``request`` it does not weigh first person: the
    slot timeline asks whether the sentence reading an attribute states it."""
    body = sentence.strip()
    return bool(body) and bool((_ASK_ZH if re.search(r"[\u4e00-\u9fff]", body) else _ASK_EN).search(body))


def scope_key(event: Event) -> tuple[object, ...]:
    """Turns of one episode share every scope dimension and the private flag."""
    s = event.scope
    return (s.tenant, s.user, s.agent, s.project, s.session, bool(event.metadata.get("private")))


def _terms(text: str) -> set[str]:
    return {t for t in tokens(text) if t not in EN_STOP and t not in ZH_STOP and len(t) > 1}


def groups(events: Sequence[Event], normalised: dict[str, str], window: int = 3) -> list[list[Event]]:
    """Consecutive eligible turns of one scope (every scope dimension and the private flag),
    cut at ``window`` turns and where the talk moves on: a turn sharing no content term with
    the two before it starts a new topic once the group already holds two turns. A turn in
    another scope between two does not cut them: what one scope's episodes hold must not
    depend on turns elsewhere (erasing one of those would change them)."""
    out: list[list[Event]] = []
    open_: dict[tuple[object, ...], tuple[list[Event], list[set[str]]]] = {}
    order = {e.id: i for i, e in enumerate(events)}
    for e in events:
        text = normalised.get(e.id, e.content)
        if not eligible(e, text) or (e.role is Role.USER and request(e.content)):
            continue
        terms = _terms(text)
        key = scope_key(e)
        cur, recent = open_.get(key, ([], []))
        new_topic = len(cur) >= 2 and bool(terms) and not any(terms & r for r in recent[-2:])
        if cur and (len(cur) >= window or new_topic):
            out.append(cur)
            cur, recent = [], []
            open_[key] = (cur, recent)
        open_.setdefault(key, (cur, recent))
        cur.append(e)
        recent.append(terms)
    out.extend(cur for cur, _ in open_.values() if cur)
    return sorted(out, key=lambda g: order[g[0].id])


def episodes(
    events: Sequence[Event],
    normalised: dict[str, str],
    window: int = 3,
    content_words: int = 26,
    min_score: float = MIN_CONTENT_TERMS,
) -> list[Candidate]:
    """One candidate per group of turns: compressed content, full wording for search.
    A group whose sentences all score below ``MIN_CONTENT_TERMS`` yields an episode only if
    some reach ``min_score`` (the write policy's floor; by default the same bar)."""
    out = []
    for group in groups(events, normalised, window):
        texts = [_as_said(e, normalised.get(e.id, e.content)) for e in group]
        cand = _episode(group, texts, content_words, min_score)
        if cand is not None:
            out.append(cand)
    return out


def _as_said(event: Event, text: str) -> str:
    """An assistant turn is quoted as the assistant's, never as the user's own words."""
    if event.role is Role.ASSISTANT and _SPEAKER.match(text) is None:
        zh = re.search(r"[\u4e00-\u9fff]", text)
        name = event.metadata.get("speaker") or ("助手" if zh else "Assistant")
        return f"{name}: {text}"
    return text


def level_of(event: Event) -> Level:
    """Where an episode applies: the agent's own when said privately, else the project, else
    the user."""
    if event.metadata.get("private") and event.scope.agent:
        return Level.AGENT
    return Level.PROJECT if event.scope.project else Level.USER


def _episode(group: list[Event], texts: list[str], budget: int, floor: float) -> Candidate | None:
    """The group's most informative sentences within ``budget`` words, in spoken order."""
    scored = []
    for pos, text in enumerate(texts):
        speaker, body = _split_speaker(text)
        for j, sent in enumerate(x.strip() for x in SENTENCE.split(body.strip()) if x.strip()):
            score = sentence_score(sent)
            if score >= min(floor, MIN_CONTENT_TERMS):
                scored.append((score, pos, j, speaker, sent))
    strong = [x for x in scored if x[0] >= MIN_CONTENT_TERMS]
    scored = strong or scored
    if not scored:
        return None
    kept: list[tuple[float, int, int, str | None, str]] = []
    words = 0
    for item in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
        n = _words(item[4])
        if kept and words + n > budget:
            continue
        kept.append(item)
        words += n
    kept.sort(key=lambda t: (t[1], t[2]))
    lines: list[str] = []
    last_speaker = None
    for _, _, _, speaker, sent in kept:
        lines.append(f"{speaker}: {sent}" if speaker and speaker != last_speaker else sent)
        last_speaker = speaker
    content = " ".join(lines)
    first, last = group[0], group[-1]
    return Candidate(
        type=MemoryType.EPISODE,
        subject="conversation",
        key=f"episode:{first.id}",
        value=None,
        content=content,
        confidence=0.7,
        source=Source.OBSERVED,
        evidence=[e.id for e in group],
        level=level_of(first),
        trigger=Trigger.SESSION_END,
        valid_from=first.occurred_at,
        observed_at=first.occurred_at,
        when_start=first.occurred_at,
        when_end=last.occurred_at,
        language="zh" if re.search(r"[\u4e00-\u9fff]", content) else "en",
        attributes={
            "session": first.scope.session,
            "tz": first.timezone,
            "search_text": " ".join(texts),
            "statements": _user_turns(group, texts),
        },
        rule="episode",
    )


def _user_turns(group: Sequence[Event], texts: Sequence[str]) -> list[dict[str, object]]:
    """The user's own turns as said, with their times: the read path orders what a slot was
    told by them (``retrieve/timeline.py``)."""
    return [
        {"text": t, "at": e.occurred_at.isoformat(), "event": e.id}
        for e, t in zip(group, texts, strict=True)
        if e.role is Role.USER and e.source is Trust.USER and t.strip()
    ]
