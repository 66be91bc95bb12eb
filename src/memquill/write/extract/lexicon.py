"""Slot vocabulary: which attribute a preference, decision or tech choice is about.

Two statements conflict only when they fill the same slot, so "深色主题" and "浅色主题"
must both map to ``theme`` while "tea" and "Python" must not collide. Each category lists
head words (any language); the first category with a word in the object wins. A word may
carry its canonical English name (``"咖啡=coffee"``): keys use the canonical name, so
"我不喝咖啡" and "I like coffee" land in the same slot (``beverage:coffee``). English words
also match their plural ("lattes").
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "theme",
        (
            "深色=dark_mode",
            "暗色=dark_mode",
            "dark mode=dark_mode",
            "dark theme=dark_mode",
            "浅色=light_mode",
            "亮色=light_mode",
            "light mode=light_mode",
            "light theme=light_mode",
            "主题",
            "theme",
        ),
    ),
    (
        "editor",
        (
            "编辑器",
            "neovim",
            "vim",
            "emacs",
            "vs code=vscode",
            "vscode",
            "pycharm",
            "intellij",
            "sublime",
            "cursor",
            "zed",
            "webstorm",
            "goland",
            "clion",
            "xcode",
            "android studio",
            "notepad++",
            "textmate",
            "editor",
            "ide",
        ),
    ),
    ("package_manager", ("pnpm", "npm", "yarn", "bun", "poetry", "uv", "pip", "conda", "包管理")),
    ("indentation", ("tabs=tab", "tab", "空格=spaces", "spaces", "缩进", "indent")),
    (
        "beverage",
        (
            "奶茶=milk_tea",
            "milk tea",
            "咖啡=coffee",
            "拿铁=latte",
            "茶=tea",
            "可乐=cola",
            "果汁=juice",
            "啤酒=beer",
            "红酒=wine",
            "re:酒(?![店吧])=alcohol",
            "coffee",
            "latte",
            "tea",
            "espresso",
            "beer",
            "wine",
            "juice",
            "soda",
            "cola",
            "alcohol",
            "booze=alcohol",
        ),
    ),
    (
        "diet",
        (
            "辣=spicy",
            "素食=vegetarian",
            "吃素=vegetarian",
            "纯素=vegan",
            "海鲜=seafood",
            "牛肉=beef",
            "猪肉=pork",
            "香菜=cilantro",
            "花生=peanut",
            "spicy",
            "vegan",
            "vegetarian",
            "meat",
            "seafood",
            "gluten",
            "dairy",
            "pork",
            "beef",
            "cilantro",
            "peanut",
            "peanuts=peanut",
        ),
    ),
    ("reply_language", ("中文=chinese", "英文=english", "english", "chinese", "普通话=chinese")),
    (
        "reply_style",
        (
            "简洁=concise",
            "简短=concise",
            "详细=detailed",
            "啰嗦=verbose",
            "concise",
            "verbose",
            "brief=concise",
            "short=concise",
            "detailed",
            "to the point=concise",
        ),
    ),
    (
        "reply_format",
        ("表情=emoji", "emoji", "emojis=emoji", "markdown", "表格=table", "bullet=bullets", "列表=bullets"),
    ),
    (
        "contact",
        (
            "打电话=call",
            "电话=call",
            "发消息=message",
            "消息=message",
            "短信=sms",
            "call",
            "calls=call",
            "text me=sms",
            "email me=email",
            "ping me=message",
        ),
    ),
    ("os", ("windows", "macos=mac", "mac", "linux", "ubuntu", "debian", "arch linux=arch", "操作系统")),
    ("browser", ("chrome", "firefox", "safari", "edge", "浏览器", "browser")),
    (
        "database",
        (
            "postgresql",
            "postgres=postgresql",
            "mysql",
            "sqlite",
            "mongodb",
            "数据库",
            "database",
            "oracle",
            "clickhouse",
        ),
    ),
    ("cache", ("redis", "memcached", "缓存=cache", "cache")),
    ("message_queue", ("kafka", "rabbitmq", "消息队列=message_queue", "pulsar", "nats", "sqs")),
    ("api_style", ("grpc", "rest", "graphql", "restful=rest")),
    ("state_management", ("状态管理", "redux", "zustand", "mobx", "pinia", "vuex", "state management")),
    ("styling", ("tailwind", "styled-components", "css modules", "sass", "styling")),
    # before the frontend and language words their names start with ("React Native", "Kotlin Multiplatform")
    (
        "mobile",
        ("react native", "flutter", "swiftui", "kotlin multiplatform", "jetpack compose", "移动端框架"),
    ),
    ("frontend", ("react", "vue", "angular", "svelte", "前端框架", "frontend")),
    (
        "language",
        (
            "python",
            "golang=go",
            "go",
            "rust",
            "java",
            "typescript",
            "javascript",
            "kotlin",
            "swift",
            "c++",
            "编程语言",
        ),
    ),
    ("runtime", ("node.js", "nodejs=node.js", "node=node.js", "deno", "jdk")),
    (
        "cloud",
        (
            "aws",
            "gcp",
            "google cloud=gcp",
            "azure",
            "阿里云=aliyun",
            "腾讯云=tencent_cloud",
            "华为云=huawei_cloud",
            "火山引擎=volcengine",
            # platforms an app is hosted on (a deploy target and, asked, where it is hosted)
            "heroku",
            "fly.io",
            "vercel",
            "netlify",
            "digitalocean",
            "linode",
            "hetzner",
            "cloudflare",
        ),
    ),
    (
        "meeting_time",
        (
            "开会时间",
            "会议时间",
            "meeting time",
            "re:(?:上午|下午|早上|晚上)开会",
            "re:\\bmeetings? (?:in the |before |after )?(?:morning|afternoon|evening|\\d)",
            "re:\\b(?:morning|afternoon|evening) meetings?",
        ),
    ),
    ("seat", ("靠窗=window", "过道=aisle", "window seat=window", "aisle seat=aisle")),
)

# Lower-case "go", "rust", "edge", "cursor", "rest" are ordinary words: only these spellings count.
_CASED = {
    "go": "Go",
    "rust": "Rust",
    "swift": "Swift",
    "edge": "Edge",
    "cursor": "Cursor",
    "rest": "REST",
    "bun": "Bun",
}


def _compile(word: str) -> re.Pattern[str]:
    """``re:`` entries are regexes; other CJK words match anywhere, ASCII words as words."""
    if word.startswith("re:"):
        return re.compile(word[3:], re.IGNORECASE)
    if not word.isascii():
        return re.compile(re.escape(word))
    plural = "" if word.endswith("s") else "(?:e?s)?"
    body, flags = (_CASED[word], 0) if word in _CASED else (re.escape(word), re.IGNORECASE)
    return re.compile(rf"(?<![A-Za-z]){body}{plural}(?![A-Za-z])", flags)


def _split(entry: str) -> tuple[str, str]:
    word, _, canon = entry.rpartition("=") if "=" in entry else (entry, "", "")
    return word, canon or word.removeprefix("re:")


_TERMS: tuple[tuple[str, tuple[tuple[re.Pattern[str], str], ...]], ...] = tuple(
    (name, tuple((_compile(_split(w)[0]), _split(w)[1]) for w in words)) for name, words in CATEGORIES
)


def classify(obj: str) -> tuple[str, str] | None:
    """(category, canonical head word) of a preference object, or None."""
    for name, terms in _TERMS:
        for rx, canon in terms:
            if rx.search(obj):
                return name, slug(canon)
    return None


def category(obj: str) -> str | None:
    """The slot category of a preference object, or None when it names no known attribute."""
    found = classify(obj)
    return found[0] if found else None


# The catalogue keys a value the lexicon knows as a technology may fill: "Deno" is a runtime,
# never a CI system or a project lead. Neighbouring roles share a family (Redis as a cache or a
# database, a cloud as where it is deployed).
TECH_ROLES: dict[str, frozenset[str]] = {
    "editor": frozenset({"editor"}),
    "os": frozenset({"os", "device"}),
    "browser": frozenset({"browser"}),
    "package_manager": frozenset(
        {"stack:package_manager", "stack:build_tool", "stack:runtime"}
    ),  # Bun is both
    "database": frozenset({"stack:database", "stack:cache", "stack:search", "stack:queue", "stack:orm"}),
    "cache": frozenset({"stack:cache", "stack:database", "stack:queue"}),
    "message_queue": frozenset({"stack:queue"}),
    "api_style": frozenset({"stack:api_style"}),
    "mobile": frozenset({"stack:mobile", "stack:framework", "stack:frontend"}),
    "frontend": frozenset({"stack:frontend", "stack:framework", "stack:library", "stack:mobile"}),
    "state_management": frozenset({"stack:state_management", "stack:library", "stack:frontend"}),
    "styling": frozenset({"stack:styling", "stack:library", "stack:frontend"}),
    "language": frozenset({"stack:language", "programming_language", "stack:runtime"}),
    "runtime": frozenset({"stack:runtime", "stack:language"}),
    "cloud": frozenset({"stack:cloud", "stack:deploy_target"}),
}
_VERSION = re.compile(r"\s*(?:版本|version|v)?\s*\d+(?:\.\d+){0,2}$", re.IGNORECASE)


def tech_roles(value: str) -> frozenset[str] | None:
    """The keys a value may fill when the whole value (a version aside) is a technology the
    lexicon knows ("Deno", "postgres 16"); None for anything else."""
    bare = _VERSION.sub("", value.strip()).strip()
    for name, terms in _TERMS:
        if name in TECH_ROLES and any(rx.fullmatch(bare) for rx, _ in terms):
            return TECH_ROLES[name]
    return None


# Technologies known by the role they fill, beside the categories: a CI system, a backend
# framework, an auth provider, a test runner. Read only where a technology was already read
# (``role_of``), since some are names too ("Travis", "Jenkins", "Django" the dog).
ROLE_ONLY: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = (
    (
        frozenset({"stack:ci"}),
        (
            "github actions",
            "gitlab ci",
            "gitlab ci/cd",
            "circleci",
            "circle ci",
            "travis ci",
            "travis",
            "jenkins",
            "buildkite",
            "drone ci",
            "teamcity",
            "azure pipelines",
            "bitbucket pipelines",
            "woodpecker ci",
        ),
    ),
    (
        frozenset({"stack:framework", "stack:library"}),
        (
            "django",
            "flask",
            "fastapi",
            "express",
            "express.js",
            "nestjs",
            "spring",
            "spring boot",
            "rails",
            "ruby on rails",
            "laravel",
            "gin",
            "actix",
            "axum",
            "phoenix",
            "asp.net",
            "asp.net core",
            "symfony",
            "quarkus",
            "ktor",
            "litestar",
            "koa",
            "hono",
        ),
    ),
    (
        frozenset({"stack:auth"}),
        ("auth0", "clerk", "firebase auth", "supabase auth", "cognito", "keycloak", "okta", "nextauth"),
    ),
    (
        frozenset({"stack:test_framework"}),
        ("pytest", "jest", "vitest", "mocha", "junit", "cypress", "playwright", "rspec", "unittest"),
    ),
)
_ROLE_TERMS = tuple((roles, tuple(_compile(w) for w in words)) for roles, words in ROLE_ONLY)


def role_of(value: str) -> frozenset[str] | None:
    """The keys a technology known only by its role fills (``ROLE_ONLY``); None for any other
    value. A category's technology read as another slot stays unread (``fits_role``): "New
    team writes everything in TypeScript" read as a tool is no programming language of the
    user's."""
    bare = _VERSION.sub("", value.strip()).strip()
    return next((roles for roles, rxs in _ROLE_TERMS if any(rx.fullmatch(bare) for rx in rxs)), None)


# Exclusive categories: choosing one value replaces the previous one (one editor, one theme).
EXCLUSIVE = frozenset(
    {
        "theme",
        "editor",
        "package_manager",
        "indentation",
        "reply_language",
        "reply_style",
        "os",
        "browser",
        "seat",
        "meeting_time",
    }
)

# Technologies a project can be built on; group 1 the name, group 2 an adjacent version.
_TECH_CI = (
    "react native|flutter|swiftui|kotlin multiplatform|jetpack compose|"
    "python|node(?:\\.js|js)?|java(?!script)|golang|ruby|php|typescript|javascript|react|vue|"
    "angular|svelte|django|flask|fastapi|spring(?: boot)?|rails|laravel|nestjs|next\\.js|nuxt|"
    "postgres(?:ql)?|mysql|mongodb|redis|memcached|kafka|rabbitmq|elasticsearch|sqlite|"
    "clickhouse|kubernetes|k8s|docker|terraform|ansible|pnpm|npm|yarn|webpack|vite|tensorflow|"
    "pytorch|\\.net|c#|kotlin|scala|elixir|graphql|grpc|tailwind|redux|zustand|jenkins|"
    "github actions|gitlab ci|circleci|nginx|celery|airflow|spark|flink|snowflake|bigquery|"
    "aws|gcp|azure|阿里云|腾讯云|prometheus|grafana|sentry|heroku|fly\\.io|vercel|netlify|digitalocean"
)
TECH = re.compile(
    rf"(?<![A-Za-z.])((?i:{_TECH_CI})|Go|Rust|Swift|Express)(?![A-Za-z])"
    r"(?:\s*(?:版本|version|v)?\s*(\d+(?:\.\d+){0,2})(?![\d.]))?"
)
_TECH_CANON = {
    "postgres": "postgresql",
    "k8s": "kubernetes",
    "nodejs": "node.js",
    "node": "node.js",
    "golang": "go",
    "spring boot": "spring",
    "阿里云": "aliyun",
    "腾讯云": "tencent_cloud",
}


def tech_name(raw: str) -> str:
    """Canonical key fragment of a technology name ("Postgres" → "postgresql")."""
    low = raw.casefold()
    return slug(_TECH_CANON.get(low, low)).replace("_js", ".js") if low != ".net" else ".net"


def slug(text: str) -> str:
    """A stable slot-key fragment for free text."""
    s = re.sub(r"[^\w.+#]+|_+", "_", text.casefold()).strip("_.")
    s = re.sub(r"(?<![a-z0-9])\.|\.(?![a-z0-9])", "", s)
    return s[:48] or "x"


@cache
def english_words(part: str) -> frozenset[str]:
    """One part of speech of ``data/english_words.json`` ("verbs", "nouns"; lowercase, from
    WordNet, ``scripts/build_english_words.py``): no English POS tagger ships with memquill."""
    raw = resources.files("memquill").joinpath("data/english_words.json").read_text("utf-8")
    return frozenset(json.loads(raw)[part])


def everyday_word(w: str) -> bool:
    """Is lowercase ``w`` an English noun or verb (WordNet)? Then a capitalised one may be
    only the sentence's first word, not a name or a brand."""
    return w in english_words("nouns") or w in english_words("verbs")


_IRREGULAR = frozenset("got took went bought found left made had began became brought sold ran".split())


def only_verb(w: str) -> bool:
    """A verb or a verb's past tense that WordNet lists as no noun ("ditched", "started"), or a
    common irregular past ("got", "took"); "getting" stays: a gerund names activities
    ("Swimming")."""
    verbs, nouns = english_words("verbs"), english_words("nouns")
    if w in _IRREGULAR:
        return True
    if w in verbs:
        return w not in nouns
    stem = w[:-2] if w.endswith("ed") else ""
    doubled = len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in verbs  # "stopped"
    return bool(stem) and w not in nouns and (stem in verbs or stem + "e" in verbs or doubled)


@cache
def _given_names() -> frozenset[str]:
    raw = resources.files("memquill").joinpath("data/given_names.json").read_text("utf-8")
    return frozenset(json.loads(raw)["names"])


@cache
def _place_names() -> frozenset[str]:
    raw = json.loads(resources.files("memquill").joinpath("data/places.json").read_text("utf-8"))
    return frozenset(raw["names"]) | frozenset(raw["zh"])


def place_name(word: str) -> bool:
    """Is ``word`` a city or town of the gazetteer (``data/places.json``): "Sydney's been
    stinking hot all week" names a city, not a Sydney?"""
    return word in _place_names()


def given_name(word: str) -> bool:
    """Is ``word`` a common English given name (``data/given_names.json``, from census
    name lists, ``scripts/build_given_names.py``): "Maya", "Mark", not "Matcha"?"""
    return word.casefold() in _given_names()
