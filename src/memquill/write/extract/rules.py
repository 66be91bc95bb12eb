"""Stage 4: the deterministic bilingual extractor (rule 8: rules first, LLM for the long tail).

Same events, settings and clock → same candidates, so a changed rule can be replayed over
recorded history. Each clause of a turn is offered to the pattern table in order; the first
pattern family that matches wins for that clause.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memquill.keymap import to_catalogue
from memquill.model import Candidate, Event, MemoryType, Polarity, Role, Source, Trust
from memquill.text import NOT_AFTER_TITLE, ZH_SPACE, detect_language
from memquill.write import noise
from memquill.write.extract import span_path, span_scorer
from memquill.write.extract.base import ExtractionInput
from memquill.write.extract.clause import Beside, Clause, Pattern
from memquill.write.extract.lexicon import slug
from memquill.write.extract.patterns_common import REMIND, asks_en, zh_asks
from memquill.write.extract.phrasing import strip_terminal
from memquill.write.extract.span_scorer import SpanScorer
from memquill.write.extract.transcript import addressee, as_said_by, speaker, speakers, without_vocative

EXPLICIT = re.compile(
    r"^(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记得|别忘了|不要忘了|别忘记)[:：,，\s]*|"
    r"^(?:please\s+)?(?:remember|note|don'?t forget|keep in mind|make a note)(?:\s+that)?[:,\s]+",
    re.IGNORECASE,
)
CORRECTION = re.compile(
    r"^(?:不对|不是的|我说错了|更正(?:一下)?|纠正一下|其实|错了)[，,:：\s]*|"
    r"^(?:actually|correction|sorry,? i meant|i meant|no,? wait|scratch that)[,:\s]+",
    re.IGNORECASE,
)
# Instructions aimed at the agent inside untrusted content are never memories (rule 6).
INJECTION = re.compile(
    r"ignore (?:all |any )?(?:previous|prior|above) (?:instructions|prompts)|disregard (?:the )?"
    r"(?:previous|above)|you are now|system prompt|new instructions|忽略(?:之前|以上|前面)(?:的|所有)*"
    r"(?:指令|指示|说明)|无视(?:之前|以上)|你现在是|系统提示",
    re.IGNORECASE,
)
# A sentence ends at a full stop before a capital, but not at an initial's ("Ursula K. Le
# Guin") or a title's ("Dr. Patel"): the name would be cut in two clauses. People who chat
# in lower case end sentences too ("got a MacBook Air M3. what should I install first?"): a
# full stop after a word of three or more letters ends one before a lower-case word, unless
# the word is an abbreviation ("etc. and", "approx. 3"; "e.g." and "vs." are too short).
_CLAUSES = re.compile(
    r"(?<=[。！？!?；;\n])|(?<=\.)(?<![\s(][A-Z]\.)(?<!^[A-Z]\.)" + NOT_AFTER_TITLE + r"\s+(?=[A-Z])"
    r"|(?<=[a-z0-9]{3}\.)(?<!\betc\.)(?<!\bapprox\.)(?<!\bincl\.)(?<!\bapt\.)(?<!\bdept\.)"
    r"(?<!\bmin\.)(?<!\bmax\.)\s+(?=[a-z])"
)
_COND = re.compile(
    r"(?:(?:如果|假如|要是|当)(.+?)(?:的话)?[，,]|除非(.+?)(?:[，,]|$)|只有(.+?)才)|"
    r"(?:\b(?:if|when|whenever|unless|only when|only if)\b\s+([^,.;]+))",
    re.IGNORECASE,
)
# "我搬到深圳了，是不是有点突然": a statement with a question tagged on; the tail's question
# must not block the statement (the whole clause read as a question stated nothing).
_TAIL = re.compile(r"^(.+[^，,])[，,]\s*((?:[^，,]+))$")


_SUPPOSING = re.compile(
    r"^(?:hypothetically,?\s*|just\s+)?(?:if|what if|when|unless|once|suppose|supposing|imagine|say)\b", re.I
)


def question_tail(sentence: str) -> list[tuple[str, bool]]:
    """The sentence without its terminal, split before a trailing question the rest of it is
    not, each part with whether it was asked. A question mark asks only the last part of a
    Chinese sentence when the part before it states something on its own ("我上周搬到成都了，
    推荐几家火锅？"), the last part of an English one when that part opens as a question and
    the rest does not; else the whole clause (``question`` reads what it asks)."""
    part = strip_terminal(sentence)
    asked = sentence.rstrip().endswith(("?", "？"))
    if detect_language(part) == "zh" and (split := _zh_questions(part, asked)):
        return split
    m = _TAIL.match(part)
    if m is None or zh_asks(m.group(1)):
        return [(part, asked)]
    head, tail = m.group(1), m.group(2)
    if detect_language(head) == "zh":
        tail_asks = asked or zh_asks(tail)
    else:  # "I've gone fully vegan since New Year, what snacks can I bring?": the statement stands
        stated = not asks_en(head) and not _SUPPOSING.match(head)  # "If I lived in Tokyo, what…?"
        tail_asks = zh_asks(tail) or (asked and asks_en(tail) and stated)
    return [(head, False), (tail, True)] if tail_asks else [(part, asked)]


def _zh_questions(part: str, asked: bool) -> list[tuple[str, bool]] | None:
    """A Chinese sentence whose question stands between its comma parts ("组里周会定在周一上午
    九点半，我每次都起不来，有没有快速清醒的办法，别让我喝咖啡", typed with spaces): the statements
    before it, each part that asks, and the parts after one, each run its own clause. None when
    the first part asks or none between the first and the last does (``question_tail`` reads a
    trailing question as before)."""
    if part.count("，") + part.count(",") < 2:
        return None
    parts = [p for p in re.split(r"(?<=[，,])", part) if p.strip(" ，,")]
    asks = [zh_asks(p.strip(" ，,")) or (asked and i == len(parts) - 1) for i, p in enumerate(parts)]
    if len(parts) < 3 or asks[0] or not any(asks[1:-1]):
        return None
    out: list[tuple[str, bool]] = []
    run: list[str] = []
    for p, q in zip(parts, asks, strict=True):
        if q:
            if run:
                out.append(("".join(run).strip(" ，,"), False))
                run = []
            out.append((p.strip(" ，,"), True))
        else:
            run.append(p)
    if run:
        out.append(("".join(run).strip(" ，,"), False))
    return out


_HEDGE = re.compile(
    r"也许|可能|(?<!不)考虑|要不要|是不是|或许|纠结|犹豫|maybe|might|perhaps|should we|thinking about|"
    r"thinking of|considering|tempted|toying with|on the fence",
    re.IGNORECASE,
)


# "我家柯基可乐 两岁 一直吃皇家的粮 最近老软便 是粮的问题吗": a space between Chinese words is how
# many people type a comma, and the clause's question must not take its statements with it
_SEGMENT = re.compile(r"(?<=[，,])\s*")
_BARE_HEDGE = re.compile(r"^\W*(?:\S+\s+){0,3}\S+\W*$")  # "maybe next spring", "可能吧"


def before_hedge(part: str) -> str:
    """What a clause states before its first hedged comma segment: "医生把我妈的药换成氨氯地平了，
    说脚肿可能是硝苯地平引起的" states the change, and the guess after it is left out. A hedge in
    the first segment ("纠结换华为还是小米，…") or a short one that hedges the whole clause ("I'm
    moving to Denver, maybe next spring", "下个月搬去上海，可能吧") leaves nothing."""
    segments = _SEGMENT.split(part)
    at = next(i for i, s in enumerate(segments) if _HEDGE.search(s))
    hedged = segments[at]
    short = len(re.sub(r"[\W\s]", "", hedged)) <= (40 if hedged.isascii() else 8)
    if not at or (_BARE_HEDGE.match(hedged) and short):
        return ""
    return "".join(segments[:at]).rstrip("，, ")


_SOURCE = {
    Trust.USER: (Source.EXPLICIT, 0.9),
    Trust.TOOL: (Source.OBSERVED, 0.8),
    Trust.AGENT: (Source.INFERRED, 0.65),
    Trust.EXTERNAL: (Source.EXTERNAL, 0.5),
}


class RuleExtractor:
    """Deterministic bilingual extractor; ``patterns`` is the ordered rule table."""

    name = "rules"

    def __init__(self, patterns: Sequence[Pattern], spans: SpanScorer | None = None) -> None:
        self.patterns = list(patterns)
        # rule values go through the same span ranker as the model's (``span_path``)
        self.spans = spans or span_scorer.bundled()

    def extract(self, batch: ExtractionInput) -> list[Candidate]:
        out: list[Candidate] = []
        session = speakers([*batch.context, *batch.events])
        for event in batch.events:
            times = batch.times.get(event.id, [])
            out.extend(self.extract_event(event, batch.text(event), times, session))
        return out

    def extract_event(
        self,
        event: Event,
        text: str,
        times: Sequence[Any] = (),
        session: Sequence[str] = (),
    ) -> list[Candidate]:
        if event.role is Role.SYSTEM:
            return []
        if event.source is Trust.EXTERNAL and (
            noise.injected(text) or EXPLICIT.search(text.strip()) or REMIND.search(text)
        ):
            return []  # an untrusted document telling us what to remember is an attack
        who, text = speaker(event, text)
        to = addressee(event, text, who, session) if who else None
        text = without_vocative(text, to)
        out: list[Candidate] = []
        for clause in self.clauses(event, text, times, transcript=who is not None):
            taken, typed = False, set()
            for pattern in self.patterns:
                # a value a family beside the others typed is no other family's ("瑜伽课换到每周六早上了"
                # is the class's day, not a switch to using "每周六早上")
                found = [c for c in pattern(clause) if (c.value or "").casefold() not in typed]
                if found:
                    # keyed once: a catalogue key is no value-named key to map again
                    out.extend(x for c in found for x in self._respan(keyed(c), clause))
                    if isinstance(pattern, Beside):  # a family beside the others takes nothing
                        typed |= {(c.value or "").casefold() for c in found} - {""}
                    else:
                        taken = True
                        break
            if not taken and clause.explicit:
                out.append(keyed(_note(clause)))
        if not who:
            return out
        owned = (as_said_by(c, who, event, to) for c in out)
        return [c for c in owned if c is not None]

    def _respan(self, c: Candidate, clause: Clause) -> list[Candidate]:
        return span_path.respan(c, clause.text, clause.language == "zh", self.spans)

    def clauses(
        self, event: Event, text: str, times: Sequence[Any] = (), transcript: bool = False
    ) -> list[Clause]:
        """``text`` cut into clauses. In a ``transcript`` line "remember…" / "remind me…" is
        said to the other person, not asked of the memory: no clause of it is explicit."""
        language = detect_language(text)
        source, confidence = _SOURCE[event.source]
        if event.role is Role.ASSISTANT and event.source is Trust.AGENT:
            confidence = 0.6
        explicit = not transcript and bool(EXPLICIT.search(text.strip()) or REMIND.search(text))
        correction = bool(CORRECTION.search(text.strip()))
        if explicit and source is Source.EXPLICIT:
            confidence = 0.95
        body = CORRECTION.sub("", EXPLICIT.sub("", ZH_SPACE.sub("，", text.strip()), count=1), count=1)
        result = []
        for part, asked in (x for p in _CLAUSES.split(body) for x in question_tail(p)):
            if _HEDGE.search(part) and not explicit:
                part = before_hedge(part)
            if len(part) < 2:
                continue
            conds = [next(g for g in m.groups() if g).strip() for m in _COND.finditer(part)]
            result.append(
                Clause(
                    event,
                    part,
                    language,
                    explicit,
                    correction,
                    source,
                    confidence,
                    event.scope.project,
                    conds,
                    _when(part, times, language),
                    asked,
                )
            )
        return result


def keyed(c: Candidate) -> Candidate:
    """The candidate under its catalogue slot (``stack:postgresql`` → ``stack:database``)."""
    subject, key = to_catalogue(c.subject, c.key, c.polarity is Polarity.NEGATIVE)
    if (subject, key) == (c.subject, c.key):
        return c
    return c.model_copy(update={"subject": subject, "key": key})


def _when(part: str, times: Sequence[Any], language: str) -> tuple[datetime, datetime | None] | None:
    """The first resolved time whose absolute label (or original wording) is in this clause."""
    for t in times:
        if getattr(t, "recurring", False):
            continue  # "my birthday is May 20" is no appointment on one date
        if t.label(language) in part or t.text in part:
            return (t.begin, t.until)
    return None


def _note(c: Clause) -> Candidate:
    """An explicit request no pattern understood: kept verbatim (third person), high confidence."""
    kind = "reminder" if REMIND.search(c.event.content) else "note"
    return c.make(MemoryType.FACT, "user", f"{kind}:{slug(c.text)}", c.said(), rule=f"explicit.{kind}")
