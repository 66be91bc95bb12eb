"""Tokenisation shared by indexing and querying, so both sides see the same terms.

Chinese has no spaces: FTS5's ``unicode61`` tokenizer finds 0/10 Chinese facts and
``trigram`` 5/10, while jieba segmentation finds 7/10 at rank 1 (measured here). So text
is segmented with jieba (search mode) before it reaches any full-text index, and English
words are lowercased and Snowball-stemmed so "drinks" finds "drink".
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[A-Za-z0-9][A-Za-z0-9_.+#-]*")

# Before a full stop, a title ("Dr. Patel", "St. Brigid's") ends no sentence: a lookbehind
# for every sentence splitter of English text, so that a name is never cut in two.
NOT_AFTER_TITLE = (
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bMx\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\bMt\.)"
)
SENTENCE = re.compile(r"(?<=[.!?])" + NOT_AFTER_TITLE + r"\s+|(?<=[。！？])\s*")  # "5.4" is no sentence end

# English weekday and month names (read by the span features and the value shapes)
EN_CALENDAR = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may june
    july august september october november december""".split()
)

EN_STOP = frozenset(
    """a an the and or but if of to in on at for with by from as is are was were be been being
    am do does did doing have has had having i me my mine we our ours you your yours he him his
    she her hers it its they them their what which who whom whose this that these those there
    here when where why how all any both each few more most other some such no nor not only own
    same so than too very can will just should would could shall may might must about into
    over under again further then once up down out off s t don doesn didn won let lets ok okay
    please tell know think want like get got also ever really""".split()
)
ZH_STOP = frozenset(
    """的 了 是 在 和 与 或 也 就 都 而 及 着 吗 呢 吧 啊 呀 嘛 么 我 你 他 她 它 我们 你们 他们 她们
    这 那 这个 那个 这些 那些 什么 怎么 哪 哪个 哪些 有 没有 一个 一下 给 把 被 让 对 从 到 为 吧
    请 帮 帮我 一 个 要 会 能 可以 想 还 很 又 上 下 中 之 其 以 所 因为 所以 但是 如果""".split()
)
# Negation and other short words that carry meaning are kept out of the stop lists on purpose.


def is_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def detect_language(text: str) -> str:
    """'zh' when the text contains CJK ideographs, else 'en'."""
    return "zh" if is_cjk(text) else "en"


P = ParamSpec("P")
R = TypeVar("R")
_WORD_CACHES: list[Callable[[], None]] = []


def word_cache(maxsize: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """An ``lru_cache`` keyed by a user's words: registered so that erasure can drop it
    (``forget_cached``) — forgotten words must not outlive ``forget`` in the process."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        cached = lru_cache(maxsize=maxsize)(fn)
        _WORD_CACHES.append(cached.cache_clear)
        return cached  # type: ignore[return-value]

    return wrap


def forget_cached() -> None:
    """Empty every cache keyed by users' words (called on every erasure)."""
    for clear in _WORD_CACHES:
        clear()


@lru_cache(maxsize=1)
def _jieba() -> Any:
    """jieba, initialised once per process with its dictionary cache in a directory of this
    OS user's own: the default ``/tmp/jieba.cache`` belongs to whoever ran first, and every
    other user then gets a traceback on stderr each time a process starts."""
    import jieba

    jieba.setLogLevel(60)  # its "Building prefix dict" chatter is not ours to print
    cache = Path(tempfile.gettempdir()) / f"memquill-jieba-{os.getuid() if hasattr(os, 'getuid') else 0}"
    with contextlib.suppress(OSError):
        cache.mkdir(mode=0o700, exist_ok=True)
        jieba.dt.tmp_dir = str(cache)
    jieba.initialize()
    return jieba


@lru_cache(maxsize=1)
def jieba_posseg() -> Any:
    """``jieba.posseg`` on the dictionary ``_jieba()`` set up."""
    _jieba()
    import jieba.posseg

    return jieba.posseg


def jieba_frequency(word: str) -> int:
    """How often ``word`` occurs in jieba's dictionary (0 when it is not a dictionary word)."""
    return int(_jieba().dt.FREQ.get(word) or 0)


@lru_cache(maxsize=4096)
def dictionary_words(text: str) -> tuple[str, ...]:
    """``text`` cut into jieba's dictionary words only, without its guesses at unknown words
    (which glue a name to the verb after it: "老刘开/的", "睿睿对/尘螨")."""
    return tuple(_jieba().lcut(text, HMM=False))


_local = threading.local()


def _stemmer() -> Any:
    """One stemmer per thread: a snowball stemmer keeps its word in instance state, so a
    shared one garbles (or crashes on) words stemmed concurrently."""
    st = getattr(_local, "stemmer", None)
    if st is None:
        import snowballstemmer

        st = _local.stemmer = snowballstemmer.stemmer("english")
    return st


# Stems by word. The pure-Python Snowball stemmer costs ~0.1 ms a word and ingest stems the
# same few thousand words over and over (it was most of ingest's time besides the model).
_STEMS: dict[str, str] = {}
STEM_MEMO = 50_000


def stem(word: str) -> str:
    found = _STEMS.get(word)
    if found is None:
        if len(_STEMS) >= STEM_MEMO:
            _STEMS.clear()
        found = _STEMS[word] = _stemmer().stemWord(word)
    return found


def tokens(text: str) -> list[str]:
    """Normalised terms of ``text``, in order, stop words included."""
    out: list[str] = []
    for chunk in _TOKEN.findall(text):
        if _CJK.match(chunk):
            out.extend(w for w in _jieba().cut_for_search(chunk) if w.strip())
        else:
            word = chunk.lower().rstrip(".-")
            if word:
                out.append(stem(word) if word.isalpha() else word)
    return out


def index_text(text: str) -> str:
    """Space-joined terms for a full-text index (FTS5 ``unicode61`` / PG ``simple``)."""
    return " ".join(tokens(text))


def query_terms(text: str) -> list[str]:
    """Distinct content terms of a query: stop words dropped, order kept."""
    seen: dict[str, None] = {}
    for t in tokens(text):
        if t in EN_STOP or t in ZH_STOP:
            continue
        seen.setdefault(t, None)
    return list(seen)


def norm_value(text: str | None) -> str:
    """Casefolded text without spaces or punctuation: equality of claims, not of typing."""
    return re.sub(r"[\s\W_]+", "", (text or "").casefold())


# a space between two Chinese characters: where a turn typed with spaces ends a part ("周会改到周一了 我懵")
ZH_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])[ \t\u3000]+(?=[\u4e00-\u9fff])")
_PART = re.compile(r"[，,;；]|\s(?:but|because|since|so|and then)\s|\s{2,}")


def comma_part(text: str, start: int, end: int) -> str:
    """The comma-delimited part of a text around a span: what bears on a value said in it
    ("周教授每周二开组会，让我下周汇报": "下周" is the talk's, not the meeting's; a Chinese turn
    typed with spaces is one sentence of such parts)."""
    cuts = [0, *(m.end() for m in _PART.finditer(text)), len(text) + 1]
    lo = max(c for c in cuts if c <= start)
    hi = min(c for c in cuts if c > end - 1 and c > lo) if end > lo else len(text)
    return text[lo:hi]
