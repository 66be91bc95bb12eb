"""Reference resolution: a pronoun becomes the person last named beside a relation, the name
alone ("我男朋友叫阿杰，他…" is 阿杰, once "叫阿杰")."""

import pytest

from memquill.write.coref import recent_person, rewrite


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我男朋友叫阿杰，他是个厨师", "阿杰"),
        ("我同事老陈在支付组，他很厉害", "老陈"),
        ("my colleague Tobias is great, he plays rugby", "Tobias"),
        ("Amy is my sister, she's a vet", "Amy"),
    ],
)
def test_the_person_named_beside_a_relation(text: str, name: str) -> None:
    assert recent_person([text]) == name


def test_the_pronoun_becomes_the_name() -> None:
    assert rewrite("他是个厨师", None, []).unresolved
    said = rewrite("我男朋友叫阿杰，他是个厨师", None, [])
    assert said.text == "我男朋友叫阿杰，阿杰是个厨师" and not said.unresolved


@pytest.mark.parametrize(
    "text",
    [
        "朋友问我要不要跟他一起合租到汉口，说离他公司近",  # "问我" after 朋友 is no name
        "I texted my brother Lol he never replies",  # nor is "Lol"
    ],
)
def test_a_word_after_a_relation_that_names_nobody_replaces_no_pronoun(text: str) -> None:
    said = rewrite(text, None, [])
    assert said.text == text and said.unresolved
