"""A/B runs through the real runtime: isolated directories, roles as report metadata, repetitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval import ABResult, CopilotEval, ab_run

from .helpers import scripted


def writer(text: str) -> CopilotEval:
    """An agent whose scripted model writes ``out.txt`` with ``text`` through the built-in create tool."""
    return CopilotEval(
        name=f"writes-{text}",
        model=scripted(
            {
                "turns": [
                    {
                        "tool_calls": [
                            {"name": "create", "arguments": {"path": "{working_directory}/out.txt", "file_text": text}}
                        ]
                    },
                    {"text": f"wrote {text}"},
                ]
            }
        ),
    )


@pytest.mark.runtime
async def test_both_agents_run_isolated_with_roles_and_repetitions(tmp_path: Path) -> None:
    seed = tmp_path / "project"
    seed.mkdir()
    (seed / "README.md").write_text("seed\n")
    baseline = writer("old").with_options(working_directory=seed)
    candidate = writer("new").with_options(working_directory=seed)
    outcome = await ab_run("Write the output file", baseline, candidate, repeat=2)
    assert isinstance(outcome, ABResult)
    assert len(outcome.baseline) == len(outcome.candidate) == 2
    assert [r.comparison_role for r in outcome.baseline] == ["baseline", "baseline"]
    assert [r.comparison_role for r in outcome.candidate] == ["candidate", "candidate"]
    assert all(r.success for r in outcome.results)
    assert [r.file("out.txt") for r in outcome.baseline] == ["old", "old"]
    assert [r.file("out.txt") for r in outcome.candidate] == ["new", "new"]
    directories = {r.working_directory for r in outcome.results}
    assert len(directories) == 4 and str(seed) not in directories, "every run has its own copy"
    assert all(r.file("README.md") == "seed\n" for r in outcome.results)
    assert not (seed / "out.txt").exists(), "the caller's directory is untouched"
    assert all("comparison_role" not in (r.configuration or {}) for r in outcome.results)
    assert outcome.execution_rate("baseline") == outcome.execution_rate("candidate") == 1.0
    assert [(b.comparison_role, c.comparison_role) for b, c in outcome.pairs()] == [("baseline", "candidate")] * 2


@pytest.mark.runtime
async def test_ab_run_fixture_runs_both_agents(ab_run) -> None:
    outcome = await ab_run("hi", writer("a"), writer("b"))
    assert [r.final_response for r in outcome.results] == ["wrote a", "wrote b"]


@pytest.mark.runtime
def test_ab_run_fixture_writes_evidence_per_role(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = session\n")
    pytester.makepyfile(
        test_ab_demo="""
        from copilot_eval import CopilotEval, ScriptedModel

        def agent(text):
            return CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": text}]}]}))

        async def test_demo(ab_run):
            outcome = await ab_run("hi", agent("one"), agent("two"))
            assert [r.final_response for r in outcome.results] == ["one", "two"]
    """
    )
    evidence = pytester.path / "evidence"
    outcome = pytester.runpytest_subprocess("--copilot-evidence-dir", str(evidence))
    outcome.assert_outcomes(passed=1)
    names = sorted(path.name for path in evidence.glob("*.json"))
    assert len(names) == 2 and any("baseline" in n for n in names) and any("candidate" in n for n in names)
    # each with the runtime's own trace beside it
    assert sorted(path.name for path in evidence.glob("*.trace.jsonl")) == [
        n.replace(".json", ".trace.jsonl") for n in names
    ]


async def test_repeat_must_be_positive() -> None:
    with pytest.raises(ValueError, match="repeat"):
        await ab_run("hi", writer("a"), writer("b"), repeat=0)
