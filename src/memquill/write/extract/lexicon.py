"""Slot vocabulary: which attribute a preference or tech choice is about.

Two statements conflict only when they fill the same slot, so "深色主题" and "浅色主题"
must both map to ``theme`` while "tea" and "Python" must not collide. Each category lists
head words (any language); the first category whose word occurs in the object wins.
"""

from __future__ import annotations

import re

CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("theme", ("主题", "模式", "dark mode", "light mode", "theme", "深色", "浅色", "暗色", "亮色")),
    ("editor", ("编辑器", "vim", "neovim", "emacs", "vs code", "vscode", "pycharm", "intellij",
                "sublime", "cursor", "editor", "ide")),
    ("package_manager", ("pnpm", "npm", "yarn", "bun", "poetry", "uv", "pip", "conda",
                         "包管理")),
    ("indentation", ("tab", "tabs", "空格", "spaces", "缩进", "indent")),
    ("beverage", ("咖啡", "茶", "奶茶", "可乐", "果汁", "啤酒", "红酒", "coffee", "tea", "latte",
                  "espresso", "beer", "wine", "juice", "soda", "cola")),
    ("diet", ("辣", "素食", "吃素", "海鲜", "牛肉", "猪肉", "香菜", "spicy", "vegan", "vegetarian",
              "meat", "seafood", "gluten", "dairy", "pork", "beef", "cilantro")),
    ("reply_language", ("用中文", "用英文", "in english", "in chinese", "中文回复", "英文回复")),
    ("reply_style", ("简洁", "详细", "啰嗦", "concise", "verbose", "brief", "detailed", "bullet")),
    ("os", ("windows", "macos", "mac", "linux", "ubuntu", "debian", "操作系统")),
    ("browser", ("chrome", "firefox", "safari", "edge", "浏览器", "browser")),
    ("database", ("postgresql", "postgres", "mysql", "sqlite", "mongodb", "redis", "数据库",
                  "database", "oracle", "clickhouse")),
    ("frontend", ("react", "vue", "angular", "svelte", "前端框架", "frontend")),
    ("language", ("python", "golang", "go", "rust", "java", "typescript", "javascript",
                  "kotlin", "swift", "c++", "编程语言")),
    ("runtime", ("node.js", "nodejs", "node", "deno", "jdk")),
    ("cloud", ("aws", "gcp", "azure", "阿里云", "腾讯云")),
    ("meeting_time", ("开会时间", "会议时间", "meeting time", "meetings")),
    ("seat", ("靠窗", "过道", "window seat", "aisle seat")),
)  # fmt: skip

_WORD_CACHE = {
    name: [re.compile(rf"(?<![a-z]){re.escape(w)}(?![a-z])") for w in words]
    for name, words in CATEGORIES
}


def category(obj: str) -> str | None:
    """The slot category of a preference object, or None when it names no known attribute."""
    text = obj.casefold()
    for name, patterns in _WORD_CACHE.items():
        if any(p.search(text) for p in patterns):
            return name
    return None


# Exclusive categories: choosing one value replaces the previous one (one editor, one theme).
EXCLUSIVE = frozenset(
    {"theme", "editor", "package_manager", "indentation", "reply_language", "reply_style", "os",
     "browser", "seat", "meeting_time"}
)  # fmt: skip

TECH = re.compile(
    r"(?i)(?<![A-Za-z])(python|node(?:\.js|js)?|java|go(?:lang)?|rust|ruby|php|typescript|"
    r"react|vue|angular|django|flask|fastapi|spring(?: boot)?|postgres(?:ql)?|mysql|mongodb|"
    r"redis|kafka|kubernetes|k8s|docker|terraform|pnpm|npm|yarn|webpack|vite|next\.js|"
    r"tensorflow|pytorch|\.net|c#|kotlin|swift|elasticsearch|sqlite|clickhouse)"
    r"(?:\s*(?:版本|version|v)?\s*(\d+(?:\.\d+){0,2}))?"
)


def slug(text: str) -> str:
    """A stable slot-key fragment for free text."""
    s = re.sub(r"[\s\W_]+", "_", text.casefold()).strip("_")
    return s[:48] or "x"
