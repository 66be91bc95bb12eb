"""Health metrics from a store's raw tallies (DESIGN §6 figures).

conflict rate > 10% warns, > 30% is critical; utilisation (useful ÷ retrieved) < 20% says
the write gate is too loose; a growing dead-letter count says the worker is failing.
"""

from __future__ import annotations

from typing import Any

from memquill.model.block import Tally

OPEN = ("active", "candidate", "needs_review")


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    xs = sorted(values)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 4)


def stats(
    t: Tally, hot_path_ms: list[float] | None = None, cold_start_ms: float | None = None
) -> dict[str, Any]:
    by_status = {s: sum(types.values()) for s, types in t.records.items()}
    by_type: dict[str, int] = {}
    for types in t.records.values():
        for ty, n in types.items():
            by_type[ty] = by_type.get(ty, 0) + n
    live = sum(by_status.get(s, 0) for s in OPEN)
    written = sum(by_status.values())
    review = by_status.get("needs_review", 0)
    conflict_rate = review / live if live else 0.0
    merged = by_status.get("superseded", 0) + by_status.get("invalidated", 0)
    utilisation = t.useful / t.accesses if t.accesses else None
    out: dict[str, Any] = {
        "events": t.events,
        "events_per_day": t.events_by_day,
        "records": written,
        "records_by_status": by_status,
        "records_by_type": by_type,
        "conflict_rate": round(conflict_rate, 4),
        "open_reviews": review,
        "churn_rate": round(merged / written, 4) if written else 0.0,
        # statements that repeated something already known, out of all statements written
        "duplicate_rate": _ratio(t.ops.get("merge", 0), t.ops.get("merge", 0) + t.ops.get("add", 0)),
        "candidate_share": round(by_status.get("candidate", 0) / live, 4) if live else 0.0,
        "retrieved": t.accesses,
        "useful": t.useful,
        "utilization": None if utilisation is None else round(utilisation, 4),
        "queue": t.jobs,
        "queue_backlog": t.jobs.get("queued", 0) + t.jobs.get("running", 0),
        "dead_letters": t.jobs.get("dead", 0),
        "retries": t.retries,
        "processing_latency_s": {
            "p50": _pct(t.job_latency_s, 0.5),
            "p95": _pct(t.job_latency_s, 0.95),
        },
        "records_per_event": round(written / t.events, 4) if t.events else 0.0,
    }
    if hot_path_ms:
        out["hot_path_ms"] = {
            "n": len(hot_path_ms),
            "p50": _pct(hot_path_ms, 0.5),
            "p95": _pct(hot_path_ms, 0.95),
        }
    if cold_start_ms is not None:
        out["cold_start_ms"] = round(cold_start_ms, 1)
    out["warnings"] = warnings(out)
    return out


def warnings(s: dict[str, Any]) -> list[str]:
    w = []
    if s["conflict_rate"] > 0.30:
        w.append(f"critical: conflict rate {s['conflict_rate']:.0%} > 30%")
    elif s["conflict_rate"] > 0.10:
        w.append(f"warning: conflict rate {s['conflict_rate']:.0%} > 10%")
    if s["utilization"] is not None and s["retrieved"] >= 20 and s["utilization"] < 0.20:
        w.append(f"warning: utilization {s['utilization']:.0%} < 20% — the write gate may be too loose")
    if s["dead_letters"]:
        w.append(f"warning: {s['dead_letters']} dead-lettered job(s)")
    hot = s.get("hot_path_ms")
    if hot and hot["p95"] is not None and hot["p95"] > 500:
        w.append(f"warning: hot-path p95 {hot['p95']:.0f} ms > 500 ms — move work off the hot path")
    return w
