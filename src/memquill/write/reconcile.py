"""Stage 6: reconcile a proposal with what is already known (DESIGN §4 rules 5–7).

``decide(proposal, view, policy, embed)`` is a pure function: it reads only the frozen
``View`` a loader built from the store (``write/reconcile_view.py``) and returns one
``Decision`` — ADD, UPDATE (supersede), INVALIDATE, NOOP (merge evidence) or FLAG
(``needs_review``, linked by ``conflicts_with``) — with the typed changes ``Store.apply``
writes in one transaction. Keeping the I/O outside makes every rule a table row in a unit
test (``tests/unit/test_reconcile.py``); the pipeline runs load → decide → apply and
re-decides on a revision conflict.

Knowledge about values and attributes enters through ``Policy`` lookups (``same_value``,
``multi_valued``), so rules such as cross-language synonyms or attribute cardinality are
new policy inputs rather than new store reads.
"""

from __future__ import annotations

from dataclasses import replace
from difflib import SequenceMatcher

import numpy as np

from memquill.catalogue import load
from memquill.model import (
    SLOT_OPEN,
    SOURCE_RANK,
    Candidate,
    Change,
    MemoryRecord,
    MemoryType,
    Polarity,
    SlotGuard,
    Source,
    Status,
)
from memquill.text import norm_value, tokens
from memquill.write import reconcile_changes as build
from memquill.write.extract.change_cues import RECALL, changed_from, kept_beside, set_aside
from memquill.write.extract.normalise import canonical
from memquill.write.reconcile_model import (
    Decision,
    Embed,
    Near,
    Op,
    Policy,
    Proposal,
    View,
    mint_id,
    same_normalised,
    single_valued,
    start_of,
)

__all__ = [
    "Decision",
    "Embed",
    "Near",
    "Op",
    "Policy",
    "Proposal",
    "View",
    "decide",
    "mint_id",
    "near_duplicate",
    "needs_near",
    "same_normalised",
    "single_valued",
    "start_of",
]

OPEN = SLOT_OPEN


def decide(proposal: Proposal, view: View, policy: Policy, embed: Embed) -> Decision:
    """One decision; its changes start with a guard on the slot state it was based on.

    ``embed`` computes the candidate's vector only when the decision needs it (a new
    record, or a near-duplicate that passed the lexical test), so re-runs stay cheap."""
    c = proposal.candidate
    if c.type is MemoryType.TEMPORARY:
        return _fresh(proposal, view, policy, embed)
    seen = _seen(c, view)
    if seen is not None:  # a re-run of work already done (retry, replay, crash)
        return build.nothing(proposal, seen, "already recorded from this evidence")
    if c.attributes.get("ends"):  # "Netflix is cancelled": the open record of that value ends
        held = next((r for r in view.slot if r.status in OPEN and _same_claim(c, r, policy)), None)
        if held is None:
            return Decision(Op.NOOP, c, proposal.scope, "nothing held to end", "")
        d = (
            build.end(proposal, held)
            if not held.read_only
            else build.flag(proposal, held, "ends a read-only memory", embed)
        )
    else:
        cur = _current(c, view, policy)
        d = (
            _fresh(proposal, view, policy, embed)
            if cur is None
            else _against(proposal, view, policy, embed, cur)
        )
    if not d.changes:
        return d
    open_ids = frozenset(r.id for r in view.slot if r.status in OPEN)
    guard = SlotGuard(proposal.scope, c.subject, c.key, open_ids)
    return _with_changes(d, (guard, *d.changes))


def needs_near(proposal: Proposal, view: View, policy: Policy) -> bool:
    """Whether ``decide`` will look at near-duplicates, given the slot: a loader reads them
    only then (a lexical search per re-run or same-slot update would dominate the cost)."""
    c = proposal.candidate
    if c.type is MemoryType.TASK_OUTCOME or c.attributes.get("ends"):
        return False
    if c.type is MemoryType.TEMPORARY:
        return True
    return _seen(c, view) is None and _current(c, view, policy) is None


def _seen(c: Candidate, view: View) -> MemoryRecord | None:
    """A record of the slot, in any status, already holding all of the candidate's evidence
    (and, for a multi-valued attribute, its value: one clause may list several)."""
    return next(
        (r for r in view.slot if set(c.evidence) <= set(r.evidence) and not _another_value(r, c)), None
    )


def _current(c: Candidate, view: View, policy: Policy) -> MemoryRecord | None:
    """The open record of the slot the candidate is compared with, if any: same conditions
    and, for a multi-valued attribute, the same value."""
    slot = [r for r in view.slot if r.status in OPEN]
    same_cond = [r for r in slot if _conditions(r.conditions) == _conditions(c.conditions)]
    comparable = [r for r in same_cond if _comparable(c, r, policy)]
    if comparable:
        return _pick(comparable)
    replaced = [r for r in same_cond if _replaces(c, r, policy)]
    return _pick(replaced) if replaced else None


def _replaces(c: Candidate, r: MemoryRecord, policy: Policy) -> bool:
    """Does a new value of a multi-valued attribute replace the record's value? When its
    own clause sets the old value aside ("小米14摔了，干脆换了台iPhone 15", "got a Pixel 9, the
    Pixel 7 is now my backup": ``change_cues.set_aside``) and not the new one, when a change
    cue brings the new one in and the clause names the old one ("日语学不下去，干脆改学西班牙语":
    ``change_cues.changed_from``), or when both are of a kind that holds one value
    (``_one_of_kind``): a phone replaced is not a second phone, while "I also got an iPad"
    keeps both."""
    if not policy.multi_valued(c.key) or not c.value or not r.value or c.value == r.value:
        return False
    if c.polarity is not Polarity.POSITIVE or r.polarity is not Polarity.POSITIVE:
        return False
    if set_aside(c.content, c.value):
        return False
    return (
        set_aside(c.content, r.value)
        or (changed_from(c.content, c.value, r.value) and not kept_beside(c.content))
        or _one_of_kind(c, r, policy)
    )


def _one_of_kind(c: Candidate, r: MemoryRecord, policy: Policy) -> bool:
    """Are both values of one kind that holds one value (the catalogue's ``kinds``: a phone,
    a laptop, a car), the new one said as the one held now? Not when one clause names both
    ("a work phone and a personal one"), when the clause keeps the new one beside the other
    ("I also got…", "又多买了一台…") or recalls it ("back when…", "小时候…")."""
    value = c.value or ""
    if set(c.evidence) & set(r.evidence) or kept_beside(c.content) or RECALL.search(c.content):
        return False
    kind = policy.kind_of(c.key, value, c.content)
    return kind is not None and kind == policy.kind_of(r.key, r.value or "", r.content)


def _fresh(proposal: Proposal, view: View, policy: Policy, embed: Embed) -> Decision:
    """No comparable record in the slot: a near-duplicate elsewhere in the scope, or new.

    Task outcomes are never merged: each completion is evidence for consolidation."""
    c = proposal.candidate
    dup = None
    if c.type is not MemoryType.TASK_OUTCOME:
        dup = near_duplicate(c, view.near, policy, embed)
    if dup is not None:
        return build.merge(proposal, policy, dup, "near-duplicate of an existing memory")
    return build.add(proposal, policy, "new information", embed)


def _against(proposal: Proposal, view: View, policy: Policy, embed: Embed, cur: MemoryRecord) -> Decision:
    """Source priority and read-only first (rule 6), then same value, end, correction, change.

    A new value replaces an active one only when it would itself be active: a guess below
    the confidence floor, or a claim awaiting confirmation, is kept beside it for review."""
    c = proposal.candidate
    if _same_claim(c, cur, policy):
        return build.merge(proposal, policy, cur, "same slot, same value: evidence merged")
    if cur.read_only:
        return build.flag(proposal, cur, "conflicts with a read-only memory", embed)
    if SOURCE_RANK[c.source] < SOURCE_RANK[cur.source] and cur.status is Status.ACTIVE:
        why = f"{c.source.value} source may not overwrite {cur.source.value} memory"
        return build.flag(proposal, cur, why, embed)
    if c.source is Source.EXTERNAL and not policy.external_can_activate:
        return build.flag(proposal, cur, "external content cannot replace memory", embed)
    if c.attributes.get("correction"):
        return build.invalidate(proposal, policy, cur, embed)
    said_now = _said_now(c, policy)
    if said_now:  # the slot's attribute stated again, with another value, as how things are
        proposal = replace(proposal, candidate=c.model_copy(update={"confidence": policy.confidence_floor}))
    elif cur.status is Status.ACTIVE and build.initial_status(c, policy) is not Status.ACTIVE:
        return build.flag(proposal, cur, "an unconfirmed claim may not replace an active value", embed)
    start = c.valid_from or c.observed_at or proposal.now
    began = start_of(cur)
    if began is not None and start < began:
        return build.insert_history(proposal, view, cur, start, embed)
    return build.supersede(proposal, policy, cur, start, embed, PRESENT_WHY if said_now else None)


PRESENT_WHY = "a different value of the slot said as the present, without a change cue"


def _said_now(c: Candidate, policy: Policy) -> bool:
    """Is ``c`` a present statement (``attributes.present``: the model's first reading of a
    user's clause, a typed value, no recall; ``extract/model.py``) that waits below the
    confidence floor only for want of a change cue? The slot already holds a value of the
    attribute, so the attribute is not in doubt: a different value said as how things are
    *is* the change ("Lapce is what I code in now" after Zed). A claim awaiting
    confirmation, an external one or one not worth keeping still waits."""
    if not c.attributes.get("present") or c.confidence >= policy.confidence_floor:
        return False
    if c.attributes.get("needs_confirmation") or c.source is Source.EXTERNAL or c.worthiness < 0.5:
        return False
    return c.polarity is Polarity.POSITIVE and not policy.multi_valued(c.key)


def near_duplicate(c: Candidate, near: tuple[Near, ...], policy: Policy, embed: Embed) -> MemoryRecord | None:
    """The first lexical hit that says the same thing: identical text, or close wording that
    the embedding confirms (no embedding to compare → the wording alone decides)."""
    for hit in near:
        rec = hit.record
        shared = bool(set(rec.evidence) & set(c.evidence)) and c.type is not MemoryType.EPISODE
        if rec.key != c.key and (shared or not _freeform(c.key)):
            continue  # one sentence may state several facts (but one passage is one episode)
        if rec.polarity != c.polarity or _conditions(rec.conditions) != _conditions(c.conditions):
            continue
        if _another_value(rec, c):
            continue  # "I speak Tagalog and Swedish": one clause, two values of a list
        if norm_value(rec.content) == norm_value(c.content):
            return rec  # identical statement: no embedding needed to call it a duplicate
        if _overlap(rec.content, c.content) < policy.duplicate_overlap:
            continue
        if hit.embedding is None:
            return rec
        vec = embed()
        if vec is None or float(np.dot(hit.embedding, vec)) >= policy.duplicate_similarity:
            return rec
    return None


def _another_value(rec: MemoryRecord, c: Candidate) -> bool:
    """Is ``c`` another value of the same multi-valued attribute (values coexist there, even
    when one clause states them together), of a single-valued one beside the value its
    clause refuses ("我不喝咖啡，一般都喝普洱": 咖啡 refused, 普洱 the one), or the value a
    clause takes in place of the held one it names ("went back to telstra, optus coverage was
    rubbish": the hot path merged the turn into Optus, the worker's pass reads Telstra)?"""
    attr = load().get(c.key) if rec.key == c.key else None
    if attr is None or not rec.value or not c.value:
        return False
    if attr.single and rec.polarity is c.polarity and "changes_from" not in c.attributes:
        return False
    return canonical(rec.value, attr.value_type) != canonical(c.value, attr.value_type)


FREEFORM = frozenset({"note", "reminder", "instruction", "likes", "plan", "temp", "task", "episode"})


def _freeform(key: str) -> bool:
    """Keys minted from free text (``note:<slug>``): paraphrases land in different keys."""
    return key.split(":", 1)[0] in FREEFORM


def _conditions(items: list[str]) -> frozenset[str]:
    return frozenset(norm_value(c) for c in items if norm_value(c))


def _comparable(c: Candidate, r: MemoryRecord, policy: Policy) -> bool:
    """Whether a new claim competes with a record of its slot (DESIGN §4 rule 9).

    Same value (either polarity): always — a restatement merges, a negation replaces.
    Different values: only two positive claims of a single-valued attribute compete ("tea"
    replaces "coffee"); "does not drink coffee" and "drinks tea" hold together, and a
    multi-valued attribute keeps each value (two allergies)."""
    if policy.same_value(c.key, _value(c), _value(r)):
        return True
    positive = c.polarity is Polarity.POSITIVE and r.polarity is Polarity.POSITIVE
    return positive and not policy.multi_valued(c.key)


def _value(x: Candidate | MemoryRecord) -> str:
    return x.value if x.value is not None else x.content


def _same_claim(c: Candidate, r: MemoryRecord, policy: Policy) -> bool:
    cv = c.value if c.value is not None else c.content
    rv = r.value if r.value is not None else r.content
    return c.polarity == r.polarity and policy.same_value(c.key, cv, rv)


def _overlap(a: str, b: str) -> float:
    """Order-aware term similarity; 0 when the numbers differ (a number is a fact)."""
    ta, tb = tokens(a), tokens(b)
    if {t for t in ta if t.isdigit()} != {t for t in tb if t.isdigit()}:
        return 0.0
    return SequenceMatcher(None, ta, tb, autojunk=False).ratio()


def _pick(records: list[MemoryRecord]) -> MemoryRecord:
    """The record a new claim is compared with: the active one, else the newest."""
    order = {Status.ACTIVE: 0, Status.CANDIDATE: 1, Status.NEEDS_REVIEW: 2, Status.ARCHIVED: 3}
    return sorted(records, key=lambda r: (order.get(r.status, 9), -r.updated_at.timestamp()))[0]


def _with_changes(d: Decision, changes: tuple[Change, ...]) -> Decision:
    return Decision(d.op, d.candidate, d.scope, d.reason, d.memory_id, d.target, changes)
