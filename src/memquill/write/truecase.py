"""Capitals given back to an English turn typed all in lower case, before anything reads it.

English names are found by their capitals ("my daughter Mia", "Dr. Nguyen", "moved to
Sydney"). A user who never presses shift ("mia's first week at the new school went ok",
"switched to dr nguyen, she's great") gave the readers nothing to go by: on a tuning set
written in that style the people, the doctor and the city were never read. A turn with no
capital letter at all gets them back where the word itself says so: "i" and its
contractions, a given name that is no everyday English word
("mia", "sam"; not "mark", "grace"), the word after a title ("dr nguyen"), a city of the
gazetteer that is no word, after a word that says a place ("to sydney"; not "reading"). A
turn with any capital is cased by its writer and stays as it is; the stored event keeps the
user's own text.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from memquill.write.extract.lexicon import everyday_word, given_name

# given names that are also words a lower-case writer uses as words ("max 20 minutes", "drew
# a map", "so many", "royal canin"): adjectives, adverbs and plurals WordNet's noun and verb
# lists do not flag, found among the given names said in lower case mid-sentence in the
# LoCoMo dev split and the tuning corpora
_WORDS_TOO = frozenset(
    """max drew olive sue pat bill will mark may june april august rich frank grant rob art long many
    soon else tiny miles golden numbers santa basil jasmine walker sunny hung precious rocky gay kitty
    teddy sandy novella cherry chia royal valentine gala rusty omega tai chi dusty von young grand
    happy lucky early major minor noble honey candy crystal sterling harmony hazel brown green white
    black gray grey sage misty stormy smokey ginger pepper coco cookie""".split()
)
_TITLES = frozenset("dr mr mrs ms prof".split())


def word_too(word: str) -> bool:
    """Is ``word`` a given name that is also a word people write ("Long day at work", "Max 20
    minutes", "Golden hour")? Opening a sentence, it is no sign of a person."""
    return word.casefold() in _WORDS_TOO


_WORD = re.compile(r"[a-z][a-z'’-]*")
_I = re.compile(r"(?<![\w'’])i(?=(?:['’](?:m|ve|d|ll))?(?![\w'’]))")
MAX_CITY_WORDS = 3
# a one-word city only where a place is said ("moved to sydney", "back in leeds"): many
# gazetteer names are adjectives no word list flags ("royal", "grand")
_AFTER_PLACE = re.compile(r"\b(?:in|to|from|at|near|around|outside|of|visit|visiting)\s+$")


@cache
def _cities() -> dict[str, str]:
    """Gazetteer cities by their lower-case words ("new york" → "New York"), but for those
    that are also words ("Reading", "Nice", "Bath")."""
    raw = json.loads(resources.files("memquill").joinpath("data/places.json").read_text("utf-8"))
    words = set(raw["word_names"])
    out = {}
    for name in raw["names"]:
        folded = name.casefold()
        if name in words or not name.isascii() or (" " not in folded and everyday_word(folded)):
            continue
        out[folded] = name
    return out


def lower_cased(text: str) -> bool:
    """Is ``text`` English typed without a single capital letter?"""
    return any("a" <= c <= "z" for c in text) and not any(c.isupper() for c in text) and text.isascii()


def restore(text: str) -> str:
    """``text`` with its names' capitals back, when it has none (``lower_cased``); any other
    text as it is. A sentence's first word stays as typed: a brand or a project written in
    lower case ("giffgaff", "pantrybot") keeps its spelling."""
    if not lower_cased(text):
        return text
    chars = list(text)

    def cap(start: int, end: int) -> None:
        for m in re.finditer(r"(?:^|(?<=[\s-]))[a-z]", text[start:end]):
            chars[start + m.start()] = chars[start + m.start()].upper()

    cities = _cities()
    words = list(_WORD.finditer(text))
    skip = -1
    for i, m in enumerate(words):
        if i <= skip:
            continue
        w = m.group(0).rstrip("'’")
        bare = re.sub(r"['’]s$", "", w)
        if i and words[i - 1].group(0) in _TITLES and text[words[i - 1].end() : m.start()].strip(". ") == "":
            cap(m.start(), m.start() + len(bare))  # "dr nguyen"
            continue
        if w in _TITLES and i + 1 < len(words):
            cap(m.start(), m.start() + 1)
            continue
        for n in range(min(MAX_CITY_WORDS, len(words) - i), 0, -1):  # "new york" before "york"
            phrase = text[m.start() : words[i + n - 1].end()]
            phrase = re.sub(r"['’]s$", "", phrase)
            if " ".join(phrase.split()) in cities and (n > 1 or _AFTER_PLACE.search(text[: m.start()])):
                cap(m.start(), m.start() + len(phrase))
                skip = i + n - 1
                break
        else:
            if given_name(bare) and not everyday_word(bare) and bare not in _WORDS_TOO:
                cap(m.start(), m.start() + 1)
    out = "".join(chars)
    return _I.sub("I", out)
