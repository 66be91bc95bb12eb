"""The rule table of the bilingual extractor, most specific family first.

Every pattern reads one clause (``rules.Clause``: a sentence of the turn after time and
reference normalisation, with its conditions and resolved time) and returns candidates or
``[]``; the first family that returns something wins for that clause, and a family may
return several candidates ("I work as a data scientist at Spotify" → role + employer). A
``Beside`` family (a gathering's standing day) adds its candidates without taking the clause.

Key conventions — reconciliation relies on them: two statements conflict only when they
share ``subject`` + ``key``, so the same attribute must always get the same key, in either
language, and different attributes must never share one.

=================  ==========================  =============================================
family             subject                     key
=================  ==========================  =============================================
profile            ``user``                    ``name`` ``email`` ``phone`` ``role``
                                               ``employer`` ``location`` ``hometown``
                                               ``team`` ``manager`` ``allergy:<thing>``
preference         ``user``                    exclusive category (``editor``, ``theme``,
                                               ``reply_language``, ``reply_style``…) for a
                                               positive choice; ``<category>:<head>``
                                               (``beverage:coffee``, ``diet:cilantro``,
                                               ``theme:dark_mode``) for other known objects
                                               and for negatives; ``likes:<slug>`` unknown
instruction        ``user``                    ``instruction:<slug of the action>``
stack              ``project[:<name>]``        ``stack:<tech>`` (value: version or tech)
architecture       ``project[:<name>]``        ``architecture``
business           ``org``                     ``business:<aspect>`` (domain, customers,
                                               team_size, competitors)
decision           ``project[:<name>]``        ``decision:<topic>`` (``decision:database``)
schedule           ``event:<gathering>``       ``recurrence`` (value: the day, "周四下午")
reminder / plan    ``user``                    ``reminder:<slug>`` / ``plan:<slug>``
task state         ``user`` (session level)    ``task:<slug>``
short-lived        ``user``                    ``temp:<slug>`` (expires_at = window end)
explicit fallback  ``user``                    ``note:<slug>`` (rules.py)
=================  ==========================  =============================================

Heads are canonical English (lexicon.py: "咖啡" → ``coffee``); slugs are the activity
without times and pronouns (patterns_time.py), so "出差改到周四" hits the same plan slot.
Content is third person ("用户…" / "The user …"), keeps negation and conditions, and never
holds a relative time: the time stage has already written absolute labels.
"""

from __future__ import annotations

from memquill.write.extract.clause import Beside, Pattern
from memquill.write.extract.patterns_common import conditioned
from memquill.write.extract.patterns_decision import decision
from memquill.write.extract.patterns_kinds import kinds
from memquill.write.extract.patterns_prefs import instruction, preference
from memquill.write.extract.patterns_profile import profile
from memquill.write.extract.patterns_project import project_facts
from memquill.write.extract.patterns_schedule import schedule
from memquill.write.extract.patterns_time import plan, reminder, short_lived, task_state

_TABLE: tuple[Pattern, ...] = (
    Beside(schedule),  # a recurring gathering's standing day ("周会改到周四了"), beside the family below
    Beside(kinds),  # a carrier, a gym, a pet food named by its brand in a part about its domain
    reminder,  # "下次提醒我…" / "remind me to …": explicit, hot path, keeps its time
    task_state,  # done / pending steps, confirmed parameters
    decision,  # confirmed choices; tentative talk and conditional rules never match
    short_lived,  # "今天下午五点前发布": expires at the end of its window
    profile,  # name, contacts, role, employer, place, team, manager, allergies
    preference,  # likes, dislikes, switches, reply language and style
    project_facts,  # architecture and business context (session end), tech stack
    plan,  # appointments and trips with an absolute, future time
    instruction,  # standing "if/when/always … do …" instructions with their conditions
)
# Every family sees the clause's conditions completed ("如果下雨就取消", no comma) and cleaned.
PATTERNS: tuple[Pattern, ...] = tuple(
    Beside(conditioned(p.read)) if isinstance(p, Beside) else conditioned(p) for p in _TABLE
)

__all__ = [
    "PATTERNS",
    "decision",
    "instruction",
    "plan",
    "preference",
    "profile",
    "project_facts",
    "reminder",
    "schedule",
    "short_lived",
    "task_state",
]
