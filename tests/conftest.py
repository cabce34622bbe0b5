"""Shared test set-up: Qt runs offscreen, no test reaches the internet."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Settings must not pick up a developer's real key or .env during tests.
for _var in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE"):
    os.environ.pop(_var, None)
