"""Readable value names in `--help`: `--out PATH`, `--json` alone, `run [OPTIONS] SET`.

Typer shows every option's Python type (`--json <bool>`, `--agent <list[Path]>`) and wraps a
required argument in braces (`{SET}`, `{FILE...}...`). Each command's help is read by people who
type it; this module gives Typer's two display hooks the names a command line uses. It touches
only those two methods of typer.core, and leaves Typer's own display when they are gone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from typer.core import TyperArgument, TyperOption

if TYPE_CHECKING:  # the click class Typer's own methods are typed with (Typer vendors click from 0.20 on)
    from typer._click import Context

# Typer's own display of an option's type (``<bool>``, ``<list[Path]>``), which names are read from.
_TyperDisplay = Callable[[TyperOption, "Context"], str]

# A parameter's type as a value name; anything not listed shows Typer's own name in capitals.
_NAMES = {"str": "TEXT", "int": "N", "float": "NUMBER", "path": "PATH", "Path": "PATH"}


def value_name(option: TyperOption, ctx: Context, typer_display: _TyperDisplay) -> str | None:
    """What follows an option in help: nothing for a flag, its metavar, else a name for its type."""
    if getattr(option, "is_flag", False) or getattr(option, "count", False):
        return None
    if option.metavar is not None:
        return str(option.metavar)
    descriptor = getattr(option, "type_descriptor", None)
    if descriptor is not None and getattr(descriptor, "is_choice", False):
        return str(typer_display(option, ctx))  # the choices themselves: a|b|c
    shown = str(typer_display(option, ctx) or "").strip("<>")
    shown = shown.removeprefix("list[").removesuffix("]").removesuffix(" range")
    return _NAMES.get(shown, shown.upper() or None)


def usage_name(argument: TyperArgument) -> str:
    """An argument in the usage line: SET, [DIR], FILE... (no braces, "..." once)."""
    name = str(argument.metavar if argument.metavar is not None else argument.name).upper()
    if argument.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if argument.required else f"[{name}]"


def install() -> bool:
    """Put the readable names into Typer's help; False when this Typer has no such hooks."""
    original = getattr(TyperOption, "display_type_rich", None)
    typer_display = getattr(TyperOption, "display_type", None)
    if original is None or typer_display is None or not hasattr(TyperArgument, "_usage_display_name"):
        return False

    def display_type_rich(self: TyperOption, ctx: Context) -> str | None:
        return value_name(self, ctx, typer_display)

    def usage_display_name(self: TyperArgument) -> str:
        return usage_name(self)

    def argument_type(self: TyperArgument, ctx: Context) -> str | None:
        return None  # the argument's name (SET, FILE...) already says what it takes

    # Typer builds its own TyperOption and TyperArgument (no hook takes a subclass), so their methods are
    # replaced on the classes; mypy forbids assigning to a method, hence the three ignores below.
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
    TyperArgument.display_type_rich = argument_type  # type: ignore[method-assign,assignment]
    TyperArgument._usage_display_name = usage_display_name  # type: ignore[method-assign]
    return True


__all__ = ["install", "usage_name", "value_name"]
