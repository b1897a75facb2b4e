"""--shard: whole conversations, assigned from the set's content, the same on every machine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet, ShardInfo
from copilot_eval.runs import plan_units
from copilot_eval.runs.shards import (
    ShardError,
    conversation_shards,
    parse_shard,
    select_node_ids,
    shard_conversations,
    units_of_shard,
)


def _chats(count: int, turns: int = 2) -> EvalTestSet:
    return EvalTestSet(
        name="chats",
        data_type=EvalDataType.CONVERSATION,
        cases=[
            EvalTestCase(conversation_number=n, question=f"c{n} t{t}", response="r")
            for n in range(1, count + 1)
            for t in range(1, turns + 1)
        ],
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [("3", "expected I/N"), ("0/3", "between 1 and"), ("4/3", "between 1 and"), ("a/b", "expected I/N")],
)
def test_a_bad_shard_names_the_option_and_the_form(text, problem):
    with pytest.raises(ShardError, match=problem) as caught:
        parse_shard(text)
    assert str(caught.value).startswith(f"--shard {text!r}")


def test_every_conversation_lands_in_exactly_one_shard_and_the_shards_are_balanced():
    test_set = _chats(10)
    owner = conversation_shards(test_set, 3)
    assert sorted(owner) == list(range(1, 11))
    sizes = sorted(list(owner.values()).count(index) for index in (1, 2, 3))
    assert sizes == [3, 3, 4]
    parts = [shard_conversations(test_set, ShardInfo(index=i, count=3)) for i in (1, 2, 3)]
    assert sorted(n for part in parts for n in part) == list(range(1, 11))


def test_turns_and_repeats_of_a_conversation_stay_in_its_shard():
    test_set = _chats(5, turns=3)
    units = plan_units(test_set, 2)
    shards = [units_of_shard(units, test_set, ShardInfo(index=i, count=2)) for i in (1, 2)]
    assert sorted(u.key for part in shards for u in part) == sorted(u.key for u in units)
    for part in shards:
        numbers = {u.cases[0].conversation_number for u in part}
        # every repeat of each of its conversations, each with all three turns
        assert sorted(u.key for u in part) == sorted(f"conversation{n}#{r}" for n in numbers for r in (0, 1))
        assert all(len(u.cases) == 3 for u in part)


def test_the_assignment_follows_content_not_file_order():
    single = EvalTestSet(
        name="s",
        data_type=EvalDataType.SINGLE_TURN,
        cases=[EvalTestCase(conversation_number=n, question=f"q{n}") for n in range(1, 9)],
    )
    reordered = single.model_copy(update={"cases": [single.cases[i] for i in (3, 0, 7, 1, 6, 2, 5, 4)]})
    assert conversation_shards(single, 3) == conversation_shards(reordered, 3)


def test_another_process_with_another_hash_seed_computes_the_same_split():
    code = (
        "import json; from tests.scale.test_shards import _chats; "
        "from copilot_eval.runs.shards import conversation_shards; "
        "print(json.dumps(conversation_shards(_chats(12), 4)))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert {int(k): v for k, v in json.loads(outputs.pop()).items()} == conversation_shards(_chats(12), 4)


def test_node_ids_are_split_the_same_way():
    ids = [f"tests/test_x.py::test_{n}" for n in range(7)]
    parts = [select_node_ids(ids, ShardInfo(index=i, count=3)) for i in (1, 2, 3)]
    assert sorted(i for part in parts for i in part) == sorted(ids)
    assert sorted(len(part) for part in parts) == [2, 2, 3]
    assert select_node_ids(list(reversed(ids)), ShardInfo(index=2, count=3)) == parts[1]


def test_pytest_copilot_shard_deselects_the_other_shards(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_many="\n".join(f"def test_{n}():\n    pass\n" for n in range(7)))
    ran = []
    for index in (1, 2, 3):
        outcome = pytester.runpytest(f"--copilot-shard={index}/3", "-p", "no:cacheprovider")
        passed = [
            report.nodeid.split("::")[1]
            for report in outcome.reprec.getreports("pytest_runtest_logreport")
            if report.when == "call" and report.passed
        ]
        outcome.assert_outcomes(passed=len(passed), deselected=7 - len(passed))
        ran.append(passed)
    assert sorted(name for part in ran for name in part) == sorted(f"test_{n}" for n in range(7))
    bad = pytester.runpytest("--copilot-shard=4/3", "-p", "no:cacheprovider")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--copilot-shard '4/3'" in bad.stderr.str()
