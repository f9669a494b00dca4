"""The lending library example: hand-written models and actions, a generated API."""
