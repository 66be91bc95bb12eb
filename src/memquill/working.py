"""Working memory: task checkpoints and task outcomes as versioned records.

A checkpoint is a ``task_state`` record in the session's slot ``task:<name>/checkpoint``;
each new checkpoint supersedes the previous one, so history shows every step and
``resume`` reads the current one. Outcomes are ``task_outcome`` records written when the
task completes (DESIGN §4 rule 3: outcomes only after they are known).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from memquill.model import Candidate, Event, MemoryRecord, MemoryType, Source
from memquill.model.candidate import Trigger
from memquill.model.query import RecordFilter
from memquill.model.scope import Level, Scope
from memquill.store.base import Store


class Checkpoint(BaseModel):
    task: str
    done: list[str] = Field(default_factory=list)
    pending: list[str] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)
    results: dict[str, Any] = Field(default_factory=dict)
    memory_id: str | None = None
    revision: int | None = None

    def summary(self) -> str:
        parts = [f"Task {self.task} checkpoint"]
        if self.done:
            parts.append("done: " + "; ".join(self.done))
        if self.pending:
            parts.append("pending: " + "; ".join(self.pending))
        if self.params:
            parts.append("params: " + json.dumps(self.params, ensure_ascii=False, sort_keys=True))
        if self.results:
            parts.append("results: " + json.dumps(self.results, ensure_ascii=False, sort_keys=True))
        return " — ".join(parts)

    @classmethod
    def from_record(cls, rec: MemoryRecord) -> Checkpoint:
        data = rec.attributes.get("checkpoint", {})
        return cls(**data, memory_id=rec.id, revision=rec.revision)


def checkpoint_candidate(cp: Checkpoint, event: Event) -> Candidate:
    return Candidate(
        type=MemoryType.TASK_STATE,
        subject=f"task:{cp.task}",
        key="checkpoint",
        value=json.dumps(
            cp.model_dump(exclude={"memory_id", "revision"}), sort_keys=True, ensure_ascii=False
        ),
        content=cp.summary(),
        confidence=0.95,
        source=Source.OBSERVED,
        evidence=[event.id],
        level=Level.SESSION,
        trigger=Trigger.HOT,
        observed_at=event.occurred_at,
        attributes={"checkpoint": cp.model_dump(exclude={"memory_id", "revision"}), "tz": event.timezone},
        rule="checkpoint",
    )


def outcome_candidate(
    task: str, outcome: str, success: bool, steps: list[str], event: Event, when: str | None = None
) -> Candidate:
    verb = "completed" if success else "failed"
    content = f"Task {task} {verb}: {outcome}"
    if steps:
        content += " (steps: " + " → ".join(steps) + ")"
    return Candidate(
        # One record per completion (the key carries the event): consolidation needs them all.
        type=MemoryType.TASK_OUTCOME,
        subject=f"task:{task}",
        key=f"outcome:{event.id}",
        value=content,
        content=content,
        confidence=0.9,
        source=Source.OBSERVED,
        evidence=[event.id],
        level=Level.PROJECT if event.scope.project else Level.USER,
        trigger=Trigger.OUTCOME,
        observed_at=event.occurred_at,
        attributes={
            "task": task,
            "success": success,
            "steps": steps,
            "tz": event.timezone,
            **({"when": when} if when else {}),
        },
        rule="complete_task",
    )


def latest_checkpoint(store: Store, reader: Scope, task: str | None = None) -> Checkpoint | None:
    """The newest checkpoint of the reader's session (of ``task`` if given)."""
    f = RecordFilter(reader, types=frozenset({MemoryType.TASK_STATE}), key="checkpoint")
    recs = [
        r
        for r in store.find(f, limit=20)
        if r.scope.session == reader.session and (task is None or r.subject == f"task:{task}")
    ]
    return Checkpoint.from_record(recs[0]) if recs else None


def candidate_from_log(event: Event) -> Candidate | None:
    """The candidate a logged checkpoint or completion stands for (its arguments travel in
    the event's metadata), so the facade and a replay build it the same way."""
    m = event.metadata
    if event.role.value != "system" or not isinstance(m.get("task"), str):
        return None
    if m.get("kind") == "checkpoint":
        cp = Checkpoint(
            task=m["task"],
            done=m.get("done", []),
            pending=m.get("pending", []),
            params=m.get("params", {}),
            results=m.get("results", {}),
        )
        return checkpoint_candidate(cp, event)
    if m.get("kind") == "task_outcome" and isinstance(m.get("outcome"), str):
        return outcome_candidate(
            m["task"], m["outcome"], m.get("success", True), list(m.get("steps", [])), event, m.get("when")
        )
    return None
