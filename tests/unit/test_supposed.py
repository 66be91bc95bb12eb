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
