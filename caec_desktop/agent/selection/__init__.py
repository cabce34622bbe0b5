"""Tool selection: the selector protocol, direct calls (forms), offline (regex), LLM selectors."""
