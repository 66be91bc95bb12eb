"""The HTTP API against a real uvicorn server on 127.0.0.1, on every backend.

Two tenants with their own keys; isolation (another tenant's ids are 404), erasure, trust
and read-only limits, idempotent event ids, bad input that is never a 500.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import pytest

from memquill import Memory
from memquill.apikeys import KeyRing
from memquill.interfaces.http.testing import serving

PREFS = {  # (statement, query, word that must come back)
    "en": ("Remember that I am allergic to peanuts", "peanut allergy", "peanut"),
    "zh": ("记住我对花生过敏", "花生过敏", "花生"),
}


@dataclass
class Api:
    url: str
    mem: Memory
    keys: dict[str, str]

    def client(self, key: str | None) -> httpx.Client:
        headers = {} if key is None else {"Authorization": f"Bearer {self.keys.get(key, key)}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


@pytest.fixture
def api(mem: Memory) -> Iterator[Api]:
    ring = KeyRing(mem.store)
    now = mem.clock.now()
    keys = {
        "acme": ring.create("acme", now)[1],
        "globex": ring.create("globex", now)[1],
        "reader": ring.create("acme", now, read_only=True)[1],
        "feed": ring.create("acme", now, trust=["external"])[1],
    }
    with serving(mem) as url:
        yield Api(url, mem, keys)


def add(c: httpx.Client, content: str, **fields: object) -> httpx.Response:
    return c.post("/v1/events", json={"content": content, "user": "alice", **fields})


def test_health_and_schema_need_no_key(api: Api) -> None:
    with api.client(None) as c:
        assert c.get("/healthz").json()["status"] == "ok"
        paths = c.get("/openapi.json").json()["paths"]
    for p in (
        "/v1/events",
        "/v1/messages",
        "/v1/sessions/end",
        "/v1/search",
        "/v1/context",
        "/v1/memories/{memory_id}",
        "/v1/memories/{memory_id}/history",
        "/v1/memories/{memory_id}/explain",
        "/v1/users/{user}",
        "/v1/review",
        "/v1/memories/{memory_id}/resolve",
        "/v1/stats",
    ):
        assert p in paths


@pytest.mark.parametrize("key", [None, "mq_0123456789abcdef_" + "x" * 43, "not-a-key"])
def test_missing_or_bad_key_is_401(api: Api, key: str | None) -> None:
    with api.client(key) as c:
        r = c.post("/v1/search", json={"query": "x", "user": "alice"})
    assert r.status_code == 401
    assert r.json()["error"]["type"] == "unauthorized"


def test_revoked_key_is_refused_at_once(api: Api) -> None:
    ring = KeyRing(api.mem.store)
    key, token = ring.create("acme", api.mem.clock.now())
    with api.client(token) as c:
        assert c.get("/v1/stats", params={"user": "alice"}).status_code == 200
        ring.revoke(key.id, api.mem.clock.now())
        assert c.get("/v1/stats", params={"user": "alice"}).status_code == 401


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tenants_are_isolated(api: Api, lang: str) -> None:
    statement, query, word = PREFS[lang]
    with api.client("acme") as acme, api.client("globex") as globex:
        written = add(acme, statement).json()["written"]
        assert written
        mid = written[0]
        hits = acme.post("/v1/search", json={"query": query, "user": "alice"}).json()["hits"]
        assert word in hits[0]["memory"]["content"] and hits[0]["memory"]["scope"]["tenant"] == "acme"
        # same user name, other tenant: nothing, and the id does not exist for it
        assert globex.post("/v1/search", json={"query": query, "user": "alice"}).json()["hits"] == []
        for r in (
            globex.get(f"/v1/memories/{mid}"),
            globex.get(f"/v1/memories/{mid}/history"),
            globex.get(f"/v1/memories/{mid}/explain"),
            globex.delete(f"/v1/memories/{mid}"),
            globex.post(f"/v1/memories/{mid}/resolve", json={"action": "reject"}),
        ):
            assert r.status_code == 404, r.text
            assert r.json()["error"]["type"] == "not_found"
        assert globex.delete("/v1/users/alice").status_code == 200  # erases globex's alice only
        assert acme.get(f"/v1/memories/{mid}").json()["status"] == "active"
        ctx = acme.post("/v1/context", json={"query": query, "user": "alice"}).json()
        assert word in ctx["text"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forget_and_erasure(api: Api, lang: str) -> None:
    statement, query, word = PREFS[lang]
    with api.client("acme") as c:
        mid = add(c, statement).json()["written"][0]
        add(c, statement, user="bob")
        gone = c.delete(f"/v1/memories/{mid}", params={"reason": "user request"}).json()
        assert gone["status"] == "deleted" and word not in gone["content"]
        revs = c.get(f"/v1/memories/{mid}/history").json()
        assert revs[-1]["op"] == "forget"
        add(c, statement, id="evt-again")
        erased = c.delete("/v1/users/alice").json()["deleted"]
        assert erased["events"] >= 1 and erased["memories"] >= 1
        assert c.post("/v1/search", json={"query": query, "user": "alice"}).json()["hits"] == []
        assert c.get(f"/v1/memories/{mid}").status_code == 404
        bob = c.post("/v1/search", json={"query": query, "user": "bob"}).json()["hits"]
        assert word in bob[0]["memory"]["content"]


def test_events_are_idempotent_on_id(api: Api) -> None:
    with api.client("acme") as c:
        first = add(c, "Remember that I prefer window seats", id="evt-1").json()
        again = add(c, "Remember that I prefer window seats", id="evt-1").json()
        assert first["created"] and not again["created"] and again["event_id"] == "evt-1"
        clash = add(c, "something else", id="evt-1")
        assert clash.status_code == 409 and clash.json()["error"]["type"] == "duplicate_event"


def test_read_only_key_reads_but_never_writes(api: Api) -> None:
    with api.client("acme") as writer, api.client("reader") as reader:
        mid = add(writer, PREFS["en"][0]).json()["written"][0]
        assert reader.get(f"/v1/memories/{mid}").status_code == 200
        assert reader.post("/v1/search", json={"query": "peanut", "user": "alice"}).json()["hits"]
        for r in (
            add(reader, "Remember I like tea"),
            reader.delete(f"/v1/memories/{mid}"),
            reader.delete("/v1/users/alice"),
            reader.post("/v1/sessions/end", json={"user": "alice", "session": "s1"}),
        ):
            assert r.status_code == 403 and r.json()["error"]["type"] == "permission_denied"
        assert writer.get(f"/v1/memories/{mid}").json()["status"] == "active"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trust_limited_key_cannot_claim_to_be_the_user(api: Api, lang: str) -> None:
    statement, query, _ = PREFS[lang]
    with api.client("feed") as feed, api.client("acme") as acme:
        for body in ({}, {"role": "user", "source": "user"}, {"role": "assistant"}):
            r = add(feed, statement, **body)
            assert r.status_code == 403, body
        ok = add(feed, statement, source="external")
        assert ok.status_code == 200
        mid = add(acme, statement).json()["written"][0]
        for r in (
            feed.delete(f"/v1/memories/{mid}"),
            feed.delete("/v1/users/alice"),
            feed.post(f"/v1/memories/{mid}/feedback", json={"useful": False}),
        ):
            assert r.status_code == 403  # an ingestion key adds events; it never changes memories
        assert feed.post("/v1/sessions/end", json={"user": "alice", "session": "s1"}).status_code == 200
        assert acme.get(f"/v1/memories/{mid}").json()["status"] == "active"
        recs = acme.post("/v1/search", json={"query": query, "user": "alice"}).json()["hits"]
        # external content can only create candidates, never an active explicit memory
        assert [h["memory"]["id"] for h in recs if h["memory"]["source"] == "explicit"] == [mid]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_messages_session_end_review_and_stats(api: Api, lang: str) -> None:
    turns = {
        "en": ["I live in Berlin", "ok thanks", "Actually I moved to Munich last month"],
        "zh": ["我住在北京", "好的", "其实我上个月搬到上海了"],
    }[lang]
    with api.client("acme") as c:
        body = {
            "user": "alice",
            "session": "s1",
            "messages": [{"content": t, "at": f"2026-11-2{i}T10:00:00+08:00"} for i, t in enumerate(turns)],
        }
        results = c.post("/v1/messages", json=body).json()["results"]
        assert len(results) == 3 and all(r["created"] for r in results)
        assert c.post("/v1/sessions/end", json={"user": "alice", "session": "s1"}).json()["queued"] >= 1
        api.mem.flush()
        stats = c.get("/v1/stats", params={"user": "alice"}).json()
        assert stats["events"] == 3
        review = c.get("/v1/review", params={"user": "alice", "include_candidates": True}).json()
        for item in review:
            done = c.post(f"/v1/memories/{item['memory']['id']}/resolve", json={"action": "reject"})
            assert done.json()["status"] == "invalidated"


def test_a_bad_message_writes_nothing(api: Api) -> None:
    with api.client("acme") as c:
        body = {
            "user": "alice",
            "messages": [{"content": "Remember I like tea"}, {"content": "x", "at": "not a time"}],
        }
        assert c.post("/v1/messages", json=body).status_code == 422
        assert c.get("/v1/stats", params={"user": "alice"}).json()["events"] == 0


BAD = [
    ("post", "/v1/search", {"content": b"{not json", "headers": {"content-type": "application/json"}}, 400),
    ("post", "/v1/search", {"json": {"query": "x", "user": "alice", "k": 0}}, 422),
    ("post", "/v1/search", {"json": {"query": "x", "user": "alice", "k": "five"}}, 422),
    ("post", "/v1/search", {"json": {"query": "x", "user": "alice", "at": "yesterday"}}, 422),
    ("post", "/v1/search", {"json": {"query": "x", "user": "alice", "at": "2026-01-01T10:00"}}, 422),
    ("post", "/v1/search", {"json": {"query": "x", "user": "alice", "types": ["opinion"]}}, 422),
    ("post", "/v1/search", {"json": {"query": "x", "user": "alice", "tenant": "globex"}}, 422),
    ("post", "/v1/search", {"json": ["query"]}, 422),
    ("post", "/v1/search", {"json": {"query": "", "user": "alice"}}, 422),
    ("post", "/v1/events", {"json": {"content": "  ", "user": "alice"}}, 422),
    ("post", "/v1/events", {"json": {"content": 42, "user": "alice"}}, 422),
    ("post", "/v1/events", {"json": {"content": "hi", "user": "alice", "timezone": "Mars/Base"}}, 422),
    ("post", "/v1/events", {"json": {"content": "hi", "user": "alice", "role": "god"}}, 422),
    ("post", "/v1/events", {"json": {"content": "x" * 40_000, "user": "alice"}}, 422),
    ("post", "/v1/events", {"json": {"content": "x" * 2_000_000, "user": "alice"}}, 413),
    ("post", "/v1/context", {"json": {"query": "x", "user": "alice", "budget_tokens": -1}}, 422),
    ("get", "/v1/stats", {}, 422),
    ("get", "/v1/memories/nope", {}, 404),
    ("delete", "/v1/memories/nope", {}, 404),
    ("post", "/v1/memories/nope/resolve", {"json": {"action": "maybe"}}, 422),
]


@pytest.mark.parametrize(("method", "path", "kw", "status"), BAD)
def test_bad_input_is_a_clear_4xx(
    api: Api, method: str, path: str, kw: dict[str, object], status: int
) -> None:
    with api.client("acme") as c:
        r = c.request(method.upper(), path, **kw)  # type: ignore[arg-type]
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["type"] and err["message"]


def test_many_clients_at_once(api: Api) -> None:
    def one(i: int) -> tuple[int, int]:
        with api.client("acme") as c:
            a = add(c, f"Remember that my locker number {i} is on floor {i % 5}", user=f"u{i % 4}")
            s = c.post("/v1/search", json={"query": "locker", "user": f"u{i % 4}"})
            return a.status_code, s.status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(one, range(32)))
    assert codes == [(200, 200)] * 32
    assert sum(api.mem.stats(tenant="acme", user=f"u{u}")["events"] for u in range(4)) == 32
