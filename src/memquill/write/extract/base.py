"""The Extractor seam: events in, candidates out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from memquill.model import Candidate, Event


@dataclass(frozen=True)
class ExtractionInput:
    """What an extractor sees.

    ``events`` are the turns to extract from; ``normalised`` maps an event id to its
    content after time and reference normalisation (absolute dates, names instead of
    pronouns); ``context`` are earlier turns of the session, for reference only.
    """

    events: Sequence[Event]
    normalised: dict[str, str] = field(default_factory=dict)
    context: Sequence[Event] = ()
    # event id -> time mentions (write.timenorm.TimeMention) found in its original text
    times: dict[str, list[Any]] = field(default_factory=dict)

    def text(self, event: Event) -> str:
        return self.normalised.get(event.id, event.content)


@runtime_checkable
class Extractor(Protocol):
    name: str

    def extract(self, batch: ExtractionInput) -> list[Candidate]: ...
