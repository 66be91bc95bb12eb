"""memquill: long-term memory for LLM agents. The write path decides memory quality."""

from memquill.clock import Clock, FixedClock, SystemClock
from memquill.errors import MemquillError
from memquill.memory import Memory
from memquill.model import Event, MemoryRecord, MemoryType, Revision, Scope, Source, Status
from memquill.model.result import AddResult, Context, ContextItem, Hit
from memquill.settings import Settings

__version__ = "0.1.0"

__all__ = [
    "AddResult",
    "Clock",
    "Context",
    "ContextItem",
    "Event",
    "FixedClock",
    "Hit",
    "Memory",
    "MemoryRecord",
    "MemoryType",
    "MemquillError",
    "Revision",
    "Scope",
    "Settings",
    "Source",
    "Status",
    "SystemClock",
    "__version__",
]
