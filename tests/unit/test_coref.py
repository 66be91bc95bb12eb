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
