"""LLM prompts: one module per task, each with its reply schema, prompts and version."""
