from memquill.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
