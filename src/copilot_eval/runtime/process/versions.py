"""The pinned runtime: the SDK and the runtime speak a versioned protocol, so both are pinned."""

from __future__ import annotations

import platform
import sys

RUNTIME_NPM_PACKAGE = "@github/copilot"
RUNTIME_VERSION = "1.0.102"
"""npm version of the Copilot runtime installed by `copilot-eval setup` (measured to work with
github-copilot-sdk 1.0.27: both speak protocol version 3)."""

EXPECTED_PROTOCOL_VERSION = 3

_PLATFORM_PACKAGES = {
    ("linux", "x86_64"): "copilot-linux-x64",
    ("linux", "aarch64"): "copilot-linux-arm64",
    ("linux", "arm64"): "copilot-linux-arm64",
    ("darwin", "x86_64"): "copilot-darwin-x64",
    ("darwin", "arm64"): "copilot-darwin-arm64",
    ("win32", "AMD64"): "copilot-win32-x64",
    ("win32", "ARM64"): "copilot-win32-arm64",
}


def platform_package() -> str:
    """Name (without scope) of the npm package that holds this platform's native runtime."""
    key = (sys.platform, platform.machine())
    try:
        return _PLATFORM_PACKAGES[key]
    except KeyError:
        raise RuntimeError(f"no Copilot runtime build is known for platform {key}") from None


def executable_name() -> str:
    """File name of the native runtime executable inside its npm package."""
    return "copilot.exe" if sys.platform == "win32" else "copilot"
