"""One rule for "safety-critical": what the privacy gate never hides as merely private.

An allergy, a medication need, a wheelchair: such a fact must be in every block whose request
bears on it (a meal, a hike, a cold remedy), so no private label may hide it. Three readers
can say a text is safety-critical — the catalogue (a record's attribute), the attribute
classifier (a sentence's likeliest attribute, or a turn's attribute distribution) and the
sensitivity head's own ``safety`` class — and the rule used to be spelled out three times
(the head's labels, episode sentences, user turns), each with its own floor. This module is
the one predicate every caller asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from memquill.retrieve.attributes import Attribute, Catalogue, bundled

ATTRIBUTE_MASS = 0.1  # summed probability on safety-critical attributes that makes a text critical
HEAD_SAFETY = 0.1  # the sensitivity head's ``safety`` probability that makes a text critical
THEIRS = 0.5  # the head's private probability that makes someone else's condition their matter
THEIRS_SAFETY = 0.25  # …unless the head reads it this likely as a safety need (a child's allergy)
MATTER = 0.9  # the head's private probability that makes the user's own condition a private matter
MATTER_SAFETY = 0.05  # …when it reads it less likely than this as a safety need
# a private topic of the head that still bears on a meal, a drink, a remedy, a trip, and the
# catalogue attribute whose situations open it: a pregnancy said beside a question ("怀孕已经
# 五个月了，孕期有啥要注意的吗") reads as no attribute, only as a private pregnancy
TOPIC_NEEDS = {"pregnancy": "medical_condition"}
MATTER_KEEPS = frozenset(TOPIC_NEEDS)  # never overridden as a mere private matter
# the catalogue's umbrella for conditions, some a safety need (diabetes, epilepsy), some a private
# matter (a therapist, PCOS); an allergy, a medication or a wheelchair is a need by what it is
MATTER_ATTRIBUTES = frozenset({"medical_condition"})
NEED_MASS = 0.5  # a reading this sure of another safety-critical attribute keeps a matter critical


class HasSafety(Protocol):
    """A sensitivity reading (``sensitivity.Sensitivity``)."""

    @property
    def topic(self) -> str: ...

    @property
    def private(self) -> float: ...

    @property
    def safety(self) -> float: ...


def attribute(key: str | Attribute | None, catalogue: Catalogue | None = None) -> bool:
    """The catalogue flags this attribute (a key, or an entry already looked up) safety-critical:
    data, never keywords."""
    found = (catalogue or bundled()).attributes.get(key) if isinstance(key, str) else key
    return found is not None and found.safety_critical


def safety_critical(
    *,
    key: str | Attribute | None = None,
    reading: Iterable[tuple[str, float]] = (),
    head: HasSafety | None = None,
    catalogue: Catalogue | None = None,
    theirs: bool = False,
) -> bool:
    """Is a text safety-critical? Any one signal suffices: its catalogue attribute ``key``
    (a record's, or a sentence's likeliest) is flagged; the attribute ``reading`` (pairs of
    attribute and probability, a turn's distribution) puts ``ATTRIBUTE_MASS`` or more on
    flagged attributes; the sensitivity ``head`` gives its safety class ``HEAD_SAFETY`` or
    more. The floors are low on purpose: a miss hides an allergy, a false alarm only shows
    a private line where the request may not need it.

    Two exceptions. A text about someone else in the user's life (``theirs``: "昨天带我爸去复诊，
    他帕金森…") that the head reads as a private matter (``THEIRS``) and not as a safety need is
    that person's condition, not a constraint of the user's, whatever attribute it reads as.
    And the user's own condition the head is near sure is a private matter and not a safety
    need (``private_matter``: therapy for panic attacks, PCOS, a biopsy) is private, though the
    catalogue files it as a medical condition: a ski weekend or a concert outing does not need it.
    Not when the text is also read as an allergy, a medication, a mobility need (``_need``)."""
    if theirs and head is not None and head.private >= THEIRS and head.safety < THEIRS_SAFETY:
        return False
    cat = catalogue or bundled()
    if private_matter(head) and not _need(key, reading, cat):
        return False
    if attribute(key, cat):
        return True
    if sum(float(p) for k, p in reading if attribute(str(k), cat)) >= ATTRIBUTE_MASS:
        return True
    return head is not None and head.safety >= HEAD_SAFETY


def _need(key: str | Attribute | None, reading: Iterable[tuple[str, float]], cat: Catalogue) -> bool:
    """A safety-critical attribute other than the condition umbrella is named: by the key, or
    by most of the reading (``NEED_MASS``; not the soft ``ATTRIBUTE_MASS``: "Dad died in June.
    Mum's on her own now and I call her every night" puts 0.23 on an emergency contact)."""
    name = key.key if isinstance(key, Attribute) else key
    if name not in MATTER_ATTRIBUTES and attribute(key, cat):
        return True
    mass = sum(float(p) for k, p in reading if str(k) not in MATTER_ATTRIBUTES and attribute(str(k), cat))
    return mass >= NEED_MASS


NEED = "need:"  # a private matter's label naming the safety-critical attribute it still needs
# the needs a private matter can be: a medication may be an antidepressant; an allergy, a
# wheelchair or an emergency contact is for every request bearing on safety, whatever else it is
MATTER_NEEDS = frozenset({"medication"})


def matter_need(
    key: str | Attribute | None, head: HasSafety | None, catalogue: Catalogue | None = None
) -> str | None:
    """The safety-critical attribute a private matter of the user's own still is a need of,
    as a label (``need:medication``); None otherwise. "Been on sertraline for depression for
    a couple of years" is a medication — a week's trip must pack it — and a mental-health
    matter the head is near sure of with no safety need (``private_matter``): a request the
    head merely reads as bearing on safety (a picnic, a dinner out) does not open it, only a
    situation naming the attribute does (``confided.Request.why``: travel, a doctor's visit)."""
    cat = catalogue or bundled()
    name = key.key if isinstance(key, Attribute) else key
    if not private_matter(head) or name not in MATTER_NEEDS or not _need(key, (), cat):
        return None
    return f"{NEED}{name}"


def private_matter(head: HasSafety | None) -> bool:
    """The head is near sure (``MATTER``) a text is a private matter and reads it as no safety
    need (below ``MATTER_SAFETY``): a therapist, a diagnosis nobody needs at a meal. On the
    tuning specs every safety-critical fact the head reads so (one) is a pregnancy, which keeps
    the catalogue's rule (``MATTER_KEEPS``); the medical facts a meal or a trip needs (diabetes,
    epilepsy, an allergy, a wheelchair) read as a safety need at 0.1 or more."""
    return (
        head is not None
        and head.private >= MATTER
        and head.safety < MATTER_SAFETY
        and head.topic not in MATTER_KEEPS
    )


def topic_need(topic: str, theirs: bool = False) -> frozenset[str]:
    """The safety-critical attribute a private topic of the user's own still bears on
    (``TOPIC_NEEDS``): the pregnancy a dinner or a trip must respect, though only a pregnancy
    request opens its other private topics. Someone else's matter (``theirs``) bears on none:
    only a request naming that person opens it."""
    need = TOPIC_NEEDS.get(topic)
    return frozenset([need]) if need is not None and not theirs else frozenset()


def standing_need(attr: Attribute | None) -> bool:
    """A private line read as this attribute still serves a request bearing on it: when the
    user is free, what they eat, what they can spend (the catalogue's non-critical
    ``constraint`` group, the context schedules, drinks and foods avoided). "Tuesdays at 4 I
    have therapy" is a therapist, private, and the reason a Tuesday 1:1 cannot be at four;
    "I'm doing IVF, early clinic mornings" is why the user comes in late; "Three years sober"
    is why there is no wine pairing. A code review bears on none of these."""
    return (
        attr is not None
        and not attr.safety_critical
        and (attr.profile == "constraint" or attr.key in SCHEDULES)
    )


# schedules, and what a meal must avoid ("Three years sober. So no wine pairings")
SCHEDULES = frozenset({"availability", "sleep_schedule", "beverage", "food_dislike"})
MEAL_NEEDS = frozenset({"diet", "beverage", "food_dislike"})  # what a meal must respect


def turn_reading(value: object) -> list[tuple[str, float]]:
    """A user turn's stored attribute reading (``statements[*].reading`` =
    ``[memory, [[attribute, p], …]]``) as pairs; empty for anything else."""
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], list):
        return [(str(k), float(p)) for k, p in value[1]]
    return []
