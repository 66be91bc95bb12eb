"""A learned sensitivity head: is a sentence private, and about what.

A private fact is mostly said without a discretion cue ("been seeing a therapist since
March", "still paying off that loan", "Dad passed two months ago"), and the attribute
classifier reads it as some other attribute (a schedule, a budget, a life event) or as
nothing, so no catalogue flag marks it. This head reads the same e5 embedding the sentence
reader already makes and says which private *topic* a sentence states — health, mental
health, money, a relationship, a job search, a pregnancy, a bereavement, a legal matter,
identity (faith, sexuality, immigration status) — or ``none``, or ``safety`` (an allergy, a
medication need: safety-critical facts are their own class and never hidden by this head).

One softmax layer (numpy logistic regression, temperature-scaled on held-out folds) trained
by ``scripts/train_sensitivity.py`` on ``tests/data/sensitivity_{train,statements,hardneg,
classes}.jsonl`` (decision 0016n); weights are
package data (``data/sensitivity_model.npz``). Without weights matching the embedder there
is no head and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.errors import ConfigError
from memquill.model import MemoryRecord, MemoryType
from memquill.retrieve.critical import THEIRS, safety_critical
from memquill.retrieve.spend import sentences
from memquill.write.extract import value_kinds
from memquill.write.extract.classifier import Head, unit_rows
from memquill.write.extract.phrasing import first_person

Array = npt.NDArray[np.float32]
MODEL_FILE = "data/sensitivity_model.npz"
NOT_PRIVATE = ("none", "safety")
HEALTH_TOPICS = frozenset({"health", "mental", "pregnancy"})  # a condition's topic, when the head says one
CONDITIONS = "+c1"  # the condition lexicon's part of the reading's version (``with_conditions``)
PREFIX = "sensitive:"  # a private label the head gives: ``sensitive:<topic>``
REQUEST_SAFETY = 0.7  # a request the head reads this likely as bearing on the user's safety. On the
# seven specs (344 requests of users with a safety-critical fact) the head with the request rows
# written apart opens 109 of the 145 a safety-critical fact bears on at 0.7 and none that must not
# see one; at 0.6, 116 and a penicillin allergy for a weekend class (the older head: 93 at 0.6)


# a request about one private topic that is about another too: a user's lawyer is for the divorce
# and the custody fight the head files as ``relationship`` ("draft a message to my lawyer asking
# about the mediation" reads legal 0.94, relationship under 0.1). One way: a divorce does not
# make every relationship request a legal one.
TOPIC_OPENS: dict[str, tuple[str, ...]] = {"legal": ("relationship",)}


@dataclass(frozen=True)
class Sensitivity:
    """What the head says of one text: its likeliest private topic and the summed
    probability of all private topics (0 when nothing private is likely)."""

    topic: str
    private: float
    safety: float = 0.0  # the probability of the safety-critical class
    version: str = ""  # the head that read it (``SensitivityModel.version``); "" before versions

    def stored(self) -> list[object]:
        return [self.topic, round(self.private, 3), round(self.safety, 3), self.version]

    @classmethod
    def of_stored(cls, value: object) -> Sensitivity | None:
        """A stored reading (``[topic, private, safety, version]``; older ones lack the last
        one or two), None for anything else."""
        if not isinstance(value, list) or len(value) not in (2, 3, 4) or not isinstance(value[0], str):
            return None
        nums, version = value[1:3], value[3] if len(value) == 4 else ""
        if not all(isinstance(v, int | float) for v in nums) or not isinstance(version, str):
            return None
        return cls(value[0], float(nums[0]), float(nums[1]) if len(nums) == 2 else 0.0, version)

    def label(self, threshold: float, theirs: bool = False) -> str | None:
        """The private label of this reading at ``threshold``: None below it, and None for a
        safety-critical text (``critical.py``: an injury that puts the user in a wheelchair is
        for every request it bears on, not hidden as a health matter; ``theirs``: the text is
        about someone else in the user's life)."""
        if self.private < threshold or safety_critical(head=self, theirs=theirs):
            return None
        return label(self.topic, self.private)


def label(topic: str, private: float) -> str:
    """The private label of a reading: ``sensitive:money@0.87`` (topic and probability, so
    the line can say why it is private)."""
    return f"{PREFIX}{topic}@{private:.2f}"


def parse(lab: str) -> tuple[str, float] | None:
    """The topic and probability a private label of this head names; None for other labels."""
    if not lab.startswith(PREFIX) or "@" not in lab:
        return None
    topic, _, p = lab[len(PREFIX) :].rpartition("@")
    try:
        return topic, float(p)
    except ValueError:
        return None


def stored_label(value: object) -> str | None:
    """The private label of a stored reading (``[topic, probability, …]`` kept with a record
    or a user turn at write time) when the shipped head calls it private; None otherwise."""
    return label_of(Sensitivity.of_stored(value))


def label_of(found: Sensitivity | None, theirs: bool = False) -> str | None:
    """The private label the shipped head gives a reading (from ``critical.THEIRS`` for
    someone else's matter, from its threshold otherwise); None below it."""
    model = bundled()
    if model is None or found is None:
        return None
    return found.label(THEIRS if theirs else model.threshold, theirs)


def current(value: object) -> Sensitivity | None:
    """A stored reading written by the shipped head (same version); None for one written by
    another head, or before there was one, which a reader labels again when it meets it."""
    model, found = bundled(), Sensitivity.of_stored(value)
    return found if model is not None and found is not None and found.version == model.version else None


def mark(records: Sequence[MemoryRecord], read: Callable[[Sequence[str]], list[Sensitivity]]) -> None:
    """Write time, beside the sentence readings: a fact or preference about to be stored
    carries the sensitivity of its own wording (``attributes["sensitive"]``), and each user
    turn of an episode that of its most private sentence (``statements[*].sensitive``), so a
    record distilled from the turn is private with it however neutrally it is worded ("has
    an appointment every other Thursday"). ``read`` is the sentence reader's memoised read."""
    records = [r for r in records if r.type is not MemoryType.EPISODE or r.attributes.get("statements")]
    facts = [r for r in records if r.type is not MemoryType.EPISODE]
    for r, found in zip(facts, read([first_person(r.content) for r in facts]), strict=True):
        r.attributes["sensitive"] = found.stored()
    for r in records:
        for st in r.attributes.get("statements") or [] if r.type is MemoryType.EPISODE else []:
            text = st.get("text") if isinstance(st, dict) else None
            if isinstance(text, str) and (parts := sentences(text)):  # the turn whole, and each
                # sentence: as ``SentenceReader.relabel`` reads it ("我爸春天走了。我妈现在一个人住…"
                # is grief at 0.93 whole, 0.52 at its likeliest sentence)
                said = read(list(dict.fromkeys([text, *parts])))
                st["sensitive"] = max(said, key=lambda x: x.private).stored()


class SensitivityModel:
    """The head plus the embedder name its weights were trained against.

    Requests have a head of their own (``request_head``, when the weights carry one): the
    same statements plus requests written apart, many of them near misses (a present, a card,
    decorations) that must not read as bearing on safety. Learnt in one softmax with the
    statements, the requests' ``safety`` rows pulled the class toward the query side, and a
    statement's safety need fell ("我包里常年揣着一支肾上腺素笔，以防不测": 0.28 → 0.06, no
    longer safety-critical); apart, statements read as before and keep their stored version."""

    def __init__(
        self,
        head: Head,
        version: str,
        embedder: str,
        threshold: float,
        request: float,
        request_head: Head | None = None,
    ) -> None:
        if not set(NOT_PRIVATE) <= set(head.labels):
            raise ConfigError("sensitivity model lacks the none/safety labels")
        if request_head is not None and request_head.labels != head.labels:
            raise ConfigError("sensitivity request head has other labels")
        self.head = head
        self.request_head = request_head or head
        self.version = version
        self.embedder = embedder
        self.threshold = threshold  # a sentence this likely private is private
        self.request = request  # a request this likely about a private topic bears on it
        self._private = np.array([lab not in NOT_PRIVATE for lab in head.labels])

    def predict(self, x: Array) -> list[Sensitivity]:
        """One reading per embedding row."""
        if len(x) == 0:
            return []
        p = self.head.probabilities(unit_rows(x))
        masked = np.where(self._private, p, -1.0)
        safety = self.head.labels.index("safety")
        out = []
        for i in range(len(p)):
            top = int(np.argmax(masked[i]))
            out.append(
                Sensitivity(
                    self.head.labels[top], float(p[i, self._private].sum()), float(p[i, safety]), self.version
                )
            )
        return out

    def topics(self, x: Array) -> frozenset[str]:
        """The private topics a request (its embedding, one row) is about: those it gives
        at least ``request`` probability, and the topics those open (``TOPIC_OPENS``)."""
        p = self.request_head.probabilities(unit_rows(np.atleast_2d(x)))[0]
        found = {
            lab
            for lab, q, priv in zip(self.head.labels, p, self._private, strict=True)
            if priv and q >= self.request
        }
        return frozenset(found.union(*(TOPIC_OPENS.get(t, ()) for t in found)))

    def safety_need(self, x: Array) -> float:
        """How likely a request (its embedding, one row) bears on the user's safety: a meal,
        a trip, an outing, a remedy — what every safety-critical fact is for."""
        p = self.request_head.probabilities(unit_rows(np.atleast_2d(x)))[0]
        return float(p[self.head.labels.index("safety")])

    def to_bytes(self) -> bytes:
        arrays: dict[str, Any] = {  # array values (numpy's stub would take a key for allow_pickle)
            "version": np.array(self.version),
            "embedder": np.array(self.embedder),
            "labels": np.array(self.head.labels),
            "weights": self.head.weights.astype(np.float32),
            "bias": self.head.bias.astype(np.float32),
            "temperature": np.array(self.head.temperature, dtype=np.float32),
            "threshold": np.array(self.threshold, dtype=np.float32),
            "request": np.array(self.request, dtype=np.float32),
        }
        if self.request_head is not self.head:
            arrays["request_weights"] = self.request_head.weights.astype(np.float32)
            arrays["request_bias"] = self.request_head.bias.astype(np.float32)
            arrays["request_temperature"] = np.array(self.request_head.temperature, dtype=np.float32)
        buf = BytesIO()
        np.savez_compressed(buf, **arrays)
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> SensitivityModel:
        try:
            z = np.load(BytesIO(data), allow_pickle=False)
            labels = tuple(str(s) for s in z["labels"])
            head = Head(labels, z["weights"], z["bias"], float(z["temperature"]))
            asked = (
                Head(labels, z["request_weights"], z["request_bias"], float(z["request_temperature"]))
                if "request_weights" in z.files
                else None
            )
            return cls(
                head, str(z["version"]), str(z["embedder"]), float(z["threshold"]), float(z["request"]), asked
            )
        except (KeyError, ValueError, OSError) as exc:
            raise ConfigError(f"unreadable sensitivity model: {exc}") from exc


@cache
def bundled() -> SensitivityModel | None:
    """The shipped head, or None when this build carries no weights. Its version names the
    condition lexicon too (``with_conditions``): readings stored by the head alone are read
    again when met."""
    path = resources.files("memquill").joinpath(MODEL_FILE)
    if not path.is_file():
        return None
    model = SensitivityModel.from_bytes(path.read_bytes())
    model.version += CONDITIONS
    return model


def with_conditions(found: Sensitivity, text: str) -> Sensitivity:
    """A text naming a condition of the typed lexicon (``value_kinds.condition_named``) is at
    least as private as the head's bar, on a health topic. The head, trained on a few thousand
    rows, reads some conditions as ordinary (a wife's breast cancer 0.46, "a sports betting
    habit I'm struggling to shake" 0.09) and they rode into every request; the lexicon is data,
    a condition more is a line. A safety need stays one: the head's safety reading is kept, and
    a safety-critical text is never hidden by this head (``Sensitivity.label``)."""
    model = bundled()
    if model is None or found.private >= model.threshold or not value_kinds.condition_named(text):
        return found
    topic = found.topic if found.topic in HEALTH_TOPICS else "health"
    return Sensitivity(topic, model.threshold, found.safety, found.version)
