"""One predicate decides "safety-critical" for every reader: the catalogue's flag on an
attribute, an attribute reading's mass on flagged attributes, or the sensitivity head's
safety class; and a safety-critical text never gets a private label from the head."""

from __future__ import annotations

from memquill.retrieve import critical, sensitivity
from memquill.retrieve.attributes import bundled
from memquill.retrieve.sensitivity import Sensitivity


def test_the_catalogue_flag_decides_for_an_attribute_key_or_entry() -> None:
    assert critical.attribute("allergy") and critical.attribute(bundled().attributes["allergy"])
    assert not critical.attribute("hobby") and not critical.attribute(None)
    assert not critical.attribute("no-such-attribute")


def test_any_one_signal_makes_a_text_safety_critical() -> None:
    assert critical.safety_critical(key="allergy")
    assert critical.safety_critical(reading=[("hobby", 0.8), ("allergy", critical.ATTRIBUTE_MASS)])
    assert not critical.safety_critical(reading=[("hobby", 0.8), ("allergy", critical.ATTRIBUTE_MASS / 2)])
    assert critical.safety_critical(head=Sensitivity("health", 0.9, critical.HEAD_SAFETY))
    assert not critical.safety_critical(key="hobby", head=Sensitivity("health", 0.9, 0.01))


def test_the_head_gives_no_private_label_to_a_safety_critical_reading() -> None:
    model = sensitivity.bundled()
    assert model is not None
    private = Sensitivity("health", 0.99, 0.0)
    assert private.label(model.threshold) is not None
    assert Sensitivity("health", 0.99, critical.HEAD_SAFETY).label(model.threshold) is None


def test_a_turn_reading_is_read_from_its_stored_shape() -> None:
    assert critical.turn_reading([0.9, [["medication", 0.6], ["hobby", 0.2]]]) == [
        ("medication", 0.6),
        ("hobby", 0.2),
    ]
    assert critical.turn_reading(None) == [] and critical.turn_reading([0.9]) == []


def test_a_near_sure_private_matter_is_not_safety_critical_whatever_its_attribute() -> None:
    """Therapy for panic attacks is filed as a medical condition; the head reads it as a
    private matter and as no safety need, so a ski weekend does not open it. A pregnancy keeps
    the catalogue's rule (a meal or a remedy needs it), and so does anything the head reads
    as a safety need at all."""
    therapy = Sensitivity("mental", 0.99, 0.01)
    assert critical.private_matter(therapy)
    assert not critical.safety_critical(key="medical_condition", head=therapy)
    assert critical.safety_critical(key="medical_condition", head=Sensitivity("mental", 0.99, 0.2))
    assert critical.safety_critical(key="medical_condition", head=Sensitivity("mental", 0.7, 0.0))
    assert critical.safety_critical(key="medical_condition", head=Sensitivity("pregnancy", 0.99, 0.0))
    assert critical.safety_critical(key="allergy")  # no head reading: the catalogue decides


def test_a_schedule_diet_or_budget_is_a_standing_need_a_private_line_still_serves() -> None:
    cat = bundled().attributes
    assert all(
        critical.standing_need(cat[k]) for k in ("work_schedule", "meeting_time", "diet", "availability")
    )
    assert not any(critical.standing_need(cat[k]) for k in ("occupation", "city", "allergy", "hobby"))
    assert not critical.standing_need(None)


def test_a_soft_reading_of_a_critical_attribute_does_not_keep_a_private_matter_critical() -> None:
    """A bereaved turn ("…and I call her every night") reads 0.23 as an emergency contact: the
    head, near sure it is grief and no safety need, decides; a reading mostly of an allergy
    keeps the text critical."""
    grief = Sensitivity("grief", 0.97, 0.0)
    assert not critical.safety_critical(reading=[("emergency_contact", 0.23), ("city", 0.1)], head=grief)
    assert critical.safety_critical(reading=[("allergy", critical.NEED_MASS)], head=grief)
