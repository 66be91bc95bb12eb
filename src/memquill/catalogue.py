"""The attribute catalogue: what a structured memory can be about (DESIGN §4 rule 9).

The catalogue is data (``memquill/data/attributes.json``), not code: subject kinds, the
relation words that name people in the user's life, and for every attribute its canonical
key, value type, cardinality, default memory type, profile section, safety flag, bilingual
labels and question forms. Extraction keys its candidates with it, reconciliation reads the
cardinality (single → a new value supersedes, multi → values coexist), routing maps
questions to slots, and the context builder reads ``profile``, ``safety_critical`` and
``sensitive``.

Subjects are strings: ``user``, ``person:<relation>`` or ``person:<Name>``, ``project`` or
``project:<name>``, ``org:<name>``, ``event:<name>``, ``item:<name>``; the part before the
colon is the subject's *kind*.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from memquill.errors import ConfigError

SubjectKind = Literal["user", "person", "project", "org", "event", "item"]
ValueType = Literal[
    "place",
    "organisation",
    "person",
    "email",
    "phone",
    "date",
    "datetime",
    "number",
    "money",
    "duration",
    "enum",
    "text",
    "url",
    "language",
    "tech",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bilingual(_Frozen):
    en: str
    zh: str


class Questions(_Frozen):
    en: tuple[str, ...]
    zh: tuple[str, ...]


class KindGroup(_Frozen):
    """A word for several kinds at once: "电脑" or "computer" asks a laptop or a desktop."""

    kinds: tuple[str, ...]
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()


class KindWords(_Frozen):
    """Words or phrases by language: the words that name one kind of value (the kind itself,
    "phone", "手机", and the names its values go by, "iPhone"), or a relation's phrases."""

    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()


class Relation(_Frozen):
    """A relation word family: ``manager`` ← "boss", "领导", "上司"…; ``several`` when one
    has several people of it at once (colleagues, friends, cousins), so a second name is a
    second person rather than a new name of the first (a new manager replaces the old)."""

    key: str
    en: tuple[str, ...]
    zh: tuple[str, ...]
    several: bool = False
    work: bool = False  # met at work (a manager, a client), not in the user's own circle
    # phrases that name the relation's person at X without its word: "我们组以后归X管",
    # "X has taken over the team" name the manager
    named_by: KindWords = KindWords()
    # what one goes to the relation's person for, which a question asks by ("我现在剪头找的是谁",
    # "who cuts my hair these days?": the hairdresser)
    asked_by: KindWords = KindWords()
    # what one sees the relation's person for, said in a turn that names only the person
    # ("first cleaning with Dr. Alvarez": the dentist; "小雨剪的这个层次": the hairdresser)
    seen_for: KindWords = KindWords()


class Attribute(_Frozen):
    key: str
    subjects: tuple[SubjectKind, ...] = Field(min_length=1)
    value_type: ValueType
    cardinality: Literal["single", "multi"]
    memory_type: Literal["preference", "fact", "decision", "temporary", "procedure"]
    profile: Literal["identity", "constraint", "preference", "context", "none"]
    safety_critical: bool
    # private but not safety-critical (money, relationships, belief, body): shown only
    # where the request bears on it or names it, never merely for being near
    sensitive: bool = False
    # a named region (a city, a country, a hometown): never a building, a product or a company
    region: bool = False
    # one value per kind: a multi-valued attribute whose values fall into kinds holding one
    # value each (one phone and one laptop; one car and one bike): a new phone replaces the
    # phone, never the laptop
    kinds: dict[str, KindWords] = Field(default_factory=dict)
    kind_groups: tuple[KindGroup, ...] = ()
    # other attributes of the same subject a question about this one may find its answer in,
    # however the statement was read ("where is it hosted": a PaaS is filed as the deploy
    # target, a cloud as the cloud)
    also_in: tuple[str, ...] = ()
    # the role words a question names the attribute by, whatever else it says ("what db is
    # pantrybot on now", "where does it run, hosting-wise", "用的什么框架"): a project's stack
    # asked about a project named by a word no router has seen
    asked_by: KindWords = KindWords()
    labels: Bilingual
    questions: Questions
    description: str
    _kind_words: tuple[tuple[str, re.Pattern[str]], ...] = PrivateAttr(default=())

    def model_post_init(self, context: Any, /) -> None:
        self._kind_words = tuple(
            (kind, _word_rx(w))
            for kind, ws in self.kinds.items()
            for w in sorted({*ws.en, *ws.zh}, key=len, reverse=True)
        )

    @property
    def single(self) -> bool:
        return self.cardinality == "single"

    def words(self, described: bool = False) -> frozenset[str]:
        """The words the catalogue names the attribute by (case-folded): its key's parts and its
        labels, whole and word by word, and with ``described`` its description's words too."""
        en = self.labels.en.casefold()
        found = {*re.split(r"[:_]", self.key), en, self.labels.zh, *re.findall(r"[a-z]+", en)}
        if described:
            found.update(re.findall(r"[a-z]+", self.description.casefold()))
        return frozenset(w for w in found if w)

    def kind_of(self, value: str, text: str = "") -> str | None:
        """The kind of ``value``: the one named where the clause says it ("公路车" names a
        bicycle though its span is "车"), else the one its own words name ("iPhone 12" →
        phone), else the one its clause names ("直接买了个小米14" after "手机彻底不行了");
        None when none names exactly one. A word inside a longer one counts as the longer
        ("自行车", not "车")."""
        tries: list[tuple[str, tuple[int, int] | None]] = [(value, None), (text, None)]
        at = text.casefold().find(value.casefold()) if value else -1
        if at >= 0:
            tries.insert(0, (text, (at, at + len(value))))
        for said, span in tries:
            kinds = self._kinds_named(said, span)
            if len(kinds) == 1:
                return kinds.pop()
        return None

    def kinds_asked(self, query: str) -> set[str]:
        """The kinds a question names: one ("what laptop am I on"), or the several a group word
        stands for ("我现在主力电脑是哪台": a laptop or a desktop, not the phone); none when it
        names none."""
        if kind := self.kind_of("", query):
            return {kind}
        for group in self.kind_groups:
            if any(_word_rx(w).search(query) for w in (*group.en, *group.zh)):
                return set(group.kinds)
        return set()

    def kinds_at(self, text: str, span: tuple[int, int]) -> set[str]:
        """The kinds named in ``text`` where ``span`` stands."""
        return self._kinds_named(text, span)

    def _kinds_named(self, text: str, span: tuple[int, int] | None) -> set[str]:
        """The kinds named in ``text`` (overlapping ``span`` when given)."""
        hits = [(m.start(), m.end(), kind) for kind, rx in self._kind_words for m in rx.finditer(text)]
        return {
            kind
            for a, b, kind in hits
            if not any(x <= a and b <= y and (y - x) > (b - a) for x, y, _ in hits)
            and (span is None or (a < span[1] and span[0] < b))
        }


class Catalogue(_Frozen):
    version: str
    subject_kinds: tuple[SubjectKind, ...]
    relations: tuple[Relation, ...]
    attributes: tuple[Attribute, ...]
    _by_key: dict[str, Attribute] = PrivateAttr(default_factory=dict)
    _words: dict[str, str] = PrivateAttr(default_factory=dict)
    _relations: dict[str, Relation] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._by_key = {a.key: a for a in self.attributes}
        self._relations = {r.key: r for r in self.relations}
        self._words = {w.casefold(): r.key for r in self.relations for w in (*r.en, *r.zh)}

    def get(self, key: str) -> Attribute | None:
        """The attribute a record key names, or None for keys outside the catalogue
        (``plan:<slug>``, ``note:<slug>``, ``decision:<topic>``…)."""
        return self._by_key.get(key)

    def keys(self) -> list[str]:
        return [a.key for a in self.attributes]

    def names_thing(self, text: str, start: int, end: int) -> bool:
        """Does ``text[start:end]`` stand inside a word some attribute's kinds name ("卡罗" of
        "卡罗拉", "凯美瑞": a car)? Then it is a thing, not someone named."""
        return any(a.kinds_at(text, (start, end)) for a in self.attributes)

    def relation(self, word: str) -> str | None:
        """The relation key a word names ("表妹" → ``cousin``, "Boss" → ``manager``)."""
        return self._words.get(word.casefold())

    def relation_of(self, key: str) -> Relation | None:
        """The relation a key names (``mentor``), or None for a key that is no relation."""
        return self._relations.get(key)

    def relation_words(self) -> dict[str, str]:
        """Every relation word (case-folded) → its relation key."""
        return dict(self._words)

    def circle_words(self) -> list[str]:
        """The relation words of the user's own circle (family, partner, friends): not work's."""
        return [w for r in self.relations if not r.work for w in (*r.en, *r.zh)]

    def allows(self, key: str, subject: str) -> bool:
        """Whether ``key`` may describe ``subject`` (by the subject's kind)."""
        attr = self.get(key)
        return attr is not None and subject_kind(subject) in attr.subjects


def _word_rx(word: str) -> re.Pattern[str]:
    """A kind word as said: a Chinese one anywhere, an English one as a whole word (plural
    -s/-es allowed), case-insensitive."""
    if not word.isascii():
        return re.compile(re.escape(word))
    return re.compile(rf"(?<![A-Za-z]){re.escape(word)}(?:e?s)?(?![A-Za-z])", re.IGNORECASE)


def subject_kind(subject: str) -> str:
    """``person:cousin`` → ``person``; ``user`` → ``user``."""
    return subject.split(":", 1)[0]


def parse(text: str) -> Catalogue:
    """A catalogue from JSON text; rejects duplicate keys and unknown subject kinds."""
    try:
        cat = Catalogue.model_validate(json.loads(text))
    except (ValueError, ValidationError) as exc:
        raise ConfigError(f"invalid attribute catalogue: {exc}") from exc
    keys = cat.keys()
    if len(keys) != len(set(keys)):
        raise ConfigError("attribute catalogue has duplicate keys")
    unknown = {k for a in cat.attributes for k in a.subjects} - set(cat.subject_kinds)
    if unknown:
        raise ConfigError(f"attribute catalogue uses undeclared subject kinds {sorted(unknown)}")
    return cat


@cache
def load() -> Catalogue:
    """The bundled catalogue, parsed once per process."""
    text = resources.files("memquill").joinpath("data/attributes.json").read_text("utf-8")
    return parse(text)
