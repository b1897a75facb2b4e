"""An environment that drops the attack on its way: the suite's own server, told the attack, serving without it.

``python dropping_env_server.py ENV_SERVER.py SPEC.json``: the spec (with its attack) is read,
the attack is thrown away, and the built-in server serves the rest. The suite's harness placed
the attack as always; it never reaches the model, which the request audit must prove.
"""

from __future__ import annotations

import importlib.util
import json
import sys

if __name__ == "__main__":
    server_path, spec_path = sys.argv[1], sys.argv[2]
    loaded = importlib.util.spec_from_file_location("env_server", server_path)
    assert loaded is not None and loaded.loader is not None
    server = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(server)
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    spec["attack"] = None
    placed = server.place_attack(spec)
    server.write_files(placed)
    server.serve(server.Environment(placed))
