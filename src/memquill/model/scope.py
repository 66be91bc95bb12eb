"""Scope: who a memory belongs to and who may read it (DESIGN §2).

A *reader* scope names where a query happens. A *record* scope names the dimensions
the record is bound to; unbound dimensions are ``None``. A record is visible when
tenant and user match and every other bound dimension equals the reader's.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from memquill.errors import ScopeError

SCOPE_KEYS = ("tenant", "user", "agent", "project", "session")
DEFAULT_TENANT = "default"
DEFAULT_USER = "default"
MAX_SCOPE_LEN = 256


class Level(StrEnum):
    """How widely a record applies; decides which dimensions it is bound to."""

    SESSION = "session"
    PROJECT = "project"
    USER = "user"
    AGENT = "agent"


class Scope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tenant: str = DEFAULT_TENANT
    user: str = DEFAULT_USER
    agent: str | None = None
    project: str | None = None
    session: str | None = None

    @field_validator("tenant", "user", "agent", "project", "session")
    @classmethod
    def _clean(cls, v: str | None) -> str | None:
        if v is None:
            return None
        if not isinstance(v, str):
            raise ValueError("scope values are strings")
        v = v.strip()
        if not v or len(v) > MAX_SCOPE_LEN or "\x00" in v:
            raise ValueError(f"scope values are 1..{MAX_SCOPE_LEN} characters")
        return v

    @classmethod
    def of(cls, **kw: Any) -> Scope:
        """Build a scope from keywords, with a typed error for unknown keys."""
        unknown = set(kw) - set(SCOPE_KEYS)
        if unknown:
            raise ScopeError(f"unknown scope key(s): {', '.join(sorted(unknown))}")
        clean = {k: v for k, v in kw.items() if v is not None}
        try:
            return cls(**clean)
        except ValueError as exc:
            raise ScopeError(str(exc)) from exc

    def bind(self, level: Level) -> Scope:
        """The record scope for a memory of ``level`` written from this (event) scope."""
        base = {"tenant": self.tenant, "user": self.user}
        if level is Level.SESSION:
            return Scope(**base, project=self.project, session=self.session, agent=None)
        if level is Level.PROJECT:
            return Scope(**base, project=self.project)
        if level is Level.AGENT:
            return Scope(**base, agent=self.agent, project=None)
        return Scope(**base)

    def visible_to(self, reader: Scope) -> bool:
        """True when a record with this scope may be read by ``reader``."""
        if self.tenant != reader.tenant or self.user != reader.user:
            return False
        return all(
            getattr(self, dim) is None or getattr(self, dim) == getattr(reader, dim)
            for dim in ("agent", "project", "session")
        )

    @property
    def level(self) -> Level:
        if self.session is not None:
            return Level.SESSION
        if self.agent is not None:
            return Level.AGENT
        if self.project is not None:
            return Level.PROJECT
        return Level.USER

    def label(self) -> str:
        parts = [f"{k}={getattr(self, k)}" for k in SCOPE_KEYS if getattr(self, k) is not None]
        return " ".join(parts)
