from memquill.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
