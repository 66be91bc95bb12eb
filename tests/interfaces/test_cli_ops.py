"""Operations commands of the CLI: stats, review/resolve, explain, maintain, worker --burst, export.

Driven through typer's CliRunner on temporary database files with the hash embedder; the
Python API is used only to set up what the CLI cannot (task outcomes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from memquill import Memory
from memquill.interfaces import export as views
from memquill.interfaces.cli import app

runner = CliRunner()

EMAIL = "记住，我的邮箱是 alice@example.com"
BERLIN = "I live in Berlin"
PARIS = "You live in Paris"  # the assistant's claim about the user
DECISION = "我们决定用 PostgreSQL，因为团队熟悉，不用 MySQL"
STEPS = ["backup", "migrate", "verify"]
TASKS = ["migrate-orders", "migrate-users", "migrate-invoices"]


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
    return run_json("add", text, "--user", "alice", "--db", db, *extra)


def conflict(db: str) -> tuple[str, str]:
    """Berlin (the user said it) vs Paris (the assistant said it): Paris is flagged."""
    old = add(db, BERLIN)["written"][0]
    new = add(db, PARIS, "--role", "assistant")["written"][0]
    return old, new


def status(db: str, memory_id: str) -> str:
    return str(run_json("show", memory_id, "--db", db)["record"]["status"])


def complete_migrations(db: str) -> None:
    """Three successful tasks with the same steps (distinct task names: see the xfail below)."""
    with Memory(db, embedder="hash") as mem:
        for task in TASKS:
            mem.complete_task(
                task=task, outcome="deployed", steps=STEPS, when="After changing the DB schema", user="alice"
            )


# --- stats ------------------------------------------------------------------------------------
def test_stats_reports_health_metrics(db: str) -> None:
    add(db, EMAIL)
    add(db, "我喜欢深色主题")
    conflict(db)
    data = run_json("stats", "--user", "alice", "--db", db)
    assert data["scope"] == {"user": "alice"}
    assert {
        "events_per_day",
        "records_by_status",
        "records_by_type",
        "conflict_rate",
        "open_reviews",
        "utilization",
        "queue_backlog",
        "dead_letters",
        "retries",
        "processing_latency_s",
        "warnings",
    } <= set(data)
    assert data["events"] == 4 and sum(data["events_per_day"].values()) == 4
    assert data["records_by_status"] == {"active": 3, "needs_review": 1}
    assert data["records_by_type"] == {"fact": 3, "preference": 1}
    assert data["open_reviews"] == 1 and data["conflict_rate"] == 0.25
    assert data["queue_backlog"] == 4  # add does not flush: one extract job per event
    assert data["dead_letters"] == 0 and data["utilization"] is None
    assert any("conflict rate" in w for w in data["warnings"])

    assert run_json("worker", "--burst", "--db", db)["done"] == 4
    after = run_json("stats", "--user", "alice", "--db", db)
    assert after["queue_backlog"] == 0 and after["queue"] == {"done": 4}
    assert after["processing_latency_s"]["p50"] is not None


def test_stats_table_shows_metrics_and_warnings(db: str) -> None:
    conflict(db)
    result = run("stats", "--user", "alice", "--db", db)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "conflict rate" in out and "50.0%" in out and "records by status" in out
    assert "critical: conflict rate 50% > 30%" in out
    empty = run_json("stats", "--user", "bob", "--db", db)
    assert empty["records"] == 0 and empty["warnings"] == []


# --- review / resolve -------------------------------------------------------------------------
def test_review_lists_a_conflict_and_accept_supersedes_the_old_record(db: str) -> None:
    old, new = conflict(db)
    items = run_json("review", "--user", "alice", "--db", db)
    assert [i["memory"]["id"] for i in items] == [new]
    assert items[0]["memory"]["status"] == "needs_review"
    assert [c["id"] for c in items[0]["conflicts_with"]] == [old]
    assert items[0]["reason"]  # the flag's reason from the history

    table = run("review", "--user", "alice", "--db", db)
    assert table.exit_code == 0, table.output
    assert new in table.stdout and old in table.stdout and "[needs_review]" in table.stdout
    assert "Berlin" in table.stdout and "Paris" in table.stdout and "reason:" in table.stdout

    done = run_json("resolve", new, "accept", "--reason", "moved to Paris", "--db", db)
    assert done["record"]["status"] == "active" and done["others"] == {old: "superseded"}
    assert status(db, new) == "active" and status(db, old) == "superseded"
    shown = run_json("show", old, "--db", db)
    assert shown["record"]["superseded_by"] == new
    assert run_json("show", new, "--db", db)["history"][-1]["reason"] == "accept: moved to Paris"
    assert run_json("review", "--user", "alice", "--db", db) == []
    assert "nothing to review" in run("review", "--user", "alice", "--db", db).stdout


@pytest.mark.parametrize(
    ("action", "new_status", "old_status"),
    [("reject", "invalidated", "active"), ("keep_both", "active", "active")],
)
def test_resolve_reject_and_keep_both(db: str, action: str, new_status: str, old_status: str) -> None:
    old, new = conflict(db)
    result = run("resolve", new, action, "--db", db)
    assert result.exit_code == 0, result.output
    assert f"is now {new_status}" in result.stdout
    assert status(db, new) == new_status and status(db, old) == old_status


def test_resolve_errors_exit_2(db: str) -> None:
    old, new = conflict(db)
    not_flagged = run("resolve", old, "accept", "--db", db)
    assert not_flagged.exit_code == 2 and "not awaiting review" in not_flagged.stderr
    missing = run("resolve", "mem-nope", "accept", "--db", db)
    assert missing.exit_code == 2 and missing.stderr.strip() == "error: no memory 'mem-nope'"
    bad_action = run("resolve", new, "maybe", "--db", db)
    assert bad_action.exit_code == 2 and status(db, new) == "needs_review"


# --- explain ----------------------------------------------------------------------------------
def test_explain_shows_events_versions_and_why(db: str) -> None:
    r = add(db, EMAIL, "--id", "evt-email")
    mid = r["written"][0]
    data = run_json("explain", mid, "--db", db)
    assert data["memory"]["id"] == mid
    assert [e["id"] for e in data["events"]] == ["evt-email"]
    assert data["history"][0]["op"] == "add" and data["why"]

    text = run("explain", mid, "--db", db)
    assert text.exit_code == 0, text.output
    assert "evt-email" in text.stdout and "alice@example.com" in text.stdout
    assert "because:" in text.stdout

    old, new = conflict(db)
    run_json("resolve", new, "accept", "--db", db)
    chain = run("explain", new, "--db", db).stdout
    assert "versions (oldest first)" in chain and chain.index(old) < chain.rindex(new)
    assert run("explain", "mem-nope", "--db", db).exit_code == 2


# --- maintain ---------------------------------------------------------------------------------
def test_maintain_distills_a_procedure_from_three_outcomes(db: str) -> None:
    complete_migrations(db)
    data = run_json("maintain", "--user", "alice", "--db", db)
    assert data["scope"] == {"user": "alice"}
    assert data["expired"] == [] and data["archived"] == []
    [proc] = data["procedures"]
    assert proc["type"] == "procedure" and proc["attributes"]["steps"] == STEPS
    assert proc["content"].startswith("After changing the DB schema")

    again = run("maintain", "--user", "alice", "--db", db)  # idempotent: nothing new
    assert again.exit_code == 0 and "0 new procedure(s)" in again.stdout
    candidates = run_json("review", "--user", "alice", "--candidates", "--db", db)
    assert [c["memory"]["type"] for c in candidates] == ["procedure"]
    assert run_json("review", "--user", "alice", "--db", db) == []


def test_maintain_procedure_from_the_same_task_three_times(db: str) -> None:
    with Memory(db, embedder="hash") as mem:
        for _ in range(3):
            mem.complete_task(task="migrate-orders", outcome="deployed", steps=STEPS, user="alice")
    assert len(run_json("maintain", "--user", "alice", "--db", db)["procedures"]) == 1


def test_maintain_human_output(db: str) -> None:
    complete_migrations(db)
    result = run("maintain", "--user", "alice", "--db", db)
    assert result.exit_code == 0, result.output
    assert "1 new procedure(s)" in result.stdout and "backup, then migrate, then verify" in result.stdout


# --- worker --burst (in-process; the real process is in test_worker_process.py) ---------------
def test_worker_burst_drains_the_queue(db: str) -> None:
    add(db, DECISION, "--project", "web")
    add(db, BERLIN)
    result = run("worker", "--burst", "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("drained: 2 done, 0 failed") and "extract=2" in result.stdout
    assert run_json("worker", "--burst", "--db", db) == {"done": 0, "failed": 0, "dead": 0, "kinds": {}}
    decisions = run_json(
        "search", "PostgreSQL", "--user", "alice", "--project", "web", "--type", "decision", "--db", db
    )
    assert decisions and "PostgreSQL" in decisions[0]["memory"]["content"]


# --- export -----------------------------------------------------------------------------------
def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_export_writes_decisions_sessions_and_skills(db: str, tmp_path: Path) -> None:
    add(db, DECISION, "--project", "web")
    add(db, BERLIN, "--at", "2026-11-20T01:30:00+08:00", "--timezone", "Asia/Shanghai")
    run_json("worker", "--burst", "--db", db)
    complete_migrations(db)
    run_json("maintain", "--user", "alice", "--db", db)
    out = tmp_path / "views"

    data = run_json("export", str(out), "--user", "alice", "--project", "web", "--db", db)
    assert data["decisions"] == 1 and data["procedures"] == 1 and data["sessions"] >= 1
    files = snapshot(out)
    assert set(data["files"]) == set(files)

    decisions = files["decisions.md"]
    assert decisions.startswith("> Generated by memquill export") and "not the source of truth" in decisions
    assert "PostgreSQL" in decisions and "团队熟悉" in decisions and "MySQL" in decisions
    assert "Rejected alternatives:** MySQL" in decisions and "`evt-" in decisions
    assert decisions.count("\n## ") == 1

    # the local date of observed_at: 01:30 in Shanghai is still the 19th in UTC
    day = files["sessions/2026-11-20.md"]
    assert "Berlin" in day and "01:30" in day and "## Facts" in day
    assert "sessions/2026-11-19.md" not in files

    [skill_path] = [p for p in files if p.endswith("/SKILL.md")]
    assert skill_path == "procedures/after-changing-the-db-schema/SKILL.md"
    skill = files[skill_path]
    assert skill.startswith('---\nname: "after-changing-the-db-schema"\n')
    assert 'status: "candidate"' in skill and views.MARKER in skill
    assert "1. backup\n2. migrate\n3. verify" in skill
    assert "Needs confirmation" in skill and "`evt-" in skill

    again = run_json("export", str(out), "--user", "alice", "--project", "web", "--db", db)
    assert again["removed"] == len(files)
    assert snapshot(out) == files  # regenerated, not appended to


def test_export_without_project_leaves_project_decisions_out(db: str, tmp_path: Path) -> None:
    add(db, DECISION, "--project", "web")
    run_json("worker", "--burst", "--db", db)
    data = run_json("export", str(tmp_path / "v"), "--user", "alice", "--db", db)
    assert data["decisions"] == 0 and data["files"] == ["decisions.md"]
    assert "No active decisions." in (tmp_path / "v" / "decisions.md").read_text(encoding="utf-8")


def test_export_clears_stale_views_but_keeps_other_files(db: str, tmp_path: Path) -> None:
    complete_migrations(db)
    [proc] = run_json("maintain", "--user", "alice", "--db", db)["procedures"]
    out = tmp_path / "views"
    run_json("export", str(out), "--user", "alice", "--db", db)
    assert list(out.glob("procedures/*/SKILL.md"))
    (out / "notes.md").write_text("mine", encoding="utf-8")
    (out / "sessions").mkdir(exist_ok=True)
    (out / "sessions" / "mine.md").write_text("my own notes", encoding="utf-8")

    [item] = run_json("review", "--user", "alice", "--candidates", "--db", db)
    assert item["memory"]["content"] == proc["content"]
    run_json("resolve", item["memory"]["id"], "reject", "--db", db)
    data = run_json("export", str(out), "--user", "alice", "--db", db)
    assert data["procedures"] == 0 and not (out / "procedures").exists()
    assert (out / "notes.md").read_text(encoding="utf-8") == "mine"
    assert (out / "sessions" / "mine.md").read_text(encoding="utf-8") == "my own notes"


def test_export_refuses_to_overwrite_a_file_it_did_not_write(db: str, tmp_path: Path) -> None:
    out = tmp_path / "views"
    out.mkdir()
    (out / "decisions.md").write_text("# my decisions\n", encoding="utf-8")
    result = run("export", str(out), "--user", "alice", "--db", db)
    assert result.exit_code == 2 and "not generated by memquill" in result.stderr
    assert (out / "decisions.md").read_text(encoding="utf-8") == "# my decisions\n"
    bad_tz = run("export", str(tmp_path / "x"), "--user", "alice", "--timezone", "Mars/Olympus", "--db", db)
    assert bad_tz.exit_code == 2 and "unknown timezone" in bad_tz.stderr


def test_skill_slug_falls_back_and_stays_unique() -> None:
    assert views.slugify("After changing the DB schema!") == "after-changing-the-db-schema"
    assert views.slugify("修改数据库结构后") == ""
    assert views.slugify("Café  déploiement") == "cafe-deploiement"
