"""Bridges to other training libraries. `rlvr.integrations.trl`: TRL's trainers.

Nothing is imported here, so importing rlvr never pulls in TRL or `datasets`.
"""
