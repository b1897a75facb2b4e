"""Custom Python tools, run so that no handler can block the event loop or hang the run.

A sync handler runs in a daemon thread (the event loop stays free, and a handler that never
returns cannot keep the interpreter alive); an async handler runs as a task. Either way the
runner can abandon it when the run ends: the call is then recorded as not completed.

The model sees exactly what the plain SDK would show it: a handler that raises is answered the
way ``define_tool`` answers it (the runtime then tells the model its standard failure text, never
the exception), and invalid arguments get the SDK's own validation text. What the model is not
told stays in the evidence only: the exception (type, message, traceback summary) and the result
type and text of every result the handler handed over.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import traceback
from collections.abc import Callable
from typing import Any, NamedTuple

from copilot import Tool, ToolInvocation
from copilot.tools import ToolResult
from pydantic import BaseModel, ValidationError, create_model

from copilot_eval.evidence.tool_call import ToolException
from copilot_eval.redaction import redact
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.sdk_internals import define_tool_parts, exception_tool_result, normalize_tool_result

TRACEBACK_FRAMES = 12  # the innermost frames kept in the evidence: the handler's own code, not the caller's


def _params_model(fn: Callable[..., Any]) -> tuple[type[BaseModel], list[str], str | None]:
    """A pydantic model of a plain function's parameters, from its type hints."""
    hints = inspect.get_annotations(fn, eval_str=True)
    fields: dict[str, Any] = {}
    names: list[str] = []
    invocation_param: str | None = None
    for name, param in inspect.signature(fn).parameters.items():
        annotation = hints.get(name, Any)
        if annotation is ToolInvocation:
            invocation_param = name
            continue
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[name] = (annotation, default)
        names.append(name)
    model = create_model(f"{fn.__name__}_params", **fields)
    return model, names, invocation_param


def _describe(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn) or ""
    return doc.split("\n\n")[0].strip() or f"The {fn.__name__} tool."


def _exception_record(error: BaseException) -> ToolException:
    """What the handler raised, with the frames of its own code (this module's are left out)."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename != __file__]
    return ToolException(
        type=type(error).__name__,
        message=str(error),
        traceback=[f"{frame.filename}:{frame.lineno} in {frame.name}" for frame in frames[-TRACEBACK_FRAMES:]],
    )


def _invalid_arguments(error: ValidationError) -> Any:
    """The SDK's answer to arguments its parameter model refuses: one ``loc: msg`` line per problem."""
    lines = []
    for problem in error.errors():
        where = ".".join(map(str, problem["loc"]))
        lines.append(f"{where}: {problem['msg']}" if where else problem["msg"])
    return ToolResult(
        text_result_for_llm="Invalid tool arguments:\n" + "\n".join(lines),
        result_type="failure",
        error=f"Invalid tool arguments: {error}",
        tool_telemetry={},
    )


def _sdk_tool_parts(tool: Any) -> tuple[Callable[..., Any], Callable[[Any], list[Any]]]:
    """The user function inside a define_tool() Tool and a way to build its call arguments.

    A Tool whose handler is not define_tool's closure is called as a plain ToolHandler (it
    receives the invocation).
    """
    cells = define_tool_parts(tool.handler)
    if cells is None:
        return tool.handler, lambda invocation: [invocation]
    fn, ptype = cells["fn"], cells.get("ptype")
    takes_params, takes_invocation = cells.get("takes_params", True), cells.get("takes_invocation", False)

    def arguments(invocation: Any) -> list[Any]:
        args: list[Any] = []
        if takes_params:
            raw = invocation.arguments if invocation.arguments is not None else {}
            args.append(ptype.model_validate(raw) if ptype is not None else raw)
        if takes_invocation:
            args.append(invocation)
        return args

    return fn, arguments


async def _call_off_loop(fn: Callable[..., Any], args: list[Any]) -> Any:
    """Run a sync function in a daemon thread and await its outcome without blocking the loop."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def deliver(setter: Callable[[Any], None], value: Any) -> None:
        if not future.done():
            setter(value)

    def hand_back(setter: Callable[[Any], None], value: Any) -> None:
        try:
            loop.call_soon_threadsafe(deliver, setter, value)
        except RuntimeError:
            pass  # the loop is gone: the run ended long ago and this late outcome has no reader

    def work() -> None:
        try:
            value = fn(*args)
        except BaseException as error:
            hand_back(future.set_exception, error)
        else:
            hand_back(future.set_result, value)

    threading.Thread(target=work, name=f"copilot-eval-tool-{getattr(fn, '__name__', 'tool')}", daemon=True).start()
    return await future


def _start(
    fn: Callable[..., Any], args: list[Any], caller_loop: asyncio.AbstractEventLoop | None
) -> asyncio.Future[Any]:
    """Start the user's function: sync in a daemon thread, async on the loop of the code that
    started the run (its own primitives and clients belong there), else on this loop."""
    if not inspect.iscoroutinefunction(fn):
        return asyncio.ensure_future(_call_off_loop(fn, args))
    if caller_loop is not None and caller_loop is not asyncio.get_running_loop() and caller_loop.is_running():
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(fn(*args), caller_loop))
    return asyncio.ensure_future(fn(*args))


class _ToolParts(NamedTuple):
    """What a tool is made of: the user function, its call arguments, and what the model is shown."""

    fn: Callable[..., Any]
    make_args: Callable[[Any], list[Any]]
    name: str
    description: str
    schema: Any
    extra: dict[str, Any]


def _tool_parts(tool: Any) -> _ToolParts:
    """The parts of a define_tool() Tool (its own settings kept), or of a plain function (its signature)."""
    if isinstance(tool, Tool):
        fn, make_args = _sdk_tool_parts(tool)
        extra: dict[str, Any] = {
            "overrides_built_in_tool": tool.overrides_built_in_tool,
            "skip_permission": tool.skip_permission,
            "metadata": tool.metadata,
            "is_terminal": tool.is_terminal,
        }
        return _ToolParts(fn, make_args, tool.name, tool.description, tool.parameters, extra)
    params, names, invocation_param = _params_model(tool)

    def make_function_args(invocation: Any) -> list[Any]:
        validated = params.model_validate(invocation.arguments or {})
        values = [getattr(validated, n) for n in names]
        return values + ([invocation] if invocation_param else [])

    return _ToolParts(tool, make_function_args, tool.__name__, _describe(tool), params.model_json_schema(), {})


def build_tool(tool: Any, control: RunControl, *, caller_loop: asyncio.AbstractEventLoop | None = None) -> Any:
    """An SDK Tool whose handler runs ``tool`` off the loop, guarded by the run's control."""
    fn, make_args, name, description, schema, extra = _tool_parts(tool)

    async def handler(invocation: ToolInvocation) -> ToolResult:
        call_id = invocation.tool_call_id
        try:
            args = make_args(invocation)
        except ValidationError as error:
            return _handed_over(call_id, _invalid_arguments(error))
        work = _start(fn, args, caller_loop)
        ended = asyncio.ensure_future(control.ended.wait())
        control.handlers_running += 1
        try:
            # The end of the run, not a stop request: an admitted call keeps running through a
            # budget stop and keeps its real outcome.
            await asyncio.wait({work, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
            control.handlers_running -= 1
        if not work.done():
            # The run is ending: abandon the handler (a thread cannot be killed; it is a daemon).
            work.cancel()
            control.abandoned_call_ids.append(call_id)
            text = f"tool {name!r} abandoned: the run ended before it returned"
            return ToolResult(text_result_for_llm=text, result_type="failure", error=text, tool_telemetry={})
        try:
            value = work.result()  # raises what the handler raised
            if inspect.isawaitable(value):
                value = await value
            result = normalize_tool_result(value)  # a value JSON cannot show raises, as in define_tool
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # SystemExit in a handler thread too: the call must be answered
            control.tool_exceptions[call_id] = _exception_record(error)
            # The runtime gets the message as the SDK sends it (it tells the model none of it), minus secrets.
            return exception_tool_result(redact(str(error)))
        return _handed_over(call_id, result)

    def _handed_over(call_id: str, result: ToolResult) -> ToolResult:
        # The completion event keeps neither the type nor the text of a failed result: kept here.
        control.tool_results[call_id] = (result.result_type, result.text_result_for_llm, result.error)
        return result

    return Tool(name=name, description=description, handler=handler, parameters=schema, **extra)
