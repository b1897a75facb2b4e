"""The models layer: loading a script without paying for the SDK import; the endpoint is a request handler.

Its public names are pinned in tests/test_public_names.py.
"""

from __future__ import annotations

import subprocess
import sys

import copilot_eval.models as models


def test_loading_a_script_does_not_import_the_sdk_or_the_server():
    code = (
        "import sys; from copilot_eval.models import ScriptedModel; "
        "ScriptedModel.from_dict({'rules': [{'turns': [{'text': 'x'}]}]}); "
        "print('copilot' in sys.modules, 'uvicorn' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_endpoint_is_a_copilot_request_handler():
    from copilot import CopilotRequestHandler

    endpoint = models.ScriptedModel([{"turns": [{"text": "x"}]}]).endpoint()
    assert isinstance(endpoint, CopilotRequestHandler)
