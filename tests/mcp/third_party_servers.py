"""Third-party MCP servers for tests: the PyPI reference servers and the npm reference servers.

The PyPI servers (``mcp-server-time``, ``mcp-server-git``) come with the ``dev`` extra. The npm
servers (``server-filesystem``, and ``server-everything``, the MCP project's server exercising
every feature of the protocol) are installed on first use into the tool's cache
(``<cache root>/test-servers``), each at a pinned version, with npm; without npm the tests that
need them skip and say why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from copilot_eval import ScriptedModel
from copilot_eval.cache_root import cache_root

FILESYSTEM_PACKAGE = "@modelcontextprotocol/server-filesystem"
FILESYSTEM_VERSION = "2026.8.31"
EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything"
EVERYTHING_VERSION = "2026.8.31"


WARM_START_S = 180.0


def _reading(pid: int, fifo: Path) -> bool:
    """Whether some thread of the process is blocked reading ``fifo``: it is ready for input."""
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            fields = (task / "syscall").read_text().split()
            reading = len(fields) > 1 and fields[0] == "0"  # read(fd, ...) on x86-64 and arm64 alike
            if reading and os.readlink(f"/proc/{pid}/fd/{int(fields[1], 16)}") == str(fifo):
                return True
        except (OSError, ValueError):
            continue
    return False


@contextmanager
def warm_server(command: list[str], folder: Path) -> Iterator[list[str]]:
    """Start a Python MCP server before the session; yield the command that connects to it.

    Runtime 1.0.102 gives a stdio server a few seconds to answer its first handshake; a server
    that is still importing then receives a legacy ``initialize`` that ``mcp>=2.3`` refuses
    (``protocol_version_mismatch``). On a busy machine importing ``mcp`` alone takes longer than
    that, so the test starts the real server first and hands the runtime a relay (``cat`` over
    two FIFOs) to its stdin and stdout. The runtime then talks to the real server, already warm.
    """
    to_server, from_server = folder / "to-server.fifo", folder / "from-server.fifo"
    os.mkfifo(to_server)
    os.mkfifo(from_server)
    # O_RDWR opens of a FIFO do not block waiting for the other side.
    stdin, stdout = os.open(to_server, os.O_RDWR), os.open(from_server, os.O_RDWR)
    process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL)
    os.close(stdin)
    os.close(stdout)
    try:
        deadline = time.monotonic() + WARM_START_S
        while not _reading(process.pid, to_server):
            if process.poll() is not None:
                pytest.fail(f"{command[0]} exited with {process.returncode} before it was ready")
            if time.monotonic() > deadline:
                pytest.fail(f"{command[0]} was not ready to read its input after {WARM_START_S:g} s")
            time.sleep(0.1)
        yield ["/bin/sh", "-c", 'cat "$1" & exec cat > "$0"', str(to_server), str(from_server)]
    finally:
        process.kill()
        process.wait()


def scripted(*turns: dict) -> ScriptedModel:
    """A ScriptedModel answering any prompt with these turns."""
    return ScriptedModel.from_dict({"rules": [{"turns": list(turns)}]})


def console_script(name: str) -> str:
    """The console script of a Python MCP server installed next to this interpreter."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]' installs it")
    return str(path)


def _npm_server(package: str, version: str) -> list[str]:
    """The command line of a pinned npm MCP server, installing it once into the cache."""
    npm = shutil.which("npm")
    node = shutil.which("node")
    if npm is None or node is None:
        pytest.skip(f"npm and node are needed to install {package} (apt-get install npm)")
    short = package.rsplit("/", 1)[-1]
    folder = cache_root() / "test-servers" / f"{short}-{version}"
    entry = folder / "node_modules" / Path(*package.split("/")) / "dist" / "index.js"
    if not entry.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), f"{package}@{version}"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "npm_config_loglevel": "error"},
        )
        if done.returncode != 0 or not entry.is_file():
            pytest.fail(f"npm install {package}@{version} failed: {done.stderr[-2000:]}")
    return [node, str(entry)]


def filesystem_server() -> list[str]:
    """The command line of the npm filesystem server, installing it once into the cache."""
    return _npm_server(FILESYSTEM_PACKAGE, FILESYSTEM_VERSION)


def everything_server() -> list[str]:
    """The command line of ``server-everything`` over stdio, installing it once into the cache.

    Its tools, as the model sees them under a server named ``ev``: ``ev-echo``, ``ev-get-sum``,
    ``ev-get-env`` (its whole process environment), ``ev-get-tiny-image``, ``ev-get-annotated-message``,
    ``ev-get-resource-links``, ``ev-get-resource-reference``, ``ev-get-structured-content``,
    ``ev-gzip-file-as-resource``, ``ev-trigger-long-running-operation`` (progress),
    ``ev-toggle-simulated-logging``, ``ev-toggle-subscriber-updates``, ``ev-simulate-research-query``,
    ``ev-trigger-sampling-request``, and, when the session can answer elicitations (every run of
    copilot-eval), ``ev-trigger-elicitation-request`` and ``ev-trigger-url-elicitation``.
    """
    return [*_npm_server(EVERYTHING_PACKAGE, EVERYTHING_VERSION), "stdio"]


def everything_mcp_config(name: str = "ev") -> dict[str, dict[str, object]]:
    """An agent's ``mcp_servers`` entry for server-everything under ``name``."""
    command = everything_server()
    return {name: {"command": command[0], "args": command[1:], "timeout": 60000}}
