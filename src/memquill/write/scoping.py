"""Scope defaults that match what the speaker meant (DESIGN §2).

- "for this session only" / "本次会话…" binds to the session: other sessions never see it.
- An explicit note said inside a project about the project's own things — credentials,
  hosts, clients, repositories, environments — belongs to that project, not to the user's
  profile in every other project. So does any statement that names the project the session
  is in ("mall 的指标口径都写在飞书文档里" said in project mall): shown in project ops it
  would leak. Personal facts said in a project stay user-level.
- A standing instruction or convention said by the user inside a project is about the
  project when the attribute classifier reads it as one (subject kind "project", or an
  attribute only projects have: conventions, stack, environments): "Always write commit
  messages in English" in project folio is folio's rule, "回复我用中文" stays the user's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from memquill.catalogue import load
from memquill.model import Candidate, Event, Level, MemoryType, Role
from memquill.providers.base import Embedder
from memquill.write.extract.classifier import AttributeClassifier

SESSION_ONLY = re.compile(
    r"\b(?:(?:for|in|during) (?:this|the current) (?:session|chat|conversation)|"
    r"for now in this (?:chat|session|conversation)|this (?:session|chat) only|only (?:for|in) this "
    r"(?:session|chat|conversation))\b|本次(?:会话|对话|聊天)|这次(?:会话|对话|聊天)|这个(?:会话|对话)|"
    r"当前(?:会话|对话)",
    re.IGNORECASE,
)
PROJECT_THING = re.compile(
    r"\b(?:password|passwd|credentials?|api[ -]?keys?|tokens?|secrets?|ssh keys?|hosts?|hostnames?|"
    r"servers?|ips?|ports?|endpoints?|urls?|domains?|database|db|clients?|customers?|repo(?:sitory|s)?|"
    r"branch(?:es)?|environments?|staging|production|prod|dev(?:elopment)? env|deploy(?:ment)?s?|"
    r"buckets?|clusters?|accounts?)\b|"
    r"密码|口令|凭证|凭据|密钥|令牌|主机|服务器|端口|域名|地址|数据库|客户|甲方|仓库|分支|环境|测试服|正式服|"
    r"部署|集群|账号|帐号",
    re.IGNORECASE,
)


KIND_FLOOR = 0.6  # P(subject kind = project) that makes a user's instruction the project's
ATTRIBUTE_FLOOR = 0.5  # or P(top attribute) when that attribute only projects have
# what is read: standing instructions and preferences (facts about the user stay theirs),
# never an attribute that must reach every request it bears on (allergies, medication…)
READ_PREFIXES = ("instruction:", "note:", "procedure:")
READ_TYPES = frozenset({MemoryType.PREFERENCE, MemoryType.PROCEDURE})

AboutProject = Callable[[Candidate, str], bool]


class ProjectReader:
    """Reads a user's standing instruction said in a project: is it about the project?"""

    def __init__(self, model: AttributeClassifier, embedder: Embedder) -> None:
        self.model = model
        self.embedder = embedder
        cat = load()
        self.project_only = frozenset(
            a.key for a in cat.attributes if "project" in a.subjects and "user" not in a.subjects
        )
        self.safety_critical = frozenset(a.key for a in cat.attributes if a.safety_critical)
        self.user_only = frozenset(a.key for a in cat.attributes if tuple(a.subjects) == ("user",))
        self.known = frozenset(a.key for a in cat.attributes)
        self._last: tuple[str, npt.NDArray[np.float32]] | None = None

    def _vector(self, text: str) -> npt.NDArray[np.float32]:
        """The turn's vector: one turn gives several candidates, embedded once. Only the last
        turn is kept, and an erasure drops it (``forget_cached``)."""
        if self._last is None or self._last[0] != text:
            self._last = (text, self.embedder.embed_passages([text]))
        return self._last[1]

    def forget_cached(self) -> None:
        self._last = None

    def reads(self, cand: Candidate) -> bool:
        """Is this candidate one whose level the reading may move?"""
        if cand.key in self.safety_critical:
            return False
        return cand.key.startswith(READ_PREFIXES) or cand.type in READ_TYPES

    def __call__(self, cand: Candidate, text: str) -> bool:
        """Two readings. An instruction or preference the classifier reads as the project's
        (above). And a statement that does not speak of the speaker at all — no "I", "my",
        "我" — said in the project, about nothing only a person has: "告警一律推到钉钉群里，
        别搞邮件" or "Batch IDs go SW, then the year…" said in a project's session are the
        project's, though the first reads as a contact channel and the second was taken for
        a phone number; "Reply in Chinese" (an attribute only the user has) stays the user's."""
        if cand.key in self.safety_critical or not (self.reads(cand) or impersonal(text)):
            return False
        p = self.model.predict(self._vector(text), top=1, texts=[text])[0]
        if self.reads(cand) and (
            (p.kind == "project" and p.kind_score >= KIND_FLOOR)
            or (p.attribute in self.project_only and p.attributes[0][1] >= ATTRIBUTE_FLOOR)
        ):
            return True
        keys = {cand.key, p.attribute} if cand.key in self.known else {p.attribute}
        return impersonal(text) and not keys & (self.user_only | self.safety_critical)


# the speaker speaking of themself; "we"/"我们" is as often the team as the family
_SELF = re.compile(r"我(?!们)|\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b", re.IGNORECASE)


def impersonal(text: str) -> bool:
    """The statement does not speak of the speaker ("Batch IDs go SW…", "告警一律推到钉钉群")."""
    return _SELF.search(text) is None


def reader_for(model: AttributeClassifier | None, embedder: Embedder | None) -> ProjectReader | None:
    if model is None or embedder is None or embedder.name != model.embedder:
        return None
    return ProjectReader(model, embedder)


def intended_level(cand: Candidate, event: Event, about_project: AboutProject | None = None) -> Level | None:
    """The level the words ask for, or None to keep the extractor's default."""
    if event.scope.session and SESSION_ONLY.search(event.content):
        return Level.SESSION
    explicit_note = cand.attributes.get("explicit") and cand.key.startswith("note:")
    if event.scope.project and explicit_note and PROJECT_THING.search(cand.content):
        return Level.PROJECT
    if event.scope.project and names_project(cand.content, event.scope.project):
        return Level.PROJECT
    if (
        about_project is not None
        and event.scope.project
        and event.role is Role.USER
        and cand.level is Level.USER
        and about_project(cand, event.content)
    ):
        return Level.PROJECT
    return None


def names_project(text: str, project: str) -> bool:
    """The text names the project: as a word in Latin script ("shop", not "shopping"), as it
    is in Chinese (no spaces to mark a word)."""
    name = project.strip()
    if not name:
        return False
    if name.isascii():
        return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE | re.ASCII) is not None
    return name in text
