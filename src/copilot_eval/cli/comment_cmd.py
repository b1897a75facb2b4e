"""`copilot-eval comment FILE.md`: one sticky comment on a pull request, updated on every push.

Exit codes: 0 posted; 2 unusable input (no such file, no repository or pull request, no token,
or GitHub refused the token, its permission, the repository or the pull request); 3 GitHub's own
trouble (still rate limited after the retries, a 5xx, no answer).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, platform_failed
from copilot_eval.cli.options import DetailsUrlOption
from copilot_eval.github import DEFAULT_API_URL, GitHubComments, GitHubError, PostedComment, post_sticky
from copilot_eval.github.actions_env import ActionsEnvError, PullRequestTarget, comment_target, token_from_env


def comment(
    markdown_file: Annotated[
        str, typer.Argument(metavar="FILE.md", help="The Markdown to post ('-' reads stdin), e.g. gate --markdown.")
    ],
    repo: Annotated[
        str | None, typer.Option("--repo", metavar="OWNER/NAME", help="The repository (default: GITHUB_REPOSITORY).")
    ] = None,
    # comment's own options, declared inline like each other and review's --import (alike in shape only)
    pr: Annotated[
        int | None,
        typer.Option(
            "--pr", metavar="N", help="The pull request (default: the pull_request event of GITHUB_EVENT_PATH)."
        ),
    ] = None,
    token_env: Annotated[
        str, typer.Option("--token-env", metavar="VAR", help="The environment variable holding the token.")
    ] = "GITHUB_TOKEN",
    api_url: Annotated[
        str | None,
        typer.Option(
            "--api-url", metavar="URL", help="GitHub's REST API (default: GITHUB_API_URL, else api.github.com)."
        ),
    ] = None,
    key: Annotated[
        str,
        typer.Option(
            "--key", metavar="NAME", help="Which comment to keep: one per key and pull request (hidden marker)."
        ),
    ] = "gate",
    details_url: DetailsUrlOption = None,
) -> None:
    """Post FILE.md as the pull request's comment of --key: update it when it exists, else create it; never two."""
    try:
        text = sys.stdin.read() if markdown_file == "-" else Path(markdown_file).read_text(encoding="utf-8")
    except OSError as exc:
        raise bad_input(f"FILE.md {markdown_file}: cannot be read ({exc.strerror or exc})") from None
    try:
        target = comment_target(repo=repo, number=pr, api_url=api_url)
        token = token_from_env(token_env)
    except (ActionsEnvError, GitHubError) as exc:
        raise bad_input(str(exc)) from None
    try:
        posted = asyncio.run(_post(target, token, token_env, text, key=key, full_report=details_url or target.run_url))
    except ValueError as exc:  # a --key GitHub would show
        raise bad_input(str(exc)) from None
    except GitHubError as exc:
        raise (platform_failed if exc.infrastructure else bad_input)(str(exc)) from None
    typer.echo(f"{posted.action} the comment on {target.repo}#{target.number}: {posted.html_url or posted.comment_id}")
    if posted.fitted.cut:
        typer.echo(
            f"the body was cut to GitHub's limit: {posted.fitted.rows_left_out} table rows and "
            f"{posted.fitted.lines_left_out} other lines left out",
            err=True,
        )


async def _post(
    target: PullRequestTarget, token: str, token_env: str, text: str, *, key: str, full_report: str | None
) -> PostedComment:
    """Post or update the pull request's comment of ``key`` with ``text``."""
    async with GitHubComments(
        repo=target.repo or "", token=token, token_name=token_env, api_url=target.api_url or DEFAULT_API_URL
    ) as client:
        return await post_sticky(client, target.number or 0, text, key=key, full_report=full_report)


def register(app: typer.Typer) -> None:
    """Add the `comment` command."""
    app.command(name="comment")(comment)
