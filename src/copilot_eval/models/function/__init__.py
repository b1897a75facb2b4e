"""The FunctionModel: a test double whose answers come from a Python function of the request."""

from copilot_eval.models.function.model import FunctionModel
from copilot_eval.models.function.returns import CallTool

__all__ = ["CallTool", "FunctionModel"]
