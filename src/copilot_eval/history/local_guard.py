"""What keeps ``copilot-eval serve`` a local tool: the Host and Origin it answers, its session-bound form tokens,
and the headers that keep a run folder's own files away from the dashboard.

- **Host**: the dashboard answers only requests addressed to it, ``127.0.0.1:PORT`` or
  ``localhost:PORT``. A page of another site that has its name rebound to 127.0.0.1 (DNS
  rebinding) sends its own name as Host, and is refused (421) before anything is read.
- **Origin** of a write: a POST that states an Origin must state the dashboard's own; a form of
  another site, or of a sandboxed page (Origin ``null``), is refused (403).
- **Form tokens**: the review page's token is an HMAC of the browser session (an HttpOnly,
  SameSite=Strict cookie the server sets) and the run, under a key the server draws at start. A
  token read anywhere else is worthless without that cookie, and fits only its own run's form.
- **Run folders' own files** (report.html, evidence; an ingested CI artifact is someone else's)
  are served with ``Content-Security-Policy: sandbox allow-scripts``: their scripts run in an
  opaque origin, so they can read neither the dashboard's pages nor its cookie, cannot submit
  forms, and whatever they send carries ``Origin: null``. Every response says ``nosniff``; the
  dashboard's own pages may not be framed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import OrderedDict
from http.cookies import CookieError, SimpleCookie

#: What a run folder's file is served with (see the module docstring).
SANDBOX_POLICY = "sandbox allow-scripts"
#: What the dashboard's own pages are served with: never inside another page's frame.
OWN_PAGE_POLICY = "frame-ancestors 'none'"
#: How many browser sessions a server remembers (the oldest is forgotten first).
MAX_SESSIONS = 1000


class LocalGuard:
    """The Host, Origin and session checks of one dashboard server on one loopback port."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})
        self.origins = frozenset(f"http://{host}" for host in self.hosts)
        self.cookie = f"copilot_eval_session_{port}"  # cookies are not kept apart by port: the name is
        self._key = secrets.token_bytes(32)
        self._sessions: OrderedDict[str, None] = OrderedDict()

    def host_refusal(self, host: str | None) -> str | None:
        """Why a request with this Host header is refused, or None when it is addressed to this dashboard."""
        if host is not None and host.strip().lower() in self.hosts:
            return None
        return (
            f"copilot-eval serve answers only http://127.0.0.1:{self.port}/ (or localhost:{self.port}); "
            f"this request was addressed to Host {host!r}. Open the dashboard by that address; another "
            "name pointing at this machine (DNS rebinding) may not read it.\n"
        )

    def origin_refusal(self, origin: str | None) -> str | None:
        """Why a write with this Origin header is refused, or None (no Origin, or the dashboard's own)."""
        if origin is None or origin.strip().lower() in self.origins:
            return None
        return (
            f"copilot-eval serve takes verdicts only from its own pages (Origin http://127.0.0.1:{self.port}); "
            f"this one came from Origin {origin!r} and was not stored.\n"
        )

    def session_of(self, cookie_header: str | None) -> str | None:
        """The known browser session the request's cookie names, or None."""
        if not cookie_header:
            return None
        try:
            jar = SimpleCookie(cookie_header)
        except CookieError:
            return None
        morsel = jar.get(self.cookie)
        return morsel.value if morsel is not None and morsel.value in self._sessions else None

    def new_session(self) -> tuple[str, str]:
        """A new browser session and the Set-Cookie header value that gives it to the browser."""
        session = secrets.token_urlsafe(24)
        self._sessions[session] = None
        while len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)
        return session, f"{self.cookie}={session}; Path=/; HttpOnly; SameSite=Strict"

    def form_token(self, session: str, run_id: str) -> str:
        """The token of run ``run_id``'s review form for this browser session."""
        return hmac.new(self._key, f"{session}\0{run_id}".encode(), hashlib.sha256).hexdigest()

    def token_fits(self, session: str | None, run_id: str, token: str) -> bool:
        """Whether ``token`` is the one this server gave this session for this run's form."""
        if session is None:
            return False
        return secrets.compare_digest(token.encode(), self.form_token(session, run_id).encode())


__all__ = ["MAX_SESSIONS", "OWN_PAGE_POLICY", "SANDBOX_POLICY", "LocalGuard"]
