"""Adapters that let other frameworks use memquill as their memory (optional extras)."""
