"""Shared scopes for multi-agent work: findings are shared in the project, private notes are
not, every record names its agent, and concurrent agents never lose an update."""

from __future__ import annotations

import threading

import pytest

from memquill import Memory
from memquill.model import Status


@pytest.mark.parametrize(
    "finding",
    [
        "Remember: the orders table has a unique index on external_id",
        "记住：订单表的 external_id 上有唯一索引",
    ],
)
def test_a_finding_is_shared_with_the_other_agents_of_the_project(mem: Memory, finding: str) -> None:
    rid = mem.add(finding, role="assistant", agent="planner", project="shop", user="team").written[0]
    rec = mem.get(rid)
    assert rec.actor == "planner" and rec.scope.project == "shop" and rec.scope.agent is None
    assert [
        h.memory.id
        for h in mem.search("orders external_id 订单表", user="team", project="shop", agent="coder")
    ] == [rid]
    assert mem.search("orders external_id 订单表", user="team", project="admin", agent="coder") == []


def test_a_private_note_stays_with_its_agent(mem: Memory) -> None:
    rid = mem.add(
        "Remember: I should double-check the migration flags",
        role="assistant",
        agent="planner",
        project="shop",
        user="team",
        metadata={"private": True},
    ).written[0]
    assert mem.get(rid).scope.agent == "planner"
    assert mem.search("migration flags", user="team", project="shop", agent="planner")
    assert mem.search("migration flags", user="team", project="shop", agent="coder") == []


def test_agents_writing_one_task_scope_concurrently_lose_nothing(mem: Memory) -> None:
    def agent(name: str) -> None:
        for i in range(5):
            mem.add(
                f"Remember: {name} finished step {i} of the billing migration",
                role="assistant",
                agent=name,
                project="billing",
                user="team",
            )
            mem.add(f"I live in City{name}{i}", user="team", project="billing")

    threads = [threading.Thread(target=agent, args=(n,)) for n in ("a1", "a2", "a3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    mem.flush()
    notes = [r for r in mem.records(user="team", project="billing") if r.key.startswith(("note:", "task:"))]
    assert len(notes) == 15 and {r.actor for r in notes} == {"a1", "a2", "a3"}
    homes = [r for r in mem.records(user="team", statuses=None) if r.key == "city"]
    assert len(homes) == 15 and sum(r.status is Status.ACTIVE for r in homes) == 1


def test_an_agent_cannot_overwrite_what_the_user_said(mem: Memory) -> None:
    mine = mem.add("我们的前端用 React", user="team", project="shop").written
    mem.add("The frontend uses Vue", role="assistant", agent="coder", user="team", project="shop")
    mem.flush()
    fronts = [r for r in mem.records(user="team", project="shop", statuses=None) if r.key == "stack:frontend"]
    assert mine and mem.get(mine[0]).status is Status.ACTIVE
    assert [r.value for r in fronts if r.status is Status.ACTIVE] == [mem.get(mine[0]).value]
