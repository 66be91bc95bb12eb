"""Forward-only, numbered schema migrations; one runner for every backend."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memquill.errors import MigrationError


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def pending(applied: int | Iterable[int], migrations: Sequence[Migration]) -> list[Migration]:
    """Migrations not applied yet, in order; refuses a database from the future.

    ``applied`` is the set of versions recorded in the database (or, for an old caller, the
    highest one). Versions are numbered apart, so a database may have 12 but not 11: every
    missing version runs, not only those above the highest."""
    versions = [m.version for m in migrations]
    if versions != sorted(versions) or len(set(versions)) != len(versions):
        raise MigrationError("migrations must have strictly increasing versions")
    done = set(range(1, applied + 1)) if isinstance(applied, int) else set(applied)
    latest = versions[-1] if versions else 0
    unknown = sorted(v for v in done - set(versions) if v > latest)
    if unknown:
        raise MigrationError(
            f"database schema is version {unknown[-1]}, newer than this memquill ({latest}); upgrade"
        )
    return [m for m in migrations if m.version not in done]


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


# Shared: reads of one kind of record, newest first (the user's newest episodes, read by every
# ``context()`` for the private gate), without walking every record of the user.
MEMORIES_BY_TYPE = Migration(
    16,
    "memories: index by type",
    ("CREATE INDEX memories_type ON memories (tenant, user_id, type, status, updated_at)",),
)
