"""An ``LLM`` for any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp, ...).

Why it looks like this:

- ``openai`` is an optional extra (``memquill[llm]``), so it is imported inside
  ``__init__``; importing this module never fails.
- One retry policy, ours: the client runs with ``max_retries=0`` and we retry timeouts,
  connection errors, 429 and 5xx with exponential backoff, counting every retry.
- Strict ``json_schema`` output is asked for first; servers that reject it (HTTP 400, or
  422 from some proxies) get one ``json_object`` attempt with the schema spelled out in
  the system prompt, and once that works the client stays on ``json_object``.
- Every failure (HTTP, timeout, unparsable or non-object JSON) is a ``ProviderError``, so
  callers fall back on one exception type.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memquill.errors import ConfigError, ProviderError

if TYPE_CHECKING:  # the optional extra is only imported for real inside __init__
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.chat.completion_create_params import ResponseFormat

_FENCED = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_PLACEHOLDER_KEY = "not-needed"  # local servers take no key; the client insists on one
_REJECTED = (400, 422)  # the request itself was refused: resending it unchanged cannot help


class _Rejected(Exception):
    """Internal: the server refused the request (cause: the openai error)."""


class OpenAICompatLLM:
    """``complete_json`` over ``chat.completions``; see the module docstring for the policy.

    ``retries`` (the argument) is the retry budget per request, kept as ``max_retries``.
    Counters: ``calls`` (``complete_json`` invocations), ``failures`` (calls that raised),
    ``retries`` (extra HTTP attempts after a transient error) and ``format_fallbacks``
    (``json_schema`` rejected, retried as ``json_object``).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout_s: float = 20,
        retries: int = 2,
        *,
        temperature: float | None = None,
        backoff_s: float = 0.5,
        max_backoff_s: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not base_url or not model:
            raise ConfigError("the LLM extractor needs llm_base_url and llm_model")
        if timeout_s <= 0 or retries < 0:
            raise ConfigError("llm_timeout_s must be > 0 and llm_retries >= 0")
        try:
            import openai
        except ImportError as exc:
            raise ProviderError(
                "the LLM provider needs the 'openai' package: pip install memquill[llm]"
            ) from exc
        self._openai = openai
        # An explicit key (never None) keeps the client from reading OPENAI_API_KEY itself:
        # settings.py is the only reader of the environment.
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or _PLACEHOLDER_KEY,
            timeout=timeout_s,
            max_retries=0,
        )
        self.name = f"openai_compat:{model}"
        self.model = model
        self.max_retries = retries
        self.temperature = temperature  # None: not sent (reasoning models reject it)
        self._backoff_s = backoff_s
        self._max_backoff_s = max_backoff_s
        self._sleep = sleep
        self._json_schema_ok = True
        self.calls = 0
        self.failures = 0
        self.retries = 0
        self.format_fallbacks = 0

    @property
    def stats(self) -> dict[str, int]:
        """The counters as one mapping, for health metrics."""
        return {
            "calls": self.calls,
            "failures": self.failures,
            "retries": self.retries,
            "format_fallbacks": self.format_fallbacks,
        }

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> dict[str, Any]:
        """The JSON object the model produced for ``schema``, or ``ProviderError``."""
        self.calls += 1
        try:
            content = self._complete(system, user, schema, schema_name)
            return parse_json_object(content)
        except ProviderError:
            self.failures += 1
            raise

    def _complete(self, system: str, user: str, schema: dict[str, Any], name: str) -> str:
        if self._json_schema_ok:
            fmt: ResponseFormat = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True},
            }
            try:
                return self._with_retries(system, user, fmt)
            except _Rejected:
                self.format_fallbacks += 1  # most likely: the server does not speak json_schema
        try:
            content = self._with_retries(_with_schema(system, schema), user, {"type": "json_object"})
        except _Rejected as exc:
            raise ProviderError(f"{self.name}: request rejected: {exc.__cause__}") from exc
        self._json_schema_ok = False
        return content

    def _with_retries(self, system: str, user: str, fmt: ResponseFormat) -> str:
        """One request under our retry policy; a 400/422 surfaces as ``_Rejected``."""
        openai = self._openai
        attempt = 0
        while True:
            try:
                return self._request(system, user, fmt)
            except (openai.APITimeoutError, openai.APIConnectionError) as exc:
                error: Exception = exc
            except openai.APIStatusError as exc:
                if exc.status_code in _REJECTED:
                    raise _Rejected() from exc
                if not _transient(exc.status_code):
                    raise ProviderError(f"{self.name}: HTTP {exc.status_code}: {exc}") from exc
                error = exc
            except openai.OpenAIError as exc:
                raise ProviderError(f"{self.name}: {exc}") from exc
            if attempt >= self.max_retries:
                raise ProviderError(
                    f"{self.name}: gave up after {attempt + 1} attempt(s): {error}"
                ) from error
            self._sleep(min(self._backoff_s * 2**attempt, self._max_backoff_s))
            attempt += 1
            self.retries += 1

    def _request(self, system: str, user: str, fmt: ResponseFormat) -> str:
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        response = self._client.chat.completions.create(
            model=self.model,
            messages=messages,
            response_format=fmt,
            # extra_body: absent when None, and typed the same across openai releases
            extra_body=None if self.temperature is None else {"temperature": self.temperature},
        )
        if not response.choices:
            raise ProviderError(f"{self.name}: reply has no choices")
        content = response.choices[0].message.content
        if not content:
            raise ProviderError(f"{self.name}: reply has no content (refusal or empty)")
        return content


def parse_json_object(text: str) -> dict[str, Any]:
    """Parse a model reply into a JSON object, tolerating a ```json fenced block."""
    candidates = [text.strip()]
    fenced = _FENCED.search(text)
    if fenced:
        candidates.insert(0, fenced.group(1).strip())
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
        raise ProviderError(f"expected a JSON object, got {type(value).__name__}")
    raise ProviderError(f"reply is not valid JSON: {text[:200]!r}")


def _transient(status: int) -> bool:
    return status == 429 or status >= 500


def _with_schema(system: str, schema: dict[str, Any]) -> str:
    """``json_object`` mode sends no schema, so the prompt must carry it (and say JSON)."""
    return (
        f"{system}\n\nReply with one JSON object only, matching this JSON schema:\n"
        f"{json.dumps(schema, ensure_ascii=False)}"
    )
