"""Property-based requests generated from the live OpenAPI schema: never a server error.

schemathesis reads ``/openapi.json`` from the running server and sends valid and invalid
bodies, parameters and headers to every operation; each response must be a non-5xx in the
documented shape. The example count is bounded so the run stays under a minute.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from memquill import Memory
from memquill.apikeys import KeyRing
from memquill.interfaces.http.testing import serving

pytestmark = pytest.mark.slow
TOKEN: dict[str, str] = {}


CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]


@pytest.fixture
def live_url(mem: Memory) -> Iterator[str]:
    _, TOKEN["acme"] = KeyRing(mem.store).create("acme", mem.clock.now())
    mem.add("Remember that I am allergic to peanuts", user="alice", tenant="acme")
    with serving(mem) as url:
        yield url


def test_no_server_errors(live_url: str) -> None:
    schema = schemathesis.openapi.from_url(f"{live_url}/openapi.json")
    auth = {"Authorization": f"Bearer {TOKEN['acme']}"}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 14
    for op in operations:

        @given(case=op.as_strategy())
        @settings(
            max_examples=20,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            case.call_and_validate(headers=auth, checks=CHECKS)

        check()
