"""Learners: the losses as pure functions (`losses`) and the training loops that call them.

Nothing is imported here, so `import rlvr.learners.losses` pulls in torch and nothing else.
"""
