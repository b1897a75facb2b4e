"""A faithful local Copilot Studio evaluation API (makerevaluation, api-version 2024-10-01).

The six operations of one agent, with the documented bodies, and the platform's failures: a run
already in progress (409, or 422 as one connector reports it), the daily run limit (429 with
``Retry-After``), HTTP 500 on a run of the published agent, 401 for a missing or unknown token, 403
for a token without the permission (the body names ``InsufficientDelegatedPermissions``), 404 for
an unknown environment, bot, test set or run, 400 without ``api-version``. A run moves through its
states as it is read, not as time passes, so tests are deterministic: Queued for ``queued_polls``
reads, InProgress for ``running_polls`` reads, then its test set's final state.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from copilot_eval.testing.fake_agent import FakeEndpoint
from copilot_eval.testing.studio_eval_script import FakeTestSet, snapshot_zip

# Starlette is imported when a fake builds its app or answers: `import copilot_eval.testing` (the scripts, the
# fakes' classes) must not load it.

API_VERSION = "2024-10-01"
_RUNNING_STEPS = ("Initializing", "CreatingRunContent", "ProcessingRunContent", "EvaluatingRun")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


@dataclass
class FakeRun:
    """A run the fake started: its test set, surface, connection, and how often it has been read."""

    id: str
    test_set: FakeTestSet
    name: str
    published: bool
    connection_id: str
    started_at: str = field(default_factory=_now)
    reads: int = 0
    ended_at: str | None = None


class FakeStudioEval(FakeEndpoint):
    """An ASGI app: the evaluation API of one agent (``environment_id``, ``bot_id``) and its ``test_sets``.

    ``token`` is the user-delegated token it accepts for everything; ``read_only_token`` may list
    and read but not start runs (403); ``busy_status`` is 409 or 422; after ``daily_limit`` runs
    a run request gets 429 with ``Retry-After: limit_retry_after_s`` (left out when None);
    ``published_fails`` answers HTTP 500 to a run of the published agent. ``throttle_reads`` makes
    the next reads answer 429 or 503. ``requests`` records (method, path, body) of every request.
    """

    def __init__(
        self,
        test_sets: list[FakeTestSet],
        *,
        environment_id: str = "aaaabbbb-1111-2222-3333-ccccddddeeee",
        bot_id: str = "b0b0b0b0-4444-5555-6666-777788889999",
        agent_name: str = "Fake agent",
        token: str = "fake-power-platform-token",
        read_only_token: str | None = "fake-read-only-token",
        busy_status: int = 409,
        daily_limit: int = 20,
        limit_retry_after_s: float | None = 3600,
        published_fails: bool = False,
        queued_polls: int = 1,
        running_polls: int = 2,
    ) -> None:
        if busy_status not in (409, 422):
            raise ValueError(f"busy_status {busy_status}: the platform answers 409 (422 from one connector)")
        self.test_sets = {t.id: t for t in test_sets}
        self.environment_id, self.bot_id, self.agent_name = environment_id, bot_id, agent_name
        self.token, self.read_only_token = token, read_only_token
        self.busy_status, self.daily_limit, self.limit_retry_after_s = busy_status, daily_limit, limit_retry_after_s
        self.published_fails = published_fails
        self.queued_polls, self.running_polls = queued_polls, running_polls
        self.runs: dict[str, FakeRun] = {}
        self.requests: list[tuple[str, str, Any]] = []
        self._read_faults: list[tuple[int, float | None]] = []
        self._fault_counts: dict[int, int] = {}
        self.url = ""
        self._app = self._build()

    # -- addresses and controls ----------------------------------------------------------------
    @property
    def api_url(self) -> str:
        """What ``--api-url`` points at (the fake's origin)."""
        return self.url

    def throttle_reads(self, times: int, *, retry_after_s: float | None = 0.01, status: int = 429) -> None:
        """The next ``times`` reads (any GET) answer ``status`` (429 or 503) with ``Retry-After``."""
        self._read_faults.extend([(status, retry_after_s)] * times)

    def start_elsewhere(self, test_set: FakeTestSet, *, name: str = "started in Copilot Studio") -> FakeRun:
        """A run someone else started (the agent is busy until it has been read to its end)."""
        run = FakeRun(str(uuid.uuid4()), test_set, name, published=False, connection_id="")
        self.runs[run.id] = run
        return run

    # -- run progression -----------------------------------------------------------------------
    def _phase(self, run: FakeRun) -> tuple[str, str, int]:
        """(state, executionState, test cases processed) at the run's current number of reads."""
        total = len(run.test_set.cases)
        if run.reads < self.queued_polls:
            return "Queued", "Queued", 0
        step = run.reads - self.queued_polls
        if step < self.running_polls:
            processed = total * (step + 1) // (self.running_polls + 1)
            # The last steps of the documented sequence, ending with EvaluatingRun.
            index = max(0, len(_RUNNING_STEPS) - self.running_polls + step)
            return "InProgress", _RUNNING_STEPS[index], processed
        final = run.test_set.final_state
        cases = run.test_set.results_for(published=run.published)
        return final, final, sum(c.get("state") == "Completed" for c in cases)

    def _finished(self, run: FakeRun) -> bool:
        return self._phase(run)[0] not in ("Queued", "InProgress")

    def run_body(self, run: FakeRun) -> dict[str, Any]:
        """The ``TestRun`` body of ``run`` as it stands (reading it through the API advances it)."""
        state, execution, processed = self._phase(run)
        results = run.test_set.results_for(published=run.published)
        if state in ("Queued", "InProgress"):
            results = results[:processed]  # the cases evaluated so far
        if state not in ("Queued", "InProgress") and run.ended_at is None:
            run.ended_at = _now()
        return {
            "id": run.id,
            "name": run.name,
            "state": state,
            "executionState": execution,
            "startTime": run.started_at,
            "endTime": run.ended_at,
            "testSetId": run.test_set.id,
            "totalTestCases": len(run.test_set.cases),
            "testCasesProcessed": processed,
            "mcsConnectionId": run.connection_id,
            "ownerId": "00000000-0000-0000-0000-00000000a11c",
            "cdsBotId": self.bot_id,
            "environmentId": self.environment_id,
            "testCasesResults": results,
        }

    # -- the app -------------------------------------------------------------------------------
    def _gate(self, request: Any, *, writing: bool) -> Any:
        """The error response a request gets before it reaches its operation, or None."""
        if request.query_params.get("api-version") != API_VERSION:
            return _error(400, "InvalidApiVersion", f"api-version is required and must be {API_VERSION}")
        header = request.headers.get("authorization", "")
        bearer = header[7:] if header.startswith("Bearer ") else None
        if bearer not in (self.token, self.read_only_token) or bearer is None:
            return _error(401, "Unauthorized", "The access token is missing, invalid or expired.")
        if writing and bearer != self.token:
            return _error(
                403,
                "InsufficientDelegatedPermissions",
                "The token lacks the delegated permission(s) required: CopilotStudio.MakerOperations.ReadWrite.",
            )
        params = request.path_params
        if params["env"] != self.environment_id or params["bot"] != self.bot_id:
            return _error(404, "BotNotFound", f"Bot {params['bot']} was not found in environment {params['env']}.")
        if not writing and self._read_faults:
            status, retry_after = self._read_faults.pop(0)
            headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else None
            return _error(status, "TooManyRequests" if status == 429 else "ServiceUnavailable", "Slow down.", headers)
        return None

    def _start(self, test_set: FakeTestSet, body: Any) -> Any:
        from starlette.responses import JSONResponse

        if not isinstance(body, dict) or not isinstance(body.get("runOnPublishedBot", False), bool):
            return _error(400, "BadRequest", "The body must be a RunTestSetRequestBody.")
        if test_set.state != "Active":
            return _error(400, "TestSetNotActive", f"Test set {test_set.id} is {test_set.state}; only active sets run.")
        if any(not self._finished(run) for run in self.runs.values()):
            return _error(self.busy_status, "TestRunInProgress", "A test run is already in progress for this bot.")
        if len(self.runs) >= self.daily_limit:
            headers = {"Retry-After": f"{self.limit_retry_after_s:g}"} if self.limit_retry_after_s is not None else None
            return _error(429, "TooManyRequests", "Too many test runs for this bot in the last 24 hours.", headers)
        published = bool(body.get("runOnPublishedBot", False))
        if published and self.published_fails:
            return _error(
                500, "InternalServerError", "An error occurred while running the bot: bot version is required."
            )
        run = FakeRun(
            str(uuid.uuid4()),
            test_set,
            str(body.get("evaluationRunName") or ""),
            published=published,
            connection_id=str(body.get("mcsConnectionId") or ""),
        )
        self.runs[run.id] = run
        return JSONResponse(
            {
                "runId": run.id,
                "state": "Queued",
                "executionState": "Queued",
                "lastUpdatedAt": run.started_at,
                "callbackUri": f"{self.url}{self._base()}/testruns/{run.id}?api-version={API_VERSION}",
                "testCasesProcessed": 0,
                "totalTestCases": len(test_set.cases),
            }
        )

    def _base(self) -> str:
        return f"/copilotstudio/environments/{self.environment_id}/bots/{self.bot_id}/api/makerevaluation"

    def _build(self) -> Any:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response
        from starlette.routing import Route

        async def handle(request: Request) -> Response:
            raw = await request.body()
            body: Any = None
            if raw:
                try:
                    body = await request.json()
                except ValueError:
                    body = raw.decode("utf-8", "replace")
            self.requests.append((request.method, request.url.path, body))
            writing = request.method == "POST"
            if (problem := self._gate(request, writing=writing)) is not None:
                return problem
            rest = request.path_params["rest"].strip("/")
            if rest == "testsets" and not writing:
                return JSONResponse({"value": [t.body() for t in self.test_sets.values()]})
            if rest == "testruns" and not writing:
                return JSONResponse({"value": [self.run_body(r) for r in self.runs.values()]})
            if match := re.fullmatch(r"testsets/([^/]+)(/run)?", rest):
                test_set = self.test_sets.get(match.group(1))
                if test_set is None:
                    return _error(404, "TestSetNotFound", f"Test set {match.group(1)} was not found.")
                if match.group(2) and writing:
                    return self._start(test_set, body)
                if not match.group(2) and not writing:
                    return JSONResponse(test_set.body())
            if (match := re.fullmatch(r"testruns/([^/]+)(/snapshot)?", rest)) and not writing:
                run = self.runs.get(match.group(1))
                if run is None:
                    return _error(404, "NotFound", "Test run not found")
                if match.group(2):
                    name = re.sub(r"[^A-Za-z0-9_-]+", "_", self.agent_name)
                    content = snapshot_zip(
                        bot_id=self.bot_id, agent_name=self.agent_name, run_id=run.id, published=run.published
                    )
                    disposition = f'attachment; filename="{name}_{run.id}.zip"'
                    return Response(content, media_type="application/zip", headers={"Content-Disposition": disposition})
                body_now = self.run_body(run)
                run.reads += 1
                return JSONResponse(body_now)
            return _error(404 if not writing else 405, "NotFound", f"No operation {request.method} {rest}.")

        base = "/copilotstudio/environments/{env}/bots/{bot}/api/makerevaluation/{rest:path}"
        return Starlette(routes=[Route(base, handle, methods=["GET", "POST"])])


__all__ = ["API_VERSION", "FakeRun", "FakeStudioEval"]
