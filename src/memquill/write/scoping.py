"""Scope defaults that match what the speaker meant (DESIGN §2).

- "for this session only" / "本次会话…" binds to the session: other sessions never see it.
- An explicit note said inside a project about the project's own things — credentials,
  hosts, clients, repositories, environments — belongs to that project, not to the user's
  profile in every other project. So does any statement that names the project the session
  is in ("mall 的指标口径都写在飞书文档里" said in project mall): shown in project ops it
  would leak. Personal facts said in a project stay user-level.
"""

from __future__ import annotations

import re

from memquill.model import Candidate, Event, Level

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


def intended_level(cand: Candidate, event: Event) -> Level | None:
    """The level the words ask for, or None to keep the extractor's default."""
    if event.scope.session and SESSION_ONLY.search(event.content):
        return Level.SESSION
    explicit_note = cand.attributes.get("explicit") and cand.key.startswith("note:")
    if event.scope.project and explicit_note and PROJECT_THING.search(cand.content):
        return Level.PROJECT
    if event.scope.project and names_project(cand.content, event.scope.project):
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
