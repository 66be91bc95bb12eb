"""``memquill policy export``, ``replay`` and ``shadow`` from the shell, on a real file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from memquill import FixedClock, Memory
from memquill.interfaces.cli import app
from memquill.providers.fake import HashEmbedder

runner = CliRunner()
ENV = {"MEMQUILL_EMBEDDER": "hash", "MEMQUILL_DEFAULT_TIMEZONE": "Asia/Shanghai"}


def live_db(tmp_path: Path) -> Path:
    db = tmp_path / "live.db"
    clock = FixedClock("2026-11-29T02:00:00Z")
    with Memory(str(db), clock=clock, embedder=HashEmbedder()) as mem:
        for text in (
            "我不喝咖啡，只喝茶",
            "I live in Berlin",
            "上周和表妹去苏州看了园林，她在那边做护士",
            "Yesterday I went to the climbing gym with Sam and we tried the new wall",
        ):
            clock.advance(minutes=5)
            mem.add(text, user="alice", session="s1")
        mem.end_session(user="alice", session="s1")
        mem.flush()
        mem.search("茶", user="alice")
    return db


def test_export_then_shadow_a_stricter_policy_then_apply(tmp_path: Path) -> None:
    db = live_db(tmp_path)
    exported = runner.invoke(app, ["policy", "export", "--db", str(db)], env=ENV)
    assert exported.exit_code == 0, exported.output
    policy = json.loads(exported.stdout)
    policy["type_thresholds"] = {"episode": 0.99}
    path = tmp_path / "strict.json"
    path.write_text(json.dumps(policy), encoding="utf-8")
    before = db.read_bytes()
    res = runner.invoke(app, ["shadow", "--policy", str(path), "--db", str(db), "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["disappear"] and not report["appear"] and report["applied"] is False
    assert {r["type"] for r in report["disappear"]} == {"episode"}
    assert db.read_bytes() == before
    table = runner.invoke(app, ["shadow", "--policy", str(path), "--db", str(db)], env=ENV)
    assert "would disappear" in table.stdout and "type_thresholds.episode" in table.stdout
    applied = runner.invoke(
        app,
        [
            "shadow",
            "--policy",
            str(path),
            "--db",
            str(db),
            "--apply",
            "--reason",
            "episodes are noise for this bot",
        ],
        env=ENV,
    )
    assert applied.exit_code == 0 and "switched the live policy" in applied.stdout
    hist = runner.invoke(app, ["policy", "history", "--db", str(db), "--json"], env=ENV)
    assert [h["reason"] for h in json.loads(hist.stdout)] == ["episodes are noise for this bot"]
    again = runner.invoke(app, ["policy", "export", "--db", str(db)], env=ENV)
    assert json.loads(again.stdout)["type_thresholds"] == {"episode": 0.99}


def test_replay_into_a_scratch_file_and_refuse_the_live_one(tmp_path: Path) -> None:
    db = live_db(tmp_path)
    path = tmp_path / "p.json"
    path.write_text(
        runner.invoke(app, ["policy", "export", "--db", str(db)], env=ENV).stdout, encoding="utf-8"
    )
    res = runner.invoke(
        app,
        ["replay", "--policy", str(path), "--db", str(db), "--into", str(tmp_path / "scratch.db"), "--json"],
        env=ENV,
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["events"] == 4
    same = runner.invoke(app, ["replay", "--policy", str(path), "--db", str(db), "--into", str(db)], env=ENV)
    assert same.exit_code == 2 and "live store" in same.stderr


def test_bad_policy_files_are_one_line_errors(tmp_path: Path) -> None:
    db = live_db(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"worthiness_threshold": 7}', encoding="utf-8")
    for args in (
        ["shadow", "--policy", str(bad)],
        ["shadow", "--policy", str(tmp_path / "missing.json")],
        ["shadow", "--policy", str(bad), "--apply"],
    ):
        res = runner.invoke(app, [*args, "--db", str(db)], env=ENV)
        assert res.exit_code == 2 and "error:" in res.stderr and "Traceback" not in res.output
