"""An option group (cli/option_groups.py) reaches typer as its options and the command as one frozen object."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from copilot_eval.cli.option_groups import BaselineGroup, FinishGroup, GradingGroup, OptionGroup, takes_groups

runner = CliRunner()

LevelOption = Annotated[int, typer.Option("--level", min=0, help="How loud.")]
NameOption = Annotated[str, typer.Option("--name", help="Who is greeted.")]


class Greeting(OptionGroup):
    """A group with a required option after one with a default."""

    level: LevelOption = 1
    name: NameOption


def _app(command: typer.models.CommandFunctionType) -> typer.Typer:
    app = typer.Typer()
    app.command()(command)
    app.command("other")(lambda: None)  # two commands: typer then needs the command's name, as the CLI does
    return app


def test_the_command_gets_one_frozen_object_of_the_groups_values_and_its_own_options():
    seen: list[tuple[str, Greeting]] = []

    @takes_groups
    def greet(word: Annotated[str, typer.Argument()], *, greeting: Greeting, twice: bool = False) -> None:
        """Greet."""
        seen.append((word, greeting))
        assert twice

    result = runner.invoke(_app(greet), ["greet", "hi", "--name", "Ada", "--twice"])
    assert result.exit_code == 0, result.output
    assert seen == [("hi", Greeting(level=1, name="Ada"))]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen[0][1].level = 2  # type: ignore[misc]  # the point: a group's values cannot be changed


def test_the_groups_options_keep_their_declaration_range_required_and_help_order():
    @takes_groups
    def greet(*, greeting: Greeting, twice: bool = False) -> None:
        """Greet."""

    app = _app(greet)
    assert runner.invoke(app, ["greet", "--name", "Ada", "--level", "-1"]).exit_code == 2  # min=0 kept
    missing = runner.invoke(app, ["greet"])
    assert missing.exit_code == 2 and "--name" in missing.output
    shown = runner.invoke(app, ["greet", "--help"]).output
    assert shown.index("--level") < shown.index("--name") < shown.index("--twice")
    assert "How loud." in shown


def test_an_option_named_twice_is_refused_when_the_command_is_defined():
    def greet(*, greeting: Greeting, name: str = "x") -> None:
        """Greet."""

    with pytest.raises(TypeError, match="'name' comes from both 'greeting' and 'name'"):
        takes_groups(greet)


def test_a_command_without_a_group_is_refused():
    def plain(twice: bool = False) -> None:
        """Plain."""

    with pytest.raises(TypeError, match="no OptionGroup parameter"):
        takes_groups(plain)


def test_the_shared_groups_values_keep_the_names_their_receivers_take():
    assert set(FinishGroup().values()) == {"fail_under", "max_errors", "junit", "markdown", "history", "no_history"}
    assert set(GradingGroup().values()) == {"graders", "judge", "judge_repeat", "prompt_pass_score"}
    assert BaselineGroup(baseline=None, fail_on_regression=True).values() == {
        "baseline": None,
        "allow_other_set": False,
        "fail_on_regression": True,
    }
