"""A replaced thing leaves its slot, and a change verb is never a value (zh + en, every backend,
the real embedder and the attribute model).

A multi-valued attribute (devices, vehicles) keeps each value a user names, so a replaced phone
stayed active beside its successor; a clause that sets the old one aside ("摔了", "给我妈用了",
"is now my backup") while stating the new one replaces it, while a further thing said plainly
("又买了个iPad") is a second value. A new thing of a kind that holds one value (a phone, a laptop,
a car: the catalogue's ``kinds``) replaces the one of its kind unless said as a second one. A span cut with its change verb ("ditched Neovim") named the
retired value as the new one."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def by_status(mem: Memory, key: str = "device", subject: str = "user") -> dict[str, set[str]]:
    """status → the values the subject's records of ``key`` hold."""
    recs = mem.records(user="u", statuses=["active", "superseded", "candidate", "needs_review"])
    out: dict[str, set[str]] = {}
    for r in recs:
        if r.subject == subject and r.key == key:
            out.setdefault(r.status.value, set()).add(r.value or "")
    return out


@pytest.mark.parametrize(
    ("first", "later", "was", "now"),
    [
        pytest.param(
            "手机换了，小米14，拍照比之前那台强太多",
            "小米14摔了，屏幕碎成蜘蛛网，干脆换了台iPhone 15",
            "小米14",
            "iPhone 15",
            id="zh-named-whole",
        ),
        pytest.param(
            "My phone is a Pixel 7.",
            "Got a Pixel 9 last week, the Pixel 7 is now my backup",
            "Pixel 7",
            "Pixel 9",
            id="en-named-whole",
        ),
        # the clause names the old phone without its model number ("小米那台", "the Galaxy")
        pytest.param(
            "手机换了，小米14，拍照比之前那台强太多",
            "我的手机已经不是小米那台了，上周摔碎了屏，现在换成iPhone 16了",
            "小米14",
            "iPhone 16",
            id="zh-line-name-alone",
        ),
        pytest.param(
            "My phone is a Galaxy S21.",
            "The Galaxy finally died, so I'm on a Pixel 9 now",
            "Galaxy S21",
            "Pixel 9",
            id="en-line-name-alone",
        ),
    ],
)
def test_a_replaced_device_is_superseded(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, was: str, now: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    held = by_status(mem_e5)
    assert held["active"] == {now}
    assert was in held["superseded"]


def test_the_next_device_of_a_chain_is_the_users_though_the_old_one_went_to_a_relative(
    mem_e5: Memory, clock: FixedClock
) -> None:
    say(mem_e5, clock, ["小米14摔了，屏幕碎成蜘蛛网，干脆换了台iPhone 15"], "s1", gap_days=20)
    say(mem_e5, clock, ["iPhone 15 给我妈用了，我又换回安卓，入了台Pixel 8，刷机方便"], "s2", gap_days=20)
    assert by_status(mem_e5)["active"] == {"Pixel 8"}


@pytest.mark.parametrize(
    ("first", "later", "kept", "added"),
    [
        ("我手机是小米14", "又买了个iPad，专门看书用", "小米14", "iPad"),
        ("My phone is a Pixel 7.", "Picked up an iPad for reading on the train", "Pixel 7", "iPad"),
    ],
)
def test_a_further_device_said_plainly_is_a_second_value(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, kept: str, added: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    assert by_status(mem_e5)["active"] == {kept, added}


@pytest.mark.parametrize(
    ("first", "later", "was", "now"),
    [
        # no set-aside words: a new phone bought is the phone ("手机" names the kind)
        (
            "我这台iPhone 12电池健康掉到78%了",
            "手机彻底不行了，直接买了个小米14，还有点不习惯",
            "iPhone 12",
            "小米14",
        ),
        (
            "Company finally refreshed my machine: MacBook Air M3.",
            "IT took it back for a new joiner and gave me a Dell XPS 13 instead.",
            "MacBook Air M3",
            "Dell XPS 13",
        ),
    ],
    ids=["zh-phone", "en-laptop"],
)
def test_a_new_device_of_the_same_kind_replaces_the_old_one(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, was: str, now: str
) -> None:
    """A phone, a laptop, a car holds one value (the catalogue's ``kinds``): a new one said
    without words setting the old aside left both active, so "what phone do I have" listed
    every phone the user ever named."""
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    held = by_status(mem_e5)
    assert held["active"] == {now}
    assert was in held["superseded"]


@pytest.mark.parametrize(
    ("first", "later", "kept", "added"),
    [
        ("我手机是小米14", "公司又多配了一部手机，华为Mate 60，专门接工作电话", "小米14", "Mate 60"),
        (
            "My phone is a Pixel 8.",
            "I also carry an iPhone 15 as a second phone for work calls.",
            "Pixel 8",
            "iPhone 15",
        ),
        ("My phone is a Pixel 8.", "I just bought a MacBook Air for uni.", "Pixel 8", "MacBook Air"),
        ("我手机是小米14", "新买了台ThinkPad笔记本，写代码用", "小米14", "ThinkPad"),
    ],
    ids=["zh-second-phone", "en-second-phone", "en-other-kind", "zh-other-kind"],
)
def test_a_second_device_of_a_kind_or_one_of_another_kind_is_kept_beside(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, kept: str, added: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    active = by_status(mem_e5)["active"]
    assert kept in active
    assert any(added in v for v in active), active


@pytest.mark.parametrize(
    ("turns", "was", "now"),
    [
        (["我开的车是卡罗拉，开了七年了", "提车了！白色的 Model 3，第一次开电车"], "卡罗拉", "Model 3"),
        (
            [
                "I drive a 2012 Honda Civic to work.",
                "Traded up: picked up a used Tesla Model Y last weekend.",
            ],
            "Civic",
            "Model Y",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_car_replaces_the_car(
    mem_e5: Memory, clock: FixedClock, turns: list[str], was: str, now: str
) -> None:
    say(mem_e5, clock, turns[:1], "s1", gap_days=20)
    say(mem_e5, clock, turns[1:], "s2", gap_days=20)
    held = {
        (r.value or "", r.status.value)
        for r in mem_e5.records(user="u", statuses=["active", "superseded"])
        if r.key == "vehicle"
    }
    assert any(now in v for v, status in held if status == "active"), held
    assert not any(was in v for v, status in held if status == "active"), held


@pytest.mark.parametrize(
    ("first", "later", "car", "bike"),
    [
        ("我开的车是卡罗拉，开了七年了", "最近又买了辆公路车，周末骑", "卡罗拉", "车"),
        ("I drive a Corolla.", "Just bought a road bike for the weekends.", "Corolla", "bike"),
    ],
    ids=["zh", "en"],
)
def test_a_bike_is_kept_beside_the_car(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, car: str, bike: str
) -> None:
    """ "公路车" is read with the span "车"; where the clause says it names a bicycle, not a car."""
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    active = {r.value or "" for r in mem_e5.records(user="u", statuses=["active"]) if r.key == "vehicle"}
    assert car in active
    assert any(bike in v and car not in v for v in active), active


@pytest.mark.parametrize(
    ("first", "later", "cue"),
    [
        (
            "New team does everything in Neovim and I caved.",
            "Also ditched Neovim: a plugin update broke my config for the third time.",
            "ditched",
        ),
        ("我写代码一直用VS Code", "弃用VS Code了，插件一多就卡死", "弃用"),
    ],
)
def test_a_change_verb_is_no_part_of_a_value(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, cue: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    values = {r.value or "" for r in mem_e5.records(user="u") if r.key == "editor"}
    assert values
    assert not any(cue in v.casefold() or "config" in v.casefold() for v in values)


def test_a_car_sold_for_another_is_replaced_and_its_fuel_use_is_no_car(
    mem_e5: Memory, clock: FixedClock
) -> None:
    say(mem_e5, clock, ["最后还是没换电车，上个月把飞度卖了，提了台轩逸，油耗挺低"], "s1", gap_days=20)
    cars = {r.value for r in mem_e5.records(user="u") if r.key == "vehicle"}
    assert cars == {"轩逸"}


@pytest.mark.parametrize(
    ("turns", "quit"),
    [
        (["I drink Coke Zero every day.", "I quit Coke Zero."], "Coke Zero"),
        (
            ["I drink Coke Zero every day.", "Headaches for three days after quitting soda, is that normal?"],
            "soda",
        ),
        (["我每天都喝奶茶。", "我戒了奶茶。"], "奶茶"),
        (["我每天都喝咖啡。", "戒了奶茶以后头疼了三天，正常吗？"], "奶茶"),
    ],
    ids=["en-quit", "en-quitting", "zh", "zh-after"],
)
def test_a_drink_given_up_is_no_usual_drink(
    mem_e5: Memory, clock: FixedClock, turns: list[str], quit: str
) -> None:
    """ "after quitting soda" made soda the usual drink (the clause names a drink, and "quitting"
    was no cue for an old value), and "I quit Coke Zero" went to a "likes" key beside the
    beverage slot, which kept Coke Zero."""
    say(mem_e5, clock, turns[:1], "s1")
    say(mem_e5, clock, turns[1:], "s2")
    drinks = {
        (r.value, r.polarity.value)
        for r in mem_e5.records(user="u", statuses=["active"])
        if r.key == "beverage" and r.subject == "user"
    }
    # nor a span holding it ("after quitting soda": the retrained ranker's span)
    assert not any(quit.casefold() in v.casefold() for v, pol in drinks if pol == "positive"), drinks


def test_working_from_home_is_where_the_user_works(mem_e5: Memory, clock: FixedClock) -> None:
    """ "working from home" read "from" as an old-value cue, so "home" was what the clause left
    behind and no workplace was stored (English only: the cue is the word "from")."""
    say(mem_e5, clock, ["Three weeks of working from home and I've barely left the apartment."], "s1")
    places = {r.value for r in mem_e5.records(user="u", statuses=["active"]) if r.key == "workplace"}
    assert places == {"home"}, places


@pytest.mark.parametrize(
    ("turns", "question", "want"),
    [
        (["我的手机是小米14", "新买了台ThinkPad笔记本，写代码用"], "我现在用的手机是什么型号？", "小米14"),
        (["我的手机是小米14", "新买了台ThinkPad笔记本，写代码用"], "我写代码用的是哪台笔记本？", "ThinkPad"),
        (
            ["My laptop is a MacBook Air.", "I use a Pixel 8 as my phone."],
            "What laptop am I on these days?",
            "MacBook Air",
        ),
        (
            ["My laptop is a MacBook Air.", "I use a Pixel 8 as my phone."],
            "Which phone do I have now?",
            "Pixel 8",
        ),
    ],
    ids=["zh-phone", "zh-laptop", "en-laptop", "en-phone"],
)
def test_the_kind_asked_leads_the_slot(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, want: str
) -> None:
    """Both devices answer "what device", but a question naming a phone or a laptop asks that
    one: the newer device led whatever kind was asked (the newest statement of the slot may
    answer as its episode)."""
    for i, turn in enumerate(turns):
        say(mem_e5, clock, [turn], f"s{i}", gap_days=20)
    assert len(by_status(mem_e5)["active"]) == 2
    hits = mem_e5.search(question, user="u", k=3)
    top = hits[0].memory if hits else None
    assert top is not None and want in (top.value or top.content), [
        (h.memory.key, h.memory.content) for h in hits
    ]
    assert all(w not in top.content for w in ("小米14", "ThinkPad", "MacBook", "Pixel") if w not in want)


@pytest.mark.parametrize(
    ("first", "later", "active", "superseded"),
    [
        pytest.param(
            "在学日语，五十音图老是记混",
            "日语学了几个月实在坚持不下去，干脆改学西班牙语了",
            {"西班牙语"},
            {"日语"},
            id="zh-switched-from-named",
        ),
        pytest.param(
            "I'm learning German, doing an A2 course twice a week",
            "German wasn't clicking, so I switched to Italian lessons instead",
            {"Italian"},
            {"German"},
            id="en-switched-from-named",
        ),
        # a second subject taken up beside the first keeps both
        pytest.param(
            "在学日语，五十音图老是记混",
            "日语还在学，最近又开始学韩语了",
            {"日语", "韩语"},
            set(),
            id="zh-still-learning-the-first",
        ),
        pytest.param(
            "I'm learning German, doing an A2 course twice a week",
            "German is going fine, and I'm also learning Italian now",
            {"German", "Italian"},
            set(),
            id="en-also-learning",
        ),
    ],
)
def test_a_new_value_switched_to_from_a_named_one_replaces_it_in_a_multi_valued_slot(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, active: set[str], superseded: set[str]
) -> None:
    """Learning is multi-valued (two languages at once are common), so "改学西班牙语" stayed
    beside 日语: a "new" change cue bringing a value in while the clause names another value
    of the slot replaces that one (``change_cues.changed_from``)."""
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    held = by_status(mem_e5, "learning")
    assert held["active"] == active
    assert held.get("superseded", set()) == superseded


@pytest.mark.parametrize(
    ("key", "first", "later", "active", "superseded"),
    [
        pytest.param(
            "vehicle",
            "my Honda Civic is at 140k miles and the transmission is acting up.",
            "Picked up the Subaru Outback yesterday!! What maintenance should I keep in mind the first year?",
            {"Subaru Outback"},
            {"Honda Civic"},
            id="en-car-by-make",
        ),
        pytest.param(
            "device",
            "我的红米Note 12用了三年，卡得不行",
            "入了台荣耀Magic6，拍照比之前强太多",
            {"荣耀Magic6"},
            {"Note 12"},
            id="zh-phone-by-brand",
        ),
        # a bicycle and a car are two kinds: both stay
        pytest.param(
            "vehicle",
            "My bike is a Trek FX 3, I ride it to work most days.",
            "Picked up the Subaru Outback yesterday!! What maintenance should I keep in mind the first year?",
            {"Trek FX", "Subaru Outback"},
            set(),
            id="en-bike-and-car",
        ),
    ],
)
def test_a_thing_named_by_its_make_alone_is_of_its_kind(
    mem_e5: Memory,
    clock: FixedClock,
    key: str,
    first: str,
    later: str,
    active: set[str],
    superseded: set[str],
) -> None:
    """A make or a model line says the kind ("Subaru Outback" a car, "荣耀Magic6" a phone: the
    catalogue's ``kinds`` lexicon), so a new one replaces the one of its kind without a
    kind word in the clause, and one of another kind stays beside it."""
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    now = by_status(mem_e5, key)
    assert now["active"] == active
    assert now.get("superseded", set()) == superseded
