"""Bearer-key authentication: every request acts for exactly one tenant, the key's.

The caller never names a tenant; handlers receive a ``Caller`` and build every scope from
it, so a key cannot reach another tenant's memories even by guessing ids (a record of
another tenant is reported as missing: 404, not 403, so ids do not leak either).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException

from memquill import Memory, MemoryRecord
from memquill.apikeys import KeyRing
from memquill.errors import NotFoundError, PermissionDeniedError
from memquill.model import DEFAULT_TRUST, Role, Trust
from memquill.model.apikey import ApiKey

bearer = HTTPBearer(auto_error=False, description="An API key from `memquill keys create`.")
CHALLENGE = {"WWW-Authenticate": "Bearer"}


@dataclass(frozen=True)
class Caller:
    """The authenticated key and the engine it acts on."""

    key: ApiKey
    mem: Memory

    @property
    def tenant(self) -> str:
        return self.key.tenant

    def writes(self, role: str = "user", source: str | None = None) -> None:
        """Refuse an event this key may not add (read-only, or a trust class it lacks)."""
        self._not_read_only()
        if source is None and role not in Role.__members__.values():
            return  # an unknown role is reported by the engine as bad input
        trust = Trust(source) if source is not None else DEFAULT_TRUST[Role(role)]
        if not self.key.may_write(trust):
            allowed = ", ".join(t.value for t in self.key.trust or ())
            raise PermissionDeniedError(
                f"this API key may write only trust class(es) {allowed}; the event is "
                f'{trust.value} (set "source")'
            )

    def triggers(self) -> None:
        """Session end: any key that may add events may say a session is over."""
        self._not_read_only()

    def manages(self, memory_id: str | None = None) -> None:
        """Forget, erase, resolve, feedback: decisions on the user's behalf, so never by a key
        that is limited to some trust classes (an ingestion pipeline). With ``memory_id``, the
        record must also be this tenant's."""
        self._not_read_only()
        if self.key.trust is not None:
            raise PermissionDeniedError("this API key may only add events; it cannot change memories")
        if memory_id is not None:
            self.record(memory_id)

    def _not_read_only(self) -> None:
        if self.key.read_only:
            raise PermissionDeniedError("this API key is read-only")

    def record(self, memory_id: str) -> MemoryRecord:
        """The record if it belongs to this tenant; otherwise it does not exist for the caller."""
        try:
            rec = self.mem.get(memory_id)
        except NotFoundError:
            rec = None
        if rec is None or rec.scope.tenant != self.tenant:
            raise NotFoundError(f"no memory {memory_id!r}")
        return rec


def caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Caller:
    """FastAPI dependency: 401 unless the request carries an active key."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(401, "missing API key: send Authorization: Bearer <key>", CHALLENGE)
    ring: KeyRing = request.app.state.keys
    key = ring.verify(credentials.credentials)
    if key is None:
        raise HTTPException(401, "invalid or revoked API key", CHALLENGE)
    return Caller(key, request.app.state.memory)


Authed = Annotated[Caller, Depends(caller)]
