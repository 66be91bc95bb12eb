"""Forward-only, numbered schema migrations; one runner for every backend."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memquill.errors import MigrationError


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def pending(current: int, migrations: Sequence[Migration]) -> list[Migration]:
    """Migrations to run after ``current``, in order; refuses a database from the future."""
    versions = [m.version for m in migrations]
    if versions != sorted(versions) or len(set(versions)) != len(versions):
        raise MigrationError("migrations must have strictly increasing versions")
    latest = versions[-1] if versions else 0
    if current > latest:
        raise MigrationError(
            f"database schema is version {current}, newer than this memquill ({latest}); upgrade"
        )
    return [m for m in migrations if m.version > current]


# Shared by both backends (the statements are portable): a job's reference (the event id of
# an extract job…) in a column of its own, so queries join on it instead of re-parsing keys.
JOB_REF = Migration(
    12,
    "jobs: reference column",
    (
        "ALTER TABLE jobs ADD COLUMN ref TEXT",
        "UPDATE jobs SET ref = substr(key, length('extract:' || tenant || ':' || user_id || ':') + 1) "
        "WHERE kind = 'extract'",
        "CREATE INDEX jobs_ref ON jobs (tenant, user_id, kind, ref)",
    ),
)
