"""``memquill keys`` and ``memquill serve`` as real processes (SQLite file)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from memquill.interfaces.http.testing import serve_process

pytestmark = pytest.mark.slow
ENV = {**os.environ, "MEMQUILL_EMBEDDER": "hash", "OMP_NUM_THREADS": "1"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memquill.interfaces.cli", *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    db = str(tmp_path / "svc.db")
    with serve_process(db, env=ENV, timeout_s=60) as url:
        yield db, url


def test_keys_create_list_revoke(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    made = cli("keys", "create", "--tenant", "acme", "--name", "crm", "--trust", "external", "--db", db)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip().splitlines()[-1]
    assert token.startswith("mq_")
    listed = cli("keys", "list", "--db", db)
    key_id = token.split("_")[1]
    assert key_id in listed.stdout and "acme" in listed.stdout and "trust=external" in listed.stdout
    assert token.split("_", 2)[2] not in listed.stdout + cli("keys", "list", "--json", "--db", db).stdout
    assert cli("keys", "revoke", key_id, "--db", db).returncode == 0
    assert "revoked" in cli("keys", "list", "--db", db).stdout
    bad = cli("keys", "revoke", "0123456789abcdef", "--db", db)
    assert bad.returncode == 2 and "error:" in bad.stderr
    assert cli("keys", "create", "--tenant", "acme", "--trust", "root", "--db", db).returncode == 2


def test_serve_with_its_worker(server: tuple[str, str]) -> None:
    db, url = server
    token = cli("keys", "create", "--tenant", "acme", "--db", db).stdout.strip().splitlines()[-1]
    auth = {"Authorization": f"Bearer {token}"}
    decision = "We decided to use PostgreSQL for the database because the team knows it, not MySQL"
    r = httpx.post(f"{url}/v1/events", json={"content": decision, "user": "alice"}, headers=auth)
    assert r.status_code == 200 and r.json()["written"] == []  # decisions are not hot-path
    deadline = time.monotonic() + 30
    hits: list[dict[str, object]] = []
    while not hits and time.monotonic() < deadline:  # the in-process worker writes it
        hits = httpx.post(
            f"{url}/v1/search", json={"query": "which database", "user": "alice"}, headers=auth
        ).json()["hits"]
        time.sleep(0.3)
    assert hits and "PostgreSQL" in str(hits[0]["memory"])
    key_id = token.split("_")[1]
    assert cli("keys", "revoke", key_id, "--db", db).returncode == 0
    assert httpx.get(f"{url}/v1/stats", params={"user": "alice"}, headers=auth).status_code == 401
