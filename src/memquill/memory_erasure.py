"""Erasure on ``Memory``: forget one memory (and whatever was made from its turns), or a
whole user or project — and the same in every registered replay copy of the user. A mixin,
so the facade stays a short composition root; every erasure is logged for replay through
``WorkingMemory._mark``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memquill import params as check
from memquill import text
from memquill.clock import Clock
from memquill.errors import ScopeError, ValidationError
from memquill.maintain import jobs, lifecycle, replay
from memquill.model import Audit, MemoryRecord, Purge, RevisionOp, Role, Scope
from memquill.model.query import Job, RecordFilter
from memquill.settings import Settings
from memquill.store.base import Store


class Erasure:
    store: Store
    clock: Clock
    settings: Settings

    if TYPE_CHECKING:  # provided by Memory and WorkingMemory (a stub here would shadow them)

        def get(self, memory_id: str) -> MemoryRecord: ...

        def _mark(self, kind: str, rec: MemoryRecord, **args: Any) -> None: ...

        def _opener(self) -> Callable[[str], Store]: ...

    def forget(self, memory_id: str, reason: str = "", actor: str = "user") -> MemoryRecord:
        """Erase one memory's content everywhere; a tombstone says who, when and why. Its
        evidence turns are tombstoned in the same transaction, so nothing re-creates it."""
        check.text(reason, "reason", 2000, empty=True)
        check.text(actor, "actor")
        rec = self.get(memory_id)
        now = self.clock.now()
        why = Audit(RevisionOp.FORGET, actor, reason or "forgotten on request", ())
        owner = Scope(tenant=rec.scope.tenant, user=rec.scope.user)
        mine = self.store.find(RecordFilter(owner, statuses=None, owner=True))
        quoting = lifecycle.derived_from(mine, set(rec.evidence), skip=memory_id)
        gone = {memory_id, *(r.id for r in quoting)}
        # held for review only against what goes: decided again, as if that was never said
        moot = lifecycle.moot_conflicts(mine, gone)
        gone |= {r.id for r in moot}
        why_link = f"a version it was chained to was erased ({memory_id})"
        by_id = {r.id: r for r in mine}
        relinked = [u for r in mine if (u := lifecycle.unlinked(r, gone, by_id, now, why_link)) is not None]
        also = Audit(RevisionOp.FORGET, actor, f"made from a turn erased with {memory_id}", ())
        again = Audit(
            RevisionOp.FORGET, actor, f"re-read: what it conflicted with was erased ({memory_id})", ()
        )
        # queued first: should the purge fail, reading the turns again only re-derives no-ops
        self.store.enqueue(self._rederive([rec, *quoting, *moot], set(rec.evidence), memory_id, now))
        self.store.apply(
            [
                Purge(memory_id, why, now, expected_revision=rec.revision, erase_events=tuple(rec.evidence)),
                *(Purge(r.id, also, now, expected_revision=r.revision) for r in quoting),
                *(Purge(r.id, again, now, expected_revision=r.revision) for r in moot),
                *relinked,
            ]
        )
        turns = {str(e) for e in rec.evidence}
        if turns:  # a replay copy replayed the same turns: they go there too
            self._erase_copies(owner, lambda s: replay.purge_turns(s, owner, turns, why, now))
        self._mark("forget", rec, actor=actor)
        self._drop_caches()
        return self.get(memory_id)

    def _rederive(
        self, erased: list[MemoryRecord], turns: set[str], memory_id: str, now: datetime
    ) -> list[Job]:
        """A record made from an erased turn *and* others (an episode over three turns, a
        fact restated later) goes whole — its wording may carry the erased words — and the
        turns that remain are read again: each one, then its session's end once more. What
        they say stays remembered, as a replay, which never sees the erased turn, finds it."""
        owner = Scope(tenant=erased[0].scope.tenant, user=erased[0].scope.user)
        rest = sorted({e for r in erased for e in r.evidence} - turns)
        events = sorted(self.store.get_events(owner, rest) if rest else [], key=lambda e: e.seq or 0)
        out = [jobs.extract_job(e.id, e.scope, e.seq, now) for e in events]
        for session in dict.fromkeys(e.scope.session for e in events if e.scope.session):
            assert session is not None
            sc = owner.model_copy(update={"session": session})
            ends = [
                e.seq or 0
                for e in self.store.session_events(sc, session)
                if e.role is Role.SYSTEM and e.metadata.get("kind") == jobs.SESSION_END
            ]
            if ends:
                out.append(jobs.session_end_job(sc, session, max(ends), now))
        for job in out:
            job.key = f"{job.key}:after-{memory_id}"  # not the key of the job that first read it
            job.max_attempts = self.settings.job_max_attempts
        return out

    def forget_scope(self, **scope: Any) -> dict[str, int]:
        """Erase everything of one user (events included), or of one of the user's projects —
        and nothing of anyone else. Agent and session erasure is not offered: it raises."""
        if "user" not in scope or not scope["user"]:
            raise ValidationError("forget_scope needs user=")
        sc = Scope.of(**scope)
        if sc.agent is not None or sc.session is not None:
            raise ScopeError("forget_scope erases a user or one of its projects, not an agent or session")
        self._drop_caches()
        owner = Scope(tenant=sc.tenant, user=sc.user)
        copies = self.store.scratch_stores(sc.tenant, sc.user)  # read before the registry goes
        counts = self.store.forget_scope(sc.tenant, sc.user, sc.project)
        counts["scratch_stores"] = self._erase_copies(
            owner, lambda s: s.forget_scope(sc.tenant, sc.user, sc.project), copies
        )
        return counts

    def _erase_copies(
        self, owner: Scope, erase: Callable[[Store], object], copies: list[str] | None = None
    ) -> int:
        """Apply an erasure to every replay copy registered for the owner: a copy must not
        keep what the live store forgot."""
        opener = self._opener()
        targets = self.store.scratch_stores(owner.tenant, owner.user) if copies is None else copies
        return sum(replay.erase_scratch(t, self.store, opener, erase) for t in targets)

    def _drop_caches(self) -> None:
        """In-process caches keyed by the user's words (sentence readings, memoised query
        vectors) go with any erasure: forgotten words must not outlive ``forget`` here."""
        readers = (
            getattr(self, "sentence_reader", None),
            getattr(getattr(self, "pipeline", None), "about_project", None),
        )
        for holder in (*readers, getattr(self, "embedder", None)):
            drop = getattr(holder, "forget_cached", None)
            if drop is not None:
                drop()
        text.forget_cached()  # clause tokens, cues and terms memoised by the write path
