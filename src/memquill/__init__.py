"""memquill."""
