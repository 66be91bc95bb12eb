"""A private turn the model could only file as a candidate stays out of unrelated requests,
both backends (zh + en): the episode quoting the raw turn reads low on the sensitivity head
("Revenue people keep chasing me about the VAT…" 0.11), the candidate record restating it
reads private, and ``privacy.withheld`` counts candidates by their wording — so the episode is
trimmed of the turn. A candidate's key is the classifier's unsure guess, so a key the catalogue
flags (an accessibility need) hides nothing when its wording is ordinary."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source, Status
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    turn: str  # the private turn, said plainly
    word: str  # a word of it that must not reach the request
    restated: str  # a candidate's wording of it
    request: str  # bears on nothing private
    plain: str  # (a part of) an ordinary turn a candidate misfiles as an accessibility need
    plain_word: str
    plain_request: str  # needs the ordinary turn


CASES = [
    Case(
        [
            "I go climbing on Saturday mornings.",
            # twelve words: a longer sentence is read by clause (``sentences.LONG_WORDS``), and
            # its first clause alone reads private (0.77), with no candidate needed
            "Revenue people keep chasing me about the VAT, it's a real row.",
            "Use British spelling in anything you write for me, colour not color.",
        ],
        "Revenue people",
        "VAT",
        "The user owes the tax office money they cannot pay and is in a dispute over it.",
        "suggest a birthday present for my friend who loves climbing",
        "Use British spelling",
        "British",
        "write a short blurb about my climbing for the club website",
    ),
    Case(
        [
            "周六早上我一般去攀岩。",
            "税务那边一直追着我问增值税的事，都快吵起来了。",
            "我在杭州一家跨境电商公司做运营。",
        ],
        "税务那边",
        "增值税",
        "用户欠着税务局一笔钱还不上，正跟他们闹纠纷。",
        "帮我给喜欢攀岩的朋友挑个生日礼物",
        "跨境电商公司",
        "跨境电商",
        "帮我写一段给新同事的自我介绍",
    ),
]


def candidate(mem: Memory, rid: str, key: str, content: str, event: str) -> MemoryRecord:
    """An unsure model reading of ``event``: what the write path files as a candidate."""
    now = mem.clock.now()
    reader = mem.sentence_reader
    assert reader is not None
    found = reader.relabel(content)
    return MemoryRecord(
        id=rid,
        type=MemoryType.FACT,
        scope=Scope(user="u"),
        subject="user",
        key=key,
        content=content,
        confidence=0.4,
        source=Source.EXPLICIT,
        status=Status.CANDIDATE,
        evidence=[event],
        attributes={"sensitive": found.stored() if found else None},
        created_at=now,
        updated_at=now,
    )


def event_of(mem: Memory, turn: str) -> str:
    """The event of the turn holding ``turn``, by the memory that quotes it."""
    for r in mem.records(user="u"):
        for st in r.attributes.get("statements") or []:
            if turn in str(st.get("text")):
                return str(st["event"])
        if r.type is not MemoryType.EPISODE and turn in r.content:
            return r.evidence[0]
    raise AssertionError(f"no memory quotes {turn!r}: {[r.content for r in mem.records(user='u')]}")


@pytest.mark.parametrize("case", CASES, ids=["en", "zh"])
def test_a_candidates_private_reading_keeps_its_turn_out_of_episodes(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    before = mem_read.context(case.request, user="u", budget_tokens=300)
    assert case.word in before.text  # the episode alone: the raw turn reads as nothing private
    add = Audit(RevisionOp.ADD, "t", "t")
    unsure = candidate(mem_read, "c-private", "team", case.restated, event_of(mem_read, case.turn))
    misfiled = candidate(
        mem_read, "c-plain", "accessibility_need", case.plain, event_of(mem_read, case.plain)
    )
    mem_read.store.apply([Create(unsure, add), Create(misfiled, add)])
    after = mem_read.context(case.request, user="u", budget_tokens=300)
    assert case.word not in after.text, after.text
    assert case.plain_word in mem_read.context(case.plain_request, user="u", budget_tokens=300).text
