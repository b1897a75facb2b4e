"""A command group that imports a command's module only when that command is run or its help is shown.

The top-level `--help` lists every command from a static table (name, module, one-line help), so
printing it imports no command module, and none of the heavy layers those modules import (the SDK
above all). Each command module keeps its imports at module level and exposes ``register(app)``.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup

if TYPE_CHECKING:  # the click classes Typer's own methods are typed with (Typer vendors click from 0.20 on)
    from typer._click import Command, Context


class LazyCommand(NamedTuple):
    """One row of the table: the command's name, the module that registers it, and its one-line help."""

    name: str
    module: str
    short_help: str


class LazyGroup(TyperGroup):
    """A Typer group whose commands come from ``table``; a command's module is imported on first use."""

    table: ClassVar[tuple[LazyCommand, ...]] = ()

    _listing = False  # True while the group's own help lists its commands

    def list_commands(self, ctx: Context) -> list[str]:
        """Every command's name, in the table's order (the order `--help` shows)."""
        return [row.name for row in self.table]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """The command ``cmd_name``, its module imported now; while listing, a placeholder with the table's line."""
        row = self._row(cmd_name)
        if row is None:
            return None
        if self._listing and cmd_name not in self.commands:
            return TyperCommand(name=row.name, help=row.short_help)
        if cmd_name not in self.commands:
            self._load(row)
        return self.commands.get(cmd_name)

    def load_all(self) -> None:
        """Import every command module (for the tests that walk every command's options)."""
        for row in self.table:
            self.get_command(typer.Context(self), row.name)

    def get_help(self, ctx: Context) -> str:
        """The group's help (`--help`, or no command given): its commands listed from the table alone."""
        with self._listing_table():
            return super().get_help(ctx)

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        """Click's resolution, with the close names of an unknown command taken from the table."""
        name = args[0] if args else ""
        if name[:1].isalnum() and self._row(name) is None and not ctx.resilient_parsing:
            close = difflib.get_close_matches(name, self.list_commands(ctx))
            why = f"No such command {name!r}."
            if close and self.suggest_commands:
                why = f"{why[:-1]}. Did you mean {', '.join(repr(each) for each in close)}?"
            ctx.fail(why)
        return super().resolve_command(ctx, args)

    def _row(self, name: str) -> LazyCommand | None:
        return next((row for row in self.table if row.name == name), None)

    def _load(self, row: LazyCommand) -> None:
        # A module registers its command(s) on a Typer of its own; the group keeps the click commands
        # built from it. One module may register more than one command (`triggers` and `skills`).
        holder = typer.Typer()
        importlib.import_module(row.module).register(holder)
        for name, command in typer.main.get_group(holder).commands.items():
            self.commands.setdefault(name, command)

    @contextmanager
    def _listing_table(self) -> Iterator[None]:
        self._listing = True
        try:
            yield
        finally:
            self._listing = False


__all__ = ["LazyCommand", "LazyGroup"]
