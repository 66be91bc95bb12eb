"""The person one now goes to for a service, named without the relation's word.

"I had first cleaning with Dr. Alvarez today", "she referred me to Mark Okafor … CBT",
"挂了孙主任的号", "下周约了小雨 想剪短一点", "小雨剪的这个层次我超喜欢": a new dentist,
therapist, doctor or hairdresser is mostly named so, by what the user sees them for, never
as "my new dentist is …". The relation comes from the catalogue's ``seen_for`` words (data:
cleaning, crown → the dentist; 剪, 染, 发型 → the hairdresser), exactly one relation's in the
clause; the person from a cue that the user goes to them ("with X", "referred me to X",
"sticking with X", "X did my crown", "找X", "约了X", "挂了X的号", "X剪的"), or from a
medical title ("陈医生", "孙主任", "Dr. Nguyen") beside such a cue. Someone else's provider
("my wife's dentist, Dr. Hoffman", "她的发型师小雨") and one the user leaves ("Dr. Patel is
out of network now") are not named so.
"""

from __future__ import annotations

import re
from functools import cache

from memquill.catalogue import load

_EN_NAME = r"((?:Dr\.?\s+)?[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?)"
_EN_CUES = (
    re.compile(
        r"\b(?:referred me (?:on )?to|switch(?:ed|ing)? (?:over )?to|sticking with|stick with|staying with|"
        r"(?:appointment|cleaning|session|visit|check-?up|haircut|cut|consult|consultation|trim)s?\s+with|"
        r"booked (?:in )?with)\s+(?:(?:a|her|his|their|my) (?:colleague|new \w+),?\s+)?" + _EN_NAME
    ),
    # seeing someone is a doctor's only with the title ("now seeing Dr. Osei"; "seeing Sarah" is a date)
    re.compile(r"\b(?:seeing|see)\s+(Dr\.?\s+[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?)"),
    re.compile(
        _EN_NAME + r"\s+(?:did|does|has done|redid|fixed|cut|trimmed|coloured|colored)\s+"
        r"(?:(?:a|such a) (?:great|good|nice|brilliant) job (?:on|with)\s+)?my\b"
    ),
)
_ZH_TITLE = "医生|大夫|主任|医师|老师|师傅"
_ZH_NAME = rf"([\u4e00-\u9fff]{{1,2}}(?:{_ZH_TITLE})|[小阿][\u4e00-\u9fff])"
_ZH_CUES = (
    re.compile(rf"(?:找|约了?|挂了?|转到|转给|换到|换成|改找|跟着){_ZH_NAME}"),
    re.compile(rf"{_ZH_NAME}(?:给我|帮我)?(?:剪|染|烫|看|补|洗|拔|开)(?:的|了)"),
)
# whose provider it is, when not the user's: right before the name
_OTHERS = re.compile(
    r"(?:\b(?:his|her|their)\s+|\b\w+'s\s+)(?:\w+\s*,?\s+)?$|(?:他|她|他们|朋友|同事|老婆|老公|爸|妈)的[\u4e00-\u9fff]{0,4}$",
    re.IGNORECASE,
)
# a provider the user leaves or who leaves: no longer the one ("is retiring", "out of network")
_LEAVES = re.compile(
    r"\b(?:retir\w*|out of network|leaving|left|moving (?:her|his) practice|no longer|quit)\b|"
    r"退休|离职|不干了|不看了|太难挂",
    re.IGNORECASE,
)
_SEGMENT = re.compile(r"[，。,;；!?！？]|\.\s|\s(?=[\u4e00-\u9fff])")  # zh chat parts end at a space
_NOT_NAMES = frozenset({"Dr", "Dr.", "The", "My", "I", "We", "She", "He", "They", "It", "This", "That"})


@cache
def _domains() -> tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...]:
    """(relation, English words, Chinese words) of the relations one sees for a service."""
    out = []
    for rel in load().relations:
        if not (rel.seen_for.en or rel.seen_for.zh):
            continue
        en = "|".join(re.escape(w) for w in sorted(rel.seen_for.en, key=len, reverse=True)) or "(?!)"
        zh = "|".join(re.escape(w) for w in sorted(rel.seen_for.zh, key=len, reverse=True)) or "(?!)"
        out.append((rel.key, re.compile(rf"\b(?:{en})\b", re.IGNORECASE), re.compile(zh)))
    return tuple(out)


def _relation(text: str, zh: bool) -> str | None:
    """The one relation whose service the text speaks of; a doctor's title decides between a
    doctor and nothing else said ("陈医生看的")."""
    found = [key for key, en, cn in _domains() if (cn if zh else en).search(text)]
    if len(found) > 1 and "doctor" in found:  # "医生" beside "牙": the dentist
        found.remove("doctor")
    return found[0] if len(found) == 1 else None


def seen(text: str, zh: bool, turn: str = "") -> list[tuple[str, str]]:
    """(relation, name) for the person the clause ``text`` says the user now goes to for a
    service (the service said in the clause, else elsewhere in its ``turn``: "下周约了小雨
    想剪短一点")."""
    rel = _relation(text, zh) or (_relation(turn, zh) if turn else None)
    if rel is None:
        return []
    out: list[tuple[str, str]] = []
    for rx in _ZH_CUES if zh else _EN_CUES:
        for m in rx.finditer(text):
            name = " ".join(m.group(1).split())
            if name in _NOT_NAMES or _OTHERS.search(text[: m.start(1)]):
                continue
            if _LEAVES.search(_SEGMENT.split(text[m.end(1) :], 1)[0]):
                continue
            if (rel, name) not in out:
                out.append((rel, name))
    return out[:1]
