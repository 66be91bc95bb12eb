"""jieba's dictionary cache lives in a directory of this OS user's own: the shared default
(``$TMPDIR/jieba.cache``) may belong to another user, and jieba then prints a traceback on
stderr in every process (it broke a worker's clean log when the suite ran as a second user)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_tokenising_chinese_never_touches_the_shared_jieba_cache(tmp_path: Path) -> None:
    (tmp_path / "jieba.cache").mkdir()  # unwritable as a file, even for root
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    code = (
        "from memquill.text import tokens, jieba_posseg\n"
        "print(tokens('我表妹在苏州做护士'))\n"
        "print([w.flag for w in jieba_posseg().cut('周琴是成都人')])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "Dump cache file failed" not in run.stderr
    assert "苏州" in run.stdout and "nr" in run.stdout
    own = tmp_path / f"memquill-jieba-{os.getuid()}"
    assert [p.name for p in own.iterdir()] == ["jieba.cache"]
    assert own.stat().st_mode & 0o077 == 0  # private to this user
