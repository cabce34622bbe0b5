"""Services over the agent: session, history, export (text), replay, form field model. No Qt."""
