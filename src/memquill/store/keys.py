"""Job identities, built the same way in Python and in both stores' SQL."""

from __future__ import annotations


def job_key(kind: str, *parts: str) -> str:
    """An identity no two different part tuples share: every part but the last is
    length-prefixed, so a separator inside a tenant, user or id cannot shift the boundaries
    (``extract:1:a:3:b:c:e`` is tenant "a", user "b:c", event "e")."""
    *head, last = parts
    return ":".join([kind, *(f"{len(p)}:{p}" for p in head), last])


# ``job_key("extract", tenant, user, event id)`` for an ``events`` row aliased ``e``; SQL
# ``length`` counts characters like Python's ``len`` in both SQLite and PostgreSQL.
EXTRACT_KEY_SQL = (
    "'extract:' || length(e.tenant) || ':' || e.tenant || ':' || length(e.user_id) || ':' "
    "|| e.user_id || ':' || e.id"
)
