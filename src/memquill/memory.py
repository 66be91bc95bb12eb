"""The public facade and composition root: picks backends and wires the stages.

Reads top to bottom in the order of DESIGN §1: events in → write pipeline → store →
retrieval → context; then maintenance and audit.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from types import TracebackType
from typing import Any

from memquill import ingest, working
from memquill import params as check
from memquill.clock import Clock, SystemClock, parse_instant
from memquill.context import render, sections
from memquill.errors import DuplicateEventError, NotFoundError, ValidationError
from memquill.ingest import build_event
from memquill.maintain import adaptive, health, jobs, lifecycle
from memquill.maintain.worker import DrainReport, Worker
from memquill.memory_curation import Curation
from memquill.memory_erasure import Erasure
from memquill.memory_policy import PolicyOps
from memquill.memory_working import WorkingMemory
from memquill.model import (
    Event,
    MemoryRecord,
    Revision,
    Scope,
    Status,
)
from memquill.model.query import RecordFilter
from memquill.model.result import AddResult, Context, Hit
from memquill.providers.base import Embedder, Tokenizer
from memquill.providers.registry import make_embedder, make_llm, make_tokenizer
from memquill.retrieve import intents, profile, recipes, sentences, session, timeline
from memquill.retrieve.critical import attribute as is_critical
from memquill.retrieve.pipeline import Query, Retriever, StillNear, focus
from memquill.retrieve.recipes import Recipe
from memquill.settings import Settings, default_db_path
from memquill.store.base import Store
from memquill.text import detect_language, query_terms
from memquill.write import scoping
from memquill.write.extract import classifier
from memquill.write.extract.base import Extractor
from memquill.write.extract.model import ModelExtractor
from memquill.write.extract.patterns import PATTERNS
from memquill.write.extract.rules import RuleExtractor
from memquill.write.extract.transcript import speaker
from memquill.write.pipeline import HOT_TRIGGERS, WritePipeline
from memquill.write.policy import WritePolicy


def open_store(target: str, dim: int) -> Store:
    """``postgresql://…`` selects the server backend; anything else is a SQLite path."""
    if target.startswith(("postgresql://", "postgres://")):
        from memquill.store.postgres import PostgresStore

        return PostgresStore(target, dim=dim)
    from memquill.store.sqlite import SQLiteStore

    return SQLiteStore(target, dim=dim)


class Memory(Curation, WorkingMemory, PolicyOps, Erasure):
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
        policy: WritePolicy | None = None,
    ) -> None:
        self.settings = settings or Settings.from_env()
        self.clock = clock or SystemClock()
        if isinstance(embedder, str) or embedder is None:
            embedder = make_embedder(embedder or self.settings.embedder)
        self.embedder = embedder
        self._tokenizer = tokenizer
        target = target or self.settings.db or default_db_path()
        self.store = store or open_store(target, dim=embedder.dim if embedder else 384)
        self._llm_extractor = llm_extractor or _llm_extractor(self.settings)
        self._use_policy(policy or WritePolicy.live(self.store) or WritePolicy.from_settings(self.settings))
        self.profile_policy = profile.ProfilePolicy.from_settings(self.settings)
        self.hot_path_ms: list[float] = []  # recent add() overheads, for stats()
        # the first add() loads models and warms caches: reported apart, never as hot-path latency
        self.cold_start_ms: float | None = None

    def warm_up(self) -> Memory:
        """Load the segmenter and the time parser now, not inside the first ``add()``.

        Explicit, so constructing a Memory (tests, CLI one-shots) stays cheap; long-lived
        processes (worker, servers, benchmarks) call it once at start."""
        from memquill.text import tokens
        from memquill.write import timenorm

        tokens("预热 warm up")
        # "3号" reaches the jionlp fallback, whose first call loads its tables (~0.5 s)
        timenorm.find_times("下个月3号交报告，明天下午三点 tomorrow", self.clock.now(), "UTC")
        return self

    def _use_policy(self, policy: WritePolicy) -> None:
        """Wire the stages that read the write policy (the composition root's one knob)."""
        self.policy = policy
        model = make_model_extractor(self.embedder) if self.settings.attribute_model else None
        self.sentence_reader = sentences.reader_for(self.embedder)  # private sentences in episodes
        self.pipeline = WritePipeline(
            self.store,
            self.clock,
            policy,
            RuleExtractor(PATTERNS),
            self.embedder,
            self._llm_extractor,
            model_extractor=model,
            annotate=_annotators(
                self.sentence_reader, timeline.reader_for(classifier.reading(), self.embedder)
            ),
            about_project=scoping.reader_for(classifier.bundled(), self.embedder),
        )
        self.retriever = Retriever(
            self.store,
            self.embedder,
            self.clock,
            self.settings.half_life_days,
            policy.dedup_similarity,
            router=_router(self.embedder),
            model_facts=model is not None,
        )
        self.handlers = jobs.Handlers(self.store, self.pipeline, self.clock)

    def _opener(self) -> Callable[[str], Store]:
        """Opens another store of this kind (a registered replay copy, for erasure)."""
        return functools.partial(open_store, dim=self.embedder.dim if self.embedder else 384)

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
        event = self._event(
            content, sc, role=role, source=source, id=id, at=at, timezone=timezone, metadata=metadata
        )
        stored, created = ingest.log(self.store, event, self.clock.now(), self.settings.job_max_attempts)
        if not created:
            return AddResult(event_id=stored.id, created=False, queued=False)
        # a transcript line's "you" is the session's other speaker: the earlier turns say who
        said_by = speaker(stored, stored.content)[0]
        context = jobs.session_context(self.store, stored) if said_by else []
        report = self.pipeline.run([stored], HOT_TRIGGERS, context)
        skipped = next((o.reason for o in report.outcomes if not o.kept), "")
        self._timed_add((time.perf_counter() - started) * 1000)
        return AddResult(event_id=stored.id, written=report.written, queued=True, skipped=skipped)

    def _timed_add(self, ms: float) -> None:
        if self.cold_start_ms is None:
            self.cold_start_ms = ms
        else:
            self.hot_path_ms = [*self.hot_path_ms[-999:], ms]

    def add_messages(self, messages: Iterable[Mapping[str, Any]], **scope: Any) -> list[AddResult]:
        """Add several turns in order; each message takes the keys of ``add()``.

        Every message is validated before the first is written, so a bad one writes nothing.
        """
        if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Iterable):
            raise ValidationError("messages must be a list of message dicts")
        batch = []
        for i, m in enumerate(messages):
            if not isinstance(m, Mapping):
                raise ValidationError(f"message {i}: expected a dict, got {type(m).__name__}")
            batch.append(dict(m))
        sc = Scope.of(**scope)
        built = []
        for i, m in enumerate(batch):
            extra = set(m) - set(ingest.EVENT_KEYS)
            if extra:
                raise ValidationError(f"message {i}: unknown key(s) {', '.join(sorted(extra))}")
            built.append(self._event(m.get("content"), sc, **{k: v for k, v in m.items() if k != "content"}))
        self._check_ids([e for e, m in zip(built, batch, strict=True) if m.get("id") is not None], sc)
        return [self.add(**m, **scope) for m in batch]

    def _check_ids(self, events: list[Event], scope: Scope) -> None:
        """A caller-given id that is already taken by other words (earlier in the batch or in
        the store) fails the whole batch before anything is written."""
        seen: dict[str, str] = {e.id: e.content for e in self.store.get_events(scope, [e.id for e in events])}
        for e in events:
            if seen.setdefault(e.id, e.content) != e.content:
                raise DuplicateEventError(f"event {e.id!r} exists with different content; nothing was added")

    def _event(self, content: Any, scope: Scope, **fields: Any) -> Event:
        """Validate and build one event (nothing is written here)."""
        return build_event(
            content,
            scope=scope,
            clock=self.clock,
            max_bytes=self.settings.max_content_bytes,
            default_timezone=self.settings.default_timezone,
            **fields,
        )

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
        queued = [jobs.session_end_job(sc, sc.session, last, now), jobs.lifecycle_job(sc, now)]
        for job in queued:
            job.max_attempts = self.settings.job_max_attempts
        n = self.store.enqueue(queued)
        self._log("session end", "session_end", **_scope_kw(sc))  # replay re-ends the session here
        return n

    def maintain(self, **scope: Any) -> lifecycle.LifecycleReport:
        """Run the lifecycle pass (TTL, decay → archive, consolidation) for one user now."""
        sc = Scope.of(**scope)
        return self.handlers.maintain(Scope(tenant=sc.tenant, user=sc.user))

    def worker(self, lease_s: float | None = None, name: str | None = None) -> Worker:
        """A background worker on this store (``drain()`` for burst mode, ``run_forever(stop)``)."""
        return Worker(
            self.store,
            self.clock,
            self.handlers.table(),
            name=name,
            lease_s=lease_s or self.settings.job_lease_s,
        )

    def flush(self) -> DrainReport:
        """Run queued background work to completion, in-process."""
        return self.worker().drain()

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
        expand: bool = False,
        **scope: Any,
    ) -> list[Hit]:
        """``expand=True`` also searches the terms of the situations the query implies."""
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query is empty")
        check.count(k, "k")
        check.flag(include_history, "include_history")
        check.flag(include_archived, "include_archived")
        timezone = check.maybe_text(timezone, "timezone")
        if not isinstance(recipe, str | Recipe):
            raise ValidationError(f"recipe must be a recipe name, got {type(recipe).__name__}")
        q = Query(
            text=query,
            reader=Scope.of(**scope),
            k=k,
            at=None if at is None else parse_instant(at, timezone),
            types=check.types(types),
            include_history=include_history,
            include_archived=include_archived,
            recipe=self._recipe(recipe),
            timezone=timezone or self.settings.default_timezone,
            expand=expand,
        )
        return session.search(self.retriever, self.store, q, self.clock.now())

    def _recipe(self, name: str | Recipe) -> Recipe:
        """A named recipe with the configured recall depth and fusion constant; a Recipe
        object passed in is used as it is."""
        if isinstance(name, Recipe):
            return name
        return replace(recipes.recipe(name), depth=self.settings.recall_depth, rrf_k=self.settings.rrf_k)

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
        budget = self.settings.context_window_tokens // 3 if budget_tokens is None else budget_tokens
        check.count(budget, "budget_tokens", high=check.MAX_BUDGET)
        language = check.maybe_text(language, "language", 16)
        found = self.search(query, k=k, at=at, types=types, timezone=timezone, expand=True, **scope)
        hits = [h for h in found if not h.memory.attributes.get("pending")]
        # the profile still hears of what focus trims; a standing record the request's kind
        # of task needs stays (safety-critical ones reach the profile by its own rule)
        needs = {a for a in intents.bears_on(query) if not is_critical(a)}
        near, hits = hits, focus(hits, standing=needs)
        lang = language or detect_language(query)
        covered = {e for h in hits for e in h.memory.evidence}
        reader = Scope.of(**scope)
        when = self.clock.now() if at is None else parse_instant(at, timezone)
        a = profile.assemble(
            self.store,
            reader,
            query,
            hits,
            when,
            self.profile_policy,
            check.types(types),
            sentence_reader=self.sentence_reader,
            spend_once=self.settings.context_spend_once,
            near=near,
        )
        checkpoint = working.latest_checkpoint(self.store, reader) if reader.session else None
        wanted = [*query_terms(query), *intents.expansion(query)]  # the lexical leg's terms
        parts = sections(self.store, reader, covered, self.tokenizer, checkpoint, a.hides)
        return render(
            parts,
            a.hits,
            self.tokenizer,
            budget,
            lang,
            a.standing,
            a.texts,
            a.withheld,
            self.settings.context_spend_once,
            fuller=a.fuller,
            keeps=StillNear(self.embedder, query, near, wanted, needs),
        )

    # --- records and audit -----------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryRecord:
        rec = self.store.get(check.text(memory_id, "memory_id"))
        if rec is None:
            raise NotFoundError(f"no memory {memory_id!r}")
        return rec

    def history(self, memory_id: str) -> list[Revision]:
        self.get(memory_id)
        return self.store.history(memory_id)

    def count(self, *, types: Iterable[str] | None = None, **scope: Any) -> int:
        """Active records visible to this reader."""
        return self.store.count(RecordFilter(Scope.of(**scope), types=check.types(types)))

    def records(self, *, statuses: Iterable[str] | None = None, **scope: Any) -> list[MemoryRecord]:
        """Every record visible to this reader, optionally by status (newest first)."""

        st = (
            None
            if statuses is None
            else frozenset(check.enum(Status, s, "status") for s in check.texts(statuses, "statuses"))
        )
        return self.store.find(RecordFilter(Scope.of(**scope), statuses=st))

    # --- health ----------------------------------------------------------------------------
    def stats(self, **scope: Any) -> dict[str, Any]:
        sc = Scope.of(**scope)
        out = health.stats(self.store.tally(sc.tenant, sc.user), self.hot_path_ms, self.cold_start_ms)
        out["policy"] = self.policy.id
        out["adaptive"] = adaptive.propose(self.store, self.policy, self.clock.now()).summary()
        return out


def make_model_extractor(embedder: Embedder | None) -> ModelExtractor | None:
    """The attribute classifier, when its weights ship and match the embedder in use."""
    model = classifier.bundled()
    ok = model is not None and embedder is not None and embedder.name == model.embedder
    return ModelExtractor(model, embedder) if ok else None  # type: ignore[arg-type]


def _router(embedder: Embedder | None) -> classifier.AttributeClassifier | None:
    """Questions reach slots through the classifier whenever its weights match the embedder:
    one matrix product on the query vector search computes anyway (write-time use of the
    model is ``Settings.attribute_model``). Retrieval reads with the reading weights: the
    write path's retrain moved routing (knowledge-update dev14 top-1 0.708 → 0.667)."""
    model = classifier.reading()
    return model if model is not None and embedder is not None and embedder.name == model.embedder else None


def _annotators(*readers: Any) -> Callable[[Sequence[MemoryRecord]], None] | None:
    """The write-time readers of episodes about to be stored, run one after the other."""
    live = [r for r in readers if r is not None]
    if not live:
        return None

    def annotate(records: Sequence[MemoryRecord]) -> None:
        for r in live:
            r.annotate(records)

    return annotate


def _scope_kw(s: Scope) -> dict[str, Any]:
    return {k: v for k, v in s.model_dump().items() if v is not None}


def _llm_extractor(settings: Settings) -> Extractor | None:
    """The optional LLM extractor over the configured endpoint (imported only when used)."""
    llm = make_llm(settings)
    if llm is None:
        return None
    from memquill.write.extract.llm import LLMExtractor

    return LLMExtractor(llm)
