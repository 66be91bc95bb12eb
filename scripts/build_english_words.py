"""Build the English word lists ``src/memquill/data/english_words.json``.

    apt-get install wordnet-base   (or: dpkg-deb -x wordnet-base_*.deb /tmp/wn)
    .venv/bin/python scripts/build_english_words.py [--wordnet /usr/share/wordnet]

No English POS tagger ships with memquill. Two questions need one:

* ``verbs`` (``patterns_common.imperative``): an order to the assistant ("rerun them once",
  "book a table") starts with a verb in its base form; "Pescatarian now I suppose" does not.
  WordNet 3.0 ``index.verb`` single-word lemmas, except those whose adjective and adverb
  senses in SemCor outnumber their verb senses ("still", "back", "right"): at the start of a
  clause they are that adjective or adverb.
* ``nouns`` (``retrieve/whose.py``): a capitalised word opening a turn ("Company's opening an
  office", "School's back") is an ordinary noun, not a person's name, when it is a WordNet
  noun tagged at least once in SemCor ("Priya", "Olivia", "Sam" are not).

Source: WordNet 3.0 (Copyright 2006 by Princeton University; WordNet license). WordNet is not
needed at run time.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src/memquill/data/english_words.json"
# Verbs of chat and software that WordNet 3.0 (2006) does not list as verbs.
_NEWER = ("text", "google", "dm", "slack", "zoom", "venmo", "whatsapp", "screenshot", "gif")


def tagged(path: Path) -> dict[str, int]:
    """lemma → how often its senses were tagged in SemCor (``tagsense_cnt``)."""
    counts: dict[str, int] = {}
    for line in path.read_text("utf-8").splitlines():
        if line.startswith(" "):
            continue  # licence header
        parts = line.split()
        pointers = int(parts[3])
        counts[parts[0]] = int(parts[5 + pointers])
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = ap.parse_args()
    verbs = tagged(args.wordnet / "index.verb")
    adj, adv = tagged(args.wordnet / "index.adj"), tagged(args.wordnet / "index.adv")
    nouns = sorted(w for w, n in tagged(args.wordnet / "index.noun").items() if n > 0 and w.isalpha())
    kept = sorted(
        {w for w, n in verbs.items() if "_" not in w and w.isalpha() and adj.get(w, 0) + adv.get(w, 0) <= n}
        | set(_NEWER)
    )
    OUT.write_text(
        json.dumps(
            {
                "source": "WordNet 3.0 index.verb / index.noun, single-word lemmas (WordNet 3.0 "
                "Copyright 2006 by Princeton University; WordNet license); scripts/build_english_words.py",
                "verbs": kept,
                "nouns": nouns,
            },
            ensure_ascii=False,
            indent=0,
        )
        + "\n",
        "utf-8",
    )
    print(f"{len(kept)} verbs, {len(nouns)} nouns → {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
