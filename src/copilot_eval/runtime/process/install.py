"""`copilot-eval setup`: install the pinned runtime with npm, warm its assets, check its protocol.

Both long steps say what they do and how far they are: the folder each one fills is measured every
few seconds against the size it reaches (measured once per runtime version), so a first run on a
slow network shows megabytes growing instead of a silent wait.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.runtime.process.client_factory import start_client
from copilot_eval.runtime.process.errors import ProtocolMismatchError, RuntimeSetupError
from copilot_eval.runtime.process.home import asset_cache_dir, runtime_install_dir
from copilot_eval.runtime.process.versions import (
    EXPECTED_PROTOCOL_VERSION,
    RUNTIME_NPM_PACKAGE,
    RUNTIME_VERSION,
    executable_name,
    platform_package,
)

READY_MARKER = "copilot-eval-ready.json"
# What runtime 1.0.102 fills, measured with `du -m` on Linux x64: the npm install and the unpacked
# assets (423 MiB in all). Only the progress lines use them, as "of about N MiB".
INSTALL_MIB = 189
ASSETS_MIB = 235
PROGRESS_EVERY_S = 3.0

Progress = Callable[[str], None]
"""Where a step's progress lines go (one line each); ``None`` for silence."""


@dataclass
class SetupReport:
    """What setup did and where: shown to the user, and used by tests."""

    executable: Path
    asset_cache: Path
    installed: bool = False
    warmed: bool = False
    protocol_version: int | None = None
    steps: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _executable_in(install_dir: Path) -> Path:
    return install_dir / "node_modules" / "@github" / platform_package() / executable_name()


def on_stderr(line: str) -> None:
    """Progress for a person: one line on stderr (stdout stays the command's own output)."""
    print(f"copilot-eval: {line}", file=sys.stderr, flush=True)


def _folder_mib(folder: Path) -> float:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total / 2**20


def _watched(
    command: list[str],
    folder: Path,
    doing: str,
    expected_mib: int,
    progress: Progress | None,
    *,
    timeout: float,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``command``, saying every few seconds how much of ``folder`` it has filled."""
    started = time.monotonic()
    if progress is not None:
        progress(f"{doing} (about {expected_mib} MiB, once) ...")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as process:
        reader: dict[str, Any] = {}

        def read() -> None:
            reader["out"], reader["err"] = process.communicate()

        thread = threading.Thread(target=read, daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(PROGRESS_EVERY_S)
            elapsed = time.monotonic() - started
            if elapsed > timeout:
                process.kill()
                thread.join()
                raise RuntimeSetupError(f"{doing}: no end after {timeout:.0f} s; run `copilot-eval setup` again")
            if thread.is_alive() and progress is not None:
                progress(f"{doing}: {_folder_mib(folder):.0f} of about {expected_mib} MiB, {elapsed:.0f} s")
    if progress is not None and process.returncode == 0:
        progress(f"{doing}: done, {_folder_mib(folder):.0f} MiB in {time.monotonic() - started:.1f} s")
    return subprocess.CompletedProcess(command, process.returncode, reader.get("out", ""), reader.get("err", ""))


def _npm_install(target: Path, steps: list[str], progress: Progress | None = None) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeSetupError(
            "npm was not found on PATH; install Node.js (which brings npm), or point "
            "COPILOT_CLI_PATH at an existing Copilot runtime executable"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    # Install into a scratch folder and rename it into place, so an interrupted install never
    # leaves a half-filled runtime folder that a later run would trust.
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    spec = f"{RUNTIME_NPM_PACKAGE}@{RUNTIME_VERSION}"
    command = [npm, "install", "--prefix", str(scratch), "--no-audit", "--no-fund", "--no-save", spec]
    try:
        done = _watched(command, scratch, f"installing {spec} with npm", INSTALL_MIB, progress, timeout=600)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-8:]
            raise RuntimeSetupError(
                f"`npm install {spec}` failed (exit {done.returncode}):\n"
                + "\n".join(tail)
                + "\nCheck that the npm registry is reachable, then run `copilot-eval setup` again."
            )
        if not _executable_in(scratch).is_file():
            raise RuntimeSetupError(
                f"`npm install {spec}` finished but {_executable_in(scratch)} is missing; "
                f"the platform package @github/{platform_package()} may not exist for this machine"
            )
        if target.exists():
            shutil.rmtree(target)
        scratch.rename(target)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch, ignore_errors=True)
    steps.append(f"installed {spec} with npm into {target}")


def _warm_assets(executable: Path, steps: list[str], progress: Progress | None = None) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(asset_cache_dir()))
    done = _watched(
        [str(executable), "--version"],
        asset_cache_dir(),
        "unpacking the runtime's assets",
        ASSETS_MIB,
        progress,
        timeout=120,
        env=env,
    )
    if done.returncode != 0:
        raise RuntimeSetupError(f"{executable} --version failed (exit {done.returncode}): {done.stderr.strip()[-400:]}")
    steps.append(f"unpacked runtime assets into {asset_cache_dir()} ({done.stdout.strip().splitlines()[0]})")


async def _protocol_version(executable: Path) -> int:
    client = await start_client(executable)
    try:
        status = await client.get_status()
        return int(status.protocol_version)
    finally:
        await client.stop()


def check_protocol(executable: Path) -> int:
    """Start the runtime once and compare its protocol version with the pinned SDK's."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        version = asyncio.run(_protocol_version(executable))
    else:
        # Called from async code (first use inside a test or a run): check on a private loop.
        with ThreadPoolExecutor(max_workers=1) as executor:
            version = executor.submit(asyncio.run, _protocol_version(executable)).result()
    if version != EXPECTED_PROTOCOL_VERSION:
        raise ProtocolMismatchError(
            f"the runtime at {executable} speaks protocol {version}, the installed SDK speaks "
            f"{EXPECTED_PROTOCOL_VERSION}; run `copilot-eval setup` to install runtime {RUNTIME_VERSION}"
        )
    return version


def install_runtime(
    *, force: bool = False, executable: Path | None = None, progress: Progress | None = None
) -> SetupReport:
    """Install (when needed), warm and check the runtime; fast and silent when already done.

    ``progress`` receives a line as each long step starts, every few seconds while it runs, and as it ends.
    """
    started = time.perf_counter()
    install_dir = runtime_install_dir(RUNTIME_VERSION)
    target = executable or _executable_in(install_dir)
    marker = (install_dir if executable is None else asset_cache_dir()) / READY_MARKER
    report = SetupReport(executable=target, asset_cache=asset_cache_dir())
    if not force and marker.is_file() and target.is_file():
        recorded = json.loads(marker.read_text())
        if recorded.get("executable") == str(target):
            report.protocol_version = recorded.get("protocol_version")
            report.steps.append(f"runtime {RUNTIME_VERSION} already set up at {target}")
            report.seconds = time.perf_counter() - started
            return report
    if executable is None and (force or not target.is_file()):
        _npm_install(install_dir, report.steps, progress)
        report.installed = True
    _warm_assets(target, report.steps, progress)
    report.warmed = True
    report.protocol_version = check_protocol(target)
    report.steps.append(f"protocol version {report.protocol_version} matches the SDK")
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"executable": str(target), "protocol_version": report.protocol_version}))
    report.seconds = time.perf_counter() - started
    return report
