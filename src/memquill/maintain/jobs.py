"""Job kinds and their handlers. Every handler is idempotent: re-running one after a crash
re-derives the same candidates, which reconciliation turns into NOOPs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from memquill.clock import Clock
from memquill.maintain import lifecycle
from memquill.model import Event, MemoryType, Scope
from memquill.model.query import Job, RecordFilter, job_key
from memquill.store.base import Store
from memquill.write.pipeline import BACKGROUND_TRIGGERS, SESSION_END_TRIGGERS, WritePipeline
from memquill.write.policy import WritePolicy

EXTRACT = "extract"
SESSION_END = "session_end"
LIFECYCLE = "lifecycle"
REEXTRACT = "reextract"
CONTEXT_TURNS = 8


def extract_job(event_id: str, scope: Scope, seq: int | None, at: datetime) -> Job:
    return Job(
        kind=EXTRACT,
        key=job_key(EXTRACT, scope, event_id),
        scope=scope,
        ref=event_id,
        payload={"event_id": event_id, "seq": seq},
        created_at=at,
        run_after=at,
    )


def session_end_job(scope: Scope, session: str, last_seq: int, at: datetime) -> Job:
    return Job(
        kind=SESSION_END,
        key=job_key(SESSION_END, scope, session, str(last_seq)),
        ref=session,
        scope=scope,
        payload={"session": session, "last_seq": last_seq},
        created_at=at,
        run_after=at,
    )


def lifecycle_job(scope: Scope, at: datetime) -> Job:
    """At most one lifecycle pass per user and day, however often sessions end."""
    owner = Scope(tenant=scope.tenant, user=scope.user)
    day = at.date().isoformat()
    return Job(
        kind=LIFECYCLE, key=job_key(LIFECYCLE, owner, day), scope=owner, ref=day, created_at=at, run_after=at
    )


def reextract_job(owner: Scope, policy: WritePolicy, at: datetime) -> Job:
    """Re-read one user's log under ``policy`` (it travels with the job: workers started
    before the switch still run the right policy)."""
    return Job(
        kind=REEXTRACT,
        key=f"{REEXTRACT}:{owner.tenant}:{owner.user}:{policy.id}",
        scope=owner,
        payload={"policy": policy.to_json()},
        created_at=at,
        run_after=at,
    )


class Handlers:
    def __init__(self, store: Store, pipeline: WritePipeline, clock: Clock) -> None:
        self.store = store
        self.pipeline = pipeline
        self.clock = clock

    def table(self) -> dict[str, Callable[[Job], None]]:
        return {
            EXTRACT: self.extract,
            SESSION_END: self.session_end,
            LIFECYCLE: self.run_lifecycle,
            REEXTRACT: self.reextract,
        }

    def run_lifecycle(self, job: Job) -> None:
        self.maintain(job.scope)

    def maintain(self, owner: Scope) -> lifecycle.LifecycleReport:
        """Expire, decay and consolidate one user's records; safe to run any number of times."""
        now = self.clock.now()
        changes, report = lifecycle.expire_and_decay(self.store, owner.tenant, owner.user, now)
        for i in range(0, len(changes), 200):
            self.store.apply(changes[i : i + 200])
        outcomes = self.store.find(
            RecordFilter(owner, types=frozenset({MemoryType.TASK_OUTCOME}), owner=True)
        )
        for cand in lifecycle.procedures(outcomes):
            events = self.store.get_events(owner, [cand.evidence[-1]])
            if events and self.pipeline.write([cand], events, lifecycle.ACTOR)[0].changes:
                report.procedures.append(cand)
        return report

    def extract(self, job: Job) -> None:
        events = self.store.get_events(job.scope, [job.payload["event_id"]])
        if not events:
            return  # erased since it was queued
        self.pipeline.run(events, BACKGROUND_TRIGGERS, session_context(self.store, events[0]))

    def session_end(self, job: Job) -> None:
        session = job.payload["session"]
        events = [
            e
            for e in self.store.session_events(job.scope, session)
            if (e.seq or 0) <= job.payload["last_seq"]
        ]
        if events:
            self.pipeline.run(events, SESSION_END_TRIGGERS)

    def reextract(self, job: Job, page: int = 500) -> None:
        """The user's whole log, event by event then session by session, under the job's
        policy. Reconcile turns what is already known into no-ops; nothing is deleted."""
        pipeline = self.pipeline.under(WritePolicy.from_json(job.payload["policy"]))
        owner, after, sessions = job.scope, 0, {}
        while batch := self.store.log_events(owner.tenant, owner.user, after_seq=after, limit=page):
            for event in batch:
                pipeline.run([event], BACKGROUND_TRIGGERS)
                if event.scope.session:
                    sessions[event.scope.session] = event.scope
            after = batch[-1].seq or after
        for session, scope in sessions.items():
            pipeline.run(self.store.session_events(scope, session), SESSION_END_TRIGGERS)


def session_context(store: Store, event: Event, turns: int = CONTEXT_TURNS) -> list[Event]:
    """The ``turns`` turns of ``event``'s session said before it, oldest first: what a
    reference, a "you" or a follow-up in it may point back to."""
    if not (event.scope.session and event.seq):
        return []
    earlier = store.session_events(event.scope, event.scope.session, after_seq=max(0, event.seq - 64))
    return [e for e in earlier if (e.seq or 0) < event.seq][-turns:]
