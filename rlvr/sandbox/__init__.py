"""The Docker sandbox: spec, warm container pool, images, doctor and report adapters.

Nothing here talks to Docker at import time; `rlvr.sandbox.client.get_client()` does on first
use and raises SandboxError with the fix when no daemon answers.
"""
