"""One clause of a turn and the shape of a pattern that reads it.

Kept apart from ``rules.py`` (the extractor) and the ``patterns*.py`` tables, so the tables
import it without importing the extractor, and the extractor receives its table as an
argument (``RuleExtractor(PATTERNS)``): no import cycle between them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memquill.model import Candidate, Event, MemoryType, Polarity, Role, Source
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.write.extract.phrasing import sentence, third_person


@dataclass
class Clause:
    """One clause of a turn plus what the turn as a whole says about it."""

    event: Event
    text: str
    language: str
    explicit: bool
    correction: bool
    source: Source
    confidence: float
    project: str | None
    conditions: list[str] = field(default_factory=list)
    when: tuple[datetime, datetime | None] | None = None  # the clause's resolved time, UTC
    asked: bool = False  # its sentence ended with a question mark (cut off with the terminal)

    def make(
        self,
        type: MemoryType,
        subject: str,
        key: str,
        content: str,
        *,
        value: str | None = None,
        polarity: Polarity = Polarity.POSITIVE,
        level: Level = Level.USER,
        trigger: Trigger = Trigger.SIGNAL,
        confidence: float | None = None,
        rule: str,
        when: tuple[datetime, datetime | None] | None = None,
        expires_at: datetime | None = None,
        **attributes: object,
    ) -> Candidate:
        if self.explicit or self.correction:
            trigger = Trigger.HOT
        attrs: dict[str, Any] = {**attributes, "tz": self.event.timezone}
        if self.correction:
            attrs["correction"] = True
        if self.explicit:
            attrs["explicit"] = True
        return Candidate(
            type=type,
            subject=subject,
            key=key,
            value=value,
            content=sentence(content, self.language),
            polarity=polarity,
            conditions=list(self.conditions),
            observed_at=self.event.occurred_at,
            when_start=when[0] if when else None,
            when_end=when[1] if when else None,
            expires_at=expires_at,
            confidence=min(0.99, confidence if confidence is not None else self.confidence),
            source=self.source,
            evidence=[self.event.id],
            level=level,
            language=self.language,
            trigger=trigger,
            attributes=attrs,
            rule=rule,
        )

    def said(self, text: str | None = None) -> str:
        """The clause as a self-contained third-person statement."""
        return third_person(text if text is not None else self.text, self.language, self.team)

    @property
    def team(self) -> str | None:
        """Whom a "we" of this clause may name: the project; outside one, an agent's team (an
        agent's "we moved the cron to 3am" is its team's, not the user's); the user's "we" is
        the user (``phrasing._we``)."""
        if self.project:
            return f"项目 {self.project} " if self.language == "zh" else f"project {self.project}"
        if self.event.role is Role.ASSISTANT:
            return "团队" if self.language == "zh" else "the team"
        return None


Pattern = Callable[[Clause], list[Candidate]]


@dataclass(frozen=True)
class Beside:
    """A pattern family whose candidates stand beside those of the family that takes the
    clause, instead of taking it: a gathering's standing day is read in a clause that also says
    the user's plan for the week or the boss's name (``patterns_schedule``)."""

    read: Pattern

    def __call__(self, c: Clause) -> list[Candidate]:
        return self.read(c)
