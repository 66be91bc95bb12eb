"""The write pipeline: the only place the stage order is written down (DESIGN §1).

noise gate → time normalisation → reference resolution → extraction (rules, then the
optional LLM) → worthiness → trigger gate → reconcile → apply atomically.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from memquill.clock import Clock
from memquill.errors import ConflictError
from memquill.model import Candidate, Create, Event, Level, MemoryRecord, Role, Status, Update
from memquill.model.candidate import Trigger
from memquill.providers.base import Embedder
from memquill.store.base import Store
from memquill.write import (
    coref,
    corrections,
    covered,
    endings,
    entities,
    noise,
    roles,
    scoping,
    staleness,
    supposed,
    swaps,
    timenorm,
    truecase,
)
from memquill.write.episodes import episodes
from memquill.write.extract.base import ExtractionInput, Extractor
from memquill.write.policy import LOG_MARKERS, WritePolicy
from memquill.write.reconcile import Decision, Policy, Proposal, decide
from memquill.write.reconcile_changes import initial_status
from memquill.write.reconcile_view import load_view
from memquill.write.score import score
from memquill.write.vectors import CandidateVectors

log = logging.getLogger("memquill.write")

HOT_TRIGGERS = frozenset({Trigger.HOT, Trigger.SIGNAL})
BACKGROUND_TRIGGERS = frozenset({Trigger.HOT, Trigger.SIGNAL, Trigger.CONFIRMED, Trigger.BACKGROUND})
SESSION_END_TRIGGERS = frozenset({Trigger.SESSION_END})
MAX_RETRIES = 12


@dataclass
class EventOutcome:
    event_id: str
    kept: bool
    reason: str = ""
    normalised: str = ""


@dataclass
class WriteReport:
    outcomes: list[EventOutcome] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    dropped: list[Candidate] = field(default_factory=list)
    deferred: list[Candidate] = field(default_factory=list)

    @property
    def written(self) -> list[str]:
        """Ids of the records this run created or changed."""
        return [d.memory_id for d in self.decisions if d.changes]


def level_for(cand: Candidate, event: Event, about_project: scoping.AboutProject | None = None) -> Level:
    """How widely a record applies. An agent's or tool's finding inside a project belongs to
    the project (every agent there reads it), not to the user's global profile; an event
    marked ``metadata={"private": True}`` stays the writing agent's own; words asking for a
    session or naming the project's own things decide next (``scoping``)."""
    if event.metadata.get("private") and event.scope.agent:
        return Level.AGENT
    intended = scoping.intended_level(cand, event, about_project)
    if intended is not None:
        return intended
    if cand.level is Level.USER and event.role is not Role.USER and event.scope.project:
        return Level.PROJECT
    return cand.level


class WritePipeline:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        policy: WritePolicy,
        extractor: Extractor,
        embedder: Embedder | None,
        llm_extractor: Extractor | None = None,
        rules: Policy | None = None,
        model_extractor: Extractor | None = None,
        annotate: Callable[[Sequence[MemoryRecord]], None] | None = None,
        about_project: scoping.AboutProject | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.policy = policy
        # the reconcile rules, with the thresholds the write policy sets
        self.rules = replace(
            rules or Policy(),
            confidence_floor=policy.confidence_floor,
            duplicate_similarity=policy.duplicate_similarity,
        )
        self.extractor = extractor
        self.embedder = embedder
        self.llm_extractor = llm_extractor
        self.model_extractor = model_extractor
        # adds what readers will need to a candidate before it is stored (the read path's
        # per-sentence attributes of an episode), so no read pays for a model call
        self.annotate = annotate
        # reads a user's instruction said in a project: the project's rule or the user's?
        self.about_project = about_project

    def under(self, policy: WritePolicy) -> WritePipeline:
        """The same stages under another write policy (re-extraction, replay)."""
        return WritePipeline(
            self.store,
            self.clock,
            policy,
            self.extractor,
            self.embedder,
            self.llm_extractor,
            self.rules,
            self.model_extractor,
            self.annotate,
            self.about_project,
        )

    def prepare(
        self, events: Sequence[Event], context: Sequence[Event]
    ) -> tuple[ExtractionInput, list[EventOutcome]]:
        """Stages 1–3: gate, normalise time, resolve references."""
        kept: list[Event] = []
        normalised: dict[str, str] = {}
        times: dict[str, list[timenorm.TimeMention]] = {}
        outcomes = []
        for e in events:
            if e.role is Role.SYSTEM and e.metadata.get("kind") in LOG_MARKERS:
                outcomes.append(EventOutcome(e.id, False, "log marker"))
                continue
            verdict = noise.gate(e.content, e.role)
            content = verdict.said(e.content, self.policy.drops(verdict.reason))
            if content is None:
                outcomes.append(EventOutcome(e.id, False, verdict.reason))
                continue
            content = truecase.restore(content)  # "switched to dr nguyen": the name's capitals back
            language = timenorm.detect_language(content)
            mentions = timenorm.find_times(content, e.occurred_at, e.timezone, language)
            text = timenorm.rewrite(content, mentions, language) if mentions else content
            resolved = coref.rewrite(text, e.scope.project, [*context, *kept])
            kept.append(e)
            normalised[e.id] = resolved.text
            times[e.id] = mentions
            outcomes.append(EventOutcome(e.id, True, normalised=resolved.text))
        return ExtractionInput(kept, normalised, context, times), outcomes

    def extract(self, batch: ExtractionInput, use_llm: bool = False) -> list[Candidate]:
        """Rules always; off the hot path also the attribute model (clauses no rule took)
        and the LLM (if configured), merged after them. Every candidate then passes the
        trust gate of the turn it came from, and none keeps a value its turn only supposes."""
        candidates = self._by_role(batch)
        if use_llm and self.model_extractor is not None and batch.events:
            candidates += self.model_extractor.extract(batch)
        if use_llm and self.llm_extractor is not None and batch.events:
            from memquill.write.extract.llm import merge_candidates

            candidates = merge_candidates(candidates, self.llm_extractor.extract(batch))
        by_id = {e.id: e for e in batch.events}
        gated = [
            roles.gate(c, by_id[c.evidence[0]]) if c.evidence and c.evidence[0] in by_id else c
            for c in candidates
        ]
        texts = {e.id: batch.text(e) for e in batch.events}
        return supposed.drop([c for c in gated if c is not None], texts.get)

    def _by_role(self, batch: ExtractionInput) -> list[Candidate]:
        """An assistant turn is read in three parts: its own first person (about the
        assistant), what it says about the user (restated from the user's side, a candidate
        until confirmed), and the rest."""
        plain = [e for e in batch.events if not roles.voiced(e)]
        out = self.extractor.extract(replace(batch, events=plain)) if plain else []
        for e in batch.events:
            if roles.voiced(e):
                out += self._assistant_turn(batch, e)
        return out

    def _assistant_turn(self, batch: ExtractionInput, e: Event) -> list[Candidate]:
        own, about_user, other = roles.split_assistant(batch.text(e))

        def run(text: str) -> list[Candidate]:
            part = replace(batch, events=[e], normalised={**batch.normalised, e.id: text})
            return self.extractor.extract(part) if text else []

        return [
            *(roles.as_assistant(c, e) for c in run(own)),
            *(roles.needs_confirmation(c, "the assistant's claim") for c in run(about_user)),
            *run(other),
        ]

    def run(
        self,
        events: Sequence[Event],
        allowed: frozenset[Trigger],
        context: Sequence[Event] = (),
        actor: str | None = None,
    ) -> WriteReport:
        batch, outcomes = self.prepare(events, context)
        report = WriteReport(outcomes=outcomes)
        if not batch.events:
            return report
        found = self.extract(batch, use_llm=not allowed <= HOT_TRIGGERS)
        if Trigger.BACKGROUND in allowed:  # "Sorry, Captain, not Admiral": the slot holding Admiral
            found += corrections.by_value(batch.events, self.store, found)
            found = swaps.by_held(batch, self.store, found)  # "ditched telstra for Optus"
        found = endings.apply(
            batch.events, self.store, found, look=Trigger.BACKGROUND in allowed
        )  # "Netflix is cancelled": that record ends
        if Trigger.SESSION_END in allowed:
            found += episodes(batch.events, batch.normalised, min_score=self.policy.episode_min_score)
        found = [self.policy.shape(c) for c in found]
        kept, report.dropped = score(found, self.policy.threshold_for)
        kept = covered.uncovered(kept, lambda c: initial_status(c, self.rules) is Status.ACTIVE)
        now_ready = [c for c in kept if c.trigger in allowed]
        report.deferred = [c for c in kept if c.trigger not in allowed]
        by_id = {e.id: e for e in batch.events}
        report.decisions = self.write(now_ready, [by_id[c.evidence[0]] for c in now_ready], actor)
        staleness.close_stale_episodes(
            self.store, [ch for d in report.decisions for ch in d.changes], self.clock.now()
        )
        return report

    def write(
        self, candidates: Sequence[Candidate], events: Sequence[Event], actor: str | None = None
    ) -> list[Decision]:
        """Reconcile candidates; ``events[i]`` is where candidate i was said.

        Embedding is lazy: a re-run that turns out to be a no-op (the common case for the
        worker re-reading what the hot path already wrote) never pays for the model."""
        stamped = [self.policy.stamp(c) for c in candidates]
        vectors = CandidateVectors(self.embedder, stamped)  # batched, once per text
        return [
            self._reconcile(
                cand, event, actor or event.scope.agent or event.source.value, partial(vectors.get, i)
            )
            for i, (cand, event) in enumerate(zip(stamped, events, strict=True))
        ]

    def _reconcile(
        self, cand: Candidate, event: Event, actor: str, embed: Callable[[], np.ndarray | None]
    ) -> Decision:
        """Load → decide → apply; a concurrent writer moving the slot makes us re-decide."""
        scope = event.scope.bind(level_for(cand, event, self.about_project))
        cand = entities.link(cand, self.store, scope)  # "周琴" → the person:manager it names
        cand = entities.another_person(cand, self.store, scope)  # a second colleague is a second person
        for attempt in range(MAX_RETRIES):
            proposal = Proposal(cand, scope, self.clock.now(), actor)
            decision = decide(proposal, load_view(self.store, proposal, self.rules), self.rules, embed)
            if not decision.changes:
                return decision
            if self.annotate is not None:  # only what will be written pays for it
                self.annotate([ch.record for ch in decision.changes if isinstance(ch, Create | Update)])
            try:
                self.store.apply(decision.changes)
                # a relation's name learned last: what was filed under the name moves to it
                entities.relink_written(self.store, scope, decision.changes, self.clock.now())
                return decision
            except ConflictError:
                log.info("slot %s/%s moved; re-deciding (attempt %d)", cand.subject, cand.key, attempt + 1)
                time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))  # jitter: contenders spread out
        raise ConflictError(f"could not reconcile {cand.key!r} after {MAX_RETRIES} attempts")
