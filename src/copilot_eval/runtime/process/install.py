"""`copilot-eval setup`: install the pinned runtime with npm, warm its assets, check its protocol."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

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


def _npm_install(target: Path, steps: list[str]) -> None:
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
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
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


def _warm_assets(executable: Path, steps: list[str]) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(asset_cache_dir()))
    done = subprocess.run(
        [str(executable), "--version"], capture_output=True, text=True, env=env, timeout=120, check=False
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
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

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


def install_runtime(*, force: bool = False, executable: Path | None = None) -> SetupReport:
    """Install (when needed), warm and check the runtime; fast and silent when already done."""
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
        _npm_install(install_dir, report.steps)
        report.installed = True
    _warm_assets(target, report.steps)
    report.warmed = True
    report.protocol_version = check_protocol(target)
    report.steps.append(f"protocol version {report.protocol_version} matches the SDK")
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"executable": str(target), "protocol_version": report.protocol_version}))
    report.seconds = time.perf_counter() - started
    return report
