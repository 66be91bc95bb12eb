"""Errors raised by memquill.

Every error a caller can see derives from one root, so ``except MemquillError`` is
always enough. Driver errors (``sqlite3.*``, ``psycopg.*``) are translated at the store
boundary and never leak.

    MemquillError
    ├── ValidationError          bad input; nothing was written
    │   ├── NaiveDatetimeError   a datetime without a timezone and no ``timezone=``
    │   ├── ContentError         empty or oversized content
    │   ├── ScopeError           unknown scope key or missing required scope
    │   └── IngestLineError      a malformed JSONL line (carries ``line``)
    ├── NotFoundError            no record / event with that id
    ├── ConflictError            optimistic concurrency: the revision moved on
    ├── DuplicateEventError      same event id, different content
    ├── PermissionDeniedError    the change is not allowed (read-only, source policy)
    ├── StoreError               the backend failed (I/O, lock timeout, schema)
    │   └── MigrationError       the schema cannot be brought to this version
    ├── ProviderError            an embedder / LLM failed or is not installed
    └── ConfigError              settings are inconsistent
"""

from __future__ import annotations


class MemquillError(Exception):
    """Root of every memquill error."""


class ValidationError(MemquillError, ValueError):
    """Input was rejected before anything was written."""


class NaiveDatetimeError(ValidationError):
    """A datetime has no timezone and no ``timezone=`` was given to interpret it."""


class ContentError(ValidationError):
    """Content is empty or larger than the configured limit."""


class ScopeError(ValidationError):
    """A scope keyword is unknown, or a required one is missing."""


class IngestLineError(ValidationError):
    """A line of a JSONL ingest file is malformed; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class NotFoundError(MemquillError, KeyError):
    """No record or event with that id is visible."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want the message
        return str(self.args[0]) if self.args else "not found"


class ConflictError(MemquillError):
    """The record changed since it was read (stale revision); re-read and re-decide."""


class DuplicateEventError(MemquillError):
    """An event id was reused with different content: events are immutable."""


class PermissionDeniedError(MemquillError):
    """The change is forbidden: a read-only record or a source-priority rule."""


class StoreError(MemquillError):
    """The storage backend failed."""


class MigrationError(StoreError):
    """The database schema is newer than this code or a migration failed."""


class ProviderError(MemquillError):
    """An embedder, tokenizer or LLM provider failed or is not installed."""


class ConfigError(MemquillError):
    """Settings are missing or contradict each other."""
