"""An episode joins its turns with a space, and a Chinese turn often ends with no mark:
"…想咨询下怎么起诉 我怀孕六个月了…" was read as one sentence, so a meal request that opened the
pregnancy also showed the lawsuit said in the turn before. A space between two Han characters
is a sentence break (``spend.sentences``); a space beside Latin text ("用 Go 写的") is not."""

from __future__ import annotations

from memquill import FixedClock, Memory
from memquill.retrieve.spend import sentences
from tests.support.sessions import say


def test_a_space_between_han_characters_breaks_a_sentence_and_one_beside_latin_does_not() -> None:
    assert sentences("想咨询下怎么起诉 我怀孕六个月了，海鲜得忌口。") == [
        "想咨询下怎么起诉",
        "我怀孕六个月了，海鲜得忌口。",
    ]
    assert sentences("后端是用 Go 写的服务") == ["后端是用 Go 写的服务"]
    assert sentences("I sued my landlord. I'm six months pregnant") == [
        "I sued my landlord.",
        "I'm six months pregnant",
    ]


def test_a_private_turn_without_an_end_mark_stays_out_of_the_meal_its_neighbour_opens(
    mem_read: Memory, clock: FixedClock
) -> None:
    turns = [
        "我在跟前房东打官司，押金一直不退，想咨询下怎么起诉",
        "我怀孕六个月了，海鲜和酒都得忌口",
    ]
    say(mem_read, clock, turns, "s1")
    ctx = mem_read.context("今晚想吃火锅，帮我推荐几家店", user="u", budget_tokens=300)
    assert "怀孕" in ctx.text, ctx.text
    assert "官司" not in ctx.text, ctx.text
