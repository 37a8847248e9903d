"""Multi-turn episodes: tools, sessions, and the turn loop that runs them.

A single-turn environment is the one-turn episode; an environment with an `EpisodeSpec` lets
the model call tools for up to `max_turns` turns before its final answer is judged once, by a
judge the episode never controlled.
"""
