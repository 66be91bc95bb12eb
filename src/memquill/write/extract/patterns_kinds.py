"""What the user has, named by the kind lexicon in a clause about its domain.

People seldom say "my mobile carrier is giffgaff"; they say "giffgaff says I've used all my
data already", "一兆韦德那个私教又在推课", "moved everything into obsidian over the break".
The brand names the kind (``data/value_kinds.json``: carriers, internet providers, gyms, pet
foods, banks, streaming services, notes apps…) and a word of its domain in the same part of
the clause ("data", "私教"), or a change cue right before it ("moved … into"), says the brand
is what the user has there: a fact of the user's (a pet's food of the pet the clause names),
read beside any other reading of the clause. Not read: a question, a supposition, a request
or a plan in that part ("giffgaff or Three?", "要不要换到一兆韦德", "I'll port to Vodafone"), a
brand the clause retires or compares ("cancelled Netflix", "之前在乐刻的时候", "better than Optus
was"), one someone else has ("my mum's on EE"), an everyday word that is also a brand ("Three",
"United") unless a change cue introduces it, a preference (an airline flown once is none) and
a safety-critical kind (a condition is read with the model's care, not from its name alone).
"""

from __future__ import annotations

import re

from memquill.catalogue import load
from memquill.model import Candidate, MemoryType
from memquill.text import comma_part
from memquill.write.extract import span_path, subjects
from memquill.write.extract.clause import Clause
from memquill.write.extract.patterns_common import flags, imperative, part_blocked, say
from memquill.write.extract.phrasing import said_of
from memquill.write.extract.span_features import retired
from memquill.write.extract.value_kinds import domain_words, own_contexts

_THAN = re.compile(r"(?:\bthan|比|不如)\s*$", re.IGNORECASE)
# not (yet) the user's: a plan, a guess, a verdict on one of several ("Vodafone looks cheapest")
_NOT_YET = re.compile(
    r"\b(?:i'll|i will|going to|gonna|plan(?:ning)? to|might|thinking|considering|looks|seems)\b|"
    r"打算|准备|想换|考虑|看起来|好像",
    re.IGNORECASE,
)
# a membership or a plan ended in the brand's part: no longer the user's
_ENDED = re.compile(
    r"\b(?:cancel+ed|cancel+ing|unsubscribed|closed|quit|dropped|ditched|left|leaving|ended)\b|"
    r"退订|取消|不续|没续|注销|销户|停了|退了|退卡",
    re.IGNORECASE,
)


def kinds(c: Clause) -> list[Candidate]:
    """The user's carrier, gym, pet food… named by its brand in a part about its domain."""
    if c.conditions:
        return []
    cat = load()
    out: list[Candidate] = []
    found = domain_words(c.text, c.language == "zh")
    for key, word, at in found:
        attr = cat.get(key)
        if (
            attr is None
            or attr.memory_type != "fact"
            or attr.safety_critical
            or any(x.key == key for x in out)
        ):
            continue  # an airline flown once is no preference; a condition needs the model's care
        part = comma_part(c.text, at, at + len(word))
        if part_blocked(c, at, at + len(word)) or imperative(part.strip(" ，,"), c.language):
            continue
        if retired(part, word) or _ENDED.search(part) or _NOT_YET.search(part) or subjects.relation(part):
            continue  # "之前在乐刻的时候", "Netflix is cancelled", "I'll port to Vodafone", "my mum's on EE"
        if any(rx.search(part) for rx in own_contexts().values()):
            continue  # "I work at Verizon on the network team": an employer, the model's to read
        rival = any(k == key and w != word and part.find(w) >= 0 for k, w, _ in found)
        if rival or _THAN.search(c.text[:at]):
            continue  # "Macquarie or Bendigo", "better than Optus was": a choice or a comparison
        subject, named = "user", subjects.named_other(c.text)
        if attr.subjects[0] == "item" and (pet := subjects.pet_said(c.text) or named):
            subject = f"item:{pet}"  # "煤球上个月换成渴望的猫粮了": the cat's food
        elif named:
            subject = f"person:{named}"  # "小杨办了超级猩猩的次卡": 小杨's gym
        if not cat.allows(key, subject):
            continue
        out.append(
            c.make(
                MemoryType.FACT,
                subject,
                key,
                said_of(say(c), subject),  # the clause as said, as the model files it
                value=word,
                rule="kinds",
                span=span_path.TYPED,
                **flags(c),
            )
        )
    return out
