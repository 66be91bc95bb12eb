"""A technology the lexicon knows fills its own role however the clause was read (zh + en, every
backend): "Moved the reading-list CLI to GitHub Actions, Travis was just too slow" was read as
the user's editor at 0.52, under the free-text bar, and the CI stayed Travis. A CI system, a
backend framework, an auth provider or a test runner (``lexicon.role_of``) read as another
tool's slot is the project's slot of its role, as sure as a typed value, and "moved … to" is a
change cue with what is moved named between."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "question", "key", "was", "now"),
    [
        (
            [
                "My side project (tiny CLI that tracks my reading list) runs tests on Travis CI and "
                "builds got really slow. Any easy wins?",
                "Moved the reading-list CLI to GitHub Actions, Travis was just too slow. Write me a "
                "workflow that runs the tests?",
            ],
            "what's running CI for my reading-list CLI these days?",
            "stack:ci",
            "Travis CI",
            "GitHub Actions",
        ),
        (
            [
                "小程序的测试跑在Travis CI上，构建太慢了",
                "小程序已经迁到GitHub Actions了，快多了，帮我写个workflow",
            ],
            "小程序现在CI用的啥",
            "stack:ci",
            "Travis CI",
            "GitHub Actions",
        ),
        (
            [
                "Our API is built on Flask right now.",
                "Rewrote the API in FastAPI over the weekend, async is so much nicer.",
            ],
            "what framework is the API on now?",
            "stack:framework",
            "Flask",
            "FastAPI",
        ),
    ],
    ids=["en-ci-moved-to", "zh-ci-migrated", "en-framework-rewritten"],
)
def test_a_known_technology_fills_its_role_and_supersedes(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, key: str, was: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=60)
    held = active_values(mem_e5, key)
    assert any(v == {now} for s, v in held.items() if s.startswith("project")), held
    assert not active_values(mem_e5, "editor"), active_values(mem_e5, "editor")
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert (top.key, top.value) == (key, now), (top.key, top.value, top.content)


@pytest.mark.parametrize(
    "text",
    ["My brother Travis moved to Denver last year.", "我们家狗叫Django，三岁了"],
)
def test_a_technology_word_that_is_a_name_stays_a_name(mem_e5: Memory, clock: FixedClock, text: str) -> None:
    """The role-only words are read only where a technology was read: a brother called Travis
    or a dog called Django fills no stack slot."""
    say_apart(mem_e5, clock, [text], gap_days=2)
    assert not active_values(mem_e5, "stack:ci") and not active_values(mem_e5, "stack:framework")


@pytest.mark.parametrize(
    "text",
    [
        "New team writes everything in TypeScript, even the pipeline glue code, so I'm rewiring my brain.",
        "新团队什么都用TypeScript写，连流水线的胶水代码都是，脑子得重新适应",
    ],
    ids=["en", "zh"],
)
def test_a_category_technology_read_as_another_slot_is_not_re_typed(
    mem_e5: Memory, clock: FixedClock, text: str
) -> None:
    """Only a technology known by its role alone is given that role: TypeScript, a language the
    lexicon's categories know, read as some tool of the user's had become the user's programming
    language, and a later "rebuilding the service in Elixir" could not replace it."""
    say_apart(mem_e5, clock, [text], gap_days=2)
    assert not active_values(mem_e5, "programming_language").get("user"), active_values(
        mem_e5, "programming_language"
    )
