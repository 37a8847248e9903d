"""The tool-call grader (`grader.kind = "toolcall"`): `parse` decodes calls, `schema` reads the
offered functions, `match` compares with the expected calls, `grader` decides."""

from rlvr.graders.toolcall.grader import ToolCallGrader, check

__all__ = ["ToolCallGrader", "check"]
