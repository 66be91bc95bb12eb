"""The migration runner applies every missing version, not only those above the highest."""

from __future__ import annotations

import pytest

from memquill.errors import MigrationError
from memquill.store.migrations import Migration, pending

MIGRATIONS = [Migration(v, f"m{v}", ()) for v in (1, 10, 11, 12, 13, 15)]


def test_a_database_missing_a_lower_version_gets_it() -> None:
    assert [m.version for m in pending({1, 10, 12, 13, 15}, MIGRATIONS)] == [11]
    assert [m.version for m in pending(set(), MIGRATIONS)] == [1, 10, 11, 12, 13, 15]
    assert pending({1, 10, 11, 12, 13, 15}, MIGRATIONS) == []


def test_a_database_from_the_future_is_refused() -> None:
    with pytest.raises(MigrationError, match="newer than this memquill"):
        pending({1, 10, 99}, MIGRATIONS)


def test_versions_must_increase() -> None:
    with pytest.raises(MigrationError):
        pending(set(), [Migration(2, "b", ()), Migration(1, "a", ())])
