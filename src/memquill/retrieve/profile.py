"""Standing sections: who the user is, what always holds for them, what the project is.

Core memory is the small state every run must see; hand-set blocks cover part of it, and
the rest is already in the store as active user-level records (name, role, city, allergies,
standing preferences) and as the records of the reader's project (stack, conventions). This
module picks those records — by the catalogue's ``profile`` group, never by keywords — and
ranks them: safety-critical first (the last thing the packer drops), then importance ×
confidence × recency, with the ones the request touches ahead of the rest. Safety-critical
memories are private: shown only where the request's situation bears on them, and their
turns are withheld from episodes elsewhere (``assemble``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from memquill.errors import ConfigError
from memquill.model import MemoryRecord, MemoryType, Scope
from memquill.model.query import RecordFilter
from memquill.model.result import Hit
from memquill.retrieve import intents, places
from memquill.retrieve.attributes import PROFILE_GROUPS, Attribute, Catalogue, attribute_of
from memquill.retrieve.attributes import bundled as bundled_catalogue
from memquill.retrieve.confided import Request, discreet
from memquill.retrieve.critical import attribute as is_critical
from memquill.retrieve.excerpts import bearing_turns, excerpts, turn_of
from memquill.retrieve.privacy import (
    PROFILE_TYPES,
    gate,
    not_for_task,
    read_standing,
    shown_because,
    withheld,
)
from memquill.retrieve.rerank import recency, tie_key
from memquill.retrieve.sentences import (
    NAMED_SCORE,
    Reading,
    SentenceReader,
    cut_private,
    excerpt,
    fuller,
    restored,
    split,
    without_private,
)
from memquill.retrieve.spend import sentences
from memquill.retrieve.standing_spend import evidence_texts, spend_standing
from memquill.settings import Settings
from memquill.store.base import Store
from memquill.text import query_terms

PROJECT_TYPES = frozenset(
    {MemoryType.FACT, MemoryType.DECISION, MemoryType.PROCEDURE, MemoryType.PREFERENCE, MemoryType.EPISODE}
)
# How much a line of each group is worth when the share is tight.
IMPORTANCE = {"constraint": 1.0, "identity": 0.9, "preference": 0.7, "context": 0.5, "episode": 0.4}
EXCERPT_LIMIT = 200  # newest user-level episodes read sentence by sentence
STANDING_SCORE = 0.5  # classifier confidence for an episode sentence to count as a profile line
# (``sentences.NAMED_SCORE`` when the request's situations name the attribute read)
EPISODE_TYPES = frozenset({MemoryType.EPISODE})
EPISODE = Attribute(key="episode", subjects=("conversation",), memory_type="episode", profile="context")


@dataclass(frozen=True)
class ProfilePolicy:
    """Per-deployment knobs (``Settings.profile_*``)."""

    share: float = 0.2  # largest share of the budget the non-critical profile may take
    groups: tuple[str, ...] = ("identity", "constraint", "preference")
    max_items: int = 12
    project_share: float = 0.2  # the same for the reader's project section
    project_max_items: int = 8
    half_life_days: float = 365.0  # standing facts fade slowly
    importance: dict[str, float] = field(default_factory=lambda: dict(IMPORTANCE))
    # who the user is: shown whatever the request, first within the share, when present
    always: tuple[str, ...] = ("name", "nickname", "city", "occupation", "employer")

    @classmethod
    def from_settings(cls, s: Settings) -> ProfilePolicy:
        groups = tuple(g.strip() for g in s.profile_groups.split(",") if g.strip())
        unknown = set(groups) - set(PROFILE_GROUPS)
        if unknown or not (0.0 <= s.profile_share <= 1.0 and 0.0 <= s.project_share <= 1.0):
            raise ConfigError(
                f"profile_groups must be among {', '.join(PROFILE_GROUPS)} and profile_share "
                f"within 0..1 (got {s.profile_groups!r}, {s.profile_share})"
            )
        return cls(
            share=s.profile_share, groups=groups, max_items=s.profile_max_items, project_share=s.project_share
        )

    @property
    def enabled(self) -> bool:
        return self.share > 0 and bool(self.groups)

    def who(self, entry: ProfileEntry) -> bool:
        """The entry says who the user is (``always``): the user's own name, city, job — not
        a wife's name, which ranked with the user's and took its room ("The user's wife is
        named Priya." in, "Marcus Hale here" out). An episode's line is the user's words
        (``_with_excerpts`` keeps no one else's identity)."""
        rec = entry.record
        return entry.attribute.key in self.always and (
            rec.subject == "user" or rec.type is MemoryType.EPISODE
        )


@dataclass(frozen=True)
class ProfileEntry:
    record: MemoryRecord
    attribute: Attribute
    score: float
    relevant: bool = False
    private: str = ""  # for a private line: why this request may see it

    @property
    def safety_critical(self) -> bool:
        return is_critical(self.attribute)


@dataclass(frozen=True)
class Standing:
    """A standing section (the user profile, the reader's project): its entries, ranked, and
    the share of the budget its non-critical lines may take before task memories are packed."""

    name: str  # "profile" | "project"
    entries: Sequence[ProfileEntry]
    share: float
    title: str = ""  # appended to the header ("Project shop")


@dataclass(frozen=True)
class Assembly:
    """What ``context()`` hands the renderer besides the fixed sections."""

    hits: list[Hit]  # task memories, private ones the request does not bear on removed
    standing: list[Standing]
    withheld: set[str]  # turns of private memories the request does not bear on
    texts: dict[str, str]  # wording of the turns episodes share with shown or withheld records
    fuller: dict[str, MemoryRecord] = field(default_factory=dict)  # episode hits, all turns back
    request: Request | None = None  # what this request opens (the session's turns obey it too)
    reader: SentenceReader | None = None  # reads a session turn's sensitivity

    def hides(self, turn_id: str, text: str) -> bool:
        """A turn of the session not yet read: kept out like the memories made of it — a turn
        behind a withheld private memory, or one the user confided that the request does not
        name (no reading of it exists yet)."""
        if turn_id in self.withheld:
            return True
        if self.request is None:
            return False
        labels = self.reader.private_labels(text) if self.reader else frozenset()
        if discreet(text):
            return not self.request.named(text)
        return bool(labels) and self.request.why(labels, text) is None


def assemble(
    store: Store,
    reader: Scope,
    query: str,
    hits: Sequence[Hit],
    at: datetime,
    policy: ProfilePolicy,
    types: frozenset[MemoryType] | None = None,
    catalogue: Catalogue | None = None,
    sentence_reader: SentenceReader | None = None,
    spend_once: bool = True,
    near: Sequence[Hit] = (),
) -> Assembly:
    """The request's situations decide what is private here; then profile, project, withheld.
    Private episode sentences (``sentences.py``) are cut from every episode and come back as
    profile lines only where the request bears on them; standing evidence is spent once.

    ``near`` are the request's hits before ``focus`` kept only those close to the best
    match: too far to spend task-memory room on, they still say which standing lines the
    request touches. A turn the request implies without its words (and in the other language)
    sits 0.02–0.06 cosine below the best match, so "plan an outing for me and my kid" lost "闺女豆豆六岁…" to
    focus and the profile, told only of the focused hits, ranked the line as untouched."""
    bears_on = sentence_reader.bears_on(query) if sentence_reader else intents.bears_on(query)
    wanted = {*query_terms(query), *intents.expansion(query)}
    episodes = [
        restored(r) for r in _find(store, user_level(reader), at, EPISODE_TYPES, types, EXCERPT_LIMIT)
    ]
    topics = sentence_reader.topics(query) if sentence_reader else frozenset()
    relabel = sentence_reader.relabel if sentence_reader else None
    known = [*episodes, *(h.memory for h in hits)]
    task = reader.project is not None
    request = Request.of(query, bears_on, query_terms(query), known, topics, relabel, task)
    kept = cut_private(gate(hits, request, catalogue, reader.project), sentence_reader, wanted, request)
    found = {h.memory.id for h in kept}
    far = {h.memory.id for h in gate(near, request, catalogue, reader.project)} - found
    found |= far
    # one read of the user's standing records and candidates serves the profile and the withheld turns
    standing, unsure = read_standing(store, reader, at)
    user = [
        replace(e, private=why or "")
        for e in select(
            store, reader, at, policy, catalogue, found, types, bears_on, standing if types is None else None
        )
        if (why := shown_because(e.record, request, catalogue)) is not None or e.record.id in found
        if not not_for_task(e.record, request, reader.project)
    ]
    user = _with_excerpts(user, episodes, at, policy, catalogue, (found, request), sentence_reader, far)
    project = [
        replace(e, record=part)
        for e in select_project(store, reader, at, policy, catalogue, found, types)
        if (r := without_private(restored(e.record), sentence_reader, request)) is not None
        for part in split(r)
    ]
    entries = user + project
    hidden = withheld(store, reader, at, request, {e.record.id for e in entries}, catalogue, standing, unsure)
    texts = evidence_texts(store, reader, kept, entries, hidden)
    if spend_once:
        user, project = spend_standing(user, texts), spend_standing(project, texts, user)
    return Assembly(
        kept,
        [
            Standing("profile", user, policy.share),
            Standing("project", project, policy.project_share, reader.project or ""),
        ],
        hidden,
        texts,
        fuller(kept, sentence_reader),
        request,
        sentence_reader,
    )


def _with_excerpts(
    entries: list[ProfileEntry],
    episodes: list[MemoryRecord],
    at: datetime,
    policy: ProfilePolicy,
    catalogue: Catalogue | None,
    relevant: tuple[Collection[str], Request],
    sentence_reader: SentenceReader | None,
    far: Collection[str] = (),
) -> list[ProfileEntry]:
    """Add the standing facts that live only inside user-level episodes, one sentence each:
    private sentences the request bears on (``relevant[1]``), and sentences the classifier
    reads as a profile attribute (identity, constraint, preference) that no record of that
    attribute distils from the same turns. Ranked like records, below them at equal weight
    (an episode's confidence is lower). An episode only ``far`` found (focus trimmed it) touches
    no attribute a record already states: in a short history one episode is near every request,
    and the classifier's misreading of one of its sentences as the name ("Applied for a BBC sound
    role…") would stand beside the name record in every block."""
    if sentence_reader is None or not policy.enabled:
        return entries
    found, request = relevant
    bears_on = request.bears_on
    cat = catalogue or bundled_catalogue()
    said = {(e.attribute.key, ev) for e in entries for ev in e.record.evidence}
    critical = [
        ProfileEntry(rec, label, 1.0 if is_critical(label) else 0.5, True, why)
        for rec, key, why in excerpts(episodes, sentence_reader, request)
        for label in [cat.attributes.get(key) or _stand_in(key)]
        if not any((key, ev) in said for ev in rec.evidence)
    ]
    lines: list[ProfileEntry] = []
    known = {e.attribute.key for e in entries}  # an identity a record states needs no excerpt
    sentence_reader.seed(episodes)
    said_by = [
        (ep, own_sentences(ep, k.content) if (k := without_private(ep, sentence_reader)) else [])
        for ep in episodes
    ]
    said_read = [
        (t, r) for _, parts in said_by for t, r in zip(parts, sentence_reader.read(parts), strict=True)
    ]
    home = places.home([(t, r) for t, r in said_read if not _standing(r, cat, policy.groups)])
    for ep, parts in said_by:
        for text, read in zip(parts, sentence_reader.read(parts), strict=True):
            attr, conf = places.reading(
                text, (read.attribute, read.score), cat, known, policy.groups, STANDING_SCORE, home
            )
            own = not places.mentioned_person(text)  # "my girlfriend is a pastry chef" is not the user's job
            floor = NAMED_SCORE if attr is not None and attr.key in bears_on else STANDING_SCORE
            if attr is None or attr.profile not in policy.groups or conf < floor:
                continue
            if not own and attr.key in policy.always:
                continue  # who the user is, said of someone else
            if attr.region and not places.names_place(text):
                continue  # a city line naming no place: "工作室房租已经拖了快三个月了" read as city 0.63
            if any((attr.key, ev) in said for ev in ep.evidence):
                continue
            weight = policy.importance.get(attr.profile, 0.5) * ep.confidence * conf
            score = round(weight * recency(ep, at, policy.half_life_days), 6)
            hit = (ep.id in found and not (ep.id in far and attr.key in known)) or attr.key in bears_on
            if not hit and attr.key in policy.always and attr.key not in known:
                hit = True
                known.add(attr.key)
            if hit or attr.profile == "constraint":
                line = turn_of(ep, text, sentence_reader)
                if all(line != e.record.content or e.record.id != ep.id for e in lines):
                    lines.append(ProfileEntry(excerpt(ep, line), attr, score, hit))
        for line, key in bearing_turns(ep, bears_on, sentence_reader, request):
            attr = cat.attributes.get(key)
            fresh = not any(
                e.record.id == ep.id and (line in e.record.content or e.record.content in line)
                for e in [*critical, *lines]
            )
            if (
                attr
                and attr.profile in policy.groups
                and fresh
                and not (key in policy.always and places.mentioned_person(line))
                and not any((key, ev) in said for ev in ep.evidence)
            ):
                weight = policy.importance.get(attr.profile, 0.5) * ep.confidence * STANDING_SCORE
                lines.append(
                    ProfileEntry(
                        excerpt(ep, line),
                        attr,
                        round(weight * recency(ep, at, policy.half_life_days), 6),
                        True,
                    )
                )
    first = [e for e in entries if e.safety_critical] + critical
    rest = sorted(
        [e for e in entries if not e.safety_critical] + lines,
        key=lambda e: (
            not e.relevant,
            not policy.who(e),
            e.attribute.key not in bears_on,
            -e.score,
            *tie_key(e.record),
        ),
    )
    return first + rest[: policy.max_items]


def _stand_in(key: str) -> Attribute:
    """A private label that is no catalogue attribute (``confided``)."""
    return Attribute(key=key, subjects=("user",), profile="context")


def own_sentences(ep: MemoryRecord, content: str) -> list[str]:
    """The sentences of an episode the user said: a profile line states the user's facts, so
    the assistant's quoted turns ("Assistant: lashing rain in Cork again…") are no source of
    one — the same rule that keeps them from ever being the user's own words."""
    turns = [st["text"] for st in ep.attributes.get("statements") or [] if isinstance(st, dict)]
    if "statements" not in ep.attributes:  # written before episodes listed the user's turns
        return sentences(content)
    return [p for p in sentences(content) if any(isinstance(t, str) and p in t for t in turns)]


def _standing(read: Reading, cat: Catalogue, groups: Collection[str]) -> bool:
    """The classifier reads the sentence as a standing fact of one of ``groups``."""
    attr = cat.attributes.get(read.attribute)
    return attr is not None and attr.profile in groups and read.score >= STANDING_SCORE


def user_level(reader: Scope) -> Scope:
    """The scope of records that apply to the user everywhere (not one project/session)."""
    return Scope(tenant=reader.tenant, user=reader.user)


def select(
    store: Store,
    reader: Scope,
    at: datetime,
    policy: ProfilePolicy,
    catalogue: Catalogue | None = None,
    relevant: Collection[str] = (),
    types: frozenset[MemoryType] | None = None,
    bears_on: Collection[str] = (),
    records: Sequence[MemoryRecord] | None = None,
) -> list[ProfileEntry]:
    """Active user-level records of the policy's profile groups, best first (``records``:
    those already read for this request).

    ``relevant`` holds ids the request's search found and ``bears_on`` the attributes its
    situations bear on (retrieve/intents.py); such entries come first. A safety-critical
    entry is shown only when the request bears on it — an allergy belongs in "what to pack
    for the train", not in a code review — and then ahead of everything else.
    """
    if not policy.enabled:
        return []
    recs = records if records is not None else _find(store, user_level(reader), at, PROFILE_TYPES, types)
    return _rank(recs, at, policy, policy.groups, policy.max_items, catalogue, relevant, bears_on)


def select_project(
    store: Store,
    reader: Scope,
    at: datetime,
    policy: ProfilePolicy,
    catalogue: Catalogue | None = None,
    relevant: Collection[str] = (),
    types: frozenset[MemoryType] | None = None,
) -> list[ProfileEntry]:
    """The standing memory of the reader's project: its stack, conventions, deadlines —
    what every task in that project needs, whatever words the task uses. Episodes of the
    project stand in for what extraction has not distilled into records."""
    if reader.project is None or policy.project_share <= 0:
        return []
    scope = Scope(tenant=reader.tenant, user=reader.user, project=reader.project)
    recs = _find(store, scope, at, PROJECT_TYPES, types)
    return _rank(recs, at, policy, PROFILE_GROUPS, policy.project_max_items, catalogue, relevant, ())


def _find(
    store: Store,
    scope: Scope,
    at: datetime,
    kinds: frozenset[MemoryType],
    types: frozenset[MemoryType] | None,
    limit: int = 500,
) -> list[MemoryRecord]:
    wanted = kinds if types is None else kinds & types
    if not wanted:
        return []
    return store.find(RecordFilter(scope, types=wanted, at=at, exact_scope=True), limit=limit)


def _rank(
    records: Sequence[MemoryRecord],
    at: datetime,
    policy: ProfilePolicy,
    groups: Collection[str],
    limit: int,
    catalogue: Catalogue | None,
    relevant: Collection[str],
    bears_on: Collection[str],
) -> list[ProfileEntry]:
    entries = []
    for rec in records:
        attr = EPISODE if rec.type is MemoryType.EPISODE else attribute_of(rec, catalogue)
        if attr.profile not in groups and not is_critical(attr):
            continue
        hit = rec.id in relevant or attr.key in bears_on
        if is_critical(attr) and not hit:
            continue
        hit = hit or (attr.key in policy.always and rec.subject == "user")  # not a partner's job
        weight = policy.importance.get(attr.key if attr is EPISODE else attr.profile, 0.5)
        score = weight * rec.confidence * recency(rec, at, policy.half_life_days)
        entries.append(ProfileEntry(rec, attr, round(score, 6), hit))
    entries.sort(  # who the user is, and what the situations name: ahead of what search alone found
        key=lambda e: (
            not e.safety_critical,
            not e.relevant,
            not (policy.who(e) or e.attribute.key in bears_on),
            -e.score,
            *tie_key(e.record),
        )
    )
    critical = [e for e in entries if e.safety_critical]
    return critical + [e for e in entries if not e.safety_critical][:limit]
