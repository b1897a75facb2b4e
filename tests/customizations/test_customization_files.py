"""Finding customization files on disk: where, which kind and scope, applyTo, and why one is not read."""

from __future__ import annotations

import pytest

from copilot_eval.capture.customizations import customization_status, judge_customizations
from copilot_eval.evidence import RequestAuditRecord
from copilot_eval.evidence.customizations import FoundCustomization
from copilot_eval.runtime.customization_files import apply_to_pattern, find_customizations, split_frontmatter
from copilot_eval.runtime.requests.customization_sightings import probes_for, sightings_in
from tests.customizations.repo_fixture import make_repository, make_user_folder, write_files


def _by_path(found: list[FoundCustomization]) -> dict[str, FoundCustomization]:
    return {item.path: item for item in found}


def test_the_repository_files_are_found_with_kind_scope_and_apply_to(tmp_path):
    found = _by_path(find_customizations(make_repository(tmp_path / "repo", git=False)))
    assert found[".github/copilot-instructions.md"].kind == "copilot-instructions"
    assert found[".github/instructions/python.instructions.md"].apply_to == "**/*.py"
    assert found[".github/instructions/python.instructions.md"].apply_to_matches is True
    assert found[".github/instructions/rust.instructions.md"].apply_to_matches is False
    assert found[".github/instructions/plain.instructions.md"].apply_to is None
    assert found["AGENTS.md"].scope == "repository" and found["service/AGENTS.md"].scope == "folder"
    assert found[".github/prompts/review.prompt.md"].kind == "prompt"
    misnamed = found[".github/instructions/misnamed.instruction.md"]
    assert not misnamed.read_by_runtime and "wrong suffix" in misnamed.why_not_read
    assert "ends in .instruction.md" in misnamed.why_not_read
    broken = found[".github/instructions/broken.instructions.md"]
    assert broken.apply_to == "'**" and "line 2" in broken.frontmatter_problem


def test_a_touched_path_makes_an_apply_to_match(tmp_path):
    repo = make_repository(tmp_path / "repo", git=False)
    found = _by_path(find_customizations(repo, touched=["src/lib.rs"]))
    assert found[".github/instructions/rust.instructions.md"].apply_to_matches is True


def test_agents_md_is_read_from_the_git_root_down_to_the_working_directory(tmp_path):
    repo = make_repository(tmp_path / "repo")
    write_files(repo, {"service/deep/AGENTS.md": "deep\n", "other/AGENTS.md": "other\n"})
    found = _by_path(find_customizations(repo / "service"))  # paths relative to the working directory
    assert found["../AGENTS.md"].read_by_runtime and found["../AGENTS.md"].scope == "repository"
    assert found["AGENTS.md"].read_by_runtime and found["AGENTS.md"].scope == "folder"
    assert "../other/AGENTS.md" not in found  # beside the working directory: not this run's business
    assert "down to service" in found["deep/AGENTS.md"].why_not_read
    # outside git the working directory is the root: the folder above is not looked at
    outside = make_repository(tmp_path / "plain", git=False)
    (only,) = [item for item in find_customizations(outside / "service") if item.kind == "agents-md"]
    assert only.path == "AGENTS.md" and "gRPC" in only.text  # the service's own, as the root


def test_the_working_directory_has_its_own_github_folder_too(tmp_path):
    repo = make_repository(tmp_path / "repo")
    write_files(
        repo,
        {
            "service/.github/copilot-instructions.md": "service main\n",
            "service/.github/instructions/grpc.instructions.md": "---\napplyTo: '**/*.proto'\n---\nuse proto3\n",
            "service/deep/.github/instructions/x.instructions.md": "below the working directory\n",
        },
    )
    found = _by_path(find_customizations(repo / "service"))
    assert found[".github/copilot-instructions.md"].scope == "folder"
    grpc = found[".github/instructions/grpc.instructions.md"]
    assert grpc.listed_as == ".github/instructions/grpc.instructions.md" and grpc.apply_to_matches is False
    assert found["../.github/instructions/python.instructions.md"].scope == "repository"
    assert "deep/.github/instructions/x.instructions.md" not in found


def test_user_files_come_from_the_given_folders_never_from_the_process_home(tmp_path):
    user = make_user_folder(tmp_path / "user")
    home = tmp_path / "home"
    write_files(home, {".copilot/copilot-instructions.md": "mine\n"})
    found = _by_path(
        find_customizations(tmp_path, user_folder=user, user_folder_in_session=tmp_path / "session", home=home)
    )
    standin = found[str(user / "copilot-instructions.md")]
    assert standin.scope == "user" and standin.read_by_runtime
    assert standin.listed_as == str(tmp_path / "session" / "copilot-instructions.md")
    real = found[str(home / ".copilot" / "copilot-instructions.md")]
    assert not real.read_by_runtime and "COPILOT_HOME" in real.why_not_read


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("**", "a/b/c.py", True),
        ("**/*.py", "app.py", True),
        ("**/*.py", "src/app.py", True),
        ("src/*.py", "src/deep/app.py", False),
        ("src/**/*.ts", "src/x/y/z.ts", True),
        ("*.md", "docs/guide.md", False),
    ],
)
def test_apply_to_globs(glob, path, matches):
    assert bool(apply_to_pattern(glob).match(path)) is matches


def test_frontmatter_as_the_runtime_reads_it():
    assert split_frontmatter("---\napplyTo: '**/*.py'\n---\nbody\n") == ("**/*.py", None, "body\n")
    apply_to, problem, body = split_frontmatter("---\napplyTo: **\n---\nbody\n")
    assert apply_to == "**" and "does not parse as YAML" in problem and body == "body\n"
    assert split_frontmatter("---\napplyTo: x\nno end\n")[1] == "the frontmatter has no closing '---' line"
    assert split_frontmatter("plain text\n") == (None, None, "plain text\n")


def _found(**fields):
    return FoundCustomization(**{"kind": "instructions", "path": "p.instructions.md", "scope": "repository", **fields})


@pytest.mark.parametrize(
    ("found", "seen", "mode", "status", "reason_has"),
    [
        (_found(), "text", None, "delivered", None),
        (_found(frontmatter_problem="bad"), "text", None, "delivered", "bad"),
        (_found(frontmatter_problem="bad"), None, None, "malformed", "bad"),
        (_found(frontmatter_problem="bad"), "listed", None, "malformed", "listed it"),
        (_found(apply_to="**/*.py", apply_to_matches=True), "listed", None, "listed", "views the file"),
        (_found(apply_to="**/*.rs", apply_to_matches=False), "listed", None, "not_applicable", "matches no file"),
        (_found(read_by_runtime=False, why_not_read="wrong suffix"), None, None, "not_delivered", "wrong suffix"),
        (
            _found(kind="prompt", read_by_runtime=False, why_not_read="on request"),
            None,
            None,
            "not_applicable",
            "on request",
        ),
        (_found(), None, "empty", "not_delivered", "client_mode 'empty'"),
        (_found(), None, None, "not_delivered", "neither sent"),
    ],
)
def test_the_one_status_rule(found, seen, mode, status, reason_has):
    got, reason = customization_status(found, seen, audited=True, client_mode=mode)
    assert got == status
    assert (reason_has is None and reason is None) or reason_has in reason


def test_no_request_read_means_unknown_never_guessed():
    assert customization_status(_found(), None, audited=False)[0] is None
    (judged,) = judge_customizations([_found()], [])
    assert judged.status is None and judged.delivered is None


def test_sightings_text_beats_a_listing_and_tolerate_whitespace_and_line_numbers():
    found = [
        _found(path="a.instructions.md", text="Keep  it\nshort."),
        _found(path="b.instructions.md", text="Never used.", listed_as="b.instructions.md"),
        _found(path="c.instructions.md", text="Line one\nLine two"),
    ]
    texts = [
        "system: Keep it short. | **/*.py | 'b.instructions.md' | |",
        "1. Line one\n2. Line two",
    ]
    assert sightings_in(texts, probes_for(found)) == {
        "a.instructions.md": "text",
        "b.instructions.md": "listed",
        "c.instructions.md": "text",
    }
    record = RequestAuditRecord(request_id="r", instructions_sha256="x", customizations={"a.instructions.md": "text"})
    (judged,) = judge_customizations([found[0]], [record])
    assert judged.status == "delivered"


def test_a_walk_cut_short_leaves_a_glob_without_a_match_unknown(tmp_path, monkeypatch):
    import copilot_eval.runtime.customization_files as files

    repo = make_repository(tmp_path / "repo", git=False)
    monkeypatch.setattr(files, "MAX_FILES_WALKED", 3)
    found = _by_path(find_customizations(repo))
    assert found[".github/instructions/rust.instructions.md"].apply_to_matches is None
