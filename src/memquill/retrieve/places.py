"""Cities named in a sentence, from a shipped gazetteer (``data/places.json``).

People state where they live in passing — "Lashing rain in Cork again", "我们洛阳这几天牡丹
全开了" — and the attribute classifier reads such a sentence as weather or an event, not as
the user's city, so the city (the fact a request for a local recommendation needs most)
never reached the profile. A list of the world's cities (GeoNames, 30,000 people or more,
built by ``scripts/build_places.py``) names it instead. A Latin-script name counts when
capitalised; one that is also an ordinary word ("Cork", "Reading", "Nice") only inside a
sentence, where the capital is not the sentence's own. A Chinese name counts when the
segmenter cuts it out as a word ("大同" in "大同小异" is not cut out whole… and is not a city
there either way).

Whose city it is, is not for this module to say: ``mentioned_person`` tells when a sentence
is about someone in the user's life ("my girlfriend is a pastry chef", "女朋友在成都工作"),
with the relation words of the attribute catalogue.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from memquill.catalogue import load
from memquill.retrieve.attributes import Attribute, Catalogue
from memquill.text import _jieba, jieba_posseg
from memquill.write.extract.subjects import relation_alternations

if TYPE_CHECKING:
    from memquill.retrieve.sentences import Reading

CITY = "city"  # the catalogue attribute a sentence naming a city in passing states

_LATIN = re.compile(r"(?<![A-Za-z])([A-Z][A-Za-z'.-]+(?:[ -][A-Z][A-Za-z'.-]+){0,2})")
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？]\s*)$")


@cache
def _gazetteer() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    raw = json.loads(resources.files("memquill").joinpath("data/places.json").read_text("utf-8"))
    return frozenset(raw["names"]), frozenset(raw["word_names"]), frozenset(raw["zh"])


def cities(text: str) -> list[str]:
    """Cities the sentence names, as written, in order of appearance."""
    names, words, zh = _gazetteer()
    out: list[str] = []
    for m in _LATIN.finditer(text):
        phrase = m.group(1)
        parts = phrase.split(" ")
        # longest known prefix: "Cape Town" before "Cape", "Leeds" of "Leeds's"
        for n in range(len(parts), 0, -1):
            name = re.sub(r"(?:'s|’s|'|\.)$", "", " ".join(parts[:n]))
            if name in names or (name in words and not _SENTENCE_START.search(text[: m.start()])):
                out.append(name)
                break
    for chunk in _CJK.findall(text):
        out.extend(w for w in _jieba().cut(chunk) if w in zh)
    return list(dict.fromkeys(out))


def names_place(text: str) -> bool:
    """The sentence names a place: a city of the gazetteer, or a word the segmenter tags as a
    place name (县, 区 and towns it knows: "我们海珠这边", "老家在绩溪")."""
    if cities(text):
        return True
    return any(flag == "ns" for chunk in _CJK.findall(text) for _, flag in jieba_posseg().cut(chunk))


@cache
def _relations() -> tuple[re.Pattern[str], re.Pattern[str]]:
    zh, en = relation_alternations()  # the Chinese one with the Latin words Chinese says ("leader")
    zh_rx = re.compile(r"(?:^|我的?|我们|我家|咱)(" + zh + ")")
    en_rx = re.compile(r"\b(?:my|our)\s+(?:\w+\s+)?(" + en + r")s?\b", re.IGNORECASE)
    return zh_rx, en_rx


def mentioned_person(text: str) -> bool:
    """The sentence is about someone in the user's life: a relation word of the catalogue
    after "my"/"我" or opening the sentence ("my twin", "女朋友在成都工作")."""
    zh_rx, en_rx = _relations()
    return bool(zh_rx.search(text) or en_rx.search(text))


def people(text: str) -> frozenset[str]:
    """The relations of the people in the user's life a text names ("my dad", "我爸" →
    ``father``), in either language."""
    cat = load()
    found = {m.group(1) for rx in _relations() for m in rx.finditer(text)}
    return frozenset(k for w in found if (k := cat.relation(w)) is not None)


def reading(
    text: str,
    read: tuple[str, float],
    cat: Catalogue,
    known: Collection[str],
    groups: Collection[str],
    floor: float,
    home: str | None = None,
) -> tuple[Attribute | None, float]:
    """The attribute an episode sentence states about the user, and how sure that is.

    The classifier's reading (``read``), except for a city said in passing: "Lashing rain in
    Cork again" reads as weather, "我们洛阳这几天牡丹全开了" as an event, yet each is where the
    user lives. A sentence naming a city of the gazetteer, about no one else in the user's
    life, that the classifier does not read as another standing fact (of ``groups``, at
    ``floor``), states the user's city — while no record states one (``known``)."""
    key, score = read
    attr = cat.attributes.get(key)
    city = cat.attributes.get(CITY)
    if city is None or CITY in known or (attr is not None and attr.profile in groups and score >= floor):
        return attr, score
    if text == home:
        return city, floor
    return attr, score


def home(read: Sequence[tuple[str, Reading]]) -> str | None:
    """Of the user's sentences (newest first) naming a city of the gazetteer about no one
    else in their life, the one taken as where they live: the newest. (Preferring the one
    the classifier reads most as a city did worse: it reads "Amma's flying in from Chennai"
    as a city as readily as "the perks of living in Bristol".)"""
    return next((t for t, _ in read if cities(t) and not mentioned_person(t)), None)
