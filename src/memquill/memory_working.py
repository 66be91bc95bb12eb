"""Working memory on ``Memory``: task checkpoints and outcomes, written through the log so
a replay redoes them. A mixin, so the facade stays a short composition root."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from memquill import params as check
from memquill import working
from memquill.errors import ValidationError
from memquill.model import Event, MemoryRecord, Scope
from memquill.store.base import Store
from memquill.write.pipeline import WritePipeline


class WorkingMemory:
    store: Store
    pipeline: WritePipeline

    if TYPE_CHECKING:  # provided by Memory

        def _event(self, content: Any, scope: Scope, **fields: Any) -> Event: ...

        def get(self, memory_id: str) -> MemoryRecord: ...

    def _log(self, content: str, kind: str, args: dict[str, Any] | None = None, **scope: Any) -> Event:
        """Append a system event: an operation recorded in the log so a replay can redo it."""
        meta = {"kind": kind, **(args or {})}
        event = self._event(content, Scope.of(**scope), role="system", source="agent", metadata=meta)
        return self.store.append_event(event)[0]

    def _mark(self, kind: str, rec: MemoryRecord, **args: Any) -> None:
        """Log an operation on a record by its slot and evidence ids (never its content), so
        a replay finds the record it derived from the same evidence."""
        sc = rec.scope
        self._log(
            f"{kind} {rec.id}",
            kind,
            {
                "memory_id": rec.id,
                "subject": rec.subject,
                "key": rec.key,
                "evidence": list(rec.evidence),
                **args,
            },
            tenant=sc.tenant,
            user=sc.user,
        )

    def checkpoint(
        self,
        *,
        task: str,
        done: Iterable[str] = (),
        pending: Iterable[str] = (),
        params: dict[str, Any] | None = None,
        results: dict[str, Any] | None = None,
        **scope: Any,
    ) -> working.Checkpoint:
        """Save where a task stands, so a reconnect continues instead of restarting."""
        if not scope.get("session"):
            raise ValidationError("checkpoint needs session=")
        Scope.of(**scope)
        cp = working.Checkpoint(
            task=check.text(task, "task"),
            done=check.texts(done, "done"),
            pending=check.texts(pending, "pending"),
            params=check.mapping(params, "params"),
            results=check.mapping(results, "results"),
        )
        args = {
            "task": task,
            "done": cp.done,
            "pending": cp.pending,
            "params": cp.params,
            "results": cp.results,
        }
        event = self._log(cp.summary(), "checkpoint", args, **scope)
        return working.Checkpoint.from_record(self.get(self._write_logged(event)))

    def resume(self, task: str | None = None, **scope: Any) -> working.Checkpoint | None:
        """The latest checkpoint of the session (of ``task`` if given)."""
        sc = Scope.of(**scope)
        if sc.session is None:
            raise ValidationError("resume needs session=")
        check.maybe_text(task, "task")
        return working.latest_checkpoint(self.store, sc, task)

    def complete_task(
        self,
        *,
        task: str,
        outcome: str,
        success: bool = True,
        steps: Iterable[str] = (),
        when: str | None = None,
        **scope: Any,
    ) -> MemoryRecord:
        """Record a task outcome once it is known (never during the discussion).

        ``steps`` and ``when`` ("after changing the DB schema") feed consolidation: the same
        successful steps seen three times become a procedure awaiting confirmation.
        """
        check.text(task, "task")
        check.text(outcome, "outcome", 4096)
        check.flag(success, "success")
        steps = check.texts(steps, "steps")
        check.maybe_text(when, "when", 4096)
        args = {"task": task, "outcome": outcome, "success": success, "steps": list(steps), "when": when}
        event = self._log(f"Task {task}: {outcome}", "task_outcome", args, **scope)
        return self.get(self._write_logged(event))

    def _write_logged(self, event: Event) -> str:
        """Write the record a logged checkpoint/completion stands for; returns its id."""
        cand = working.candidate_from_log(event)
        if cand is None:
            raise ValidationError(f"event {event.id!r} is not a checkpoint or a task completion")
        return self.pipeline.write([cand], [event], "agent")[0].memory_id
