"""The write path's bars travel with the attribute model's weights and are fitted by criteria."""

from __future__ import annotations

import numpy as np

from memquill.providers.fake import HashEmbedder
from memquill.write.extract.classifier import AttributeClassifier, fit_centroids
from memquill.write.extract.model import ModelExtractor
from memquill.write.extract.thresholds import FREE_FLOOR, TYPED_FLOOR, Reading, Thresholds, fit


def _model(bars: dict[str, float] | None) -> AttributeClassifier:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 16)).astype(np.float32)
    y = [i % 2 for i in range(40)]
    heads = {
        "memory": fit_centroids(x, y, ["no", "yes"]),
        "attribute": fit_centroids(x, y, ["city", "email"]),
        "kind": fit_centroids(x, y, ["user", "person"]),
    }
    return AttributeClassifier(heads, "t", "fake", bars)


def test_bars_round_trip_with_the_weights_and_reach_the_write_path() -> None:
    model = AttributeClassifier.from_bytes(_model({"single": 0.42, "memory": 0.55}).to_bytes())
    assert model.thresholds == {"single": 0.42, "memory": 0.55}
    bars = ModelExtractor(model, HashEmbedder()).thresholds  # type: ignore[arg-type]
    assert (bars.single, bars.memory, bars.joint) == (0.42, 0.55, Thresholds().joint)


def test_weights_without_bars_keep_the_defaults() -> None:
    model = AttributeClassifier.from_bytes(_model(None).to_bytes())
    assert model.thresholds == {}
    assert ModelExtractor(model, HashEmbedder()).thresholds == Thresholds()  # type: ignore[arg-type]
    assert Thresholds.of({"unknown": 0.1}) == Thresholds()


def _reading(memory: float, attribute: str, score: float, *labelled: str) -> Reading:
    return Reading(memory, attribute, score, frozenset(labelled))


def test_single_bar_is_the_lowest_score_whose_guesses_are_right_often_enough() -> None:
    # typed single-valued guesses: right at 0.9, 0.7 and 0.5, wrong at 0.3 and 0.2
    readings = [
        _reading(0.9, "city", 0.9, "city"),
        _reading(0.9, "city", 0.7, "city"),
        _reading(0.9, "city", 0.5, "city"),
        _reading(0.9, "city", 0.3, "employer"),
        _reading(0.9, "city", 0.2),
        # free-text guesses: one wrong at 0.6 keeps that bar above it
        _reading(0.9, "housing", 0.8, "housing"),
        _reading(0.9, "housing", 0.6, "occupation"),
        # negatives the memory bar must leave out
        _reading(0.1, "email", 0.05),
        _reading(0.2, "email", 0.1),
    ]
    bars = fit(readings, single=lambda a: a != "email", typed=lambda a: a == "city")
    assert 0.3 < bars.single <= 0.5  # 3 right of 3 above it; with 0.3 only 3 of 4 (< TYPED_FLOOR)
    assert 0.6 < bars.single_free_text <= 0.8  # 1 of 2 right above 0.6 is under FREE_FLOOR
    assert 0.2 < bars.memory <= 0.9
    assert TYPED_FLOOR < FREE_FLOOR  # free text needs surer guesses than a typed span


def test_no_guesses_of_a_kind_keep_that_bar() -> None:
    readings = [_reading(0.9, "email", 0.9, "email"), _reading(0.1, "email", 0.05)]
    bars = fit(readings, single=lambda a: False, typed=lambda a: True)
    assert (bars.single, bars.single_free_text) == (Thresholds().single, Thresholds().single_free_text)
