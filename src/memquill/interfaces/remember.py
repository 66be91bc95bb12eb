"""An agent's explicit "remember this", phrased so the write path treats it as one.

Shared by the MCP server and the LangGraph store: both receive statements an agent chose to
save. Logged as the agent's request ("Remember: …" / "记住：…") they take the hot path and
are visible at once, with the agent's trust class (never above what the user said).
"""

from __future__ import annotations

import re

from memquill.text import detect_language

ASKS = re.compile(r"^\s*(remember|please remember|记住|请记住|记一下)\b", re.IGNORECASE)


def as_request(content: str) -> str:
    """The agent's words as an explicit request to remember, in the content's language."""
    if ASKS.match(content):
        return content
    return f"记住：{content}" if detect_language(content) == "zh" else f"Remember: {content}"
