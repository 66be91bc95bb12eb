"""Erasure that stays erased, job identities, all-or-nothing batches, offsets as zones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from memquill import FixedClock, Memory
from memquill.errors import DuplicateEventError, ScopeError
from memquill.maintain import jobs
from memquill.model import Scope, Status
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings
from memquill.store.sqlite import SQLiteStore

SECRETS = [
    ("Remember: my locker code is 7391-QX", "7391-QX", "locker code"),
    ("记住：我的储物柜密码是 7391-QX", "7391-QX", "储物柜 密码"),
]


def _everything(mem: Memory, user: str, query: str, **scope: object) -> str:
    recs = mem.records(user=user, statuses=None, **scope)
    hits = mem.search(query, k=20, include_history=True, user=user, **scope)
    return " ".join([*(r.content for r in recs), *(h.memory.content for h in hits)])


@pytest.mark.parametrize(("said", "secret", "query"), SECRETS)
def test_forget_while_the_extract_job_is_queued_stays_forgotten(
    mem: Memory, said: str, secret: str, query: str
) -> None:
    rid = mem.add(said, user="u", session="s1").written[0]
    mem.add("I also started learning the cello this autumn with a new teacher", user="u", session="s1")
    mem.forget(rid)
    mem.flush()  # the queued extract job of the forgotten turn runs now
    mem.end_session(user="u", session="s1")
    mem.flush()
    assert secret not in _everything(mem, "u", query)
    assert secret not in mem.context(query, user="u", session="s1").text
    explained = mem.explain(rid)
    assert explained.events == [] and secret not in explained.as_text()
    assert mem.add(said, user="u", session="s1", id=explained.memory.evidence[0]).created is False


@pytest.mark.parametrize(("said", "secret", "query"), SECRETS)
def test_explain_shows_only_that_evidence_was_erased(mem: Memory, said: str, secret: str, query: str) -> None:
    rid = mem.add(said + "; I like green tea", user="u").written[0]
    mem.forget(rid)
    others = [r for r in mem.records(user="u") if r.id != rid]
    for r in others:
        text = mem.explain(r.id).as_text()
        assert secret not in text and "erased" in text


@pytest.mark.parametrize(("said", "secret", "query"), SECRETS)
def test_forget_scope_with_a_project_erases_only_that_project(
    mem: Memory, said: str, secret: str, query: str
) -> None:
    mem.add("Remember: the web project deploy host is orion-7", user="u", project="web")
    mem.add("记住：我对海鲜过敏", user="u", project="web")
    mem.add(said, user="u", project="shop")
    counts = mem.forget_scope(user="u", project="web")
    assert counts["memories"] >= 1
    assert "orion-7" not in _everything(mem, "u", "deploy host orion-7", project="web")
    assert any("海鲜" in r.content for r in mem.records(user="u"))
    assert secret in _everything(mem, "u", query, project="shop")
    with pytest.raises(ScopeError):
        mem.forget_scope(user="u", agent="planner")


@pytest.mark.parametrize(("said", "secret", "query"), SECRETS)
def test_forget_scope_leaves_no_bytes_in_the_sqlite_file_or_wal(
    tmp_path: Path, clock: FixedClock, said: str, secret: str, query: str
) -> None:
    path = tmp_path / "m.db"
    mem = Memory(
        store=SQLiteStore(str(path)),
        clock=clock,
        embedder=HashEmbedder(),
        settings=Settings(default_timezone="Asia/Shanghai"),
    )
    for i in range(30):  # enough rows for several FTS segments and pages
        mem.add(f"{said} (copy {i}) and my favourite colour is teal", user="u", session="s1")
        mem.add(f"Other user note {i}: I enjoy long walks by the sea", user="v", session="s1")
    mem.end_session(user="u", session="s1")
    mem.flush()
    mem.forget_scope(user="u")
    files = [p for p in tmp_path.iterdir() if p.name.startswith("m.db")]
    raw = b"".join(p.read_bytes() for p in files)
    assert secret.encode() not in raw and b"teal" not in raw
    assert b"long walks" in raw, "the other user's words must survive"
    mem.close()


def test_forget_scope_purges_postgres_rows(mem: Memory, backend: str) -> None:
    mem.add("Remember: my locker code is 7391-QX", user="u", session="s1")
    mem.end_session(user="u", session="s1")
    mem.flush()
    mem.forget_scope(user="u")
    assert mem.store.tally("default", "u").events == 0
    assert mem.records(user="u", statuses=None) == []
    assert mem.store.session_events(Scope(user="u"), "s1") == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ((("t:x", "u"), "e"), (("t", "x:u"), "e")),
        ((("租户:甲", "用户"), "事件"), (("租户", "甲:用户"), "事件")),
    ],
)
def test_two_triples_with_a_separator_inside_never_share_a_job(mem: Memory, a: tuple, b: tuple) -> None:
    now = datetime(2026, 11, 29, tzinfo=UTC)
    keys = {jobs.extract_job(ev, Scope(tenant=t, user=u), None, now).key for (t, u), ev in (a, b)}
    assert len(keys) == 2
    for (tenant, user), ev in (a, b):
        mem.add(
            "Remember: my locker code is 7391" if user.isascii() else "记住：我的储物柜密码是七三九一",
            tenant=tenant,
            user=user,
            id=ev,
            session="s1",
        )
    assert mem.flush().done == 2
    for (tenant, user), _ in (a, b):
        assert mem.records(tenant=tenant, user=user)


@pytest.mark.parametrize(
    ("first", "second"), [("I like green tea", "I like black coffee"), ("我喜欢绿茶", "我喜欢黑咖啡")]
)
def test_add_messages_is_all_or_nothing_on_a_later_duplicate(mem: Memory, first: str, second: str) -> None:
    mem.add(first, user="u", id="m-1")
    with pytest.raises(DuplicateEventError):
        mem.add_messages([{"content": second, "id": "m-2"}, {"content": second, "id": "m-1"}], user="u")
    assert mem.store.get_events(Scope(user="u"), ["m-2"]) == []
    with pytest.raises(DuplicateEventError):
        mem.add_messages([{"content": first, "id": "m-3"}, {"content": second, "id": "m-3"}], user="u")
    assert mem.store.get_events(Scope(user="u"), ["m-3"]) == []


@pytest.mark.parametrize(
    ("said", "at"),
    [
        ("I have a dentist appointment tomorrow at 3pm", "2026-11-29T21:00:00-05:00"),
        ("我明天下午三点要去看牙医", "2026-11-29T21:00:00-05:00"),
    ],
)
def test_an_at_offset_is_the_zone_for_relative_days(mem: Memory, said: str, at: str) -> None:
    mem.add(said, user="u", at=at)
    mem.flush()
    starts = [r.when_start for r in mem.records(user="u") if r.when_start is not None]
    local = timezone(timedelta(hours=-5))
    assert starts and all(s.astimezone(local).date().isoformat() == "2026-11-30" for s in starts)


def test_erased_events_are_tombstoned_in_the_store(mem: Memory) -> None:
    rid = mem.add("Remember: my locker code is 7391-QX", user="u", session="s1").written[0]
    ev = mem.get(rid).evidence[0]
    mem.forget(rid)
    assert mem.store.get_events(Scope(user="u"), [ev]) == []
    assert set(mem.store.erased(Scope(user="u"), [ev])) == {ev}
    assert ev not in {e.id for e in mem.store.log_events(user="u")}  # a replay never re-reads it
    assert mem.get(rid).status is Status.DELETED
