"""The public surface outside evaluation relies on (DESIGN §5) is pinned here."""

from __future__ import annotations

import inspect

import memquill
from memquill import Memory

EXPORTED = {
    "AddResult",
    "Clock",
    "Context",
    "ContextItem",
    "Event",
    "FixedClock",
    "Hit",
    "Memory",
    "MemoryRecord",
    "MemoryType",
    "MemquillError",
    "Revision",
    "Scope",
    "Settings",
    "Source",
    "Status",
    "SystemClock",
    "__version__",
}

CONTRACT = {
    "add": {"content", "role", "source", "id", "at", "timezone"},
    "add_messages": {"messages"},
    "end_session": set(),
    "flush": set(),
    "search": {"query", "k", "at", "types", "include_history"},
    "context": {"query", "budget_tokens", "at"},
    "get": {"memory_id"},
    "history": {"memory_id"},
    "forget": {"memory_id", "reason"},
    "count": set(),
    "complete_task": {"task", "outcome"},
    "checkpoint": {"task", "done", "pending", "params", "results"},
    "resume": set(),
    "feedback": {"memory_id", "useful"},
    "explain": {"memory_id"},
    "review": set(),
    "resolve": set(),
    "forget_scope": set(),
    "stats": set(),
    "close": set(),
}


def test_exported_names_are_pinned() -> None:
    assert set(memquill.__all__) == EXPORTED
    for name in EXPORTED:
        assert hasattr(memquill, name)


def test_memory_methods_keep_their_contract_names() -> None:
    for method, params in CONTRACT.items():
        fn = getattr(Memory, method)
        sig = inspect.signature(fn)
        assert params <= set(sig.parameters), f"{method} lost {params - set(sig.parameters)}"
        scoped = method not in {
            "get",
            "history",
            "forget",
            "feedback",
            "explain",
            "resolve",
            "flush",
            "close",
        }
        if scoped:
            assert any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()), (
                f"{method} takes scope keywords"
            )


def test_memory_is_a_context_manager(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with Memory(str(tmp_path / "m.db"), embedder="hash") as mem:
        assert mem.add("I like tea", user="a").event_id


def test_add_fields_are_declared_once() -> None:
    """``add()``, ``add_messages``, ``build_event`` and the CLI's ingest read one list."""
    from memquill.ingest import EVENT_KEYS, build_event
    from memquill.interfaces.cli import INGEST_KEYS
    from memquill.model import SCOPE_KEYS

    add = inspect.signature(Memory.add).parameters
    assert [p for p in add if add[p].kind is not inspect.Parameter.VAR_KEYWORD][1:] == list(EVENT_KEYS)
    assert set(EVENT_KEYS) - {"content"} <= set(inspect.signature(build_event).parameters)
    assert set(INGEST_KEYS) == {*EVENT_KEYS, *SCOPE_KEYS}


def test_retrieval_and_worker_settings_take_effect(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from memquill.settings import Settings

    settings = Settings(embedder="hash", rrf_k=7, recall_depth=11, job_max_attempts=2)
    with Memory(str(tmp_path / "m.db"), settings=settings) as mem:
        seen = []
        real = mem.retriever.search
        mem.retriever.search = lambda q, log=True: seen.append(q) or real(q, log)  # type: ignore[method-assign]
        mem.add("I like green tea", user="a", session="s")
        mem.search("tea", user="a")
        assert (seen[0].recipe.rrf_k, seen[0].recipe.depth) == (7, 11)
        mem.end_session(user="a", session="s")
        jobs = mem.store.claim("w", mem.clock.now(), 60, 10)
        assert jobs and {j.max_attempts for j in jobs} == {2}
