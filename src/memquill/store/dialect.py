"""The differences between SQLite and PostgreSQL SQL, in one small place.

Shared statements are written once with ``?`` placeholders and built through a ``Dialect``:
placeholders, ``IN (…)`` vs ``= ANY(…)``, null-safe equality, how instants are stored, and
the few expressions (day of an instant, an integer inside the JSON body) that differ. What a
backend can do beyond the shared contract is declared in ``Capabilities``, not inferred
from its name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memquill.clock import from_epoch, to_epoch


@dataclass(frozen=True)
class Capabilities:
    """What a store offers beyond the shared contract."""

    durable_file: bool  # the whole store is one local file (copyable, no server)
    advisory_locks: bool  # writers serialise per slot without locking the database
    concurrent_writers: bool  # several processes write at once without a database-wide lock
    ann_index: bool  # approximate nearest-neighbour index for the vector leg


@dataclass(frozen=True)
class Dialect:
    name: str
    param: str  # the driver's placeholder
    null_safe_eq: str  # equality that treats NULL = NULL as true
    epoch_instants: bool  # instants stored as epoch seconds (else native timestamps)
    no_limit: int | None  # the LIMIT value that means "all rows"
    day_sql: str  # "YYYY-MM-DD" (UTC) of an instant column; {col} is replaced
    json_int_sql: str  # an integer field of the JSON body; {col}, {field} are replaced
    greatest: str  # two-argument maximum
    elapsed_sql: str  # seconds from {start} to {end}
    json_text_sql: str  # a text field at a path of the JSON body; {col}, {dotted}, {commas}
    text_sql: str = "{col}"  # a JSON column as its stored text (what the record cache keys on)

    def sql(self, text: str) -> str:
        """``text`` written with ``?`` placeholders, in this driver's style."""
        return text if self.param == "?" else text.replace("?", self.param)

    def any_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column`` equals one of ``values`` (never empty SQL for an empty list)."""
        if self.param == "?":
            if not values:
                return "0", []
            return f"{column} IN ({','.join('?' * len(values))})", list(values)
        return f"{column} = ANY(?::text[])", [list(values)]

    def is_(self, column: str) -> str:
        """Null-safe ``column = ?``."""
        return f"{column} {self.null_safe_eq} ?"

    def instant(self, dt: datetime | None) -> Any:
        """An instant as this backend stores it."""
        return to_epoch(dt) if self.epoch_instants else dt

    def read_instant(self, value: Any) -> datetime | None:
        return from_epoch(value) if self.epoch_instants else value

    def day(self, column: str) -> str:
        return self.day_sql.format(col=column)

    def json_int(self, column: str, field: str) -> str:
        return self.json_int_sql.format(col=column, field=field)

    def json_text(self, column: str, *path: str) -> str:
        return self.json_text_sql.format(col=column, dotted=".".join(path), commas=",".join(path))

    def as_text(self, column: str) -> str:
        return self.text_sql.format(col=column)

    def elapsed(self, start: str, end: str) -> str:
        return self.elapsed_sql.format(start=start, end=end)


SQLITE = Dialect(
    name="sqlite",
    param="?",
    null_safe_eq="IS",
    epoch_instants=True,
    no_limit=-1,
    day_sql="date({col}, 'unixepoch')",
    json_int_sql="json_extract({col}, '$.{field}')",
    greatest="MAX",
    elapsed_sql="{end} - {start}",
    json_text_sql="json_extract({col}, '$.{dotted}')",
)
POSTGRES = Dialect(
    name="postgres",
    param="%s",
    null_safe_eq="IS NOT DISTINCT FROM",
    epoch_instants=False,
    no_limit=None,
    day_sql="to_char({col} AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    json_int_sql="(({col})->>'{field}')::bigint",
    greatest="GREATEST",
    elapsed_sql="EXTRACT(EPOCH FROM {end} - {start})::float8",
    json_text_sql="(({col})::json #>> '{{{commas}}}')",
    text_sql="{col}::text",
)
