"""Helpers shared by the pattern families: guards, subjects, keys, sub-clauses."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from memquill.model import Candidate
from memquill.model.scope import Level
from memquill.text import comma_part
from memquill.write.extract.clause import Clause
from memquill.write.extract.lexicon import EXCLUSIVE, classify, english_words, slug
from memquill.write.extract.phrasing import clean_object, ensure_subject
from memquill.write.extract.value_kinds import kind_of
from memquill.write.extract.values import pos_cut

# A request to be reminded: "提醒我", "下次提醒一下我", "remind me to…" as an order (at the start,
# after a comma or "please / can you / to"); "moments like this remind me why…" asks nothing.
REMIND = re.compile(
    r"(?:下次|以后)?提醒(?:一下)?我|(?:^|[,，:;]\s*|\b(?:please|pls|can you|could you|would you|"
    r"will you|and|also|then|just|to)\s+)remind me\b",
    re.IGNORECASE,
)

I = re.IGNORECASE  # noqa: E741
# The end of a captured phrase: punctuation, or an English conjunction starting a new part.
END = r"(?=$|[，,。.;；!！?？]|\s+(?:and|but|because|so|since|as|while|though)\b)"

# Talk about options is not a statement: "要不要", "maybe", "not sure yet" (rules.py already
# drops the strongest hedges; these are the ones a single family must still respect).
_TENTATIVE = re.compile(
    r"还没定|没有结论|不(?:太)?确定|还没决定|待定|再看看|再说吧|讨论一下|在讨论|商量一下|在想|想想|是否|还是.{1,12}[好呢]|"
    r"\b(?:not sure|undecided|whether|how about|what about|could|would it|shall we|"
    r"let'?s discuss|tbd|wondering|or not)\b",
    I,
)
_ZH_QUESTION = re.compile(
    r"[吗呢么]\s*$|什么(?![都也])|(?<![没])啥(?![都也])|(?<!不)咋|(?<![没不])(?<!没.)(?<!没..)多久|哪[个些里儿种]|谁|多少|"
    r"怎么|如何|为什么"
)
_A_NOT_A = re.compile(r"(?!动不动|时不时)([\u4e00-\u9fff])[不没]\1")


def zh_asks(text: str) -> bool:
    """Does Chinese ``text`` ask: a question word, or an A-not-A verb ("会不会", "值不值", "吃没吃")
    whose first A opens a word — "现在不在杭州了" holds 在不在 across 现在, and states. The adverbs
    "动不动" / "时不时" ask nothing."""
    if _ZH_QUESTION.search(text):
        return True
    for m in _A_NOT_A.finditer(text):
        at = 0
        for word, _ in pos_cut(text):
            if at == m.start():
                return True
            if at > m.start():
                break
            at += len(word)
    return False


_EN_QUESTION = re.compile(
    r"^(?:do|does|did|can|could|would|will|is|are|was|were|should|shall|have|has|what|which|who|"
    r"whom|where|why|how|any|anything|anyone|anybody|tips|ideas|thoughts|advice|suggestions|"
    r"recommendations|best way|good idea|worth it|okay to|ok to|better to)\b",
    I,
)
# "Southwest flies there, right?", "…, isn't it?": a statement asked back is not stated
_EN_TAG = re.compile(
    r",\s*(?:right|correct|yeah|yes|no|ok|okay|huh|eh|or not|or what|"
    r"(?:is|are|was|were|do|does|did|can|will|would|have|has)n'?t\s+\w+)\s*$",
    I,
)
THIRD_PERSON = re.compile(  # "he", "她": someone said before
    r"(?<![其吉])[他她](?![们人])|\b(?:he|she|him|his|her)\b", I
)


# "如果下雨就取消" has no comma, so the clause splitter's condition rule misses it; and "当前",
# "当时" are no "当…" condition.
_ZH_COND = re.compile(r"(?:如果|假如|要是|只要|一旦|万一)(.+?)(?:的话)?(?=那就|就|则|便)")
_NOT_WHEN = re.compile(r"当(?=[前时天地然初中年月日晚])")


def conditioned(pattern: Callable[[Clause], list[Candidate]]) -> Callable[[Clause], list[Candidate]]:
    """Wrap a pattern so it sees the clause's conditions completed and cleaned (see above)."""

    def run(c: Clause) -> list[Candidate]:
        conds = [x for x in c.conditions if not _NOT_WHEN.search(c.text[max(0, c.text.find(x) - 1) :])]
        if not conds and c.language == "zh" and (m := _ZH_COND.search(c.text)):
            conds = [m.group(1).strip()]
        return pattern(c if conds == c.conditions else replace(c, conditions=conds))

    run.__name__ = run.__qualname__ = pattern.__name__
    run.__doc__ = pattern.__doc__
    return run


def rx(*parts: str) -> re.Pattern[str]:
    """A case-insensitive pattern from pieces (keeps long alternations readable)."""
    return re.compile("".join(parts), I)


def tentative(text: str) -> bool:
    return bool(_TENTATIVE.search(text))


_EN_IF_LEAD = re.compile(r"^(?:if|when|unless|once|suppose|supposing)\b[^,;]*[,;]\s*", I)


def asks_en(text: str) -> bool:
    """Does English ``text`` open as a question ("what snacks can I bring", "is that weird")?"""
    return _EN_QUESTION.match(text.strip()) is not None


def question(c: Clause) -> bool:
    """An interrogative clause ("你还记得我喜欢喝什么吗", "Do you know my favourite colour?",
    "二手车过户一般要多久？"). A Chinese clause its question mark asks is a question
    (``rules.question_tail`` gave a statement before it its own clause); an English one
    needs the question's shape too."""
    if c.language == "zh":
        return c.asked or zh_asks(c.text)
    # a question may follow its condition ("If I switch to Helix, will my config break?"); a
    # statement followed by a question ("I moved to Denver, is that weird?") still states
    body = _EN_IF_LEAD.sub("", c.text, count=1)
    shaped = _EN_QUESTION.match(body) or _EN_TAG.search(c.text) or re.search(r"\bwhat\b|\bwhich\b", c.text, I)
    return c.asked and bool(shaped or _EN_FRAGMENT.match(c.text))


# A short asked fragment with no one saying anything in it ("and vim keybindings?", "Prisma or
# Drizzle?", "also for the kids?") asks; "I'm vegan, remember?" still states.
_EN_FRAGMENT = re.compile(r"^(?!.*\b(?:i|i'm|im|my|we|we're|our|me)\b)\W*(?:\S+\s+){0,3}\S+\W*$", I)


def blocked(c: Clause) -> bool:
    """Neither a question nor tentative talk may become a statement."""
    return question(c) or tentative(c.text)


_FIRST_PERSON_EN = re.compile(r"\b(?:i|i'm|i've|im|my|me|we|we're|our)\b", I)


def part_blocked(c: Clause, start: int, end: int) -> bool:
    """A question or a supposition in the comma part of the clause around ``start:end``
    blocks what is said there: a Chinese turn typed with spaces is one clause of parts
    ("组里周会定在周一上午九点半 我每次都起不来 有没有快速清醒的办法"), and a request after a
    statement asks something else; a part asked with a rising statement ("book club is on
    Sundays now?") asks it."""
    part = comma_part(c.text, start, end).strip(" ，,;；")
    last = c.text.rstrip(" ，,;；。.").endswith(part)
    if c.language == "zh":
        return zh_asks(part) or tentative(part) or (c.asked and last)
    # "giffgaff says I've used all my data already??": a statement of the speaker's own, asked
    # in surprise; "book club is on Sundays now?" asks
    return asks_en(part) or tentative(part) or (c.asked and last and not _FIRST_PERSON_EN.search(part))


def flags(c: Clause) -> dict[str, Any]:
    """Attributes every candidate of the clause carries (an unresolved pronoun lowers worth)."""
    return {"unresolved_reference": True} if THIRD_PERSON.search(c.text) else {}


_NOT_VERB = frozenset(
    "the a an i we you it they he she this that these those there here is are was were be been am "
    "my our your their its his her what which who when if unless so then also just maybe not no "
    "by for until till on in at from as all each every".split()
)
_COPULA = frozenset(
    "is are was were has have had will would can could should must does did 's went said got made "
    "took came saw left told".split()
)
_EN_LEAD = re.compile(
    r"^(?:(?:by|until|till|on|in|at|for|from)\s+)?(?:\S+\s+){0,8}?\S*\d\S*[^,]*,\s*|"
    r"^(?:for now|for the time being|temporarily|meanwhile|in the meantime|until further notice),?\s*",
    I,
)
_ZH_ORDER = re.compile(r"^(?:[^，,]{0,30}?[，,])?\s*(?:请|别|不要|不用|先|务必|一律|禁止|暂停|都用|记得)")
_EN_STATE = re.compile(r"^(?:not (?:a |really |into|keen|fond)|a (?:big |huge )?fan)", I)


def imperative(text: str, language: str) -> bool:
    """ "rerun them once", "please never merge on Fridays", "By Friday, use v2", "先别部署":
    an order to the assistant rather than a statement."""
    if language == "zh":
        return bool(_ZH_ORDER.search(text))
    body = _EN_LEAD.sub("", text.strip())  # "week 49 of 2026 (…) use the old API" → "use …"
    body = re.sub(r"^(?:please\s+)?(?:(?:always|never|don'?t|do not)\s+)?", "", body, flags=I)
    words = body.split()
    second = words[1].lower() if len(words) > 1 else ""
    if len(words) < 2 or not words[0].isalpha() or second in _COPULA or second.endswith("ed"):
        return False
    w = words[0].lower()
    third_person = w.endswith("s") and not w.endswith("ss")
    gerund = w.endswith("ing") and len(w) > 5  # "rerun", "ping", "bring" are verbs; "testing" is not
    return (
        w in english_words("verbs")  # "Pescatarian now I suppose" opens with no verb: no order
        and w not in _NOT_VERB
        and not w.endswith("ed")
        and not gerund
        and not third_person
    )


ORDER_LEAD = ("The user asked: ", "用户要求：")  # (English, Chinese): how ``say`` words an order


def ordered(content: str) -> bool:
    """A candidate worded as an order to the assistant ("The user asked: …", "用户要求：…")."""
    return content.startswith(ORDER_LEAD)


def say(c: Clause, text: str | None = None, order: bool = False) -> str:
    """The clause in third person with an actor: an order (``order=True``, or an imperative)
    reads "The user asked: …"/"用户要求：…", a subjectless statement gets the user as subject
    ("用户最近换成了 Firefox")."""
    raw = text if text is not None else c.text
    said = c.said(text)
    if (
        order
        or imperative(raw, c.language)
        or re.match(r"(?:please|don'?t|do not|never|always|stop)\b", raw, I)
    ):
        return ensure_subject(said, c.language, ORDER_LEAD[c.language == "zh"])
    if c.language == "zh":
        return ensure_subject(said, "zh", "用户")
    if _EN_STATE.match(said):
        return "The user is " + said[:1].lower() + said[1:]
    return said


def project_subject(c: Clause) -> tuple[str, Level]:
    """Project facts bind to the event's project; without one, to the user's current project."""
    return (f"project:{c.project}", Level.PROJECT) if c.project else ("project", Level.USER)


def pref_key(obj: str, negative: bool = False) -> str:
    """``<category>`` for an exclusive positive choice, ``<category>:<head>`` otherwise;
    ``likes:<slug>`` when the object names no known category."""
    found = classify(obj) or kind_of(obj)
    if found is None:
        return f"likes:{slug(clean_object(obj))}"
    cat, head = found
    return cat if cat in EXCLUSIVE and not negative else f"{cat}:{head}"


# A connective opening a sub-clause ties it to the one before; the fact starts after it ("…,
# so I report to Priya now", "…，所以现在改成向郑凯汇报了").
_CONNECTIVE = re.compile(
    r"^(?:(?:so|and|but|then|also|plus|anyway)\b[\s,]*|(?:所以|然后|不过|但是|可是|结果)[，,]?)", I
)


def parts(text: str) -> list[str]:
    """Sub-clauses split at commas and "and/but/以及", without the connective opening one:
    for families that read several facts."""
    pieces = re.split(r"[，,、]|\s+(?:and|but)\s+(?=I\b|i\b|my\b|we\b|our\b)|以及|而且|并且", text)
    return [q for p in pieces if p and (q := _CONNECTIVE.sub("", p.strip()).strip())]


def first(m: re.Match[str]) -> str:
    """The first non-empty group of a match."""
    return next((g for g in m.groups() if g), "").strip()
