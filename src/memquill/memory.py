"""The public facade and composition root: picks backends and wires the stages.

Reads top to bottom in the order of DESIGN §1: events in → write pipeline → store →
retrieval → context; then maintenance and audit.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Mapping
from datetime import datetime
from types import TracebackType
from typing import Any

from memquill import audit, working
from memquill.clock import Clock, SystemClock, parse_instant
from memquill.context import Section, render
from memquill.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from memquill.ingest import build_event
from memquill.maintain import health, jobs, lifecycle
from memquill.maintain.worker import DrainReport, Worker
from memquill.model import (
    Audit,
    Event,
    MemoryRecord,
    MemoryType,
    Purge,
    Revision,
    RevisionOp,
    Scope,
    Status,
    Update,
)
from memquill.model.block import CoreBlock
from memquill.model.query import RecordFilter
from memquill.model.result import AddResult, Context, ContextItem, Hit
from memquill.providers.base import Embedder, Tokenizer
from memquill.providers.registry import make_embedder, make_llm_extractor, make_tokenizer
from memquill.retrieve.pending import pending_hits
from memquill.retrieve.pipeline import Query, Retriever, focus
from memquill.retrieve.recipes import Recipe
from memquill.settings import Settings, default_db_path
from memquill.store.base import Store
from memquill.text import detect_language
from memquill.write.extract import classifier
from memquill.write.extract.base import Extractor
from memquill.write.extract.model import ModelExtractor
from memquill.write.extract.rules import RuleExtractor
from memquill.write.pipeline import HOT_TRIGGERS, WritePipeline
from memquill.write.reconcile import Policy


def open_store(target: str, dim: int) -> Store:
    """``postgresql://…`` selects the server backend; anything else is a SQLite path."""
    if target.startswith(("postgresql://", "postgres://")):
        from memquill.store.postgres import PostgresStore

        return PostgresStore(target, dim=dim)
    from memquill.store.sqlite import SQLiteStore

    return SQLiteStore(target, dim=dim)


class Memory:
    """Long-term memory for agents. See DESIGN §5 for the contract."""

    def __init__(
        self,
        target: str | None = None,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        embedder: Embedder | str | None = None,
        tokenizer: Tokenizer | None = None,
        llm_extractor: Extractor | None = None,
        store: Store | None = None,
    ) -> None:
        self.settings = settings or Settings.from_env()
        self.clock = clock or SystemClock()
        if isinstance(embedder, str) or embedder is None:
            embedder = make_embedder(embedder or self.settings.embedder)
        self.embedder = embedder
        self._tokenizer = tokenizer
        target = target or self.settings.db or default_db_path()
        self.store = store or open_store(target, dim=embedder.dim if embedder else 384)
        s = self.settings
        self.policy = Policy(
            confidence_floor=s.confidence_floor, duplicate_similarity=s.duplicate_similarity
        )
        self.pipeline = WritePipeline(
            self.store, self.clock, self.policy, RuleExtractor(), self.embedder,
            s.worthiness_threshold, llm_extractor or make_llm_extractor(s),
            make_model_extractor(self.embedder),
        )  # fmt: skip
        model = self.pipeline.model_extractor
        router = model.classifier if isinstance(model, ModelExtractor) else None
        self.retriever = Retriever(self.store, self.embedder, self.clock, s.half_life_days,
                                   s.dedup_similarity, router=router)  # fmt: skip
        self.handlers = jobs.Handlers(self.store, self.pipeline, self.clock)
        self.hot_path_ms: list[float] = []  # recent add() overheads, for stats()
        warm_up()

    # --- lifecycle ------------------------------------------------------------------------
    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            self._tokenizer = make_tokenizer()
        return self._tokenizer

    # --- ① events in --------------------------------------------------------------------
    def add(
        self,
        content: str,
        *,
        role: str = "user",
        source: str | None = None,
        id: str | None = None,
        at: datetime | str | None = None,
        timezone: str | None = None,
        metadata: dict[str, Any] | None = None,
        **scope: Any,
    ) -> AddResult:
        """Log one interaction durably, then write what must be visible at once (hot path)."""
        started = time.perf_counter()
        sc = Scope.of(**scope)
        event = self._event(content, sc, role=role, source=source, id=id, at=at, timezone=timezone,
                            metadata=metadata)  # fmt: skip
        job = jobs.extract_job(event.id, sc, None, self.clock.now())
        stored, created = self.store.append_event(event, [job])
        if not created:
            return AddResult(event_id=stored.id, created=False, queued=False)
        report = self.pipeline.run([stored], HOT_TRIGGERS)
        skipped = next((o.reason for o in report.outcomes if not o.kept), "")
        self.hot_path_ms = [*self.hot_path_ms[-999:], (time.perf_counter() - started) * 1000]
        return AddResult(event_id=stored.id, written=report.written, queued=True, skipped=skipped)

    def add_messages(self, messages: Iterable[Mapping[str, Any]], **scope: Any) -> list[AddResult]:
        """Add several turns in order; each message takes the keys of ``add()``.

        Every message is validated before the first is written, so a bad one writes nothing.
        """
        batch = [dict(m) for m in messages]
        allowed = {"content", "role", "source", "id", "at", "timezone", "metadata"}
        for i, m in enumerate(batch):
            extra = set(m) - allowed
            if extra:
                raise ValidationError(f"message {i}: unknown key(s) {', '.join(sorted(extra))}")
            self._event(m.get("content"), Scope.of(**scope), **{k: v for k, v in m.items() if k != "content"})
        return [self.add(**m, **scope) for m in batch]

    def _event(self, content: Any, scope: Scope, **fields: Any) -> Event:
        """Validate and build one event (nothing is written here)."""
        return build_event(content, scope=scope, clock=self.clock, max_bytes=self.settings.max_content_bytes,
                           default_timezone=self.settings.default_timezone, **fields)  # fmt: skip

    def end_session(self, **scope: Any) -> int:
        """Session-end trigger: business context of the session is batched for the worker."""
        sc = Scope.of(**scope)
        if sc.session is None:
            raise ValidationError("end_session needs session=")
        events = self.store.session_events(sc, sc.session)
        if not events:
            return 0
        last = events[-1].seq or 0
        now = self.clock.now()
        return self.store.enqueue([jobs.session_end_job(sc, sc.session, last, now),
                                   jobs.lifecycle_job(sc, now)])  # fmt: skip

    def maintain(self, **scope: Any) -> lifecycle.LifecycleReport:
        """Run the lifecycle pass (TTL, decay → archive, consolidation) for one user now."""
        sc = Scope.of(**scope)
        return self.handlers.maintain(Scope(tenant=sc.tenant, user=sc.user))

    def worker(self, lease_s: float | None = None, name: str | None = None) -> Worker:
        """A background worker on this store (``drain()`` for burst mode, ``run_forever(stop)``)."""
        return Worker(self.store, self.clock, self.handlers.table(), name=name,
                      lease_s=lease_s or self.settings.job_lease_s)  # fmt: skip

    def flush(self) -> DrainReport:
        """Run queued background work to completion, in-process."""
        return self.worker().drain()

    def _reactivate(self, records: list[MemoryRecord]) -> None:
        """An archived memory that is used again comes back to default retrieval."""
        now = self.clock.now()
        for rec in records:
            with contextlib.suppress(ConflictError):  # changed meanwhile: that version stands
                self.store.apply([lifecycle.reactivation(rec, now, "accessed again")])

    # --- ④ retrieval and ⑤ context -------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int = 5,
        at: datetime | str | None = None,
        types: Iterable[str] | None = None,
        include_history: bool = False,
        include_archived: bool = False,
        recipe: str | Recipe = "hybrid",
        timezone: str | None = None,
        **scope: Any,
    ) -> list[Hit]:
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query is empty")
        if k < 1:
            raise ValidationError("k must be at least 1")
        q = Query(
            text=query, reader=Scope.of(**scope), k=k,
            at=None if at is None else parse_instant(at, timezone),
            types=_types(types), include_history=include_history,
            include_archived=include_archived, recipe=recipe,
            timezone=timezone or self.settings.default_timezone,
        )  # fmt: skip
        hits = self.retriever.search(q)
        self._reactivate([h.memory for h in hits if h.memory.status is Status.ARCHIVED])
        if q.reader.session and at is None and not include_history:
            pending = self.store.pending_events(q.reader, q.reader.session)
            if pending:
                hits = sorted([*hits, *pending_hits(query, pending, k)], key=lambda h: -h.score)[:k]
        return hits

    def context(
        self,
        query: str,
        *,
        budget_tokens: int | None = None,
        k: int = 10,
        at: datetime | str | None = None,
        types: Iterable[str] | None = None,
        language: str | None = None,
        timezone: str | None = None,
        **scope: Any,
    ) -> Context:
        """The rendered memory block for a prompt, within a token budget."""
        budget = budget_tokens or self.settings.context_window_tokens // 3
        if budget < 1:
            raise ValidationError("budget_tokens must be positive")
        hits = [h for h in self.search(query, k=k, at=at, types=types, timezone=timezone, **scope)
                if not h.memory.attributes.get("pending")]  # fmt: skip
        hits = focus(hits)
        lang = language or detect_language(query)
        covered = {e for h in hits for e in h.memory.evidence}
        return render(self._sections(Scope.of(**scope), covered), hits, self.tokenizer, budget, lang)

    def _sections(self, reader: Scope, covered: set[str]) -> list[Section]:
        """Core blocks, the session's checkpoint and its not-yet-processed turns."""

        def item(section: str, text: str, mid: str | None = None) -> ContextItem:
            return ContextItem(section=section, text=text, memory_id=mid,
                               tokens=self.tokenizer.count(text) + 1)  # fmt: skip

        core = [item("core", f"[{b.name}] {b.content}") for b in self.store.blocks(reader)]
        sections = [Section("core", core)]
        if reader.session:
            cp = self.resume(**_scope_kw(reader))
            if cp is not None:
                sections.append(
                    Section("checkpoint", [item("checkpoint", cp.summary(), cp.memory_id)])
                )
            pending = self.store.pending_events(reader, reader.session, limit=10)
            sections.append(Section("session", [item("session", f"- {e.role.value}: {e.content}")
                                                for e in pending if e.id not in covered]))  # fmt: skip
        return sections

    # --- records and audit -----------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryRecord:
        rec = self.store.get(memory_id)
        if rec is None:
            raise NotFoundError(f"no memory {memory_id!r}")
        return rec

    def history(self, memory_id: str) -> list[Revision]:
        self.get(memory_id)
        return self.store.history(memory_id)

    def forget(self, memory_id: str, reason: str = "", actor: str = "user") -> MemoryRecord:
        """Erase one memory's content everywhere; a tombstone says who, when and why."""
        rec = self.get(memory_id)
        now = self.clock.now()
        audit = Audit(RevisionOp.FORGET, actor, reason or "forgotten on request", ())
        self.store.apply([Purge(memory_id, audit, now, expected_revision=rec.revision)])
        return self.get(memory_id)

    def forget_scope(self, **scope: Any) -> dict[str, int]:
        """Erase everything of one user (events included) — and nothing of anyone else."""
        if "user" not in scope or not scope["user"]:
            raise ValidationError("forget_scope needs user=")
        sc = Scope.of(**scope)
        return self.store.forget_scope(sc.tenant, sc.user)

    def count(self, *, types: Iterable[str] | None = None, **scope: Any) -> int:
        """Active records visible to this reader."""
        return self.store.count(RecordFilter(Scope.of(**scope), types=_types(types)))

    def records(self, *, statuses: Iterable[str] | None = None, **scope: Any) -> list[MemoryRecord]:
        """Every record visible to this reader, optionally by status (newest first)."""

        st = None if statuses is None else frozenset(Status(s) for s in statuses)
        return self.store.find(RecordFilter(Scope.of(**scope), statuses=st))

    # --- audit, review, feedback -----------------------------------------------------------
    def explain(self, memory_id: str) -> audit.Explanation:
        """events → versions → why it is remembered."""
        return audit.explain(self.store, memory_id)

    def review(self, include_candidates: bool = False, **scope: Any) -> list[audit.ReviewItem]:
        """Open conflicts (``needs_review``) visible to this reader; optionally candidates too."""
        return audit.review_queue(self.store, Scope.of(**scope), include_candidates)

    def resolve(
        self, memory_id: str, action: audit.Action = "accept", reason: str = "",
        actor: str = "user",
    ) -> MemoryRecord:  # fmt: skip
        """Apply a human decision to a flagged or candidate record."""
        item = audit.load_review(self.store, memory_id)
        self.store.apply(audit.decide_review(item, action, actor, reason, self.clock.now()))
        return self.get(memory_id)

    def feedback(self, memory_id: str, useful: bool = True, actor: str = "user") -> MemoryRecord:
        rec = self.get(memory_id)
        updated = rec.model_copy(update={
            "revision": rec.revision + 1, "updated_at": self.clock.now(),
            "useful_count": rec.useful_count + (1 if useful else 0),
            "attributes": {**rec.attributes,
                           "not_useful": int(rec.attributes.get("not_useful", 0)) + (0 if useful else 1)},
        })  # fmt: skip
        why = "marked useful" if useful else "marked not useful"
        self.store.apply(
            [Update(updated, rec.revision, Audit(RevisionOp.FEEDBACK, actor, why), reindex=False)]
        )
        return self.get(memory_id)

    # --- core memory blocks ----------------------------------------------------------------
    def set_block(
        self, name: str, content: str, *, read_only: bool = False, char_limit: int = 2000,
        force: bool = False, **scope: Any,
    ) -> CoreBlock:  # fmt: skip
        """Pin a block (persona, user profile, rules). A read-only block changes only with force."""
        sc = Scope.of(**scope)
        if len(content) > char_limit:
            raise ValidationError(
                f"block {name!r} is {len(content)} chars; its limit is {char_limit}"
            )
        existing = next(
            (b for b in self.store.blocks(sc) if b.name == name and b.agent == sc.agent), None
        )
        if existing is not None and existing.read_only and not force:
            raise PermissionDeniedError(f"block {name!r} is read-only")
        block = CoreBlock(
            tenant=sc.tenant, user=sc.user, agent=sc.agent, name=name, content=content,
            char_limit=char_limit, read_only=read_only, updated_at=self.clock.now(),
        )  # fmt: skip
        self.store.put_block(block)
        return block

    def blocks(self, **scope: Any) -> list[CoreBlock]:
        return self.store.blocks(Scope.of(**scope))

    # --- working memory: checkpoints and outcomes --------------------------------------------
    def _log(self, content: str, kind: str, **scope: Any) -> Event:
        meta = {"kind": kind}
        event = self._event(content, Scope.of(**scope), role="system", source="agent", metadata=meta)
        return self.store.append_event(event)[0]

    def checkpoint(
        self, *, task: str, done: Iterable[str] = (), pending: Iterable[str] = (),
        params: dict[str, Any] | None = None, results: dict[str, Any] | None = None,
        **scope: Any,
    ) -> working.Checkpoint:  # fmt: skip
        """Save where a task stands, so a reconnect continues instead of restarting."""
        if not scope.get("session"):
            raise ValidationError("checkpoint needs session=")
        cp = working.Checkpoint(task=task, done=list(done), pending=list(pending),
                                params=params or {}, results=results or {})  # fmt: skip
        event = self._log(cp.summary(), "checkpoint", **scope)
        decision = self.pipeline.write([working.checkpoint_candidate(cp, event)], [event], "agent")[
            0
        ]
        return working.Checkpoint.from_record(self.get(decision.memory_id))

    def resume(self, task: str | None = None, **scope: Any) -> working.Checkpoint | None:
        """The latest checkpoint of the session (of ``task`` if given)."""
        sc = Scope.of(**scope)
        if sc.session is None:
            raise ValidationError("resume needs session=")
        recs = self.store.find(RecordFilter(sc, types=frozenset({MemoryType.TASK_STATE}),
                                            key="checkpoint"), limit=20)  # fmt: skip
        recs = [
            r
            for r in recs
            if r.scope.session == sc.session and (task is None or r.subject == f"task:{task}")
        ]
        return working.Checkpoint.from_record(recs[0]) if recs else None

    def complete_task(
        self, *, task: str, outcome: str, success: bool = True, steps: Iterable[str] = (),
        when: str | None = None, **scope: Any,
    ) -> MemoryRecord:  # fmt: skip
        """Record a task outcome once it is known (never during the discussion).

        ``steps`` and ``when`` ("after changing the DB schema") feed consolidation: the same
        successful steps seen three times become a procedure awaiting confirmation.
        """
        event = self._log(f"Task {task}: {outcome}", "task_outcome", **scope)
        cand = working.outcome_candidate(task, outcome, success, list(steps), event, when)
        decision = self.pipeline.write([cand], [event], "agent")[0]
        return self.get(decision.memory_id)

    # --- health ----------------------------------------------------------------------------
    def stats(self, **scope: Any) -> dict[str, Any]:
        sc = Scope.of(**scope)
        return health.stats(self.store.tally(sc.tenant, sc.user), self.hot_path_ms)


def make_model_extractor(embedder: Embedder | None) -> ModelExtractor | None:
    """The attribute classifier, when its weights ship and match the embedder in use."""
    model = classifier.bundled()
    if model is None or embedder is None or embedder.name != model.embedder:
        return None
    return ModelExtractor(model, embedder)


def warm_up() -> None:
    """Load the segmenter and the time parser once per process, not inside the first add()."""
    from memquill.text import tokens
    from memquill.write import timenorm

    tokens("预热 warm up")
    # "3号" reaches the jionlp fallback, whose first call loads its tables (~0.5 s)
    timenorm.find_times("下个月3号交报告，明天下午三点 tomorrow", SystemClock().now(), "UTC")


def _scope_kw(s: Scope) -> dict[str, Any]:
    return {k: v for k, v in s.model_dump().items() if v is not None}


def _types(types: Iterable[str] | None) -> frozenset[MemoryType] | None:
    if types is None:
        return None
    try:
        return frozenset(MemoryType(t) for t in types)
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
