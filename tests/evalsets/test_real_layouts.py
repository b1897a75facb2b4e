"""Files as Copilot Studio hands them out today: comment block, quoted header, empty references,
multi-turn conversations; and the two rule sets, each enforced by name with exact messages."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import (
    COPILOT_STUDIO_MAX_CONVERSATION_PAIRS,
    COPILOT_STUDIO_MAX_CONVERSATIONS,
    COPILOT_STUDIO_MAX_QUESTIONS,
    COPILOT_STUDIO_QUESTION_MAX_LENGTH,
    EVAL_MAX_CONVERSATION_PAIRS,
    EVAL_REFERENCE_MAX_LENGTH,
    EvalDataType,
    EvalTestCase,
    EvalTestSet,
    check_csv,
    csv_text,
    group_conversations,
    looks_like_test_set,
    read_csv,
    validate_eval_test_set,
    write_csv,
)

REAL_FILES = [
    "studio_single_response.csv",
    "studio_single_response_no_comments.csv",
    "studio_conversations.csv",
    "studio_conversations_no_comments.csv",
]


def test_seed_constants_keep_their_names_and_values():
    assert (EVAL_MAX_CONVERSATION_PAIRS, EVAL_REFERENCE_MAX_LENGTH) == (6, 1000)
    assert (
        COPILOT_STUDIO_MAX_CONVERSATION_PAIRS,
        COPILOT_STUDIO_MAX_CONVERSATIONS,
        COPILOT_STUDIO_MAX_QUESTIONS,
        COPILOT_STUDIO_QUESTION_MAX_LENGTH,
    ) == (8, 50, 100, 500)


@pytest.mark.parametrize("file_name", REAL_FILES)
def test_todays_files_validate_clean_without_naming_a_rule_set(data_dir, file_name):
    path = data_dir / file_name
    assert looks_like_test_set(path)
    assert check_csv(path) == []
    assert check_csv(path, profile="copilot-studio") == []


def test_the_comment_block_is_kept_as_the_preamble(data_dir):
    single = read_csv(data_dir / "studio_single_response.csv")
    assert single.preamble[0] == "# Import the test cases you want to use to test your agent"
    assert single.preamble[4:] == [
        "# Limitations",
        "# - maximum of 100 questions",
        "# - maximum of 500 characters per question",
    ]
    assert single.data_type is EvalDataType.SINGLE_TURN
    assert [(c.conversation_number, c.response) for c in single.cases] == [
        (1, ""),
        (2, "Every day from 8:00 to 19:00."),
        (3, ""),
    ]
    assert read_csv(data_dir / "studio_single_response_no_comments.csv").preamble is None


def test_rows_sharing_a_number_form_conversations_in_file_order(data_dir):
    test_set = read_csv(data_dir / "studio_conversations.csv")
    assert test_set.data_type is EvalDataType.CONVERSATION
    conversations = group_conversations(test_set.cases)
    assert [(c.number, len(c.cases)) for c in conversations] == [(1, 3), (2, 2), (3, 4)]
    assert [case.question for case in conversations[2].cases] == [
        "My tyre is flat.",
        "I am 20 km from the shop.",
        "Which station is closest?",
        "Thanks!",
    ]
    assert read_csv(data_dir / "studio_conversations_no_comments.csv").cases == test_set.cases


def test_line_numbers_after_a_comment_block_are_the_files_own(data_dir, tmp_path):
    text = (data_dir / "studio_conversations.csv").read_text(encoding="utf-8")
    broken = tmp_path / "broken.csv"
    broken.write_text(text + '"x","q","r"\r\n"4","q"\r\n', encoding="utf-8")
    assert check_csv(broken) == [
        "line 20, conversationNumber: 'x' is not an integer",
        "line 21: expected 3 fields (conversationNumber,question,response), found 2; "
        "a comma inside a field needs the field quoted",
    ]


def test_the_seed_rule_set_refuses_todays_conversation_file_naming_itself(data_dir):
    problems = check_csv(data_dir / "studio_conversations.csv", profile="seed")
    assert problems == [
        "test set 'studio_conversations' has 9 question-and-answer pairs; seed allows at most 6 in a Conversation set",
        "case 1 (conversationNumber 1): conversationNumber 1 is used by 3 cases (cases 1, 2, 3); "
        "seed requires unique numbers",
        "case 3 (conversationNumber 1): response (the reference answer) is blank; seed requires one",
        "case 4 (conversationNumber 2): conversationNumber 2 is used by 2 cases (cases 4, 5); "
        "seed requires unique numbers",
        "case 6 (conversationNumber 3): conversationNumber 3 is used by 4 cases (cases 6, 7, 8, 9); "
        "seed requires unique numbers",
        "case 6 (conversationNumber 3): response (the reference answer) is blank; seed requires one",
        "case 8 (conversationNumber 3): response (the reference answer) is blank; seed requires one",
        "case 9 (conversationNumber 3): response (the reference answer) is blank; seed requires one",
    ]


def _conversations(*sizes: int) -> EvalTestSet:
    return EvalTestSet(
        name="s",
        cases=[
            EvalTestCase(conversation_number=n, question=f"q{n}.{t}")
            for n, size in enumerate(sizes, start=1)
            for t in range(size)
        ],
    )


def test_copilot_studio_limits_at_and_one_past_the_edge():
    assert validate_eval_test_set(_conversations(8, 8), "copilot-studio") == []
    assert validate_eval_test_set(_conversations(1, 2, 9), "copilot-studio") == [
        "conversation 3 has 9 question-and-answer pairs; copilot-studio allows at most 8"
    ]
    assert validate_eval_test_set(_conversations(*[1] * 50)) == []
    assert validate_eval_test_set(_conversations(*[1] * 51)) == [
        "test set 's' has 51 conversations; copilot-studio allows at most 50"
    ]
    single = EvalTestSet(
        name="s",
        data_type=EvalDataType.SINGLE_TURN,
        cases=[EvalTestCase(conversation_number=n, question="q") for n in range(1, 102)],
    )
    assert validate_eval_test_set(single.model_copy(update={"cases": single.cases[:100]})) == []
    assert validate_eval_test_set(single) == [
        "test set 's' has 101 questions; copilot-studio allows at most 100 in a single-response set"
    ]


def test_copilot_studio_question_and_reference_lengths():
    ok = EvalTestCase(conversation_number=1, question="q" * 500, response="r" * 1000)
    assert validate_eval_test_set(EvalTestSet(name="s", cases=[ok])) == []
    long = EvalTestCase(conversation_number=1, question="q" * 501, response="r" * 1001)
    assert validate_eval_test_set(EvalTestSet(name="s", cases=[long])) == [
        "case 1 (conversationNumber 1): question is 501 characters; copilot-studio allows at most 500",
        "case 1 (conversationNumber 1): response (the reference answer) is 1001 characters; "
        "copilot-studio allows at most 1000",
    ]
    blank = EvalTestCase(conversation_number=0, question=" ")
    assert validate_eval_test_set(EvalTestSet(name="s", cases=[blank])) == [
        "case 1 (conversationNumber 0): conversationNumber must be a positive integer (copilot-studio)",
        "case 1 (conversationNumber 0): question is blank; copilot-studio requires one",
    ]


def test_an_unknown_rule_set_is_named():
    with pytest.raises(ValueError, match="unknown rule set 'today'; known rule sets: seed, copilot-studio"):
        validate_eval_test_set(_conversations(1), "today")


@pytest.mark.parametrize("profile", ["copilot-studio", "seed"])
def test_written_preamble_states_the_rule_sets_limits_and_reads_back(tmp_path, data_dir, profile):
    test_set = read_csv(data_dir / "studio_conversations.csv")
    path = tmp_path / "out.csv"
    write_csv(test_set, path, preamble=True, profile=profile)
    back = read_csv(path)
    assert back.cases == test_set.cases
    assert all(line.startswith("#") for line in back.preamble)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('"# Test set for Copilot Studio evaluation (conversation template)')
    if profile == "copilot-studio":
        assert '"# - at most 8 question-and-answer pairs per conversation"' in text
        assert '"# - at most 50 conversations"' in text
        assert "leave it empty when the graders need none" in text
    else:
        assert '"# - at most 6 question-and-answer pairs in the whole set"' in text
        assert "must not be empty" in text
    assert '"# - at most 1000 characters per reference answer"' in text


def test_the_read_preamble_can_be_written_back(data_dir):
    test_set = read_csv(data_dir / "studio_single_response.csv")
    text = csv_text(test_set, template="single-response", preamble="keep")
    assert text.splitlines()[:2] == ['"# Import the test cases you want to use to test your agent"', '"#"']
    assert csv_text(test_set, template="single-response").startswith('"question","expectedResponse"')


def test_cli_validates_todays_files_and_names_the_rule_set(data_dir):
    runner = CliRunner()
    files = [str(data_dir / name) for name in REAL_FILES]
    result = runner.invoke(app, ["validate", *files])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("OK, imports cleanly (copilot-studio rules)") == 4
    seed = runner.invoke(app, ["validate", "--json", "--profile", "seed", files[2]])
    assert seed.exit_code == 2
    document = json.loads(seed.stdout)
    assert document["profile"] == "seed"
    assert "seed allows at most 6 in a Conversation set" in document["files"][0]["problems"][0]
    bad = runner.invoke(app, ["validate", "--profile", "today", files[0]])
    assert bad.exit_code == 2


def test_cli_converts_todays_files_keeping_a_comment_block(data_dir, tmp_path):
    runner = CliRunner()
    as_json, back = tmp_path / "c.json", tmp_path / "c.csv"
    assert runner.invoke(app, ["convert", str(data_dir / "studio_conversations.csv"), str(as_json)]).exit_code == 0
    result = runner.invoke(app, ["convert", str(as_json), str(back)])
    assert result.exit_code == 0, result.output
    assert read_csv(back).cases == read_csv(data_dir / "studio_conversations.csv").cases
    assert back.read_text(encoding="utf-8").startswith('"# Test set for Copilot Studio evaluation')
    plain = tmp_path / "plain.csv"
    assert runner.invoke(app, ["convert", "--no-preamble", str(as_json), str(plain)]).exit_code == 0
    assert plain.read_text(encoding="utf-8").startswith('"conversationNumber"')
