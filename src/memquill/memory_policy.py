"""The write-policy operations of ``Memory``: switch (audited), history, replay into a
scratch store, shadow comparison, adaptive steps. A mixin, so the facade stays a short
composition root while the public methods stay on ``Memory``."""

from __future__ import annotations

import tempfile
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

from memquill.clock import Clock, FixedClock, parse_instant
from memquill.errors import ValidationError
from memquill.maintain import adaptive, jobs, replay, shadow
from memquill.model.log import PolicyRevision
from memquill.providers.base import Embedder, Tokenizer
from memquill.settings import Settings
from memquill.store.base import Store
from memquill.write.extract.base import Extractor
from memquill.write.policy import WritePolicy

if TYPE_CHECKING:
    from memquill.memory import Memory


class PolicyOps:
    store: Store
    clock: Clock
    settings: Settings
    embedder: Embedder | None
    policy: WritePolicy
    _tokenizer: Tokenizer | None
    _llm_extractor: Extractor | None

    if TYPE_CHECKING:  # provided by Memory

        def _use_policy(self, policy: WritePolicy) -> None: ...

    def set_policy(
        self, policy: WritePolicy, *, reason: str, actor: str = "operator", reextract: bool = True
    ) -> int:
        """Switch the live write policy, as an audited change; returns the re-extraction jobs
        queued (one per user: the log is re-read under the new policy, every version kept)."""
        if not isinstance(reason, str) or not reason.strip():
            raise ValidationError("a policy switch needs a reason")
        now = self.clock.now()
        self.store.record_policy(PolicyRevision(policy.id, policy.to_json(), actor, reason, now))
        self._use_policy(policy)
        if not reextract:
            return 0
        owners = replay.owners(self.store)
        return self.store.enqueue([jobs.reextract_job(owner, policy, now) for owner in owners])

    def policy_history(self) -> list[PolicyRevision]:
        """Every switch of the live policy, oldest first (who, when, why)."""
        return self.store.policy_log()

    def replay(
        self,
        policy: WritePolicy | None = None,
        *,
        into: str,
        tenant: str | None = None,
        user: str | None = None,
        since: datetime | str | None = None,
    ) -> replay.ReplayReport:
        """Re-run the write path over this store's log into the scratch store ``into`` (never
        this one), under ``policy`` (default: the live one). The copy is registered here so
        that erasing a user erases it too."""
        scratch, clock = self._scratch(into, policy)
        try:
            report = replay.replay(
                self.store, scratch, clock, tenant=tenant, user=user, since=_instant(since), target=into
            )
        finally:
            scratch.close()
        for t, u in report.owners:
            self.store.register_scratch(into, t, u, self.clock.now())
        return report

    def shadow(
        self,
        policy: WritePolicy,
        *,
        tenant: str | None = None,
        user: str | None = None,
        since: datetime | str | None = None,
        queries: int = 200,
    ) -> shadow.ShadowReport:
        """Replay ``policy`` into a temporary store and compare it with the live memory.
        Changes nothing here: the live store is only read (searches are not logged)."""
        with tempfile.TemporaryDirectory(prefix="memquill-shadow-") as tmp:
            scratch, clock = self._scratch(str(Path(tmp) / "shadow.db"), policy)
            try:
                replayed = replay.replay(
                    self.store, scratch, clock, tenant=tenant, user=user, since=_instant(since)
                )
                live = cast("Memory", self)
                asked = shadow.recorded_queries(live, tenant, user, queries)
                return shadow.compare(live, scratch, replayed, asked)
            finally:
                scratch.close()

    def _scratch(self, target: str, policy: WritePolicy | None) -> tuple[Memory, FixedClock]:
        from memquill.memory import Memory

        if replay.same_target(target, self.store):
            raise ValidationError("a replay never writes into the live store: choose another target")
        clock = FixedClock("1970-01-01T00:00:00Z")  # moved to each event's recorded time
        mem = Memory(
            target,
            settings=self.settings,
            clock=clock,
            embedder=self.embedder,
            tokenizer=self._tokenizer,
            llm_extractor=self._llm_extractor,
            policy=policy or self.policy,
        )
        return mem, clock

    def adapt(self) -> adaptive.Proposal:
        """One adaptive step (if the policy enables it): thresholds follow use, recorded as a
        policy revision with its reason. Returns what was (or, when off, would be) changed."""
        proposal = adaptive.propose(self.store, self.policy, self.clock.now())
        if self.policy.adaptive.enabled and proposal.changes:
            self.set_policy(proposal.policy, reason=proposal.reason, actor="adaptive", reextract=False)
        return proposal


def _instant(at: datetime | str | None) -> datetime | None:
    return None if at is None else parse_instant(at)
