"""GitHub's REST API for what a pull request needs: one sticky comment, found, updated, never doubled.

``GitHubComments`` is the wire client of the issue-comment endpoints (pagination, rate limits
waited out within bounds, errors that say what is missing); ``post_sticky`` keeps one comment per
key on a pull request; ``actions_target`` reads a GitHub Actions job's environment. The loopback
fake of these endpoints is ``copilot_eval.testing.FakeGitHubComments``. See docs/ci.md.
"""

from __future__ import annotations

from copilot_eval.github.actions_env import ActionsEnvError, PullRequestTarget, actions_target
from copilot_eval.github.client import API_VERSION, DEFAULT_API_URL, GitHubComments

# The errors client.py raises (it imports the same names), re-exported for callers to catch.
from copilot_eval.github.errors import (
    WRITE_PERMISSION,
    AuthenticationError,
    GitHubError,
    GitHubTokenError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    TransportError,
    ValidationError,
)
from copilot_eval.github.sticky import (
    COMMENT_LIMIT,
    DEFAULT_KEY,
    FittedBody,
    PostedComment,
    fit_body,
    marker,
    post_sticky,
)

# The package's curated public names, repeating its modules' on purpose: a rename is a decision,
# pinned by tests/test_public_names.py.
__all__ = [
    "API_VERSION",
    "COMMENT_LIMIT",
    "DEFAULT_API_URL",
    "DEFAULT_KEY",
    "WRITE_PERMISSION",
    "ActionsEnvError",
    "AuthenticationError",
    "FittedBody",
    "GitHubComments",
    "GitHubError",
    "GitHubTokenError",
    "NotFoundError",
    "PermissionDeniedError",
    "PostedComment",
    "PullRequestTarget",
    "RateLimitedError",
    "ServerError",
    "TransportError",
    "ValidationError",
    "actions_target",
    "fit_body",
    "marker",
    "post_sticky",
]
