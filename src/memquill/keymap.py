"""From value-keyed slots to catalogue keys (DESIGN §4 rule 9: keys name attributes).

Older records were keyed by what they said (``stack:postgresql``, ``allergy:peanut``,
``beverage:coffee``), so "the data now lives in MySQL" never met "we use PostgreSQL" in
one slot. This module is the single mapping from those keys to catalogue keys: the rule
extractor passes every candidate through :func:`to_catalogue`, and migration 11 rewrites
stored records with :func:`migration_statements`, so old and new records share slots.
"""

from __future__ import annotations

from collections.abc import Iterator

# Canonical tech name (``lexicon.tech_name``) → the stack role it fills.
TECH_ROLES: dict[str, str] = {
    **dict.fromkeys(
        (
            "postgresql",
            "mysql",
            "sqlite",
            "mongodb",
            "oracle",
            "clickhouse",
            "snowflake",
            "bigquery",
            "mariadb",
            "dynamodb",
            "cassandra",
            "tidb",
            "sql_server",
            "supabase",
        ),
        "stack:database",
    ),
    **dict.fromkeys(("redis", "memcached", "valkey"), "stack:cache"),
    **dict.fromkeys(("kafka", "rabbitmq", "celery", "sqs", "pulsar", "nats"), "stack:queue"),
    **dict.fromkeys(("elasticsearch", "opensearch", "meilisearch", "solr"), "stack:search"),
    **dict.fromkeys(
        (
            "python",
            "go",
            "rust",
            "java",
            "typescript",
            "javascript",
            "kotlin",
            "swift",
            "ruby",
            "php",
            "scala",
            "elixir",
            "c#",
            "c++",
            ".net",
        ),
        "stack:language",
    ),
    **dict.fromkeys(("node.js", "deno", "jdk", "bun"), "stack:runtime"),
    **dict.fromkeys(("react", "vue", "angular", "svelte", "next.js", "nuxt"), "stack:frontend"),
    **dict.fromkeys(
        ("react_native", "flutter", "swiftui", "kotlin_multiplatform", "jetpack_compose"), "stack:mobile"
    ),
    **dict.fromkeys(
        ("django", "flask", "fastapi", "spring", "rails", "laravel", "nestjs", "express"), "stack:framework"
    ),
    **dict.fromkeys(
        (
            "aws",
            "gcp",
            "azure",
            "aliyun",
            "tencent_cloud",
            "huawei_cloud",
            "volcengine",
            "digitalocean",
            "linode",
            "hetzner",
        ),
        "stack:cloud",
    ),
    **dict.fromkeys(
        ("kubernetes", "vercel", "heroku", "netlify", "fly.io", "cloudflare"), "stack:deploy_target"
    ),
    **dict.fromkeys(("docker", "podman"), "stack:container"),
    **dict.fromkeys(("terraform", "ansible", "pulumi"), "stack:iac"),
    **dict.fromkeys(("pnpm", "npm", "yarn", "poetry", "uv", "pip", "conda"), "stack:package_manager"),
    **dict.fromkeys(("webpack", "vite", "gradle", "maven", "bazel"), "stack:build_tool"),
    **dict.fromkeys(("pytest", "jest", "vitest", "junit", "mocha"), "stack:test_framework"),
    **dict.fromkeys(("graphql", "grpc", "rest"), "stack:api_style"),
    **dict.fromkeys(("tailwind", "sass"), "stack:styling"),
    **dict.fromkeys(("redux", "zustand", "mobx", "pinia", "vuex"), "stack:state_management"),
    **dict.fromkeys(("jenkins", "github_actions", "gitlab_ci", "circleci"), "stack:ci"),
    **dict.fromkeys(("prometheus", "grafana", "sentry", "datadog"), "stack:monitoring"),
    **dict.fromkeys(
        ("tensorflow", "pytorch", "spark", "flink", "airflow", "nginx", "sqlalchemy", "prisma"),
        "stack:library",
    ),
}

# Exact renames (same subject).
RENAMED: dict[str, str] = {
    "location": "city",
    "role": "occupation",
    "indentation": "convention:indentation",
    "business:domain": "business_domain",
    "business:customers": "customers",
    "business:team_size": "team_size",
    "business:competitors": "competitors",
}
# ``<family>:<value>`` → one attribute for the whole family.
FAMILIES: dict[str, str] = {
    "allergy": "allergy",
    "beverage": "beverage",
    "theme": "theme",
    "reply_format": "reply_format",
    "contact": "contact_channel",
    "seat": "seat",
    "os": "os",
    "browser": "browser",
    "editor": "editor",
    "reply_language": "reply_language",
    "reply_style": "reply_style",
}
_DIETS = frozenset({"vegetarian", "vegan", "halal", "kosher", "keto"})


def to_catalogue(subject: str, key: str, negative: bool = False) -> tuple[str, str]:
    """The catalogue (subject, key) of a possibly value-keyed slot; unknown keys unchanged."""
    if subject == "user" and key == "manager":
        return "person:manager", "name"
    if key in RENAMED:
        return subject, RENAMED[key]
    family, sep, head = key.partition(":")
    if not sep:
        return subject, key
    if family == "stack":
        return subject, TECH_ROLES.get(head, "stack:library")
    if family in FAMILIES:
        return subject, FAMILIES[family]
    if family == "diet":
        return subject, "diet" if head in _DIETS else ("food_dislike" if negative else "favorite_food")
    return subject, key


def _stack_groups() -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for tech, role in TECH_ROLES.items():
        groups.setdefault(role, []).append(f"stack:{tech}")
    return groups


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# Columns and the JSON body both hold subject and key; dialects differ only in JSON editing.
_SET = {
    "sqlite": "{col} = {v}, body = json_set(body, '$.{col}', {v})",
    "postgres": "{col} = {v}, body = jsonb_set(body::jsonb, '{{{col}}}', to_jsonb({v}::text))::json",
}
_NEGATIVE = {
    "sqlite": "json_extract(body, '$.polarity') = 'negative'",
    "postgres": "body->>'polarity' = 'negative'",
}


def migration_statements(dialect: str) -> tuple[str, ...]:
    """SQL that rekeys stored records like :func:`to_catalogue` rekeys new candidates
    (``dialect``: ``sqlite`` or ``postgres``). Order matters: exact renames first, then
    known technologies, then any other ``stack:<tech>``, then value-keyed families."""
    return tuple(_statements(dialect))


def _statements(dialect: str) -> Iterator[str]:
    def upd(new: str, cond: str) -> str:
        return f"UPDATE memories SET {_SET[dialect].format(col='key', v=_quote(new))} WHERE key {cond}"

    subject = _SET[dialect].format(col="subject", v="'person:manager'")
    yield f"UPDATE memories SET {subject} WHERE subject = 'user' AND key = 'manager'"
    yield upd("name", "= 'manager' AND subject = 'person:manager'")
    for old, new in RENAMED.items():
        yield upd(new, f"= {_quote(old)}")
    for role, keys in _stack_groups().items():
        yield upd(role, "IN (" + ", ".join(map(_quote, keys)) + ")")
    roles = ", ".join(map(_quote, sorted(set(TECH_ROLES.values()))))
    yield upd("stack:library", f"LIKE 'stack:%' AND key NOT IN ({roles})")
    for family, new in FAMILIES.items():
        yield upd(new, f"LIKE {_quote(family + ':%')}")
    yield upd("diet", "IN (" + ", ".join(_quote(f"diet:{d}") for d in sorted(_DIETS)) + ")")
    yield upd("food_dislike", f"LIKE 'diet:%' AND {_NEGATIVE[dialect]}")
    yield upd("favorite_food", "LIKE 'diet:%'")
