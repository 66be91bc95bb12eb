"""Erased evidence, shared by both backends.

Forgetting a record tombstones the events it was made from: the event's text is redacted in
place (its id and content hash stay, so re-sending the same turn is recognised as already
seen and never re-extracted), and a row in ``erased_events`` keeps every later reader —
extraction jobs, session-end episodes, pending turns, ``explain()`` — off it.
"""

from __future__ import annotations

import json
from typing import Any

# A WHERE fragment for an ``events`` row aliased ``{a}``; the same SQL in both dialects.
NOT_ERASED = (
    "NOT EXISTS (SELECT 1 FROM erased_events x WHERE x.tenant = {a}.tenant "
    "AND x.user_id = {a}.user_id AND x.id = {a}.id)"
)
ERASED_TEXT = ""


def not_erased(alias: str) -> str:
    return NOT_ERASED.format(a=alias)


def redacted_body(body: str | bytes | dict[str, Any]) -> str:
    """An event body without its words: content and metadata emptied, ids and times kept."""
    data = dict(body) if isinstance(body, dict) else json.loads(body)
    data["content"] = ERASED_TEXT
    data["metadata"] = {}
    return json.dumps(data, ensure_ascii=False)


def forget_tables(mine: str, event_in_project: str, project: str | None) -> dict[str, str]:
    """Table → WHERE clause for ``forget_scope``, in delete order; ``mine`` selects the user's
    rows (and the project's, when given). A project erasure keeps the user-wide tables."""
    if project is None:
        return {
            t: mine
            for t in (
                "revisions",
                "memories",
                "events",
                "jobs",
                "access_log",
                "core_blocks",
                "erased_events",
                "query_log",
                "scratch_stores",
            )
        }
    return {
        "revisions": f"memory_id IN (SELECT id FROM memories WHERE {mine})",
        "memories": mine,
        "events": mine.rsplit(" AND ", 1)[0] + f" AND {event_in_project}",
        "jobs": mine,
        "access_log": mine,
        "query_log": mine,
    }
