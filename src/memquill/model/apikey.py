"""API keys of the HTTP service: pure data (the hashing lives in ``memquill.apikeys``)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from memquill.model.event import Trust


class ApiKey(BaseModel):
    """One key. Only a salted hash of its secret is ever stored.

    The tenant is a property of the key, never of a request: whoever holds the key can reach
    that tenant's memories and no other. ``trust`` limits which trust classes (event
    ``source``) the key may write, so an ingestion pipeline's key cannot claim to be the user.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    tenant: str
    name: str = ""
    secret_hash: str = Field(repr=False)
    read_only: bool = False
    trust: tuple[Trust, ...] | None = None  # None: any trust class
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def may_write(self, source: Trust) -> bool:
        return not self.read_only and (self.trust is None or source in self.trust)
