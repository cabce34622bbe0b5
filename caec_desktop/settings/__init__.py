"""Settings model, config file, key store and per-user paths. No Qt, no LangChain."""
