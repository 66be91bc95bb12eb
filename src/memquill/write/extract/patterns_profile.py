"""Profile facts about the speaker: name, contacts, role, employer, place, team, manager,
allergies. Keys: ``name``, ``email``, ``phone``, ``role``, ``employer``, ``location``,
``hometown``, ``team``, ``manager``, ``allergy:<thing>``. One clause may hold several
("I work as a data scientist at Spotify" → ``role`` and ``employer``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from memquill.catalogue import load
from memquill.model import Candidate, MemoryType, Role
from memquill.retrieve import places
from memquill.write.extract import introductions, subjects, value_kinds
from memquill.write.extract.clause import Clause
from memquill.write.extract.lexicon import classify, english_words, only_verb, slug
from memquill.write.extract.model_gates import phrase
from memquill.write.extract.patterns_common import END, I, blocked, first, flags, parts, rx
from memquill.write.extract.phrasing import clean_object
from memquill.write.extract.value_kinds import thing_word
from memquill.write.extract.values import pos_cut
from memquill.write.roles import voiced

_X = r"([^，,。.!！?？;；]{1,40}?)"
# the user's company opening a clause ("我们公司…", "our company…"; not "公司内部转岗…")
_COMPANY_ZH = r"^(?:我们|我的|我)?(?:公司|单位)(?!内部|里|内)"
_COMPANY_EN = r"^(?:our|my) (?:company|employer|firm|startup)"
_NAME = r"([^，,。.!！?？;；\s][^，,。.!！?？;；]{0,30}?)"
_ROLE_ZH = (
    r"工程师|开发|程序员|经理|设计师|老师|学生|医生|护士|律师|架构师|分析师|研究员|负责人|"
    r"运维|测试|创始人|CEO|CTO|总监|主管|实习生|顾问|科学家|会计|销售|博士|硕士"
)
# how Chinese job words end ("快递员", "药剂师", "店长", "歌手", "销售助理")
_JOB_END_ZH = (
    r"员|师|工|长|手|官|医|经理|总监|主管|专员|顾问|助理|护士|会计|销售|运营|编辑|记者|司机|教练|主播"
)
_ROLE_EN = (
    r"engineer|developer|dev|programmer|manager|designer|teacher|student|doctor|nurse|"
    r"lawyer|architect|analyst|researcher|scientist|lead|founder|co-founder|consultant|"
    r"cto|ceo|director|intern|accountant|writer|product owner|sre|devops|pm"
)
_MADE_ME = re.compile(r"\b(?:made|named|appointed|promoted) me\b|把我|让我|任命我|我被", re.IGNORECASE)
# the heads of roles someone is made ("made me tech lead", "named me team captain")
_ROLE_EN_MORE = (
    r"head|owner|captain|chair|coordinator|officer|editor|supervisor|rep|admin|maintainer|"
    r"chef|cook|specialist|associate|assistant|principal|sergeant|foreman"
)
_NOT_NAME = (
    r"Chinese|Japanese|American|British|German|French|Canadian|Indian|Korean|Australian|"
    r"Italian|Spanish|Russian|Dutch|Swiss|Swedish|English|Irish|Mexican|Brazilian|Vegan|"
    r"Vegetarian|Fine|Good|Okay|Ok|Sorry|Back|Done|Ready|Here|Sure|Busy|Free|Tired|Happy|"
    r"Glad|Home|Late|Excited|Not|Also|Just|Still|So|Very|Really|Actually|Everyone|Everybody|"
    r"Someone|Somebody|Nobody|Anyone|Anybody|Everything|Something|Nothing|Anything|Who|What|"
    r"Things|People|Folks|Guys|Mom|Dad|Boss|Always|Never|Often|Usually|Sometimes|Now|Right"
)
_NOT_PLACE = r"家|这|那|外面|路上|公司|单位|学校里"
_ORG_EN = r"((?:[A-Z][\w&.'-]*)(?:\s+(?:[A-Z][\w&.'-]*|and|of|&)){0,4}(?<!\band)(?<!\bof))"
# the turn says an offer was taken ("I'm taking it", "starting June 2", "一月初入职")
_TAKEN = rx(
    r"\b(?:i'?m taking it|took it|accepted|said yes|signed|couldn'?t refuse|starting|start on|start date)\b|",
    r"入职|接了|签了|答应了|去报到|报到",
)
_EMPLOYER_AT = re.compile(r"\b(?:at|for)\s+([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})")

# a Chinese job word, Latin letters allowed ("UI设计师", "产品经理", "前端开发")
_ROLE_ZH_WORD = rf"[A-Za-z\u4e00-\u9fff]{{0,8}}?(?:{_JOB_END_ZH}|{_ROLE_ZH})"
_TEAM_EN = r"(?:team|group|department|squad)"
_ROLE = rf"([^，,。.!！?？]{{0,24}}?(?:{_ROLE_ZH}|\b(?:{_ROLE_EN})s?\b))"
# where an English employer ends: "at Google on the search team", "at Bank of America in Charlotte"
_AFTER_EMPLOYER = r"(?=$|[，,。.;；!！?？]|\s+(?:as|and|but|because|since|on|in|doing|where|which|with)\b)"


def _teaching() -> re.Pattern[str]:
    """Teaching a school subject of the lexicon (``school_subjects``), the grade allowed before it."""
    taught = value_kinds.data()["school_subjects"]
    zh, en = ("|".join(sorted(map(re.escape, taught[x]), key=len, reverse=True)) for x in ("zh", "en"))
    return rx(
        rf"^(?:我(?:现在|目前)?)?(?:在[^，,。]{{1,14}}?)?教(书|(?:[^，,。教我你他她]{{0,4}}?)(?:{zh}))(?:课)?",
        r"(?=$|[，,。了的]|\s)|",
        r"\bi(?:'m| am)? (?:teach|teaching) (?!myself\b|yourself\b)",
        rf"((?:(?:high|middle|primary|secondary|elementary|grammar) school |(?:year|grade) \d+ )?(?:{en}))\b",
    )


_PAST_JOB = rx(r"退休|以前|之前|曾经|当年|\bretired\b")


def _someone_before(c: Clause, part: str) -> bool:
    """A Chinese part without its subject after an earlier part names someone the clause's
    subject reading missed ("老公说长途太累，不跑了，在家附近的物流园当调度员"): the job is not
    the speaker's (``subjects.about_other`` files "我老公…" clauses to the husband already)."""
    if c.language != "zh" or _FIRST_PERSON_ZH.search(part) or subjects.about_other(c.text):
        return False  # "领导说…，把我提成了架构师": the speaker's
    if (at := c.text.find(part)) <= 0:
        return False
    return bool(places.people(c.text[:at]))


def _teacher(said: str, zh: bool) -> str:
    """The job a teaching clause says: the subject's teacher, less the grade ("高二英语" →
    英语老师, "high school history" → history teacher)."""
    taught = value_kinds.data()["school_subjects"]["zh" if zh else "en"]
    subject = next((w for w in sorted(taught, key=len, reverse=True) if said.casefold().endswith(w)), "")
    return (f"{subject}老师" if zh else f"{subject} teacher") if subject else "老师"


# (key, pattern): group 1 (or the first non-empty group) is the value; first match per key wins.
_PROFILE: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "name",
        rx(
            r"^(?:我叫|我的名字(?:是|叫)|(?:全名|大名|本名)(?:是|叫)?|"
            r"my name is|call me|i'?m called|i go by)\s*",
            _NAME,
            END,
        ),
    ),
    # the name to sign with is the user's: "落款写周浩然", "周报署名帮我改成刘浩然",
    # "请假条上名字帮我填赵一帆"
    (
        "name",
        re.compile(
            r"^[^，,。]{0,12}?(?:署名|落款|签名|名字(?=帮我填|填))[^，,。]{0,4}?(?:写|填|用|改成|改为)(?:成|上)?\s*"
            r"[“\"「]?([\u4e00-\u9fff]{2,4}?)[”\"」]?(?=$|就行|就好|吧|[，,。.!！])"
        ),
    ),
    (
        "name",
        re.compile(
            rf"^(?:hi,?\s+|hello,?\s+)?(?:I'm|I am|i'm)\s+((?!(?:{_NOT_NAME})\b)[A-Z][a-z]+"
            r"(?:\s+[A-Z][a-z]+)?)(?=$|\s*[,.!;])"
        ),
    ),
    # self-introductions: "本人王磊", "我是李航", "先报个名字：陈雨晴", "Marcus Hale here"
    (
        "name",
        rx(
            r"^(?:本人|鄙人|在下|我是|我名叫|(?:先)?报个名(?:字)?[：:]?|名字[是叫：:])\s*([\u4e00-\u9fff]{2,3})$"
        ),
    ),
    # "X here" introduces only when the line pauses after it ("Jon here, quick question");
    # "Always here to help" / "Still here for you" say where someone is
    (
        "name",
        re.compile(rf"^((?!(?:{_NOT_NAME})\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+here(?=\s*(?:$|[,.!;:—-]))"),
    ),
    ("birthday", rx(r"^(?:我的生日(?:是|在)|my birthday is(?: on)?)\s*", _X, END)),
    (
        "manager",
        rx(
            r"^(?:(?:我的?|我们的?|现在的|新来的|新的?)(?:直属)?(?:领导|经理|老板|上司|主管|leader|组长)(?:是|叫|(?:换|变|改)成了?)|",
            r"(?:my |our |the )?(?:new |current )?(?:direct )?(?:manager|boss|lead|supervisor|team lead)",
            r" (?:is(?: now)?(?: called| named)?|(?:has )?(?:changed|switched) to)|",
            r"i (?:now |currently |directly )*report to|i'?m (?:now )?reporting to)\s*",
            _NAME,
            END,
        ),
    ),
    # "we're getting Helen as our manager", "Helen will be my new boss"
    (
        "manager",
        re.compile(
            r"\b([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s(?:is\s|as\s|will be\s|becomes\s|became\s)(?:now\s)?"
            r"(?:my|our) (?:new )?(?:direct )?(?:manager|boss|team lead|supervisor)\b"
        ),
    ),
    # "改成向郑凯汇报了", "现在直接给陈姐汇报": whom the user reports to is the manager
    (
        "manager",
        rx(r"^(?:我)?(?:现在|以后|已经|目前)?(?:改成|改为|换成)?(?:直接)?(?:向|给)\s*", _NAME, r"\s*汇报"),
    ),
    (
        "phone",
        rx(
            r"(?:手机|电话|号码|phone(?: number)?|mobile|cell|(?:call|text|reach) me at)",
            r"\D{0,12}?(\+?\d[\d\s-]{6,18}\d)",
        ),
    ),
    ("email", rx(r"([\w.+-]+@[\w-]+(?:\.[\w-]+)+)")),
    (
        "team",
        rx(
            r"^我在(.{1,20}?)(?:团队|小组|组|部门|事业部)$|",
            rf"^i'?m (?:on|in|part of) the {_X} {_TEAM_EN}|^i work on the {_X} team",
        ),
    ),
    # moves between teams: "现在在数据平台组", "被划到风控组了", "I moved to the growth team"
    (
        "team",
        rx(
            r"^(?:我)?(?:现在|目前|已经)?(?:被)?(?:调到|调去|转到|划到|分到|换到|去了|在)了?",
            r"([^，,。了]{1,16}?)(?:团队|小组|组|部门|事业部)(?:了)?$|",
            # the user's own move ("I moved to the growth team"), not someone else's ("Marcus
            # moved to the platform team, so I report to Priya now")
            r"(?:^|\b(?:i|we)(?:'ve| have)?(?: just| recently| finally)? )",
            r"(?:moved|switched|transferred|got moved|joined|rotated) (?:over )?(?:to|onto)? ?",
            rf"the {_X} {_TEAM_EN}|",
            rf"^(?:now )?i(?:'m| am)? (?:now )?(?:on|in|with|sit with|work with) the {_X} {_TEAM_EN}",
        ),
    ),
    (
        "employer",
        rx(
            rf"^(?:我(?:现在|目前)?|现在|目前)在((?!(?:{_NOT_PLACE})).{{1,20}}?)",
            r"(?:工作|上班|任职|就职|实习|做|当)",
        ),
    ),
    (
        "employer",
        rx(
            r"^i (?:(?:just|recently|now|currently|also)\s+)?",
            r"(?:work (?:at|for)|am working (?:at|for)|joined|am employed (?:at|by))\s*",
            _X,
            _AFTER_EMPLOYER,
        ),
    ),
    ("employer", rx(r"^i'?m (?:(?:now|currently)\s+)?(?:working (?:at|for)|employed (?:at|by))\s*", _X, END)),
    # changes of employer: "跳到同程了", "下周一去网易报到", "I'm at Zillow now", "I start at Dell",
    # "Started at Tidepool on Monday" (chat drops the "I")
    # (not what goes with starting: "入职计划", "入职体检", "入职手续")
    (
        "employer",
        rx(
            r"(?:跳槽到|跳到|入职了?|加入了?)\s*(?!第|计划|手续|材料|培训|体检|流程|清单|资料|时间|日期|当天|前|后)",
            r"([^，,。了\s]{2,12}?)\s*(?:了|$)",
        ),
    ),
    ("employer", rx(r"去\s*([^，,。\s]{2,12}?)\s*(?:报到|上班|入职)")),
    ("employer", re.compile(r"\bI'?m (?:now )?at ([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,2})(?:\s+now)?\s*$")),
    (
        "employer",
        re.compile(
            r"(?:\bI (?:just )?(?:start|started|am starting)|^(?:[Jj]ust )?[Ss]tart(?:ed|ing)) (?:at|with) "
            r"([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,2})"
        ),
    ),
    # the company named as the user's: "我们公司叫云杉科技", "our company is called Brightline"
    ("employer", rx(_COMPANY_ZH, r"(?:名字)?(?:叫做?|名叫)\s*([^，,。的\s]{2,16}?)\s*(?:$|[，,。])")),
    # (the name by its capitals: case-sensitive after the opening)
    ("employer", re.compile(rf"(?i:{_COMPANY_EN})(?:'s| is)? (?:called|named) {_ORG_EN}")),
    # "accepted the Carver Health offer" (an offer said otherwise: ``_OFFERS``)
    ("employer", re.compile(r"\baccepted (?:the |their |an? )?(?:offer (?:from|at) )?" + _ORG_EN)),
    ("location", rx(r"^我(?:现在)?在(.{1,12}?)(?:生活|定居)")),
    # moves: "公司把我调去苏州", "现在在苏州安顿下来了", "we relocated to Denver"
    ("location", rx(r"(?:搬到|搬去|调去|调到|定居在|安顿在)了?\s*([^，,。了\s]{2,8}?)\s*(?:了|$|工作|生活)")),
    ("location", rx(r"^(?:现在)?在([^，,。\s]{2,6}?)安顿")),
    (
        "location",
        re.compile(
            r"\bI'?m (?:now )?(?:in|based in|living in) ([A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}) now\b"
        ),
    ),
    (
        "location",
        re.compile(
            r"\b(?:we|I)(?:'ve| have)? (?:just |finally )?(?:moved|relocated) to "
            r"([A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})"
        ),
    ),
    (
        "location",
        rx(
            r"^(?:我(?:现在)?住在|我搬(?:到|去)了?|i live in|i'?m based in|i(?:'ve)? moved to|",
            r"i relocated to|i'?m living in)\s*",
            _X,
            "(?:了)?",
            END,
        ),
    ),
    ("hometown", rx(r"^我是(\S{2,4}?)人$")),
    ("hometown", rx(r"^我的?老家(?:是|在)(.{2,10}?)(?:的|人)?$")),
    ("hometown", rx(r"^(?:i'?m from|i grew up in)\s*", _X, END)),
    (
        "role",
        rx(
            r"^(?:我?是(?:一名|一个|一位|个)?|i(?:'m| am) (?:a|an) |i work as (?:a|an) )",
            _ROLE,
            r"(?=$|[，,。.]|\s+at\b|\s+for\b|\s+and\b)",
        ),
    ),
    ("role", rx(rf"\bas (?:a|an) ([^，,。.!！?？]{{0,24}}?\b(?:{_ROLE_EN})s?\b)")),
    ("role", rx(r"^我?(?:是)?做(.{2,10}?)(?:的|工作)$")),
    # someone makes the user something: "they've made me tech lead for the ingestion squad",
    # "promoted me to staff engineer", "领导把我提成了架构师", "我被任命为财务主管"
    (
        "role",
        rx(
            r"\b(?:made|named|appointed|promoted) me(?: to)? (?:the |a |an |our )?",
            rf"((?:[a-z][\w-]*\s){{0,3}}(?:{_ROLE_EN}|{_ROLE_EN_MORE})s?)(?=\s+(?:for|of|on|at|in|from)\b|\s*[,.;!?]|$)|",
            r"(?:把我(?:提|升|调)(?:成|为|到)了?|让我(?:当|做|担任)|任命我(?:为|当)|我被(?:提拔|任命|提|升)(?:为|成)了?)",
            rf"([\u4e00-\u9fff]{{1,8}}?(?:{_JOB_END_ZH}|{_ROLE_ZH}))(?=$|[，,。了的]|\s)|",
            # the user's own promotion: "下个月开始升行政主管", "终于当上了店长", "got promoted to senior PM"
            r"(?:(?<![提])升(?:职|级)?(?:为|成|到|做)?|晋升(?:为|到|成)?|提拔(?:为|成)|当上了?)(?:一名|一个|个)?",
            rf"({_ROLE_ZH_WORD})(?=$|[，,。了的啦]|\s)|",
            r"\b(?:got|been|was|am|i'm|getting|finally) promoted to (?:the |a |an )?",
            rf"((?:[a-z][\w-]*\s){{0,3}}(?:{_ROLE_EN}|{_ROLE_EN_MORE})s?)(?=\s+(?:for|of|on|at|in|from)\b|\s*[,.;!?]|$)",
        ),
    ),
    # "我在顺丰当快递员", "我是REI的销售助理", "I'm a sales associate at REI": a role no lexicon
    # lists, known by the workplace beside it and (Chinese) by a job word's ending; Chinese drops
    # the subject ("在国企当会计，月底结账那几天走不开")
    (
        "role",
        rx(
            r"^(?:(?:我(?:现在|目前)?|现在|目前)?在[^，,。]{1,20}?(?:做|当|干)了?|(?:我(?:现在|目前)?|现在|目前)是[^，,。]{1,20}?的)",
            rf"(?:一名|一个|一位|个)?((?:(?![的当做干])[\u4e00-\u9fff]){{0,8}}?(?:{_JOB_END_ZH}))(?=$|[，,。了的]|\s)",
        ),
    ),
    # a teacher said by the verb: "我在公立高中教英语", "在中学教物理", "我在成都七中教书", "I teach
    # maths at a boys' high school", "I teach high school history"; the subject is a school subject
    # of the lexicon (``school_subjects``), so "教我个快手菜", "I'm teaching myself Korean" are no job
    ("teaches", _teaching()),
    # a role moved into or held for a while: "从UI设计师转产品经理", "转岗做运营了", "当产品经理第三周",
    # "moved from support into a product manager role", "three weeks into being a data engineer"
    (
        "role",
        rx(
            r"(?:从[^，,。]{1,12}?(?:转岗|转行|转|调)|转岗|转行|调岗)(?:成|做|到|为|去做|去当|当)?了?(?:一名|一个|个)?",
            rf"({_ROLE_ZH_WORD})(?=$|[，,。了的啦]|\s)|",
            r"^(?:我)?(?:当|做|干)(?:上|了)?",
            rf"({_ROLE_ZH_WORD})的?(?=第[一二三四五六七八九十两\d]{{1,3}}(?:天|周|个月|年)|",
            r"(?:已经|快|都)?[一二三四五六七八九十两半\d]{1,3}(?:天|周|个?月|年)了)|",
            r"\b(?:switched|moved|transferred|changed|went) (?:careers? |roles? |jobs? |teams? |over )?",
            r"(?:from [\w -]{1,30}? )?(?:to|into) (?:a |an |being a |being an )?",
            rf"((?:[a-z][\w-]*\s){{0,3}}(?:{_ROLE_EN})s?)(?= role\b|\s*[,.;!?]|$)|",
            r"\b(?:days?|weeks?|months?) (?:in )?(?:as|into being) (?:a |an |the )?",
            rf"((?:[a-z][\w-]*\s){{0,3}}(?:{_ROLE_EN})s?)\b",
        ),
    ),
    (
        "role",
        re.compile(
            r"^(?:I'm|I am|i'm|i am|I work as|i work as|I'm working as) (?:a|an) "
            r"((?:[a-z][a-z-]*\s){0,3}[a-z][a-z-]*)(?=\s+(?:at|for)\s+[A-Z])"
        ),
    ),
)
# An offer names the employer when the turn says the user took it ("Quarry Health made me an
# offer I couldn't refuse, starting Jan 5", "禾木科技给了offer，…一月初入职"; ``_TAKEN``).
_OFFERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("employer", re.compile(_ORG_EN + r" (?:just )?(?:made|gave|sent) me (?:an?|the|their) (?:\w+ )?offer")),
    ("employer", re.compile(_ORG_EN + r" (?:just )?offered me (?:a|an|the)\b")),
    ("employer", rx(r"^([^，,。\s]{2,12}?)(?:给了?我?|发了)(?:个|一个)?(?:offer|录用通知)")),
)
_CONTACT_CTX = re.compile(r"我|邮箱|邮件|\b(?:my|me|email|e-mail|reach|contact)\b", I)
_ALLERGY = re.compile(
    r"(?:^|我)(?:也|还|一直)?对(.{1,12}?)过敏|"
    r"(?:^|\bi'?m\s+|\bi am\s+)(?:also |very |severely )?allergic to\s+" + _X + END,
    I,
)
# A number said in a clause about the phone, in a part of its own ("新号码…，现在用 186…").
_PHONE_CTX = re.compile(
    r"手机|电话|号码|换了?个?号|新号|\b(?:phone|mobile|cell|number|ring|call|text) me\b|\bnumber\b", I
)
_PHONE_NUM = re.compile(r"(?<![\d.])\+?\d[\d\s-]{6,18}\d(?![\d.])")  # also right after a Chinese verb
_VALUE_TAIL = re.compile(r"\s*(?:now|these days|currently|了|啦)$", I)


def _is_place(value: str) -> bool:
    """A Chinese value that is one place name ("去杭州上班" names where, not who employs)."""
    cut = pos_cut(value)
    return len(cut) == 1 and cut[0][1] == "ns"


def _a_name(value: str, strict: bool = False) -> bool:
    """A person's name: capitalised in Latin script (``strict``: and one word is no ordinary
    English word, "Nobody here"); in Chinese one jieba reads as a name ("周琴", "陈姐") or a
    nickname (``subjects.zh_person_word``: "老周", "小张"). "我叫…" names whatever follows;
    the other forms need this."""
    if value.isascii():
        words = value.split()
        return value[:1].isupper() and not (
            strict and len(words) == 1 and value.lower() in english_words("nouns")
        )
    cut = pos_cut(value)
    return (
        (bool(cut) and cut[0][1].startswith("nr"))
        or subjects.zh_person_word(value)
        or introductions.zh_full_name(value)  # "刘浩然": jieba's 刘/浩然 (a surname, an adjective)
    )


# What a self-introduction says after the name, part by part: "I'm Marcus Hale, a chemistry
# teacher from Denver", "我是李航，在深圳一家跨境电商做运营".
_INTRO_EN = re.compile(
    r"^(?:and\s+)?(?:a|an)\s+(?P<role>[a-z][a-z -]{1,30}?)"
    r"(?:\s+(?:at|with|for)\s+(?P<org>[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,2}))?"
    r"(?:\s+(?:(?P<origin>from)|in|based in|out of)\s+(?P<place>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))?"
    r"(?:\s+(?:at|with|for)\s+(?P<org2>[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,2}))?\s*$"
)
_INTRO_ZH = re.compile(
    r"^(?:目前|现在|平时)?(?:在(?P<place>[\u4e00-\u9fff]{2,4}?)(?:的|一家|某)?(?P<org>[^，,。做当]{0,12}?))?"
    r"(?:做|当|干)(?P<role>[^，,。的]{2,10}?)(?:的|工作)?$"
)


def _introduced(c: Clause, part: str) -> list[tuple[str, str]]:
    """The role, place and employer said beside the user's own name (see above)."""
    m = (_INTRO_ZH if c.language == "zh" else _INTRO_EN).match(part)
    if not m:
        return []
    out = [("role", m.group("role").strip())]
    if (place := m.group("place")) and (c.language != "zh" or _is_place(place)):
        out.append(("hometown" if m.groupdict().get("origin") else "location", place))  # "from Denver"
    org = m.group("org") or (m.groupdict().get("org2") or "")
    if org and org.isascii() and org[:1].isupper():
        out.append(("employer", org))
    return out


def _value(key: str, raw: str) -> str:
    value = _VALUE_TAIL.sub("", raw.strip()).strip()
    return re.sub(r"\s+", " ", value) if key == "phone" else value


# Words a Chinese clause's own subject may hold that still make it the speaker's: "公司把我
# 调去苏州", "我们全家搬到杭州了", "咱家…".
_FIRST_PERSON_ZH = re.compile(r"我|咱")
# jieba flags of words that name no one: adverb, conjunction, preposition, particle, numeral,
# measure word, punctuation ("终于", "每天"; "老周" is tagged 't', so time words are read on)
_NO_DOER = ("d", "c", "p", "u", "m", "q", "x", "y", "e")


def doer(prefix: str) -> str | None:
    """Who did what an unanchored Chinese match says, from the first word before it that is
    no adverb, numeral or particle (nor a numeral's unit): "" for the speaker, a name
    ("周琴搬去成都了", "小林去腾讯报到了" — filed under ``person:<name>``, which entity linking
    turns into the relation once the name is known), or None for a relation said without
    "我" ("老婆调去深圳了": the model reads it). "终于搬到杭州了", "每天坐城际去北京上班"
    stay the speaker's."""
    if not prefix.strip() or _FIRST_PERSON_ZH.search(prefix):
        return ""
    opening = next(_opening(prefix), None)
    if opening is None:
        return ""
    at, word, flag = opening
    rest = prefix[at:].strip()
    if flag.startswith("nr"):  # a surname jieba split from its given name: "邱/永年"
        return word if len(word) > 1 else rest[:3]
    if subjects.zh_person_word(rest[:2]):
        return rest[:2]  # a nickname jieba splits or tags a noun: "小李", "小张", "老周" ('t')
    return None if load().relation(word) else ""


def _opening(prefix: str) -> Iterator[tuple[int, str, str]]:
    """(offset, word, flag) of the words of ``prefix`` that may name someone, in order. A
    word right after a numeral is its unit, not a person: the date normaliser writes "上周" as
    "2026年第12周（…）" and jieba tags that "周" a surname ('nr')."""
    after_number, at = False, 0
    for w, f in pos_cut(prefix):
        if not f.startswith(_NO_DOER) and not after_number:
            yield at, w, f
        after_number = f.startswith("m") and not w.isspace()
        at += len(w)


_NOT_A_ROLE = frozenset(
    "regular member customer client guest patient fan visitor tourist passenger subscriber user".split()
)
_DEGREE_EN = frozenset("little bit tad lot way".split())


def _a_role(value: str) -> bool:
    """A role names a job: not a customer's relation to a place ("a regular at Blue Bottle"),
    not a degree ("a little late for Sam's party"), its last word no verb."""
    words = value.casefold().split()
    if not words or re.search(r"[\u4e00-\u9fff]", value):
        return bool(words)
    return words[-1] not in _NOT_A_ROLE and not _DEGREE_EN & set(words) and not only_verb(words[-1])


def _one_part(c: Clause, part: str, seen: set[str], owners: dict[str, str]) -> list[tuple[str, str]]:
    found = []
    for key, pattern in (*_PROFILE, *(_OFFERS if _TAKEN.search(c.event.content) else ())):
        m = pattern.search(part)
        if not m or key in seen or (key == "email" and not _CONTACT_CTX.search(c.text)):
            continue
        before = part[: m.start()]
        who = (doer(before) if c.language == "zh" else subjects.named_doer(before) or "") if before else ""
        if who is None or (key in ("role", "teaches") and not before and _someone_before(c, part)):
            continue
        if who:
            owners[key] = who
        value = _value(key, first(m))
        if key == "teaches":
            if "role" in seen or _PAST_JOB.search(c.text):
                continue  # "我在讲台上站了三十四年，教的化学，退休以后…": no job now
            key, value = "role", _teacher(value, c.language == "zh")
        if key == "role" and not _a_role(value):
            continue  # "I'm a regular at Blue Bottle": a customer, no job
        if _MADE_ME.search(m.group(0)):
            owners[key] = ""  # "My manager is off, so they've made me tech lead": the user's role
        if key in ("manager", "name") and not _a_name(value, strict=key == "name" and m.start() == 0):
            continue  # "我领导是个急性子", "我是新人", "Everyone here": no one's name
        if key == "employer" and _is_place(value):
            key = "workplace"
        if key in ("location", "hometown") and (phrase(value) or thing_word(value)):
            continue  # "拖着箱子搬到我这来住了": a phrase, no place (the rule's own context is
            # surer than the model's of the rest of ``region_like``: "I live in Area 51");
            # "照片全搬到阿里云盘了": a lexicon's thing, no place
        if value:
            found.append((key, value))
            seen.add(key)
        if key == "role" and "employer" not in seen and (at := _EMPLOYER_AT.search(part, m.end(1))):
            found.append(("employer", at.group(1)))
            seen.add("employer")
    return found


_TEMPLATES = {
    "zh": {
        "name": "用户叫{}",
        "role": "用户是{}",
        "employer": "用户在{}工作",
        "workplace": "用户在{}上班",
        "location": "用户住在{}",
        "team": "用户所在的团队是{}",
        "email": "用户的邮箱是 {}",
        "phone": "用户的手机号是 {}",
        "manager": "用户的直属领导是{}",
        "hometown": "用户老家是{}",
        "birthday": "用户的生日是{}",
        "allergy": "用户对{}过敏",
    },
    "en": {
        "name": "The user's name is {}",
        "role": "The user is a {}",
        "employer": "The user works at {}",
        "workplace": "The user works in {}",
        "location": "The user lives in {}",
        "team": "The user's team is {}",
        "email": "The user's email is {}",
        "phone": "The user's phone number is {}",
        "manager": "The user's manager is {}",
        "hometown": "The user is from {}",
        "birthday": "The user's birthday is {}",
        "allergy": "The user is allergic to {}",
    },
}


def _content(c: Clause, key: str, value: str, several: bool, whose: str | None = None) -> str:
    """One fact: the clause itself. Several from one clause: one sentence each, so that they
    stay distinct records (identical content would merge as near-duplicates), of the relation
    the clause is about when it is someone's (``whose``: "用户闺蜜在阿里巴巴工作")."""
    if not several:
        return c.said()
    text = _TEMPLATES["zh" if c.language == "zh" else "en"][key.split(":")[0]].format(value)
    if whose:
        text = text.replace("用户", f"用户{whose}", 1).replace("The user", f"The user's {whose}", 1)
    return re.sub(r"\bis a (?=[aeiouAEIOU])", "is an ", text)


# a clause about the user's company: the parts after its first say what the company is or does
_COMPANY_FIRST = rx(_COMPANY_ZH, "|", _COMPANY_EN, r"\b")


def profile(c: Clause) -> list[Candidate]:
    if blocked(c):
        return []
    seen: set[str] = set()
    owners: dict[str, str] = {}  # key → the name of whoever the part says it of ("": the user)
    facts = []
    bare = False  # the turn opens with the speaker's name or job, alone
    company = _COMPANY_FIRST.search(c.text) is not None
    for i, part in enumerate(parts(c.text)):
        found = _one_part(c, part, seen, owners)
        if company and i:  # "我们公司叫云杉科技，做工业物联网的": what the company does, no role
            found = [(k, v) for k, v in found if k != "role"]
        if "name" in seen and "name" not in owners:  # "I'm Marcus Hale, a chemistry teacher from
            # Denver"; "我是李航，在深圳一家跨境电商做运营": the place too when the role rule read the job
            more = [(k, v) for k, v in _introduced(c, part) if k not in seen]
            found += more
            seen.update(k for k, _ in more)
        facts += found
    # a turn opening with the speaker's bare name or job ("Ben Fischer. let's get to it",
    # "Hi，李佳慧，以后多多关照", "急诊科护士，昨晚又抢救到凌晨"): the user's, or a transcript
    # speaker's; the assistant introducing itself names no one the memory is about
    speaker = c.event.role is Role.USER or (c.event.role is Role.ASSISTANT and not voiced(c.event))
    for key, said in (("name", introductions.opening_name), ("role", introductions.opening_role)):
        if speaker and key not in seen and (value := said(c.event.content)) and value in c.text:
            facts.append((key, value))
            seen.add(key)
            owners.pop(key, None)
            bare = True
    if "phone" not in seen and _PHONE_CTX.search(c.text) and (num := _PHONE_NUM.search(c.text)):
        facts.append(("phone", re.sub(r"\s+", " ", num.group(0))))  # "号码又换了，现在用186…"
    if m := _ALLERGY.search(c.text):
        thing = clean_object(first(m))
        head = classify(thing)
        facts.append((f"allergy:{head[1] if head else slug(thing)}", thing))
    # "我姐下个月去杭州上班", "我老公说他去字节上班": the profile of the one the clause is about
    # ("my manager is Dana" names the relation itself: the user's slot, keyed to the person later)
    other = subjects.about_other(c.text) if any(k != "manager" for k, _ in facts) else None
    if other and any(k == "name" and other[1] in v for k, v in facts):
        other = None  # "Ben Fischer. let's get to it": the speaker naming themself, not Ben
    subject = f"person:{other[0]}" if other else "user"
    several = (len(facts) > 1 or bare) and not owners
    whose = other[1] if other else None
    return [
        c.make(
            MemoryType.FACT,
            (f"person:{owners[key]}" if owners[key] else "user") if key in owners else subject,
            key,
            _content(c, key, value, several, whose),
            value=value,
            rule=f"profile.{key.split(':')[0]}",
            **flags(c),
        )
        for key, value in facts
    ]
