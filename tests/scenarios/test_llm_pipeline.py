"""The optional LLM extractor inside the real pipeline, against a real HTTP server on 127.0.0.1:
never on the hot path, merged after the rules, and a failing endpoint loses nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from memquill import FixedClock, Memory
from memquill.providers.fake import HashEmbedder
from memquill.providers.openai_compat import OpenAICompatLLM
from memquill.settings import Settings
from memquill.write.extract.llm import LLMExtractor
from tests.support.chat_server import ChatServer, Reply, running_chat_server


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with running_chat_server() as srv:
        yield srv


@pytest.fixture
def llm_mem(server: ChatServer, make_store, clock: FixedClock) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    llm = OpenAICompatLLM(server.base_url, "test-model", timeout_s=0.5, retries=1, backoff_s=0.01)
    yield Memory(
        store=make_store(),
        clock=clock,
        embedder=HashEmbedder(),
        llm_extractor=LLMExtractor(llm),
        settings=Settings(default_timezone="Asia/Shanghai"),
    )
    llm.close()


def memories(*items: dict) -> Reply:
    return Reply(content=json.dumps({"memories": list(items)}, ensure_ascii=False))


def item(content: str, key: str, evidence: str, **over: object) -> dict:
    return {
        "type": "fact",
        "subject": "user",
        "key": key,
        "value": None,
        "content": content,
        "polarity": "positive",
        "conditions": [],
        "valid_from": None,
        "valid_to": None,
        "expires_at": None,
        "confidence": 0.8,
        "level": "user",
        "evidence": [evidence],
        **over,
    }


@pytest.mark.parametrize(
    ("said", "distilled"),
    [
        ("我最近在准备马拉松，每周跑三次", "用户正在准备马拉松，每周跑步三次。"),
        (
            "Been training for a marathon lately, three runs a week",
            "The user is training for a marathon (three runs a week).",
        ),
    ],
)
def test_llm_adds_the_long_tail_in_the_background_only(
    llm_mem: Memory, server: ChatServer, said, distilled
) -> None:
    server.push(memories(item(distilled, "hobby:marathon", "e1")))
    r = llm_mem.add(said, user="u", id="e1")
    assert r.written == [] and server.requests == []  # hot path never calls the LLM
    llm_mem.flush()
    assert len(server.requests) == 1
    recs = [x for x in llm_mem.records(user="u", statuses=None) if x.key == "hobby:marathon"]
    assert len(recs) == 1 and recs[0].content == distilled
    assert recs[0].attributes.get("rule", "").startswith("extract_memories/")
    assert recs[0].confidence <= 0.8


def test_a_failing_endpoint_falls_back_to_the_rules(llm_mem: Memory, server: ChatServer) -> None:
    server.push(Reply(status=500), Reply(status=500), Reply(status=500))
    llm_mem.add("我们决定用 PostgreSQL，因为团队熟悉，不用 MySQL", user="u", project="web", id="e1")
    report = llm_mem.flush()
    assert report.dead == 0 and report.failed == 0
    decisions = [r for r in llm_mem.records(user="u", project="web") if r.type.value == "decision"]
    assert len(decisions) == 1 and decisions[0].value == "PostgreSQL"
    assert llm_mem.pipeline.llm_extractor.fallbacks == 1  # type: ignore[union-attr]
