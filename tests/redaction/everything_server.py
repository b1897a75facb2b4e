"""``@modelcontextprotocol/server-everything`` for the canary tests, installed on first use.

The MCP project's own server that exercises every feature of the protocol; its ``get-env`` tool
returns the server's whole environment, which is what these tests need. Installed with npm into
the tool's cache (``<cache root>/test-servers``) at a pinned version, the way
``tests/mcp/third_party_servers.py`` installs the filesystem server (same layout, so both helpers
share one install); without npm the tests that need it skip and say why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from copilot_eval.cache_root import cache_root

EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything"
EVERYTHING_VERSION = "2026.8.31"  # the newest release on npm when pinned (the filesystem server's too)


def everything_server() -> list[str]:
    """The command line of server-everything over stdio, installing it once into the cache."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        pytest.skip(f"npm and node are needed to install {EVERYTHING_PACKAGE} (apt-get install npm)")
    folder = cache_root() / "test-servers" / f"server-everything-{EVERYTHING_VERSION}"
    entry = folder / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if not entry.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(folder),
                f"{EVERYTHING_PACKAGE}@{EVERYTHING_VERSION}",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "npm_config_loglevel": "error"},
        )
        if done.returncode != 0 or not entry.is_file():
            pytest.fail(f"npm install {EVERYTHING_PACKAGE}@{EVERYTHING_VERSION} failed: {done.stderr[-2000:]}")
    return [node, str(Path(entry)), "stdio"]
