"""Questions reach slots by the classifier's readings too: the first person plural asks
about the project, a key no user has is routed without a first-person word, and a reading
split between two attributes routes to both (the slots' contents settle which answers)."""

from __future__ import annotations

import pytest

from memquill.retrieve import routing


def test_a_split_reading_routes_to_both_and_a_sure_one_alone() -> None:
    assert routing._model_keys((("address", 0.46), ("city", 0.36), ("country", 0.05))) == ["address", "city"]
    assert routing._model_keys((("email", 0.9), ("contact_channel", 0.05))) == ["email"]
    assert routing._model_keys((("address", 0.46), ("city", 0.1))) == []  # not split: unsure
    assert routing._model_keys((("address", 0.25), ("city", 0.24))) == []  # neither is likely


@pytest.mark.parametrize(
    ("query", "slot"),
    [
        (
            "Which package manager do we use for the Python deps these days?",
            ("project", "stack:package_manager"),
        ),
        ("咱们现在用什么包管理工具装依赖？", ("project", "stack:package_manager")),
        ("What database is Kestrel on at the moment?", ("project", "stack:database")),
        ("Kestrel 现在用的是什么数据库？", ("project", "stack:database")),
    ],
)
def test_project_questions_reach_project_slots(route_with_model, query: str, slot: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    assert slot in route_with_model(query)


@pytest.mark.parametrize(
    "query", ["When did Caroline join a mentorship program?", "卡罗琳什么时候加入的导师项目？"]
)
def test_questions_about_someone_else_still_skip_the_readers_slots(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert [s for s in route_with_model(query) if s[0] == "user"] == []


def test_an_unrouted_question_about_the_reader_tries_its_likeliest_readings() -> None:
    read = [("editor", 0.3), ("website", 0.21), ("email", 0.12), ("theme", 0.04)]
    assert routing.fallback("Config snippets you send me should be for which editor?", None, read) == [
        ("user", "editor"),
        ("user", "website"),
        ("user", "email"),
    ]
    assert routing.fallback("你给我回消息应该写多长？", None, [("reply_style", 0.35)]) == [
        ("user", "reply_style")
    ]
    # a project key goes to the project; a question about someone else tries nothing
    assert routing.fallback("咱们的包用什么装？", "kestrel", [("stack:package_manager", 0.2)]) == [
        ("project:kestrel", "stack:package_manager")
    ]
    assert routing.fallback("What does Caroline do for a living?", None, [("occupation", 0.4)]) == []
