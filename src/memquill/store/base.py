"""The Store seam: the only contract between memquill's logic and a database.

Backends (SQLite, PostgreSQL) implement it and pass one conformance suite
(``tests/conformance``). Everything above this layer is backend-agnostic.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from memquill.model import ApplyResult, Change, Event, MemoryRecord, Revision, Scope
from memquill.model.block import CoreBlock, Tally
from memquill.model.log import PolicyRevision, QueryLog
from memquill.model.query import Access, Job, RecordFilter

Ranked = list[tuple[str, float]]  # (memory id, leg score), best first


@runtime_checkable
class Store(Protocol):
    backend: str

    # --- events: append-only evidence -------------------------------------------------
    def append_event(self, event: Event, jobs: Sequence[Job] = ()) -> tuple[Event, bool]:
        """Store ``event`` unless an identical one exists; returns (stored, created).

        ``jobs`` are enqueued in the same transaction when the event is new, so a crash can
        never leave a logged event without its work. The same id with different content
        raises ``DuplicateEventError``.
        """
        ...

    def get_events(self, scope: Scope, ids: Sequence[str]) -> list[Event]:
        """Events of ``scope``'s tenant and user with these ids, in append order."""
        ...

    def session_events(
        self, scope: Scope, session: str, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]:
        """Events of one session (tenant + user + session), in append order."""
        ...

    # --- records -----------------------------------------------------------------------
    def apply(self, changes: Sequence[Change]) -> ApplyResult:
        """Apply all changes, their revision rows and index updates in one transaction."""
        ...

    def get(self, memory_id: str) -> MemoryRecord | None: ...

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]: ...

    def history(self, memory_id: str) -> list[Revision]: ...

    def find(self, f: RecordFilter, limit: int | None = None) -> list[MemoryRecord]:
        """Records selected by ``f``, newest first."""
        ...

    def count(self, f: RecordFilter) -> int: ...

    # --- search legs -------------------------------------------------------------------
    def lexical(self, f: RecordFilter, terms: Sequence[str], limit: int) -> Ranked:
        """(id, score) by full-text relevance over pre-segmented terms, best first."""
        ...

    def vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> Ranked:
        """(id, cosine similarity) best first, among records selected by ``f``."""
        ...

    def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]: ...

    # --- jobs: the durable queue ---------------------------------------------------------
    def enqueue(self, jobs: Sequence[Job]) -> int:
        """Insert jobs whose key is new; returns how many were inserted."""
        ...

    def claim(
        self, worker: str, now: datetime, lease_s: float, limit: int, kinds: Sequence[str] = ()
    ) -> list[Job]:
        """Lease up to ``limit`` due jobs (queued, or running with an expired lease)."""
        ...

    def finish(self, job_id: int, worker: str, at: datetime) -> None: ...

    def fail(self, job_id: int, worker: str, error: str, retry_at: datetime | None, at: datetime) -> None:
        """Record a failure: re-queue for ``retry_at``, or dead-letter when ``None``."""
        ...

    def job_counts(self, scope: Scope | None = None) -> dict[str, int]: ...

    def pending_events(self, scope: Scope, session: str, limit: int = 50) -> list[Event]:
        """Events of a session whose ``extract`` job is not done yet (read-your-writes)."""
        ...

    # --- core blocks -----------------------------------------------------------------------
    def put_block(self, block: CoreBlock, force: bool = False) -> None:
        """Insert or replace a block atomically; replacing a read-only one needs ``force``
        (else ``PermissionDeniedError``)."""
        ...

    def blocks(self, scope: Scope) -> list[CoreBlock]:
        """The user's shared blocks plus the reader agent's private ones, by name."""
        ...

    # --- audit, erasure, lifecycle -------------------------------------------------------
    def log_access(self, entries: Sequence[Access]) -> None: ...

    def touch(self, ids: Sequence[str], at: datetime) -> None:
        """Bump access_count and last_accessed_at without a revision (reads are not edits)."""
        ...

    def tally(self, tenant: str, user: str) -> Tally: ...

    def forget_scope(self, tenant: str, user: str, project: str | None = None) -> dict[str, int]:
        """Hard-delete everything of one user (events, records, revisions, jobs, logs, logged
        queries and the register of their scratch copies); with ``project``, only what is bound
        to or was said in that project. Erased text must not survive in the backend's files
        where the backend can promise it (SQLite: yes)."""
        ...

    def erased(self, scope: Scope, ids: Sequence[str]) -> dict[str, datetime]:
        """Which of these events of ``scope``'s tenant and user were erased, and when."""
        ...

    # --- what replay needs: the whole log, the policy history, the query log ------------
    def log_events(
        self,
        tenant: str | None = None,
        user: str | None = None,
        after_seq: int = 0,
        limit: int | None = None,
    ) -> list[Event]:
        """Events of every user (or one tenant / user), in append order."""
        ...

    def record_policy(self, rev: PolicyRevision) -> None:
        """Append a policy switch; the last one is the live policy."""
        ...

    def policy_log(self) -> list[PolicyRevision]:
        """Every policy switch, oldest first."""
        ...

    def log_query(self, entry: QueryLog) -> None: ...

    def queries(
        self, tenant: str | None = None, user: str | None = None, since: datetime | None = None
    ) -> list[QueryLog]:
        """Logged searches, oldest first."""
        ...

    def register_scratch(self, target: str, tenant: str, user: str, at: datetime) -> None:
        """Remember that a replay copied this user's data into ``target`` (erasure follows it)."""
        ...

    def scratch_stores(self, tenant: str, user: str) -> list[str]: ...

    def meta(self, key: str) -> Any: ...

    def close(self) -> None: ...
