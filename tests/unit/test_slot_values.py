"""The values of a slot's kind a statement names (``retrieve.slot_values.named``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.retrieve.slot_values import named

NOW = datetime(2026, 11, 29, tzinfo=UTC)


@dataclass
class Said:
    record: MemoryRecord
    text: str


def _episode(text: str) -> Said:
    rec = MemoryRecord(
        id="m-1",
        type=MemoryType.EPISODE,
        scope=Scope(user="u"),
        subject="conversation",
        key="episode:x",
        content=text,
        confidence=0.9,
        source=Source.OBSERVED,
        evidence=["e-1"],
        created_at=NOW,
        updated_at=NOW,
    )
    return Said(rec, text)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("vacuum full locks the table right? pantrybot has like 40 users i can just run it at 3am", set()),
        ("moved pantrybot from sqlite to postgres yesterday", {"sqlite", "postgres"}),
        ("pantrybot deploys to fly.io keep failing", set()),  # a deploy target, not a database
    ],
    ids=["a-time-is-no-database", "databases", "another-role"],
)
def test_a_stack_roles_statement_names_only_that_roles_technology(text: str, values: set[str]) -> None:
    assert named("stack:database", _episode(text)) == values
