"""Every YAML reader refuses alias bombs, self-references, deep nesting and oversized files before building them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from copilot_eval import bounded_yaml
from copilot_eval.agent import load_agent_file
from copilot_eval.agent.agent_file import AgentFileError
from copilot_eval.bounded_yaml import MAX_ALIAS_NODES, YamlRefused, check_node, load_yaml
from copilot_eval.cli.app import app
from copilot_eval.evalsets.prompt_reader import read_prompt_file
from copilot_eval.grading.trajectory_file import TrajectoryFileError, read_trajectory_file
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.models.scripted.script import InvalidScriptError
from copilot_eval.security import SuiteError, load_suite
from copilot_eval.targets.agent import load_target_agent_file
from copilot_eval.targets.config import TargetConfigError


def bomb(levels: int = 9, key: str = "lol") -> str:
    """A billion-laughs document: each level a list of nine aliases of the one below (9**levels strings)."""
    lines = [f'{key}0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"{key}{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


class _CountingLoader(yaml.SafeLoader):
    """A SafeLoader that counts the objects it constructs, to show a bomb is refused before building."""

    built = 0

    def construct_object(self, node: yaml.Node, deep: bool = False) -> object:
        _CountingLoader.built += 1
        return super().construct_object(node, deep)


def test_a_bomb_is_refused_before_a_single_object_is_built() -> None:
    _CountingLoader.built = 0
    with pytest.raises(YamlRefused, match=r"bomb\.yaml: its aliases .* expand to [\d,]+ more nodes .* 100,000"):
        load_yaml(bomb(), source="bomb.yaml", loader=_CountingLoader)
    assert _CountingLoader.built == 0
    # the same loader builds an ordinary document with aliases, shared as PyYAML shares them
    value = load_yaml("base: &b {model: x}\nother: *b\n", loader=_CountingLoader)
    assert value == {"base": {"model": "x"}, "other": {"model": "x"}} and _CountingLoader.built > 0


def test_the_alias_limit_is_the_documented_one() -> None:
    # 1,000 aliases of a 100-item list add 101,000 nodes: over the limit; 900 of them add 90,900: under.
    def document(aliases: int) -> str:
        return "base: &b [" + ", ".join(["x"] * 100) + "]\nuses: [" + ", ".join(["*b"] * aliases) + "]\n"

    assert len(load_yaml(document(900))["uses"]) == 900
    with pytest.raises(YamlRefused, match=f"{MAX_ALIAS_NODES:,}"):
        load_yaml(document(1000))


def test_self_reference_and_deep_nesting_are_refused() -> None:
    with pytest.raises(YamlRefused, match="refers to the collection that contains it"):
        load_yaml("a: &a [1, *a]\n")
    with pytest.raises(YamlRefused, match="nested"):
        load_yaml("[" * 300 + "]" * 300)
    with pytest.raises(YamlRefused, match="nested"):  # the pure-Python composer would recurse first
        load_yaml("[" * 600 + "]" * 600, loader=yaml.SafeLoader)
    assert check_node(None) is None


def test_a_file_over_the_size_limit_is_refused_without_being_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "agent.yaml"
    big.write_text("name: a\n" + "# padding\n" * 200)
    monkeypatch.setattr(bounded_yaml, "MAX_YAML_BYTES", 1000)
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: pytest.fail("the file was read"))
    with pytest.raises(YamlRefused, match=r"agent\.yaml: 2,008 bytes is more than the 1,000 bytes"):
        bounded_yaml.load_yaml_file(big)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_each_reader_refuses_a_bomb_naming_the_file(tmp_path: Path) -> None:
    text = bomb()
    with pytest.raises(AgentFileError, match=r"agent\.yaml: its aliases"):
        load_agent_file(_write(tmp_path / "agent.yaml", "name: a\n" + text))
    with pytest.raises(InvalidScriptError, match=r"script\.yaml: its aliases"):
        ScriptedModel.from_file(_write(tmp_path / "script.yaml", text))
    with pytest.raises(TargetConfigError, match=r"target\.yaml: its aliases"):
        load_target_agent_file(_write(tmp_path / "target.yaml", text))
    with pytest.raises(SuiteError, match="its aliases"):
        load_suite(_write(tmp_path / "suite.yaml", text))
    with pytest.raises(TrajectoryFileError, match="its aliases"):
        read_trajectory_file(_write(tmp_path / "trajectory.yaml", text))
    parse = read_prompt_file(_write(tmp_path / "bomb.prompt.yml", text))
    assert any("its aliases" in problem for problem in parse.problems), parse.problems


def test_a_custom_agents_front_matter_is_bounded_too(tmp_path: Path) -> None:
    _write(tmp_path / "spy.agent.md", "---\n" + bomb(key="k") + "---\nbody\n")
    agent = _write(tmp_path / "agent.yaml", "name: a\nmodel: {scripted: s.yaml}\ncustom_agents: [spy]\n")
    _write(tmp_path / "s.yaml", "rules: [{turns: [{text: hi}]}]\n")
    with pytest.raises(AgentFileError, match=r"spy\.agent\.md: front matter: its aliases"):
        load_agent_file(agent)


@pytest.mark.parametrize("which", ["agent file", "scripted model file", "prompt file"])
def test_run_refuses_a_bomb_with_exit_2_naming_the_file(tmp_path: Path, which: str) -> None:
    cases = _write(tmp_path / "cases.csv", "question,expectedResponse\nhi,hello\n")
    agent = _write(tmp_path / "agent.yaml", "name: a\nmodel: {scripted: script.yaml}\n")
    _write(tmp_path / "script.yaml", "rules: [{turns: [{text: hello}]}]\n")
    test_set = cases
    if which == "agent file":
        _write(agent, "name: a\n" + bomb())
        named = "agent.yaml"
    elif which == "scripted model file":
        _write(tmp_path / "script.yaml", bomb())
        named = "script.yaml"
    else:
        test_set = _write(tmp_path / "bomb.prompt.yml", bomb())
        named = "bomb.prompt.yml"
    outcome = CliRunner().invoke(
        app,
        ["run", str(test_set), "--agent", str(agent), "--out", str(tmp_path / "out")],
        env={"COLUMNS": "300"},
    )
    assert outcome.exit_code == 2, outcome.output
    assert named in outcome.output and "aliases" in outcome.output


def test_no_module_reads_yaml_except_through_the_bounded_reader():
    # A house rule as a test: a new reader that calls PyYAML's loaders directly would take bombs again.
    import re
    from pathlib import Path

    src = Path(bounded_yaml.__file__).parent
    direct = re.compile(r"\byaml\.(safe_load|load|full_load|unsafe_load|load_all|safe_load_all|compose|parse)\(")
    offenders = [
        f"{path.relative_to(src)}:{number}"
        for path in sorted(src.rglob("*.py"))
        if path.name != "bounded_yaml.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if direct.search(line)
    ]
    assert offenders == [], f"read YAML through copilot_eval.bounded_yaml (load_yaml, load_yaml_file): {offenders}"
