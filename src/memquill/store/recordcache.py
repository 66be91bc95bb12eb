"""Parsed records kept between reads, so the ranking path does not validate the same JSON
body again and again.

Validating a record body costs 30–90 µs; ``search()`` loads about 100 candidates and
``context()`` another 500–1,000 profile rows, most of them the same from one request to
the next. The cache maps a record id to the exact body text it was parsed from: a hit
needs the stored body to be byte-identical, so a write by any process (a new revision,
``touch``, a purge) is a miss, never a stale record. Nothing is written anywhere: the cache
lives in the store object, is bounded, and is cleared by ``forget`` / ``forget_scope`` in
this process so erased words do not linger in memory.

Records handed out are shared between callers: treat them as read-only (the code base
derives changed records with ``model_copy(update=...)``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from memquill.model import MemoryRecord
from memquill.model.change import Change, Purge
from memquill.store import codec

MAX_RECORDS = 4096  # ≈ one user's profile rows plus the candidates of a few dozen requests


class RecordCache:
    def __init__(self, size: int = MAX_RECORDS) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[str, MemoryRecord]] = OrderedDict()
        self._lock = threading.Lock()

    def parse(self, memory_id: str, body: str | bytes | dict[str, Any]) -> MemoryRecord:
        """The record stored as ``body``: the cached one if it was parsed from this very text."""
        if not isinstance(body, str):
            return codec.record_from_body(body)
        with self._lock:
            hit = self._items.get(memory_id)
            if hit is not None and hit[0] == body:
                self._items.move_to_end(memory_id)
                return hit[1]
        rec = codec.record_from_body(body)
        with self._lock:
            self._items[memory_id] = (body, rec)
            self._items.move_to_end(memory_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return rec

    def drop(self, ids: Iterable[str]) -> None:
        with self._lock:
            for i in ids:
                self._items.pop(i, None)

    def applied(self, changes: Iterable[Change]) -> None:
        """After a write: purged records leave the cache (their words are erased)."""
        self.drop(ch.memory_id for ch in changes if isinstance(ch, Purge))

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
