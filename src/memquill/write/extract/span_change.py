"""The value a change names now, for a rule that captured the old one.

A rule pattern captures one phrase by regex; in a change the clause names two values of
the same slot, and the rule's capture is often the old one ("服务跑在 Bun 上，不用 Node 了",
"we don't use Docker in prod anymore, it's all Nix now", "we use Podman instead of
Docker"). The model's values already go through the change cues (``change_cues.pick``);
here a rule's value of a single-valued attribute does too, but only when the clause itself
retires it — an old cue names it ("不用 X", "instead of X", "from X") or a negation stands
before it in its segment — and another span of the attribute's value type is left that is
neither. The other value is then the slot's value; the rule keeps the attribute.
"""

from __future__ import annotations

from memquill.catalogue import Attribute
from memquill.model import Polarity
from memquill.write.extract import change_cues, values
from memquill.write.extract.span_features import cues_of, negated
from memquill.write.extract.span_scorer import STRICT

NOT_OLD = frozenset(change_cues.KINDS) - {"old"}  # a new, started, resumed or present value


def _overlap(text: str, a: str, b: str) -> bool:
    la, lb = text.find(a), text.find(b)
    return la >= 0 and lb >= 0 and la < lb + len(b) and lb < la + len(a)


def _named(text: str, span: str) -> bool:
    """Does an unknown word read as a name: written with a capital or a digit ("TiDB",
    "Podman", "jOOQ"), joined like code ("vanilla-extract", "socket.io"), or introduced by a
    change cue ("换成bun")? A plain lowercase word in passing ("repo", "install") is no
    technology."""
    if not span.islower() or any(ch in span for ch in "-.") or any(ch.isdigit() for ch in span):
        return True
    return change_cues.introduces(cues_of(text), text.find(span), NOT_OLD)


def _kept(text: str, attr: Attribute, retired: int, at: int, cues: tuple[change_cues.Cue, ...]) -> bool:
    """Is the span at ``at`` the value kept by a clause that negates the one at ``retired``?"""
    if at > retired and change_cues.introduces(cues, at, NOT_OLD):
        return True
    return attr.value_type == "tech" and at < retired


def current(
    text: str, zh: bool, attr: Attribute, value: str, polarity: Polarity = Polarity.POSITIVE
) -> str | None:
    """The span that replaces ``value`` because the clause retires it, else None. A rule
    that read the retired value as a negative statement ("不用 Node 了") is replaced only by a
    value a change cue introduces after it ("it's all Nix now", "改用 Deno") or, for a
    technology, one said before it ("都用Podman，不用Docker了": one tool per role); without
    one, "I don't drink coffee" stays a statement about coffee, and "Unless it's urgent,
    don't call me" about calls."""
    if not attr.single or attr.value_type in STRICT:
        return None
    at = text.find(value)
    if at < 0:
        return None
    if not negated(text, at) and not change_cues.introduces(cues_of(text), at, ("old",)):
        return None  # the common case, checked before the typed extractor runs
    if not negated(text, at) and _only_origin(text, at):
        return None  # "a chemistry teacher from Denver": where someone is from, not what they left
    typed = values.spans(attr.value_type, text, zh)
    if attr.value_type == "tech":  # the kept value may be a name the lexicon does not know
        typed += [s for s in values.tech_shaped(text, zh) if s not in typed and _named(text, s)]
    old = change_cues.old_spans(text, [*typed, value])
    others = [
        s for s in typed if not _overlap(text, s, value) and s not in old and not negated(text, text.find(s))
    ]
    if polarity is not Polarity.POSITIVE:
        cues = cues_of(text)
        others = [s for s in others if _kept(text, attr, at, text.find(s), cues)]
    order = change_cues.pick(text, others)
    return order[0] if order else None


def _only_origin(text: str, at: int) -> bool:
    """Is a bare "from" the only old cue before the value, with no change named anywhere in
    the clause? "moved from Austin to Denver" names one (and "to" a new value); "I'm Marcus,
    a teacher from Denver" names none."""
    cues = cues_of(text)
    before = [c for c in cues if c.kind == "old" and c.value_start <= at <= c.value_end]
    bare = all(text[c.start : c.end].strip().lower() == "from" for c in before)
    return bare and not any(c.kind in change_cues.CHANGE for c in cues)
