"""Where ``context()`` first loses each must-include fact (decision 0016k's classification).

Usage: .venv/bin/python bench/context_trace.py --spec ... --utterances ... [--budget 300]
       [--cache DIR] [--users u01] [--show class,...]

Every miss of the block at ``--budget`` is traced through ``context()``'s own steps (search
top 10 → ``focus`` → privacy gate → standing sections → packer) and put in the first place it
was lost:

- ``never stored``: no memory holds its turn, not even an episode's full wording;
- ``private-cut``: its turn is withheld as private for this request (``Assembly.withheld``);
- ``not in top 10``: search (with ``context()``'s expansion) does not reach it;
- ``focus``: found by search, dropped by ``focus`` and shown by no standing line either;
- ``private``: found and focused, yet even a 100,000-token block does not show it (gated);
- ``budget/ranking``: a 100,000-token block shows it, the budgeted one does not.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from context_diagnose import LARGE, spec_arguments, stored_anywhere
from context_usefulness import ingested, load, shown_facts

from memquill.model import Scope
from memquill.retrieve import intents, profile
from memquill.retrieve.attributes import attribute_of
from memquill.retrieve.pipeline import focus

ORDER = ("never stored", "private-cut", "not in top 10", "focus", "private", "budget/ranking")


def trace(args: argparse.Namespace) -> tuple[Counter[str], list[dict[str, str]]]:
    users, said = load(Path(args.spec), Path(args.utterances))
    if args.users:
        users = [u for u in users if u["id"] in set(args.users.split(","))]
    classes: Counter[str] = Counter()
    rows: list[dict[str, str]] = []
    for user in users:
        mem = ingested(user, said, args.embedder, args.cache)
        anywhere = stored_anywhere(mem, user, said)
        for req in user["requests"]:
            scope = {"user": user["id"], "project": req["project"], "session": f"q-{req['id']}"}
            ctx = mem.context(req["text"], budget_tokens=args.budget, **scope)
            shown = shown_facts(mem, [(i.memory_id, i.text) for i in ctx.items], said)
            missing = sorted(set(req["must_include"]) - shown)
            if not missing:
                continue
            wide = mem.context(req["text"], budget_tokens=LARGE, **scope)
            large = shown_facts(mem, [(i.memory_id, i.text) for i in wide.items], said)
            found = mem.search(req["text"], k=10, expand=True, **scope)
            near = [h for h in found if not h.memory.attributes.get("pending")]
            kept = focus(near)
            a = profile.assemble(
                mem.store,
                Scope.of(**scope),
                req["text"],
                kept,
                mem.clock.now(),
                mem.profile_policy,
                sentence_reader=mem.sentence_reader,
                spend_once=mem.settings.context_spend_once,
                near=near,
            )
            in_near = shown_facts(mem, [(h.memory.id, h.memory.content) for h in near], said)
            in_kept = shown_facts(mem, [(h.memory.id, h.memory.content) for h in kept], said)
            for f in missing:
                if f not in anywhere:
                    c = "never stored"
                elif f in large:
                    c = "budget/ranking"
                elif f in a.withheld:
                    c = "private-cut"
                elif f not in in_near:
                    c = "not in top 10"
                elif f not in in_kept:
                    c = "focus"
                else:
                    c = "private"
                classes[c] += 1
                carriers = [
                    f"{h.memory.type.value}:{attribute_of(h.memory).key}:{h.memory.scope.project or '-'}"
                    for h in near
                    if f in shown_facts(mem, [(h.memory.id, h.memory.content)], said)
                ]
                rows.append(
                    {
                        "class": c,
                        "request": req["text"],
                        "fact": f,
                        "said": said[f],
                        "by": ",".join(carriers),
                        "bears_on": ",".join(sorted(intents.bears_on(req["text"]))),
                    }
                )
        mem.close()
    return classes, rows


def main(argv: Sequence[str] | None = None) -> int:
    p = spec_arguments(__doc__.splitlines()[0])
    args = p.parse_args(argv)
    classes, rows = trace(args)
    print(
        f"misses at {args.budget}: {sum(classes.values())}  "
        + ", ".join(f"{c} {classes[c]}" for c in ORDER if classes[c])
    )
    wanted = set(args.show.split(",")) if args.show else set()
    for r in rows:
        if "all" in wanted or r["class"] in wanted:
            print(json.dumps(r, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
