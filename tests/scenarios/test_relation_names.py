"""A person named beside their relation, end to end, zh + en, on every backend: the clause's
other fact is kept and the name is filed under the relation, where a later mention of the
name alone finds the same person. A question or a transcript speaker's relative is no fact
of the reader's. The name is read off the hot path (with the attribute model): it carries
only part of its turn, whose episode a rules-only session keeps."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


def names(mem: Memory, user: str) -> set[tuple[str, str | None]]:
    recs = mem.records(user=user, statuses=["active", "candidate"])
    return {(r.subject, r.value) for r in recs if r.key == "name"}


@pytest.mark.parametrize(
    ("text", "subject", "name"),
    [
        ("我同事老陈在支付组", "person:colleague", "老陈"),
        ("我闺蜜许静怡下个月从悉尼回来", "person:friend", "许静怡"),
        ("研究生导师周教授发邮件，让我暑假先读十篇论文", "person:mentor", "周教授"),  # kind word, title
        ("我领导陈总今天发火了", "person:manager", "陈总"),
        ("My thesis advisor Dr. Patel wants more ablations", "person:mentor", "Dr. Patel"),
        ("my colleague Tobias plays rugby on Saturdays", "person:colleague", "Tobias"),
        (
            "my therapist Dr. Helena Voss moved her office to Cambridge",
            "person:therapist",
            "Dr. Helena Voss",
        ),
    ],
)
def test_a_name_beside_a_relation_is_the_relations_name(
    mem_e5: Memory, text: str, subject: str, name: str
) -> None:
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    assert (subject, name) in names(mem_e5, "u")


@pytest.mark.parametrize(
    ("text", "later", "place", "subject"),
    [
        ("我同事王蕾从下个月开始休假", "王蕾是成都人", "成都", "person:colleague"),
        ("my uncle Barnaby lives on a houseboat", "Barnaby's hometown is Denver", "Denver", "person:uncle"),
    ],
)
def test_the_name_alone_later_reaches_the_same_person(
    mem_e5: Memory, text: str, later: str, place: str, subject: str
) -> None:
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    mem_e5.add(later, user="u")
    mem_e5.flush()
    about = [r for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if r.value == place]
    assert about and all(r.subject == subject for r in about), [(r.subject, r.key) for r in about]


@pytest.mark.parametrize(
    "text",
    [
        "我同事老陈是不是在支付组？",
        "is my friend Tom coming tonight?",
        "Caroline: my friend Melanie loves pottery",
    ],
)
def test_no_name_from_a_question_or_a_transcript_speakers_relative(mem_e5: Memory, text: str) -> None:
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    assert not names(mem_e5, "u")


def _told(mem: Memory, *turns: str) -> None:
    for i, text in enumerate(turns):
        mem.add(text, user="u", session=f"s{i}")
        mem.end_session(user="u", session=f"s{i}")
        mem.flush()


@pytest.mark.parametrize(
    ("first", "second", "later", "place"),
    [
        ("我同事王磊下周出差", "我同事陈静从下个月开始休假", "陈静是成都人", "成都"),
        ("my colleague Tobias plays rugby on Saturdays", "my colleague Priya moved to Leeds", None, None),
    ],
)
def test_two_colleagues_named_in_turn_are_two_people(
    mem_e5: Memory, first: str, second: str, later: str | None, place: str | None
) -> None:
    """Before: ``name`` is single-valued per subject, so the second colleague's name
    superseded the first's ("王磊" → "陈静") and one person had both."""
    _told(mem_e5, first, second, *([later] if later else []))
    (one,) = [n for s, n in names(mem_e5, "u") if s == "person:colleague"]
    (two,) = [(s, n) for s, n in names(mem_e5, "u") if s.startswith("person:colleague:")]
    assert one in ("王磊", "Tobias") and two == (f"person:colleague:{two[1]}", two[1]) and two[1] != one
    every = mem_e5.records(user="u", statuses=None)
    assert not [r for r in every if r.key == "name" and r.status.value == "superseded"]
    if place:  # the second one's name alone later reaches the second person
        about = [r for r in every if r.value == place]
        assert about and all(r.subject == two[0] for r in about), [(r.subject, r.key) for r in about]


@pytest.mark.parametrize(
    ("first", "second", "new"),
    [
        ("我的领导是周琴", "我的领导是王建国", "王建国"),
        ("My manager is Dana Lee", "My manager is Tom Hart", "Tom Hart"),
    ],
)
def test_a_new_manager_still_replaces_the_old(mem_e5: Memory, first: str, second: str, new: str) -> None:
    """One has one manager at a time: the relation is no ``several`` one, its name supersedes."""
    _told(mem_e5, first, second)
    assert names(mem_e5, "u") == {("person:manager", new)}


@pytest.mark.parametrize(
    ("text", "later", "subject", "name", "place"),
    [
        ("小雨是我妹妹，在读研", "小雨搬去成都了", "person:sister", "小雨", "成都"),
        ("周琴是我领导", "周琴调去深圳了", "person:manager", "周琴", "深圳"),
        ("Amy is my sister, she's a vet", "Amy moved to Denver last month", "person:sister", "Amy", "Denver"),
        ("My brother's name is Tom.", "Tom relocated to Austin", "person:brother", "Tom", "Austin"),
    ],
)
def test_the_name_as_subject_or_predicate_of_the_relation(
    mem_e5: Memory, text: str, later: str, subject: str, name: str, place: str
) -> None:
    # "X is my <relation>" / "my <relation>'s name is X" / "X是我<relation>" name the person
    # (not a `relation` or `nickname` value), so X's move later is X's, never the user's
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    mem_e5.add(later, user="u", session="t")
    mem_e5.end_session(user="u", session="t")
    mem_e5.flush()
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert (subject, name) in names(mem_e5, "u")
    assert not [r for r in recs if r.key in ("relation", "nickname") and r.value == name]
    assert not [r for r in recs if r.subject == "user" and r.value == place]


@pytest.mark.parametrize(
    "text", ["这是我妹妹的照片", "明天是我妈生日", "This is my sister's room", "It is my wife's car"]
)
def test_a_pronoun_before_the_relation_names_no_one(mem_e5: Memory, text: str) -> None:
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    assert not names(mem_e5, "u")


@pytest.mark.parametrize(
    ("text", "subject", "key", "value"),
    [
        ("女朋友刚换了iPhone 15 Pro，天天在我面前晃", "person:partner", "device", "iPhone 15 Pro"),
        ("Mum's moved to Freiburg, she loves it there", "person:mother", "city", "Freiburg"),
    ],
    ids=["zh-user-said-later", "en"],
)
def test_a_relation_opening_a_clause_without_my_is_its_subject(
    mem_e5: Memory, text: str, subject: str, key: str, value: str
) -> None:
    """Chinese drops "我" before a relation ("女朋友刚换了…"): the girlfriend's new phone was
    filed as the user's because the clause says "我" later."""
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    held = {(r.subject, r.key, r.value) for r in mem_e5.records(user="u", statuses=["active", "candidate"])}
    assert (subject, key, value) in held, held
    assert not any(s == "user" and k == key for s, k, _ in held), held


@pytest.mark.parametrize(
    "text",
    [
        "朋友圈里都在晒娃，我就不晒了",
        "老板娘说今天的鱼很新鲜，我买了两条",
        "房东要卖房，只好又搬，现在住望京",  # the later segments' dropped subject is the speaker
        "领导说看我迁移做得不错，把我提成了架构师",
    ],
)
def test_a_relation_word_opening_a_longer_word_is_no_subject(mem_e5: Memory, text: str) -> None:
    """ "朋友圈" (WeChat moments) and "老板娘" (the proprietress) begin with a relation word; a
    landlord who sells is no one the user's move is about; a manager's words are about the user."""
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    subjects = {r.subject for r in mem_e5.records(user="u", statuses=["active", "candidate"])}
    assert not subjects & {"person:friend", "person:manager", "person:landlord"}, subjects


@pytest.mark.parametrize(
    ("text", "subject", "value", "other"),
    [
        (
            "我姐辞职了！护士不干了，跑去做房产中介，我妈气得两天没吃下饭",
            "person:sister",
            "房产中介",
            "person:mother",
        ),
        (
            "My brother finally left the bank. Works as a carpenter now, and my dad keeps asking him for shelves.",
            "person:brother",
            "carpenter",
            "person:father",
        ),
    ],
    ids=["zh", "en"],
)
def test_the_sentence_before_sets_whom_a_subjectless_one_is_about(
    mem_e5: Memory, text: str, subject: str, value: str, other: str
) -> None:
    """A sentence that drops its subject continues the one before it in the turn: the sister's
    new job went to the mother, named only after it ("…，我妈气得…")."""
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    held = {(r.subject, r.key, r.value) for r in mem_e5.records(user="u", statuses=["active", "candidate"])}
    assert (subject, "occupation", value) in held, held
    assert not any(s == other and k == "occupation" for s, k, _ in held), held


@pytest.mark.parametrize(
    ("turns", "question", "was", "now"),
    [
        (
            [
                "My family doctor Dr. Mehta is retiring at the end of the month.",
                "Got a spot with a new family doctor finally, Dr. Lavoie at a clinic on Queen East.",
            ],
            "who's my family doctor now?",
            "Dr. Mehta",
            "Dr. Lavoie",
        ),
        (
            [
                "Priya is my manager.",
                "Finally we hired a permanent manager, Marisol, she came over from Shopify.",
            ],
            "who's my manager at the moment?",
            "Priya",
            "Marisol",
        ),
        (
            ["我的家庭医生是刘医生，约起来特别难。", "现在换了新医生陈医生，就在公司楼下。"],
            "我现在的家庭医生是谁？",
            "刘医生",
            "陈医生",
        ),
        (
            ["我的牙医是王医生。", "我的牙医是周大夫，上周刚换的。"],
            "我现在的牙医是谁？",
            "王医生",
            "周大夫",
        ),
    ],
    ids=["en-doctor", "en-manager", "zh-new-doctor", "zh-titled"],
)
def test_a_new_relation_someone_got_or_one_said_with_a_title_is_named(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, was: str, now: str
) -> None:
    """ "Got … a new family doctor finally, Dr. Lavoie", "we hired a permanent manager, Marisol"
    (a new one someone got, named after a comma) and "我的家庭医生是刘医生" (是 before a surname and
    a title) name the relation; each new name replaces the old one."""
    _named_and_answered(mem_e5, clock, turns, question, was, now)


@pytest.mark.parametrize(
    "text",
    ["I need a new dentist, Tom at my old place is awful.", "我老婆是老师。", "我领导是个好人。"],
)
def test_a_wished_for_relation_or_a_plain_predicate_names_no_one(
    mem_e5: Memory, clock: FixedClock, text: str
) -> None:
    say_apart(mem_e5, clock, [text], gap_days=2)
    assert not active_values(mem_e5, "name"), active_values(mem_e5, "name")


@pytest.mark.parametrize(
    ("turns", "question", "was", "now"),
    [
        (
            [
                "My manager Fiona wants a self-review by Friday.",
                "Fiona's leaving for another company and my new manager is going to be Marcus, he starts on the 16th.",
            ],
            "who's my manager again?",
            "Fiona",
            "Marcus",
        ),
        (
            [
                "My GP here is Dr. Hoffmann, she's lovely but impossible to get appointments with.",
                "My new GP is Dr. Visser, much easier to book.",
            ],
            "who's my GP now?",
            "Dr. Hoffmann",
            "Dr. Visser",
        ),
        (
            ["我领导老周人挺好的，就是开会太多。", "老周下个月调走，我的新领导会是陈总，听说很严。"],
            "我现在领导是谁来着",
            "老周",
            "陈总",
        ),
        (
            ["我的理发师叫Tony，剪了好几年了。", "搬家了，在这边找了个理发师阿杰，手艺还行。"],
            "我现在的理发师是谁",
            "Tony",
            "阿杰",
        ),
    ],
    ids=["en-going-to-be", "en-gp-here", "zh-will-be", "zh-found-one"],
)
def test_a_relation_to_come_or_one_found_is_named_and_asked_without_a_question_mark(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, was: str, now: str
) -> None:
    """ "my new manager is going to be Marcus", "我的新领导会是陈总" (one to come), "my GP here is…"
    and "找了个理发师阿杰" (one found) name the relation, and the new name replaces the old one;
    "…是谁来着" and "…again?" ask who that person is."""
    _named_and_answered(mem_e5, clock, turns, question, was, now)


@pytest.mark.parametrize(
    ("turns", "question", "now"),
    [
        (
            ["我的理发师叫Tony，剪了好几年了。", "搬家了，在这边找了个理发师阿杰，手艺还行。"],
            "我现在剪头找的是谁",
            "阿杰",
        ),
        (["我的牙医是王医生。", "我的牙医是周大夫，上周刚换的。"], "我现在看牙找的是哪个医生？", "周大夫"),
        (
            [
                "My barber is Marco, been going to him for years.",
                "Moved across town, so my new barber is Dev.",
            ],
            "who cuts my hair these days?",
            "Dev",
        ),
        (
            ["My dentist is Dr. Okafor.", "Switched practices, my new dentist is Dr. Lindqvist."],
            "which dentist do I go to now?",
            "Dr. Lindqvist",
        ),
    ],
    ids=["zh-by-what-for", "zh-which", "en-by-what-for", "en-which"],
)
def test_a_who_question_names_the_relation_by_its_word_or_what_one_goes_for(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str
) -> None:
    """ "我现在剪头找的是谁" and "who cuts my hair these days?" name no relation word: the catalogue's
    ``asked_by`` phrases say whom one goes to for it; "哪个医生", "which dentist" name the relation
    after the question word. Each reaches the relation's name slot."""
    say_apart(mem_e5, clock, turns, gap_days=60)
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert top.value == now, (top.key, top.value, top.content)


def _named_and_answered(
    mem: Memory, clock: FixedClock, turns: list[str], question: str, was: str, now: str
) -> None:
    """The turns said two months apart: one person of the relation holds the new name, no one
    the old, and the question answers with the new name."""
    say_apart(mem, clock, turns, gap_days=60)
    names = active_values(mem, "name")
    assert any(v == {now} for s, v in names.items() if s.startswith("person:")), names
    assert not any(was in v for v in names.values()), names
    top = mem.search(question, user="u", k=1)[0].memory
    assert top.value == now, (top.key, top.value, top.content)
