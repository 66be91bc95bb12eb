"""Episodes are evidence: a model reading that replaces a value closes no episode quoting the
old one, unless it is the user's own sure statement of a change; a rule's change still does
(zh + en, every backend)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source, Status
from memquill.write.staleness import close_stale_episodes

MODEL = "model:attribute-model@1 (p=0.95)"

EN = {
    "episode": "Nate: I made vegan ice cream on Friday and shared it with my dairy-free diet group.",
    "old": "dairy-free",
    "new": "another",
}
ZH = {
    "episode": "小南：周五我做了纯素冰淇淋，分享给了我的无乳饮食小组。",
    "old": "无乳",
    "new": "另一种",
}


def record(
    mem: Memory, rid: str, value: str, evidence: str, *, subject: str, rule: str, **kw: object
) -> MemoryRecord:
    now = mem.clock.now()
    attributes: dict[str, object] = {"rule": rule}
    if rule.startswith("model:"):
        attributes["model"] = {"id": "attribute-model@1", "score": 0.95}
    attributes.update(kw.pop("attributes", {}))  # type: ignore[call-overload]
    return MemoryRecord(
        id=rid,
        type=MemoryType.FACT,
        scope=Scope(user="u"),
        subject=subject,
        key="diet",
        value=value,
        content=f"{subject} diet: {value}",
        confidence=0.95,
        source=Source.EXPLICIT,
        evidence=[evidence],
        attributes=attributes,
        created_at=now,
        updated_at=now,
        **kw,  # type: ignore[arg-type]
    )


def change(
    mem: Memory, case: dict[str, str], *, subject: str, rule: str, cue: str | None, status: Status
) -> MemoryRecord:
    """An episode quoting the old value, then the old record replaced by a new one; returns
    the episode as it is after staleness ran."""
    now = mem.clock.now()
    add = Audit(RevisionOp.ADD, "t", "t")
    episode = MemoryRecord(
        id="ep",
        type=MemoryType.EPISODE,
        scope=Scope(user="u"),
        subject="conversation",
        key="episode:D1:1",
        content=case["episode"],
        confidence=0.7,
        source=Source.EXPLICIT,
        evidence=["D1:1", "D1:2"],
        created_at=now,
        updated_at=now,
    )
    old = record(
        mem,
        "old",
        case["old"],
        "D1:1",
        subject=subject,
        rule=rule,
        status=Status.SUPERSEDED,
        superseded_by="new",
    )
    new = record(
        mem,
        "new",
        case["new"],
        "D2:1",
        subject=subject,
        rule=rule,
        status=status,
        supersedes="old",
        attributes={"change": cue} if cue else {},
    )
    changes = [Create(episode, add, None), Create(old, add, None), Create(new, add, None)]
    mem.store.apply(changes)
    close_stale_episodes(mem.store, changes, now)
    found = mem.store.get("ep")
    assert found is not None
    return found


def still_open(ep: MemoryRecord) -> bool:
    return ep.status is Status.ACTIVE and ep.valid_to is None


@pytest.mark.parametrize("case", [EN, ZH], ids=["en", "zh"])
def test_a_model_guess_about_someone_else_closes_no_episode(mem: Memory, case: dict[str, str]) -> None:
    """LoCoMo: `diet` = "dairy-free" then "another" about a speaker closed the episode that
    answered "What did Nate share with his vegan diet group?"."""
    ep = change(mem, case, subject="person:nate", rule=MODEL, cue="new", status=Status.ACTIVE)
    assert still_open(ep)


@pytest.mark.parametrize("case", [EN, ZH], ids=["en", "zh"])
def test_an_uncued_model_guess_about_the_user_closes_no_episode(mem: Memory, case: dict[str, str]) -> None:
    ep = change(mem, case, subject="user", rule=MODEL, cue=None, status=Status.ACTIVE)
    assert still_open(ep)


@pytest.mark.parametrize("case", [EN, ZH], ids=["en", "zh"])
def test_an_unsure_model_change_closes_no_episode(mem: Memory, case: dict[str, str]) -> None:
    ep = change(mem, case, subject="user", rule=MODEL, cue="new", status=Status.CANDIDATE)
    assert still_open(ep)


@pytest.mark.parametrize("case", [EN, ZH], ids=["en", "zh"])
def test_the_users_own_sure_cued_model_change_still_closes_the_old_value(
    mem: Memory, case: dict[str, str]
) -> None:
    ep = change(mem, case, subject="user", rule=MODEL, cue="present", status=Status.ACTIVE)
    assert not still_open(ep)


@pytest.mark.parametrize("case", [EN, ZH], ids=["en", "zh"])
def test_a_rule_change_still_closes_the_old_value(mem: Memory, case: dict[str, str]) -> None:
    ep = change(mem, case, subject="person:nate", rule="profile.diet", cue=None, status=Status.ACTIVE)
    assert not still_open(ep)
