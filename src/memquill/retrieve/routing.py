"""Query routing: questions go to slots first, then time windows, before any fuzzy search.

"我的邮箱是什么" / "what's my email" is answered from the ``email`` slot, "where does my
cousin live" from ``person:cousin`` / ``city``, "我现在爱喝什么" from ``beverage``. A query
is routed to (subject, key) slots by, in order: fixed phrasings (``SLOT_WORDS``), the
learned question router (``question_router.py``, trained on thousands of paraphrases), the
catalogue's bilingual question forms and labels (word overlap), the nearest question form
by embedding (``question_forms.py``), and the attribute classifier over the query's
embedding. The subject is the relation the question names
("我表妹", "my boss"), the reader's project for project questions (or a key only projects
have, read in a question that speaks for a group: "which DB are we on"), else the user; a
belonging's slot and the reader's slot it answers are asked together (the car's ``model``,
the user's ``vehicle``). Time words
in the query ("明天", "last week") become a window that boosts records dated inside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

import numpy as np

from memquill import gatherings
from memquill.catalogue import Catalogue, load
from memquill.model import MemoryRecord
from memquill.retrieve import asked
from memquill.retrieve.question_forms import FormIndex
from memquill.retrieve.question_router import QuestionRouter
from memquill.text import is_cjk
from memquill.write import timenorm
from memquill.write.extract import subjects
from memquill.write.extract.classifier import AttributeClassifier

SLOT_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"邮箱|邮件地址|e-?mail", re.I)),
    ("phone", re.compile(r"手机号|电话号|phone|mobile number", re.I)),
    # "who am I?" asks the name; "who am I drawing plans for" asks something else
    ("name", re.compile(r"我叫什么|我的名字|my name\b|\bwho am i\b(?!\s*[a-z])", re.I)),
    # "what part of town / which suburb am I in": the neighbourhood, not the city it is in
    (
        "address",
        re.compile(
            r"\b(?:what|which) (?:part|area|side|corner) of (?:town|the city|\w+ (?=(?:am i|are we|do i|do we)\b))|"
            r"\b(?:which|what) (?:suburb|neighbou?rhood|district)\b|住(?:在)?哪个(?:区|小区|片区)",
            re.I,
        ),
    ),
    (
        "city",
        re.compile(
            r"我(?:现在)?住(?:在)?哪|住哪个城市|where do i live|which city|my city|based these days", re.I
        ),
    ),
    (
        "employer",
        re.compile(
            r"我在哪(?:家公司|里)?(?:工作|上班)|哪家公司|where do i work|my employer|my company|which company",
            re.I,
        ),
    ),
    ("occupation", re.compile(r"我(?:的)?(?:职位|岗位|职业)|my (?:job|role|title)|what do i do for", re.I)),
    ("team", re.compile(r"我在哪个(?:团队|组)|my team|which team", re.I)),
)
# "who do I report to", "老板现在是谁": the manager's name, asked without "my manager"
_BOSS_Q = re.compile(
    r"\breport to\b|汇报给谁|向谁汇报|(?:老板|领导|上司|上级)(?:现在)?(?:是谁|叫什么|叫啥)|"
    r"\bwho(?:'s| is) (?:my |our )?(?:boss|manager|line manager)\b",
    re.I,
)
_PROJECT_Q = re.compile(r"项目|仓库|代码库|服务|\b(?:project|repo|codebase|service|we use|our)\b", re.I)
_STOP = frozenset(
    "what which who where when how is are am do does did my me i the a an of in to for "
    "you your it this that these days now currently right".split()
)
# A question about the user's own slot speaks in the first person ("what's my email", "我住哪")
# or is terse and names nobody else ("city?", "早上喝啥"; ``asked.py``); otherwise ("When did
# Caroline join …") only a fixed phrasing may route to a user slot, while a key no user has
# ("What's Saguaro's data store") may still be routed by form or model.
MODEL_MIN = 0.5  # classifier probability needed to route a query to a slot…
SPLIT_MIN = 0.3  # …or, split between two readings, the better one's (the two must sum to 0.65)
OVERLAP_MIN = 0.6  # word-overlap score with a catalogue question needed to route


@dataclass(frozen=True)
class Slot:
    subject: str
    key: str
    via: str  # "words" | "role" | "catalogue" | "question_form" | "router" | "model"


# A question asking who holds a relation now ("我现在的导师是谁", "who's my roommate now?").
_NOW = re.compile(r"现在|目前|如今|现任|这阵子|最近|\b(?:now|current|currently|these days|nowadays)\b", re.I)


def several(slots: Sequence[Slot], names: Sequence[MemoryRecord], question: str) -> list[Slot]:
    """Each routed slot of a relation one has several people of (``Relation.several``:
    mentors, roommates, colleagues) with the slots of that relation's further people
    (``person:<relation>:<name>``, ``write/entities.py``), whose ``names`` records say they
    exist. A question asking who it is now puts the person named last first: "研究生导师周教授"
    after "毕设导师张老师" is the mentor of "我现在的导师是谁"."""
    out: list[Slot] = []
    for s in slots:
        rel = s.subject.removeprefix("person:")
        relation = load().relation_of(rel)
        if relation is None or not relation.several:
            out.append(s)
            continue
        named: dict[str, datetime] = {}
        for r in names:
            if r.subject == s.subject or r.subject.startswith(f"{s.subject}:"):
                at = r.valid_from or r.created_at
                named[r.subject] = max(named.get(r.subject, at), at)
        group = [s, *(Slot(sub, s.key, s.via) for sub in named if sub != s.subject)]
        if _NOW.search(question):
            group.sort(key=lambda g: named.get(g.subject, datetime.min.replace(tzinfo=UTC)), reverse=True)
        out += [g for g in group if g not in out]
    return out


def _terms(text: str) -> set[str]:
    text = text.casefold()
    words = {w for w in re.findall(r"[a-z][a-z'-]+", text) if w not in _STOP}
    han = re.sub(r"[^\u4e00-\u9fff]", "", re.sub(r"我|你|的|是|什么|哪|吗|呢|现在|最近", "", text))
    return words | {han[i : i + 2] for i in range(len(han) - 1)}


@cache
def _question_terms() -> tuple[tuple[str, frozenset[str]], ...]:
    out = []
    for a in load().attributes:
        for q in (*a.questions.en, *a.questions.zh, a.labels.en, a.labels.zh):
            terms = _terms(q)
            if terms:
                out.append((a.key, frozenset(terms)))
    return tuple(out)


def catalogue_key(query: str) -> str | None:
    """The attribute whose question forms share most words with the query, if enough."""
    q = _terms(query)
    if not q:
        return None
    best, best_score = None, 0.0
    for key, terms in _question_terms():
        score = len(q & terms) / len(terms)
        if score > best_score:
            best, best_score = key, score
    return best if best_score >= OVERLAP_MIN else None


_WHEN = re.compile(
    r"\b(?:right now|now|these days|currently|at the moment|again)\b|现在|最近|目前|这阵子|[^\w\s]", re.I
)


def _wording(text: str) -> str:
    """A question's words without when it is asked and punctuation ("Who am I working for
    now?" and "who am I working for these days" say the same)."""
    return " ".join(_WHEN.sub(" ", text.casefold()).split())


@cache
def _forms_said() -> dict[str, str]:
    """Each catalogue question form's wording → its attribute (a wording two attributes share
    says neither)."""
    out: dict[str, str | None] = {}
    for a in load().attributes:
        for q in (*a.questions.en, *a.questions.zh):
            w = _wording(q)
            out[w] = a.key if out.get(w, a.key) == a.key else None
    return {w: k for w, k in out.items() if k and w}


def form_said(query: str) -> str | None:
    """The attribute one of whose question forms the query says word for word."""
    return _forms_said().get(_wording(query))


def subject_of(query: str, project: str | None, named: Mapping[str, str] | None = None) -> str:
    """Whom a question asks about: a relation it names, a person the reader has named
    (``named``: name → subject, "where does Maya work now?" asks the partner called Maya),
    the reader's project, else the user."""
    rel = subjects.relation(query)
    if key := asked.named_relative(query, rel[0] if rel else None):  # "我家那位…", "my Spanish teacher"
        return f"person:{key}"
    if key := asked.relative(query):  # "老公现在做啥", "wife's job now?"
        return f"person:{key}"
    if named and (who := name_said(query, named)):
        return who
    if _PROJECT_Q.search(query):
        return f"project:{project}" if project else "project"
    return "user"


def name_said(query: str, named: Mapping[str, str]) -> str | None:
    """The subject of a known person the question names: a Latin-script name as a whole word
    in its own capitalisation ("Arjun's company?"), a Chinese one anywhere ("周琴现在在哪")."""
    for name, who in named.items():
        if len(name) < 2 or not who.startswith(("person:", "item:")):
            continue
        if is_cjk(name) and name in query:
            return who
        if not is_cjk(name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", query):
            return who
    return None


def route(
    query: str,
    project: str | None = None,
    classifier: AttributeClassifier | None = None,
    vector: np.ndarray | None = None,
    forms: FormIndex | None = None,
    router: QuestionRouter | None = None,
    named: Mapping[str, str] | None = None,
) -> list[Slot]:
    """The slots that may answer a question, most certain first (at most three); ``named``
    maps the names of people the reader has told about to their subjects."""
    subject = subject_of(query, project, named)
    cat = load()
    found: list[Slot] = [Slot(subject, k, "words") for k, rx in SLOT_WORDS if rx.search(query)]
    if items := asked.named_item(query):  # "dog's name?", "猫现在叫啥": the pet's name, not the reader's
        found = [*(Slot(i, "name", "words") for i in items), *(s for s in found if s.key != "name")]
    # "周会现在是周几", "when does book club meet these days": the reader's gathering unless the
    # question names someone else ("When did Melanie join the book club?" asks about Melanie)
    if (gathering := gatherings.asked_day(query)) and (
        asked.about_reader(query) or not asked.names_other(query)
    ):
        found.insert(0, Slot(f"event:{gathering}", "recurrence", "words"))
    # "what db is pantrybot on now", "我这阵子上下班主要靠啥": a role word names the slot, before
    # a fixed phrasing it asks about ("我这个手机号挂在哪家运营商": the carrier, not the number);
    # the reader's own only in a question about the reader ("which gym does Caroline go to")
    reader = subject != "user" or asked.about_reader(query)
    roles = [Slot(subject, k, "role") for k in role_keys(query) if reader or not cat.allows(k, "user")]
    found = [*roles, *found]
    who = "manager" if _BOSS_Q.search(query) else bare_relation(query) or who_for(query)
    if who:  # "boss?", "老板？", "剪头找的是谁": who that is
        found.insert(0, Slot(f"person:{who}", "name", "words"))
    guessed: list[Slot] = []
    if (key := catalogue_key(query)) is not None:
        guessed.append(Slot(subject, key, "catalogue"))
    if forms is not None and vector is not None:
        guessed += [Slot(subject, k, "question_form") for k in forms.keys_for(vector)]
        if subject.startswith("person:") and not guessed:
            guessed += [Slot(subject, k, "question_form") for k in _person_keys(forms, vector, cat)]
    if router is not None and vector is not None:
        # the learned reading goes before word overlap and forms ("what part of town am I living in"
        # shares "living" with an occupation form): on the router corpora's held-out share the first
        # slot is right 710 / 845 times so, 639 after them (``bench/route_check.py``)
        learned = _router_slots(query, subject, router, vector, cat)
        # …unless the question says a catalogue form word for word, as sure as a fixed phrasing
        # (the router read "who am I working for now?" as the occupation)
        said = [Slot(subject, k, "catalogue")] if (k := form_said(query)) else []
        guessed = [*said, *learned, *guessed]
    if classifier is not None and vector is not None:
        p = classifier.predict(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        guessed += [Slot(subject, key, "model") for key in _model_keys(p.attributes)]
    owned = asked.owned_item(query)
    if subject == "user" and not asked.about_reader(query) and not owned:
        # "When did Caroline …" asks about Caroline, not the user's slot ("city?" does; so does
        # "家里橘猫现在吃的啥牌子的粮", the reader's cat)
        guessed = [s for s in guessed if not cat.allows(s.key, "user")]
    if who and subject == "user":  # "现在给我做头发的是哪位发型师": no slot of the reader's answers who
        guessed = [s for s in guessed if s.subject != "user"]
    if items:
        guessed = [s for s in guessed if s.key != "name"]
    elif owned:  # "what breed is my dog": a belonging's own attributes
        guessed = [Slot(owned[0], s.key, s.via) if cat.allows(s.key, "item") else s for s in guessed]
    return _distinct(_with_belongings([*found, *guessed], query), cat, project)


def role_keys(query: str) -> list[str]:
    """The attributes a question names by a role word of the catalogue's (``asked_by``: "db",
    "hosting", "框架", "上下班", "carrier"): a project's stack asked about a project the router
    cannot place, an attribute asked around its name."""
    folded = query.casefold()
    return [
        a.key
        for a in load().attributes
        if any(_said(folded, w.casefold()) for w in (*a.asked_by.en, *a.asked_by.zh))
    ]


def _router_slots(
    query: str, subject: str, router: QuestionRouter, vector: np.ndarray, cat: Catalogue
) -> list[Slot]:
    """The router's reading as slots, kept to keys the subject (or a thing it owns) may have: a
    project key read in a question naming no project ("Keybindings you suggest should be for
    which tool?" → ``stack:library``) is a misreading — unless the reader speaks for a group
    ("which DB are we on", "我们订单库跑在啥上面"): then a key only projects have is the project's."""
    group = asked.for_group(query)
    out = []
    for k in router.keys_for(vector):
        project_only = group and cat.allows(k, "project") and not cat.allows(k, "user")
        if cat.allows(k, subject) or project_only or (cat.allows(k, "item") and asked.owned_item(query)):
            out.append(Slot(subject, k, "router"))
    return out


def _with_belongings(slots: list[Slot], query: str) -> list[Slot]:
    """Each slot followed by the other slots that may state the same answer: about the reader's
    belonging (the user's ``vehicle`` ↔ the car's ``model``, ``asked.belonging_slots``), the
    catalogue's ``also_in`` (a project's cloud ↔ its deploy target), or the user's for a pet's
    attribute the write path files there when no pet is said ("换爱肯拿了": ``pet_food``)."""
    cat = load()
    out: list[Slot] = []
    for s in slots:
        out.append(s)
        out += [
            Slot(subj, key, s.via) for subj, key in asked.belonging_slots(s.subject, s.key, is_cjk(query))
        ]
        attr = cat.get(s.key)
        out += [Slot(s.subject, key, s.via) for key in (attr.also_in if attr else ())]
        if s.subject.startswith("item:") and attr and attr.subjects[0] == "item" and "user" in attr.subjects:
            out.append(Slot("user", s.key, s.via))  # a pet's food said of no pet by kind is the user's
    return out


# A question naming a relative ("sis doing what these days") can only mean a person's
# attribute, so its nearest form among those may route at a lower cosine than one over all.
RELATIVE_MIN_COSINE = 0.89
_BARE = re.compile(
    r"^\W*(?:who(?:'s|\s+is)\s+)?(?:my\s+|the\s+|我的?|我们的?)?(?:现在的?|目前的?|(?:current|new)\s+)?"
    r"(?:(?:main|primary|official|regular|usual)\s+)?"
    r"(.+?)(?:\s+(?:now|right now|at the moment|these days|again)|现在|目前|是谁|是哪位|叫什么|叫啥|来着|呢)*\W*$",
    re.I,
)


def _person_keys(forms: FormIndex, vector: np.ndarray, cat: Catalogue) -> list[str]:
    """The person attribute of the nearest form, when near enough for a relative's question."""
    best = [(k, c) for k, c in forms.nearest(vector) if cat.allows(k, "person")]
    return [best[0][0]] if best and best[0][1] >= RELATIVE_MIN_COSINE else []


def bare_relation(query: str) -> str | None:
    """The relation a question names and nothing else ("boss?", "my dentist?", "老板？", "我现在的
    导师是谁？", "我现在导师是谁来着", "who's my mentor again?"): it asks who that person is."""
    if not re.search(r"[?？]\s*$|(?:是谁|是哪位|叫什么|叫啥)(?:来着|呢)?\W*$", query):
        return None
    m = _BARE.match(query)
    return load().relation(m.group(1).strip().casefold()) if m else None


_WHO = re.compile(r"谁|哪位|哪个|哪家|叫什么|叫啥|\bwho\b|\bwhich\b", re.I)
# "哪个医生？", "which dentist do I…", "which family doctor…": the word after the question word
_WHICH = re.compile(
    r"(?:哪个|哪位|哪家)([\u4e00-\u9fff]{1,4}?)(?:[？?呀啊呢]|$)|\bwhich\s+(\w+)(?:\s+(\w+))?", re.I
)


def who_for(query: str) -> str | None:
    """The relation a who-question names by its word ("我现在看牙找的是哪个医生", "which dentist
    do I go to now?") or by what one goes to its person for (the catalogue's ``asked_by``:
    "我现在剪头找的是谁", "who cuts my hair these days?"), when it names exactly one."""
    if not _WHO.search(query):
        return None
    folded = query.casefold()
    found = set()
    for rel in load().relations:
        words = [*rel.asked_by.en, *rel.asked_by.zh]
        if any(_said(folded, w.casefold()) for w in words):
            found.add(rel.key)
    if not found:
        m = _WHICH.search(query)
        said = [w for w in ((m.group(1), m.group(2), f"{m.group(2)} {m.group(3)}") if m else ()) if w]
        found = {key for w in said if (key := load().relation(w))}
    if not found:
        found = {key for w in _asked_words(query) if (key := load().relation(w))}
    return found.pop() if len(found) == 1 else None


_WHO_MY = re.compile(
    r"\bwho(?:'s|\s+is|\s+are)\s+(?:my|our)\s+(?:(?:new|current)\s+)?(\w+)(?:\s+(\w+))?", re.I
)


def _asked_words(query: str) -> list[str]:
    """The words a who-question may name its person by where ``_WHICH`` finds no relation:
    the relation word that opens what follows 哪个/哪位 ("哪个大夫在管") or ends what comes
    before 是谁 or 叫什么 ("房子房东是谁", "跟我合租的那位叫什么"), or the one after "who is my"
    ("Who is my therapist at this point?")."""
    out = []
    for m in re.finditer(r"哪个|哪位", query):
        rest = query[m.end() :]
        out += [rest[:n] for n in (4, 3, 2)]
    for m in re.finditer(r"(?:那位|那个人|那个)?(?:是谁|是哪位|叫什么|叫啥)", query):  # "房子房东是谁"
        out += [query[max(0, m.start() - n) : m.start()] for n in (4, 3, 2)]
    if who := _WHO_MY.search(query):
        out += [w for w in (who.group(1), f"{who.group(1)} {who.group(2)}" if who.group(2) else "") if w]
    return out


def _said(folded: str, phrase: str) -> bool:
    """A phrase said in a question: a Chinese one anywhere, an English one as whole words."""
    if not phrase.isascii():
        return phrase in folded
    return re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", folded) is not None


def _model_keys(read: tuple[tuple[str, float], ...]) -> list[str]:
    """The classifier's routes: every reading it is sure of, else — when its two best
    readings split what it is sure of between them ("寄快递给我的话，城市该填哪": ``address``
    0.46, ``city`` 0.36) — both; the slots' contents settle which one answers."""
    sure = [k for k, prob in read if prob >= MODEL_MIN]
    if sure or len(read) < 2:
        return sure
    (k1, p1), (k2, p2) = read[0], read[1]
    return [k1, k2] if p1 >= SPLIT_MIN and p1 + p2 >= MODEL_MIN + SPLIT_MIN / 2 else []


# A question the routes above leave unrouted may still be about the reader ("Config snippets
# you send me should be for which editor?", "你给我回消息应该写多长？"): its likeliest readings,
# however unsure, are tried as slots, and one is asked only when something said states it
# (``timeline.single_slot``). Addressed to the assistant ("you", "你") counts as the reader.
FALLBACK_MIN = 0.05
FALLBACK_READINGS = 3
_ADDRESSED = re.compile(r"你|\b(?:you|your)\b", re.I)  # the first person is ``asked``'s


def fallback(query: str, project: str | None, read: Sequence[tuple[str, float]]) -> list[tuple[str, str]]:
    """Slots to try for an unrouted question about the reader: its likeliest readings."""
    if not (_ADDRESSED.search(query) or asked.about_reader(query)):
        return []
    subject = subject_of(query, project)
    cat = load()
    # readings the subject may have ("sis doing what": a person has no ``stack:ci``)
    slots = [((_owner(subject, k, cat, project, not i), k), p) for i, (k, p) in enumerate(read)]
    fit = [(s, p) for s, p in slots if cat.allows(s[1], s[0])]
    return [s for s, p in fit[:FALLBACK_READINGS] if p >= FALLBACK_MIN]


def _owner(subject: str, key: str, cat: Catalogue, project: str | None, first: bool) -> str:
    """A user question about a key only projects have goes to the project ("what do we …"),
    and one a project word drew ("which streaming service…", "our go-to restaurant") to the
    user when its first slot is a key no project has."""
    if subject == "user" and not cat.allows(key, "user") and cat.allows(key, "project"):
        return f"project:{project}" if project else "project"
    if first and subject.startswith("project") and not cat.allows(key, "project") and cat.allows(key, "user"):
        return "user"
    return subject


def _distinct(found: list[Slot], cat: Catalogue, project: str | None) -> list[Slot]:
    """The first slot of each key the catalogue allows for its subject, at most three (an
    item's name may be asked under two subject names: "the pup" is ``item:dog`` or ``item:puppy``;
    a pet's food is the user's when said of no pet)."""
    out: list[Slot] = []
    for s in found:
        # "what do we manage deps with", "which streaming service…"
        s = Slot(_owner(s.subject, s.key, cat, project, not out), s.key, s.via)
        allowed = cat.allows(s.key, s.subject) or cat.get(s.key) is None
        item = s.subject.startswith("item:")
        same = [o for o in out if o.key == s.key]
        if allowed and all(o.subject != s.subject and (item or o.subject.startswith("item:")) for o in same):
            out.append(s)
    return out[:3]


def slot_keys(query: str) -> list[str]:
    """Keys of the user's own slots a query names by fixed phrasing (kept for callers)."""
    return [s.key for s in route(query) if s.subject == "user"]


def time_window(query: str, at: datetime, tz: str) -> tuple[datetime, datetime] | None:
    mentions = timenorm.find_times(query, at, tz)
    if not mentions:
        return None
    m = mentions[0]
    return (m.begin, m.until or m.begin)
