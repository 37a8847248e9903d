"""Long text cut to a size a message, a verdict or a page can hold, saying how long it was.

A model's text or a grader's input can run to megabytes; echoed whole it fills the next turn's
context, a store line or a page. Every place that shows such text cuts it the same way.
"""

from __future__ import annotations


def shorten(text: str, limit: int) -> str:
    """`text` when it fits in `limit` characters, else its first `limit` and its full length."""
    return text if len(text) <= limit else f"{text[:limit]} [... {len(text)} chars]"
