"""One span path for every value: rule values re-decided by the span ranker, structural
trimming, word pieces (zh + en)."""

from __future__ import annotations

import pytest

from memquill.catalogue import Attribute, load
from memquill.clock import FixedClock
from memquill.ingest import build_event
from memquill.model import Candidate, MemoryType, Polarity, Scope, Source
from memquill.write.extract import span_change, span_path
from memquill.write.extract import span_features as sf
from memquill.write.extract.clause import Clause
from memquill.write.extract.span_scorer import SpanScorer, bundled
from memquill.write.extract.values import spans as typed_spans


def ranker() -> SpanScorer:
    model = bundled()
    assert model is not None
    return model


def attr(key: str) -> Attribute:
    found = load().get(key)
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("text", "zh", "key", "rule_value", "value"),
    [
        ("我换成 Arc 浏览器了", True, "browser", "Arc 浏览器", "Arc"),  # a classifier suffix
        (
            "my team lead is named Francesca, help me write her a note",
            False,
            "name",
            "named Francesca",
            "Francesca",
        ),
        ("I got moved to the payments team last month", False, "team", "payments", "payments team"),
    ],
)
def test_a_rule_value_becomes_the_span_the_ranker_is_surer_of(
    text: str, zh: bool, key: str, rule_value: str, value: str
) -> None:
    assert [v for v, _ in span_path.choose(ranker(), text, zh, attr(key), rule_value)] == [value]


@pytest.mark.parametrize(
    ("text", "zh", "key", "rule_value"),
    [
        ("我是小学语文老师，教三年级", True, "occupation", "小学语文老师"),  # the ranker is not sure enough
        ("we use Podman instead of Docker", False, "stack:container", "Docker"),  # no other thing
        ("我的手机号是 138 0013 8000", True, "phone", "138 0013 8000"),  # strict types as matched
    ],
)
def test_a_rule_value_stays_unless_an_overlapping_span_is_surer(
    text: str, zh: bool, key: str, rule_value: str
) -> None:
    assert [v for v, _ in span_path.choose(ranker(), text, zh, attr(key), rule_value)] == [rule_value]


@pytest.mark.parametrize(
    ("text", "zh", "rule_value", "values"),
    [
        ("星河数据的主要竞争对手是神策和GrowingIO", True, "神策和GrowingIO", ["神策", "GrowingIO"]),
        (
            "At Loomly our biggest competitors are Hootsuite and Buffer",
            False,
            "Hootsuite and Buffer",
            ["Hootsuite", "Buffer"],
        ),
    ],
)
def test_a_captured_list_of_a_multi_valued_attribute_splits(
    text: str, zh: bool, rule_value: str, values: list[str]
) -> None:
    got = [v for v, _ in span_path.choose(ranker(), text, zh, attr("competitors"), rule_value)]
    assert sorted(got) == sorted(values)


@pytest.mark.parametrize(
    ("text", "zh", "value", "trimmed"),
    [
        ("我叫陈静，是一名前端工程师", True, "一名前端工程师", "前端工程师"),  # quantifier
        ("我家养了一只猫呢", True, "一只猫呢", "猫"),  # quantifier and particle
        ("my neighbour is called Dana Lee", False, "called Dana Lee", "Dana Lee"),  # learned head
        ("I'm on decaf now", False, "decaf now", "decaf"),  # learned tail
        ("我一般晚上十一点睡", True, "十一点睡", "十一点睡"),  # a time unit is no quantifier
        ("I like it", False, "it", "it"),  # never the last word
        ("我对虾蟹严重过敏，吃一口就喉咙肿", True, "虾蟹严重", "虾蟹"),  # a degree word
    ],
)
def test_trim_strips_structural_residue_only(text: str, zh: bool, value: str, trimmed: str) -> None:
    assert span_path.trim(ranker(), text, zh, value) == trimmed


def test_the_shipped_model_carries_the_learned_edge_words() -> None:
    """Learned from the training corpus: words that often stand next to a value and never
    begin / end one."""
    assert {"called", "named"} <= ranker().heads
    assert {"now", "please"} <= ranker().tails
    assert "the" not in ranker().heads  # "the first Thursday of every month" begins with it


def test_a_date_is_widened_around_the_normalisers_wording() -> None:
    got = span_path.choose(ranker(), "我是去年九月入职的", True, attr("work_start_date"), "去年")
    assert [v for v, _ in got] == ["去年九月"]


def test_an_unsplit_chinese_word_offers_its_prefixes_as_candidates() -> None:
    text = "我爸一辈子都在煤炭行业"
    toks = sf.tokens(text, True)
    assert "煤炭行业" in [t.text for t in toks]
    texts = {c.text for c in sf.candidates(text, toks, [])}
    assert {"煤炭", "煤炭行"} <= texts
    assert "行业" not in texts  # no suffix pieces: residue is cut from the end only


def clause(text: str, lang: str = "zh") -> Clause:
    """One explicit clause as the rules see it."""
    ev = build_event(
        text,
        scope=Scope.of(user="u", session="s"),
        clock=FixedClock("2026-11-29T10:00:00+08:00"),
        max_bytes=1024,
        default_timezone="Asia/Shanghai",
    )
    return Clause(ev, ev.content, lang, False, False, Source.EXPLICIT, 0.9, None)


def test_respan_keeps_the_key_and_records_the_ranker() -> None:
    c = clause("我换成 Arc 浏览器了")
    made = c.make(
        MemoryType.PREFERENCE, "user", "browser", "用户改用 Arc 浏览器", value="Arc 浏览器", rule="t"
    )
    out = span_path.respan(made, c.text, True, ranker())
    assert [(x.key, x.value) for x in out] == [("browser", "Arc")]
    assert out[0].attributes["span"] == ranker().id
    other: Candidate = made.model_copy(update={"key": "likes:arc"})  # no catalogue attribute
    assert span_path.respan(other, c.text, True, ranker()) == [other]


@pytest.mark.parametrize(
    ("kind", "text", "found"),
    [
        ("phone", "My cell is (617) 555-0142", "(617) 555-0142"),
        ("phone", "call +1 (415) 555-2671 after six", "+1 (415) 555-2671"),
        (
            "url",
            "the monorepo lives at git@github.com:tinyco/platform.git",
            "git@github.com:tinyco/platform.git",
        ),
    ],
)
def test_typed_patterns_take_the_whole_number_or_remote(kind: str, text: str, found: str) -> None:
    assert typed_spans(kind, text, False)[0] == found


@pytest.mark.parametrize(
    ("text", "zh", "value", "trimmed"),
    [
        ("最近在重温《大明王朝1566》", True, "《大明王朝1566》", "大明王朝1566"),  # title marks
        ("服务器在华北3（张家口）", True, "华北3（张家口）", "华北3"),  # an aside in brackets
        ('my favourite novel is "Piranesi"', False, '"Piranesi"', "Piranesi"),  # quotes
        ("we deploy to eu-west-2 (London)", False, "eu-west-2 (London)", "eu-west-2"),
        ("I wrote f(x) on the board", False, "f(x)", "f(x)"),  # no space: part of the value
        ("我在看《三体》和《繁花》", True, "《三体》和《繁花》", "《三体》和《繁花》"),  # not one pair
    ],
)
def test_marks_and_asides_are_no_part_of_a_value(text: str, zh: bool, value: str, trimmed: str) -> None:
    """The labelled value is the shortest span that states it: the punctuation around a
    title or quote, and a bracketed aside after it, are cut whatever path made the value."""
    assert span_path.trim(ranker(), text, zh, value) == trimmed


def test_a_rule_value_in_title_marks_loses_them() -> None:
    c = clause("我最近在看《长安的荔枝》")
    made = c.make(
        MemoryType.PREFERENCE, "user", "reading", "用户在看《长安的荔枝》", value="《长安的荔枝》", rule="t"
    )
    assert [x.value for x in span_path.respan(made, c.text, True, ranker())] == ["长安的荔枝"]


@pytest.mark.parametrize(
    ("text", "zh", "key", "rule_value", "value"),
    [
        ("后端现在跑在 Deno 上，不用 Node 了", True, "stack:runtime", "Node", "Deno"),
        ("不再用 Jenkins 了，换成了 Drone", True, "stack:ci", "Jenkins", "Drone"),
        ("we don't use MySQL anymore, it's all Postgres now", False, "stack:database", "MySQL", "Postgres"),
        ("we run Podman instead of Docker", False, "stack:container", "Docker", "Podman"),
    ],
)
def test_a_rule_value_the_clause_retires_gives_way_to_the_new_one(
    text: str, zh: bool, key: str, rule_value: str, value: str
) -> None:
    """A change names the old and the new value; a rule that captured the old one keeps
    its attribute and takes the value the change cues name now."""
    assert span_change.current(text, zh, attr(key), rule_value) == value
    c = clause(text, "zh" if zh else "en")
    made = c.make(MemoryType.FACT, "project", key, text, value=rule_value, rule="t")
    out = span_path.respan(made, c.text, zh, ranker())
    assert [(x.key, x.value) for x in out] == [(key, value)]


@pytest.mark.parametrize(
    ("text", "zh", "key", "rule_value"),
    [
        ("数据库用 PostgreSQL，部署在阿里云上", True, "stack:database", "PostgreSQL"),  # nothing retired
        ("we use PostgreSQL, and it's hosted on AWS", False, "stack:database", "PostgreSQL"),
        ("I switched to Helix, no more Vim", False, "editor", "Helix"),  # the new one was captured
    ],
)
def test_a_rule_value_the_clause_does_not_retire_stays(
    text: str, zh: bool, key: str, rule_value: str
) -> None:
    assert span_change.current(text, zh, attr(key), rule_value) is None


@pytest.mark.parametrize(
    ("text", "zh", "key", "negated_value", "value"),
    [
        ("I don't drink Pepsi, Coke only", False, "beverage", "Pepsi", None),  # no change cue
        ("我不吃香菜，也不吃葱", True, "food_dislike", "香菜", None),
        ("Unless it's urgent, don't call me after 9pm", False, "contact_channel", "call", None),  # cue first
        ("除非很急，现在别打我电话", True, "contact_channel", "电话", None),
        ("we don't use Jenkins anymore, it's all Drone now", False, "stack:ci", "Jenkins", "Drone"),
        ("不用 Jenkins 了，改用 Drone", True, "stack:ci", "Jenkins", "Drone"),
    ],
)
def test_a_negative_statement_gives_way_only_to_a_value_a_change_cue_introduces(
    text: str, zh: bool, key: str, negated_value: str, value: str | None
) -> None:
    """A rule that read "not X" keeps it unless the clause names what holds now."""
    assert span_change.current(text, zh, attr(key), negated_value, Polarity.NEGATIVE) == value


@pytest.mark.parametrize(
    ("text", "zh", "subject", "key", "own"),
    [
        ("我爸跟我们住，去年查出来早期阿尔茨海默", True, "person:father", "lives_with", "我爸"),
        ("My sister lives with her boyfriend in Leeds", False, "person:sister", "lives_with", "my sister"),
    ],
)
def test_the_subjects_own_word_said_as_the_speakers_is_never_its_value(
    text: str, zh: bool, subject: str, key: str, own: str
) -> None:
    """ "我爸跟我们住" gave father a lives_with of "我爸": the own word was excluded only bare ("爸")."""
    spans = ranker().top(text, zh, attr(key), span_path.own_words(text, subject), k=50)
    assert own.casefold() not in {v.casefold() for v, _ in spans}


@pytest.mark.parametrize(
    ("text", "zh", "value"),
    [
        ("it's just me, my partner and our two cats in a rented flat in Glasgow", False, "partner"),
        ("我跟我表妹合租，她在附近上班", True, "表妹"),
    ],
)
def test_the_users_own_value_may_be_someone_named_by_a_relation(text: str, zh: bool, value: str) -> None:
    """The user lives with "my partner": a relation word is the user's value, not the user."""
    spans = ranker().top(text, zh, attr("lives_with"), span_path.own_words(text, "user"), k=50)
    assert value in {v for v, _ in spans}, spans


@pytest.mark.parametrize(
    ("key", "value", "kept"),
    [
        ("contact_channel", "Signal messages", "Signal"),  # "message" is in the slot's own words
        ("seat", "aisle seat", "aisle"),
        ("seat", "window seats", "window"),
        ("contact_channel", "WhatsApp", "WhatsApp"),
        ("contact_channel", "Signal Desktop", "Signal Desktop"),  # a name's own word stays
        ("seat", "exit row", "exit row"),  # no kind word at the end
        ("theme", "dark mode", "dark mode"),  # the lexicon's own wording stays whole
    ],
)
def test_an_english_choice_loses_the_word_for_its_kind(key: str, value: str, kept: str) -> None:
    assert span_path._kind_tail(attr(key), value) == kept


@pytest.mark.parametrize(
    ("value", "span", "cut"),
    [
        ("sales associate", "sales", True),  # a job title's head is its last word
        ("nurse practitioner", "nurse", True),
        ("sales associate", "associate", False),  # dropping a modifier keeps the job
        ("barista", "barista", False),
    ],
)
def test_a_job_titles_head_is_its_last_word(value: str, span: str, cut: bool) -> None:
    assert span_path._cut_tail(value, span) is cut
