"""GitHub's documented REST shapes for issue comments (API version 2022-11-28), as JSON Schemas.

Written from GitHub's REST reference (issue comments, pagination, rate limits), kept apart from
the client and the fake on purpose: the fake is checked against what the documentation says, not
against what our own client happens to read.
"""

from __future__ import annotations

from typing import Any

URI = {"type": "string", "pattern": "^https?://"}
TIME = {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"}

SIMPLE_USER: dict[str, Any] = {
    "type": "object",
    "required": [
        "login",
        "id",
        "node_id",
        "avatar_url",
        "gravatar_id",
        "url",
        "html_url",
        "followers_url",
        "following_url",
        "gists_url",
        "starred_url",
        "subscriptions_url",
        "organizations_url",
        "repos_url",
        "events_url",
        "received_events_url",
        "type",
        "site_admin",
    ],
    "properties": {
        "login": {"type": "string"},
        "id": {"type": "integer"},
        "node_id": {"type": "string"},
        "avatar_url": URI,
        "gravatar_id": {"type": ["string", "null"]},
        "url": URI,
        "html_url": URI,
        "type": {"type": "string"},
        "site_admin": {"type": "boolean"},
    },
}

AUTHOR_ASSOCIATIONS = [
    "COLLABORATOR", "CONTRIBUTOR", "FIRST_TIMER", "FIRST_TIME_CONTRIBUTOR", "MANNEQUIN", "MEMBER", "NONE", "OWNER",
]  # fmt: skip

ISSUE_COMMENT: dict[str, Any] = {
    "type": "object",
    "required": [
        "id",
        "node_id",
        "url",
        "html_url",
        "user",
        "created_at",
        "updated_at",
        "issue_url",
        "author_association",
    ],
    "properties": {
        "id": {"type": "integer"},
        "node_id": {"type": "string"},
        "url": URI,
        "body": {"type": "string"},
        "html_url": URI,
        "user": {"anyOf": [{"type": "null"}, SIMPLE_USER]},
        "created_at": TIME,
        "updated_at": TIME,
        "issue_url": URI,
        "author_association": {"enum": AUTHOR_ASSOCIATIONS},
        "performed_via_github_app": {"type": ["object", "null"]},
        "reactions": {
            "type": "object",
            "required": ["url", "total_count", "+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket"],
        },
    },
}

ISSUE_COMMENT_LIST: dict[str, Any] = {"type": "array", "items": ISSUE_COMMENT}

BASIC_ERROR: dict[str, Any] = {
    "type": "object",
    "required": ["message", "documentation_url"],
    "properties": {
        "message": {"type": "string"},
        "documentation_url": URI,
        "url": {"type": "string"},
        "status": {"type": "string"},
    },
}

VALIDATION_ERROR: dict[str, Any] = {
    "type": "object",
    "required": ["message", "documentation_url"],
    "properties": {
        "message": {"type": "string"},
        "documentation_url": URI,
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code"],
                "properties": {
                    "resource": {"type": "string"},
                    "field": {"type": "string"},
                    "message": {"type": "string"},
                    "code": {"type": "string"},
                },
            },
        },
    },
}

# The rate-limit headers every answer carries (x-ratelimit-reset in UTC epoch seconds).
RATE_LIMIT_HEADERS = (
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-used",
    "x-ratelimit-reset",
    "x-ratelimit-resource",
)

# A Link header: comma-separated `<URL>; rel="NAME"` parts.
LINK_PART = r'^<(https?://[^>]+)>; rel="(next|last|first|prev)"$'
