"""The fake evaluation API's bodies conform to the documented shapes, in every state and failure."""

from __future__ import annotations

import io
import zipfile

import httpx
import jsonschema
import pytest

from copilot_eval.testing import FakeStudioEval, FakeTestSet, LoopbackServer, case_result, metric_result, no_answer_case
from tests.studio_eval import api_shapes
from tests.studio_eval.studio_helpers import bike_shop_set


def check(body, schema) -> None:
    jsonschema.validate(body, schema)


def _base(fake: FakeStudioEval) -> str:
    return f"{fake.url}/copilotstudio/environments/{fake.environment_id}/bots/{fake.bot_id}/api/makerevaluation"


async def _call(
    http: httpx.AsyncClient, fake: FakeStudioEval, method: str, path: str, *, token: str | None = None, **kwargs
):
    headers = {"Authorization": f"Bearer {token or fake.token}"}
    params = kwargs.pop("params", {"api-version": "2024-10-01"})
    return await http.request(method, _base(fake) + path, headers=headers, params=params, **kwargs)


async def test_bodies_of_every_operation_and_every_run_state_have_the_documented_shape():
    sets = [
        bike_shop_set(),
        FakeTestSet("no answers", [no_answer_case("GeneralQuality", "CompareMeaning")], final_state="Failed"),
        FakeTestSet(
            "keywords",
            [
                case_result(
                    metric_result(
                        "AnyKeywordMatch",
                        "Pass",
                        "Matched 'deposit'.",
                        data={"matchedTermCount": 1, "totalTermCount": 2},
                    ),
                    metric_result(
                        "CapabilityUse", "Fail", "Missing a step.", data={"missingInvocationSteps": ["Lookup"]}
                    ),
                    state="Completed",
                ),
                case_result(
                    metric_result("ExactMatch", "Error", None, error="ExpectedOutputIsNullOrEmpty"), state="Error"
                ),
            ],
        ),
    ]
    fake = FakeStudioEval(sets)
    async with LoopbackServer(fake), httpx.AsyncClient() as http:
        listed = await _call(http, fake, "GET", "/testsets")
        check(listed.json(), api_shapes.listing(api_shapes.TEST_SET))
        check((await _call(http, fake, "GET", f"/testsets/{sets[0].id}")).json(), api_shapes.TEST_SET)
        states = set()
        for test_set in sets:
            started = await _call(
                http,
                fake,
                "POST",
                f"/testsets/{test_set.id}/run",
                json={"evaluationRunName": "n", "runOnPublishedBot": False},
            )
            check(started.json(), api_shapes.RUN_STATUS)
            run_id = started.json()["runId"]
            while True:
                body = (await _call(http, fake, "GET", f"/testruns/{run_id}")).json()
                check(body, api_shapes.TEST_RUN)
                states.add((body["state"], body["executionState"]))
                if body["state"] not in ("Queued", "InProgress"):
                    break
            snapshot = await _call(http, fake, "GET", f"/testruns/{run_id}/snapshot")
            assert snapshot.headers["content-type"] == "application/zip"
            assert snapshot.headers["content-disposition"].startswith("attachment; filename=")
            assert zipfile.ZipFile(io.BytesIO(snapshot.content)).namelist()
        check((await _call(http, fake, "GET", "/testruns")).json(), api_shapes.listing(api_shapes.TEST_RUN))
    assert {s for s, _ in states} == {"Queued", "InProgress", "Completed", "Failed"}
    assert ("InProgress", "EvaluatingRun") in states


@pytest.mark.parametrize(
    ("setup", "method", "path", "status", "code"),
    [
        ("no-token", "GET", "/testsets", 401, "Unauthorized"),
        ("read-only", "POST", "/testsets/{set}/run", 403, "InsufficientDelegatedPermissions"),
        ("plain", "GET", "/testsets/00000000-0000-0000-0000-000000000000", 404, "TestSetNotFound"),
        ("plain", "GET", "/testruns/00000000-0000-0000-0000-000000000000", 404, "NotFound"),
        ("plain", "GET", "/testruns/00000000-0000-0000-0000-000000000000/snapshot", 404, "NotFound"),
        ("no-version", "GET", "/testsets", 400, "InvalidApiVersion"),
        ("busy", "POST", "/testsets/{set}/run", 409, "TestRunInProgress"),
        ("limit", "POST", "/testsets/{set}/run", 429, "TooManyRequests"),
        ("published", "POST", "/testsets/{set}/run", 500, "InternalServerError"),
    ],
)
async def test_error_bodies_have_the_error_shape(setup, method, path, status, code):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set], daily_limit=0 if setup == "limit" else 20, published_fails=setup == "published")
    if setup == "busy":
        fake.start_elsewhere(test_set)
    async with LoopbackServer(fake), httpx.AsyncClient() as http:
        kwargs = {"json": {"runOnPublishedBot": setup == "published"}} if method == "POST" else {}
        if setup == "no-version":
            kwargs["params"] = {}
        token = {"no-token": "not-a-token", "read-only": fake.read_only_token}.get(setup)
        response = await _call(http, fake, method, path.format(set=test_set.id), token=token, **kwargs)
    assert response.status_code == status
    check(response.json(), api_shapes.ERROR_BODY)
    assert response.json()["error"]["code"] == code
    if status == 429:
        assert response.headers["retry-after"] == "3600"
    if status == 404 and "testruns" in path:
        assert response.json()["error"]["message"] == "Test run not found"
