from memquill.write.supposed import antecedents, only_supposed


def test_antecedents_end_at_the_clause_or_its_consequent() -> None:
    text = "要是我哪天搬去深圳，通勤肯定很惨"
    [(a, b)] = antecedents(text)
    assert text[a:b] == "我哪天搬去深圳"
    text = "如果下雨就取消跑步"
    [(a, b)] = antecedents(text)
    assert text[a:b] == "下雨"
    text = "Unless I move to Berlin, I'll keep my Porto flat"
    [(a, b)] = antecedents(text)
    assert text[a:b].strip() == "I move to Berlin"


def test_only_supposed_needs_every_occurrence_inside_a_condition() -> None:
    assert only_supposed("深圳", "要是我搬去深圳，通勤肯定很惨")
    assert not only_supposed("深圳", "我在深圳，要是搬去深圳湾那边就好了")
    assert not only_supposed("Porto", "Unless I move to Berlin, I'll keep my Porto flat")
    assert not only_supposed("Lisbon", "I live in Lisbon")
    assert not only_supposed("杭州", "要不是搬到了杭州，我也不会认识她")
    assert not only_supposed("Porto", "If it weren't for moving to Porto I'd never have met Sam")
    assert not only_supposed("Kyoto", "if I'm honest, I like it here")  # the value is not in the text


def test_words_containing_a_supposing_word_are_no_supposition() -> None:
    """ "主要是" holds "要是": "我们的客户主要是连锁药店" lost its value."""
    assert not antecedents("我们的客户主要是连锁药店")
    assert not antecedents("只要是周末我都喝咖啡")
    assert not only_supposed("连锁药店", "我们的客户主要是连锁药店")


def test_what_someone_else_urges_is_not_stated_unless_taken_up() -> None:
    assert only_supposed("Cursor", "同事一直劝我换成Cursor，我还是习惯用VS Code。")
    assert not only_supposed("VS Code", "同事一直劝我换成Cursor，我还是习惯用VS Code。")
    assert only_supposed(
        "CircleCI", "Someone pitched CircleCI for parallel tests, but we're sticking with it."
    )
    assert only_supposed("Kigali", "My cousin keeps telling me to move to Kigali, says the scene is great.")
    # taken up: the proposal became the user's
    assert not only_supposed(
        "中科院上海药物所", "导师推荐我去中科院上海药物所联培，手续办完了，下周起就在那边做实验。"
    )
    assert not only_supposed("Postgres", "My manager suggested Postgres and we went with it.")
    # a doctor's instruction is the user's restriction, no proposal
    assert not only_supposed("alcohol", "My doctor told me to cut out alcohol while I'm on these antibiotics")


def test_what_the_user_only_seeks_is_not_stated_until_landed() -> None:
    applied = "Applied for a trail crew job with Jefferson County Open Space. Long shot."
    assert only_supposed("Jefferson County Open Space", applied)
    assert only_supposed("Carver Health", "Had a final-round interview at Carver Health on Friday.")
    assert only_supposed("字节", "下周去字节面试，有点紧张")
    assert only_supposed("字节", "投了字节的简历")
    assert only_supposed("美团", "简历投给美团了，等消息")
    # landed: the place applied to is the user's
    assert not only_supposed(
        "Jefferson County Open Space", "Got the job! I start at Jefferson County Open Space."
    )
    assert not only_supposed("字节", "面试了字节，拿到offer了，下个月入职")
    # interviewing others where one works is no application
    assert not only_supposed("Google", "I work at Google and interview candidates for my team")


def test_urged_or_sought_judges_the_turn_not_a_condition() -> None:
    from memquill.write.supposed import urged_or_sought

    assert urged_or_sought("Colleague Tom tried to convince me to move the clinic app to CockroachDB.")
    assert urged_or_sought("Applied for a trail crew job with Jefferson County Open Space.")
    assert not urged_or_sought("My manager suggested Postgres and we went with it.")
    assert not urged_or_sought("Work cell is 082 417 5530 if you ever need it")  # a condition
