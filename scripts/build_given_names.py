"""Build ``src/memquill/data/given_names.json``: common English given names, so a sentence that
opens with one ("Maya starts at Maple Grove this fall", "Mark signed with Amazon") is read as
about that person, while one opening with an ordinary word ("Matcha got expensive") is not.

Source: the 1990 US Census first-name frequency files (public domain), as shipped in the
``names`` package on PyPI (``dist.female.first``, ``dist.male.first``). Run once, offline:

    python scripts/build_given_names.py DIR_WITH_DIST_FILES

Kept: every name of both files longer than two letters that is no English word (WordNet nouns
and verbs, ``data/english_words.json``; function words), plus the curated names that are also
nouns but are said as names far more often when they open a sentence (``ALSO_WORDS``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TOP = 5000  # every name of both files
ALSO_WORDS = """adam bill brad chuck daisy dawn dean derrick earl faith grace joy ken kent lance mark
maria mary mike moses pearl ray rod rose sally sherry victor violet""".split()


def main() -> int:
    src = Path(sys.argv[1])
    root = Path(__file__).resolve().parents[1]
    words = json.loads((root / "src/memquill/data/english_words.json").read_text("utf-8"))
    from memquill.text import EN_STOP  # function words ("so", "an") are no one's name

    common = set(words["nouns"]) | set(words["verbs"]) | set(EN_STOP)
    names: set[str] = set(ALSO_WORDS)
    for part in ("female", "male"):
        lines = (src / f"dist.{part}.first").read_text("utf-8").splitlines()[:TOP]
        names |= {w for line in lines if len(w := line.split()[0].lower()) > 2 and w not in common}
    out = {
        "source": "1990 US Census first-name files (public domain) via the PyPI package 'names' "
        "0.3.0: the female and male names that are no WordNet noun or verb, plus "
        "curated names that are also nouns (scripts/build_given_names.py)",
        "names": sorted(names),
    }
    (root / "src/memquill/data/given_names.json").write_text(
        json.dumps(out, ensure_ascii=False, indent=0) + "\n", "utf-8"
    )
    print(len(names), "names")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
