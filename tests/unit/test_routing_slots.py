"""Questions reach the slot that holds the answer (issue #11): a pet's name is the item's,
a bare relation word asks who that is, a relative's question reaches that person's slot, and
the catalogue's question forms carry indirect wordings (zh + en)."""

from __future__ import annotations

import pytest

from memquill.retrieve import asked, routing
from memquill.retrieve.whose import named_in


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("what's our puppy called?", "item:puppy"),
        ("What's our dog called again?", "item:dog"),  # "What's" opens it: no name's possessive
        ("What's my kitty called now?", "item:cat"),
        ("the beagle's name again?", "item:dog"),
        ("kitty's name?", "item:cat"),
        ("狗狗叫什么名字来着", "item:狗"),
        ("我家猫咪叫啥", "item:猫"),
    ],
)
def test_a_pets_name_is_asked_of_the_item_not_the_reader(route_with_model, query: str, subject: str) -> None:  # type: ignore[no-untyped-def]
    slots = route_with_model(query)
    assert slots[0] == (subject, "name")
    assert ("user", "name") not in slots


@pytest.mark.parametrize("query", ["what is my name", "我叫什么名字", "who am I?"])
def test_the_readers_own_name_is_still_the_readers(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert route_with_model(query)[0] == ("user", "name")


@pytest.mark.parametrize(
    "query", ["what's a good name for a dog?", "Ines's cat is called what?", "我妈的狗叫什么"]
)
def test_no_item_when_the_pet_is_nobody_s_or_someone_else_s(query: str) -> None:
    assert asked.named_item(query) == ()


@pytest.mark.parametrize("query", ["who am I building this for now", "who am I working for these days?"])
def test_who_am_i_doing_something_is_no_name_question(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert ("user", "name") not in route_with_model(query)[:1]


@pytest.mark.parametrize(
    ("query", "slot"),
    [
        ("manager?", ("person:manager", "name")),
        ("my dentist?", ("person:dentist", "name")),
        ("领导？", ("person:manager", "name")),
        ("我的上司现在是谁？", ("person:manager", "name")),
        ("我现在的导师是谁？", ("person:mentor", "name")),  # "现在的" before the word was no relation
        ("who is my mentor right now?", ("person:mentor", "name")),
        ("我们组现在的头儿是谁啊 一下子想不起来", ("person:manager", "name")),  # 头儿: the boss
        ("现在跟我合租的那位叫什么", ("person:roommate", "name")),  # "叫什么" asks who, like 是谁
        ("who's my main supervisor now?", ("person:manager", "name")),  # "main" before the word
        ("who is my usual dentist?", ("person:dentist", "name")),
    ],
)
def test_a_bare_relation_asks_who_that_is(route_with_model, query: str, slot: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    assert route_with_model(query)[0] == slot


@pytest.mark.parametrize(
    "query",
    [
        "city?",
        "boss",
        "manager position open?",
        "我现在的导师在哪个学校？",
        "what does my sister do?",
        "who's my main character?",
    ],
)
def test_other_terse_lines_are_no_bare_relation(query: str) -> None:
    assert routing.bare_relation(query) is None


@pytest.mark.parametrize(
    ("query", "slot"),
    [
        ("brother doing what for work lately", ("person:brother", "occupation")),
        ("what's mum's job these days?", ("person:mother", "occupation")),
        ("姐姐最近做啥工作", ("person:sister", "occupation")),
        ("老爸现在干什么活", ("person:father", "occupation")),
    ],
)
def test_a_relatives_question_reaches_that_persons_slot(
    route_with_model, query: str, slot: tuple[str, str]
) -> None:  # type: ignore[no-untyped-def]
    assert slot in route_with_model(query)[:2]


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("what language do I mainly write code in", "programming_language"),
        ("我日常开发主要用哪门语言", "programming_language"),
        ("how do I usually get to the office these days", "commute"),
        ("我每天是怎么到公司的", "commute"),
        ("which inbox do my receipts land in", "email"),
        ("收据该发到我哪个邮箱", "email"),
    ],
)
def test_indirect_questions_reach_thin_attributes(route_with_model, query: str, key: str) -> None:  # type: ignore[no-untyped-def]
    assert key in [k for s, k in route_with_model(query)[:2] if s == "user"]


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("Who am I working for now?", "employer"),  # the router read the occupation first
        ("Who am I working for at the moment?", "employer"),
        ("who do I work for?", "employer"),
        ("我现在的东家是谁？", "employer"),
        ("我最近常喝什么？", "beverage"),
        ("我一般喝点啥好？", None),  # no form says it word for word: the other routes decide
    ],
)
def test_a_question_saying_a_catalogue_form_word_for_word_goes_there_first(
    route_with_model, query: str, key: str | None
) -> None:  # type: ignore[no-untyped-def]
    assert routing.form_said(query) == key
    if key:
        assert route_with_model(query)[0] == ("user", key)


@pytest.mark.parametrize("query", ["where am I living", "Where am I living these days?", "我现在住哪？"])
def test_one_shared_word_is_no_form_said(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    # "for a living" is an occupation form: one word in common is no wording
    assert routing.form_said(query) != "occupation"
    assert route_with_model(query)[0] == ("user", "city")


NAMED = {"Maya": "person:partner", "周琴": "person:manager"}


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("Where does Maya work now?", "person:partner"),
        ("Maya's job these days?", "person:partner"),
        ("周琴现在在哪个城市？", "person:manager"),
        ("my sister's job now?", "person:sister"),  # a relation word said outright comes first
        ("Where do I work now?", "user"),
        ("Any good Mayan ruins to visit?", "user"),  # a name inside a longer word is no name
        ("Where does maya work?", "user"),  # in its own capitalisation only ("May", "Will")
    ],
)
def test_a_question_naming_a_known_person_asks_about_them(query: str, subject: str) -> None:
    assert routing.subject_of(query, None, NAMED) == subject


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("what part of town am I living in now?", "address"),  # the router read the city
        ("Which part of Berlin am I living in now?", "address"),
        ("which suburb are we living in now?", "address"),
        ("我现在住在哪个小区？", "address"),
        ("which city do I live in now?", "city"),
        ("我现在住哪个城市？", "city"),
    ],
)
def test_a_part_of_town_is_the_address_not_the_city(route_with_model, query: str, key: str) -> None:  # type: ignore[no-untyped-def]
    assert route_with_model(query)[0] == ("user", key)


@pytest.mark.parametrize(
    "query", ["Which part of React should I learn first?", "what part of the talk should I cut?"]
)
def test_a_part_of_something_else_is_no_address(query: str) -> None:
    assert "address" not in [s.key for s in routing.route(query)]


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("where does Mark work now?", ["Mark"]),
        ("Which school does Maya go to now?", ["Maya"]),
        ("周琴现在在哪个城市？", ["周琴"]),
        ("what do I drink these days?", []),
        ("乐乐现在在哪个幼儿园？", ["乐乐"]),  # a doubled nickname; "幼儿园" (jieba: a name) is none
        ("我妈妈天天问我什么时候回家", []),  # doubled words said every day
    ],
)
def test_the_names_a_question_asks_about(question: str, names: list[str]) -> None:
    assert named_in(question) == names


@pytest.mark.parametrize(
    ("question", "subject"),
    [("乐乐现在在哪个幼儿园？", "person:乐乐"), ("what kindergarten is Maya in now?", "person:Maya")],
)
def test_a_question_about_a_childs_kindergarten_goes_to_the_school_slot(question: str, subject: str) -> None:
    slots = routing.route(question, named={"乐乐": "person:乐乐", "Maya": "person:Maya"})
    assert (slots[0].subject, slots[0].key) == (subject, "school")


@pytest.mark.parametrize(
    ("question", "keys"),
    [
        ("where is my app hosted right now?", {"stack:cloud", "stack:deploy_target"}),
        ("我们部署在哪", {"stack:cloud", "stack:deploy_target"}),
    ],
)
def test_a_question_looks_in_every_slot_its_answer_may_be_filed_in(question: str, keys: set[str]) -> None:
    assert keys <= {s.key for s in routing.route(question)}


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("我们组周会现在是周几", "event:weekly meeting"),
        ("部门例会定在星期几来着", "event:weekly meeting"),
        ("what day does my book club meet now?", "event:book club"),
        ("what time is standup these days?", "event:standup"),
        ("which day is my one-on-one with Karen these days", "event:1:1"),
    ],
)
def test_a_gatherings_day_is_asked_of_its_event(query: str, subject: str) -> None:
    assert routing.route(query)[0] == routing.Slot(subject, "recurrence", "words")


@pytest.mark.parametrize(
    "query", ["When did Melanie join the book club?", "What day is Caroline's book club?", "周会上讲了什么"]
)
def test_no_gathering_day_for_someone_else_or_without_a_when(query: str) -> None:
    assert all(s.key != "recurrence" for s in routing.route(query))


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("what db is pantrybot sitting on right now", "stack:database"),
        ("where does pantrybot run these days, hosting-wise", "stack:deploy_target"),
        ("小票识别那个现在托管在哪", "stack:deploy_target"),
        ("thesis code is built on which framework now", "stack:framework"),
    ],
)
def test_a_stack_role_word_routes_to_the_project(query: str, key: str) -> None:
    assert routing.Slot("project", key, "role") in routing.route(query)


@pytest.mark.parametrize(
    "query", ["what do I use for notes", "我现在住哪", "what database does my sister use"]
)
def test_no_role_word_no_project_slot(query: str) -> None:
    assert not routing.role_keys(query) or not any(
        s.subject.startswith("project") for s in routing.route(query)
    )


@pytest.mark.parametrize(
    ("query", "key"),
    [("我这阵子上下班主要靠啥", "commute"), ("who's my mobile provider atm", "mobile_carrier")],
)
def test_a_role_word_names_the_readers_slot_first(route_with_model, query: str, key: str) -> None:  # type: ignore[no-untyped-def]
    assert route_with_model(query)[0] == ("user", key)


def test_a_role_word_in_a_question_about_someone_else_is_not_the_readers() -> None:
    assert routing.Slot("user", "gym", "role") not in routing.route("Which gym does Caroline go to?")
