"""Per-question LoCoMo diff of the attribute model on vs off: which hits took the gold's place.

Usage: .venv/bin/python bench/locomo_diff.py --db-dir DIR [--only conv-26] [--mode on|off|both]
       [--ingest-only] [--out dump.json]

Each conversation is ingested once per mode into ``DIR/<conv>-<mode>.db`` (reused when it
exists, so ranking changes can be measured without the slow write path), then every QA item
is searched and its top 10 dumped (id, type, rule, score, legs, evidence, content). With
both modes, the questions that lose recall_any@10 with the model on are printed with both
lists, and each displacing hit is bucketed by what made it (type / rule / route).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DEFAULT_DATA, Conversation, feed, load_conversation, make_token_counter, recall_any


def open_memory(db: Path, conv: Conversation, model: bool, ingest_only: bool = False) -> Any:
    """The conversation's store for one mode: ingested once into ``db``; searches run on a
    fresh copy, since a search records accesses (recency, usefulness) that would change the
    next run's ranking."""
    from memquill import Memory
    from memquill.settings import Settings

    settings = Settings.from_env(attribute_model=model)
    if not db.exists():
        mem = Memory(str(db), settings=settings)
        feed(mem, conv)
        mem.close()
    if ingest_only:
        return None
    work = db.with_suffix(f".search-{os.getpid()}.db")
    for suffix in ("", "-wal", "-shm"):
        src, dst = Path(str(db) + suffix), Path(str(work) + suffix)
        dst.unlink(missing_ok=True)
        if src.exists():
            shutil.copyfile(src, dst)
    return Memory(str(work), settings=settings)


def hit_row(h: Any) -> dict[str, Any]:
    m = h.memory
    return {
        "id": m.id,
        "type": str(getattr(m.type, "value", m.type)),
        "rule": str(m.attributes.get("rule", "")),
        "key": m.key,
        "subject": m.subject,
        "score": round(float(h.score), 4),
        "legs": sorted(h.why.get("legs", {})),
        "via": h.why.get("legs", {}).get("slot", {}).get("via"),
        "evidence": [str(e) for e in m.evidence],
        "content": m.content[:160],
    }


COUNT = [make_token_counter()[0]]
DEPTH = 30  # deep enough to see where a displaced gold hit went


def retired(mem: Any, user: str, gold: list[str]) -> list[str]:
    """Keys of the records citing a gold turn that are no longer active or valid now."""
    recs = mem.records(user=user, statuses=["superseded", "invalidated", "archived", "active"])
    return sorted(
        r.key
        for r in recs
        if set(gold) & {str(e) for e in r.evidence}
        and (str(getattr(r.status, "value", r.status)) != "active" or r.valid_to is not None)
    )


def dump(conv: Conversation, mem: Any) -> list[dict[str, Any]]:
    from memquill.clock import parse_instant
    from memquill.model import Scope
    from memquill.retrieve.pipeline import Query

    at = conv.sessions[-1].at.isoformat()
    out = []
    for q in conv.qa:
        deep = mem.retriever.search(
            Query(q.question, Scope.of(user=conv.sample_id), k=DEPTH, at=parse_instant(at, None)), log=False
        )  # before the logged search, which changes what it touches
        hits = mem.search(q.question, user=conv.sample_id, k=10, at=at)
        rows = [hit_row(h) for h in hits]
        rows += [hit_row(h) for h in deep[10:]]
        out.append(
            {
                "q": q.question,
                "cat": q.category,
                "gold": q.gold,
                "any10": recall_any(q.gold, [r["evidence"] for r in rows], 10),
                "retired": retired(mem, conv.sample_id, q.gold),
                "tokens5": sum(COUNT[0](h.memory.content) for h in hits[:5]),
                "hits": rows,
            }
        )
    return out


def bucket(row: dict[str, Any]) -> str:
    if row["type"] == "episode":
        return "episode"
    made = "model" if row["rule"].startswith("model:") else "rule"
    return f"{made}/{'slot:' + str(row['via']) if row['via'] else 'hybrid'}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--db-dir", type=Path, required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--mode", choices=("on", "off", "both"), default="both")
    ap.add_argument("--ingest-only", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--compare", nargs=2, type=Path, default=None, help="ON.json OFF.json: report only")
    ap.add_argument("--weighted", choices=("yes", "no"), default="yes", help="model facts weighted by score")
    ap.add_argument("--unshift", choices=("yes", "no"), default="yes", help="model facts keep no leg rank")
    ap.add_argument("--fused", choices=("yes", "no"), default="yes", help="model facts folded into episodes")
    args = ap.parse_args(argv)
    if args.compare:
        on, off = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        report({c: {"on": on[c]["on"], "off": off[c]["off"]} for c in on if c in off}, ["on", "off"])
        return 0
    from memquill.retrieve import derived

    derived.WEIGHTED, derived.FUSED = args.weighted == "yes", args.fused == "yes"
    derived.UNSHIFT = args.unshift == "yes"
    args.db_dir.mkdir(parents=True, exist_ok=True)
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    if args.only:
        samples = [s for s in samples if s["sample_id"] in args.only.split(",")]
    modes = ["on", "off"] if args.mode == "both" else [args.mode]
    result: dict[str, dict[str, Any]] = {}
    for s in samples:
        conv = load_conversation(s)
        for mode in modes:
            mem = open_memory(
                args.db_dir / f"{conv.sample_id}-{mode}.db", conv, mode == "on", args.ingest_only
            )
            if mem is not None:
                result.setdefault(conv.sample_id, {})[mode] = dump(conv, mem)
                mem.close()
                for copy in args.db_dir.glob(f"{conv.sample_id}-{mode}.search-{os.getpid()}.db*"):
                    copy.unlink()
            print(f"{conv.sample_id} {mode} done", file=sys.stderr)
    if args.ingest_only:
        return 0
    report(result, modes)
    if args.out:
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def report(result: dict[str, dict[str, Any]], modes: list[str]) -> None:
    n = sum(1 for c in result.values() for q in c[modes[0]] if q["cat"] != 5)
    for mode in modes:
        got = sum(q["any10"] for c in result.values() for q in c[mode] if q["cat"] != 5)
        tok = sum(q["tokens5"] for c in result.values() for q in c[mode] if q["cat"] != 5)
        print(f"{mode}: recall_any@10 {got / max(1, n):.3f} over {n}; tokens@5 {tok / max(1, n):.1f}")
    if modes != ["on", "off"]:
        return
    causes: dict[str, int] = {}
    above: dict[str, int] = {}
    for cid, c in result.items():
        pairs = [(a, b) for a, b in zip(c["on"], c["off"], strict=True) if a["cat"] != 5]
        lost = [(a, b) for a, b in pairs if a["any10"] < b["any10"]]
        won = sum(1 for a, b in pairs if a["any10"] > b["any10"])
        print(f"\n=== {cid}: lost {len(lost)}, won {won}")
        for a, b in lost:
            cause = lost_cause(a, b, above)
            causes[cause] = causes.get(cause, 0) + 1
            print(f"\nQ [{a['cat']}] {a['q']}  gold={a['gold']}  cause={cause}")
            gold = set(a["gold"])
            off = next(h for h in b["hits"] if gold & set(h["evidence"]))
            print(f"  off gold #{b['hits'].index(off) + 1} {off['key']}: {off['content'][:90]}")
            for i, h in enumerate(a["hits"][:12]):
                g = " GOLD" if gold & set(h["evidence"]) else ""
                print(
                    f"  on {i + 1:2d} {bucket(h):20s} {h['score']:.3f}{g} {h['evidence'][:3]} {h['content'][:80]}"
                )
    print("\nlost questions by cause:", causes)
    print("kinds ranked above the gold hit in lost questions (not above it with the model off):", above)


def lost_cause(a: dict[str, Any], b: dict[str, Any], above: dict[str, int]) -> str:
    """retired (the gold record the off run found is closed), outranked (it is further
    down: the kinds above it are counted), or reshaped (no record of that key/evidence)."""
    gold = set(a["gold"])
    off = next(h for h in b["hits"] if gold & set(h["evidence"]))
    if off["key"] in a["retired"]:
        return "retired"
    same = [i for i, h in enumerate(a["hits"]) if gold & set(h["evidence"])]
    if not same:
        return "reshaped/deeper"
    off_keys = {(h["type"], tuple(h["evidence"])) for h in b["hits"][: b["hits"].index(off)]}
    for h in a["hits"][: same[0]]:
        if (h["type"], tuple(h["evidence"])) not in off_keys:
            above[bucket(h)] = above.get(bucket(h), 0) + 1
    return "outranked"


if __name__ == "__main__":
    raise SystemExit(main())
