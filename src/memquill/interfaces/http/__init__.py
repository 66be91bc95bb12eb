"""The HTTP API (extra ``memquill[server]``): ``create_app(Memory(...))`` or ``memquill serve``."""

from memquill.interfaces.http.app import create_app

__all__ = ["create_app"]
