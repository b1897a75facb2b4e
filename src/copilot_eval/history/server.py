"""``copilot-eval serve``: the dashboard on a loopback port, and every stored run's report behind it.

Routes: ``/`` the dashboard (``?series=N`` picks a series), ``/trends.json`` the documented
trends JSON, ``/runs/ID/report.html`` a run's report and ``/runs/ID/PATH`` the files it links to
(evidence), served from the run folder recorded in the history; ``/runs/ID/review`` the run's
review queue, to which a person's verdict is posted (the one route that writes: a verdict, with
who gave it, stored in the history; only forms carrying the token this server gave the same
browser session are taken). A folder without report.html gets its report written on the fly; a
folder that is not on this machine (a team database fed by CI) gets a page saying where it was,
with the CI run's link. Nothing outside a run's folder is served. The server listens on 127.0.0.1
only, answers only requests addressed to it, and serves a run folder's own files sandboxed
(``local_guard``: Host, Origin, session-bound tokens, the headers); it reads the database afresh for
every page.
"""

from __future__ import annotations

import json
import mimetypes
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from copilot_eval.history.dashboard import dashboard_html
from copilot_eval.history.human_verdicts import SOURCE_DASHBOARD, HumanLabel, add_verdicts, given_verdicts, rescore
from copilot_eval.history.json_forms import trends_document
from copilot_eval.history.lazy_tables import table
from copilot_eval.history.local_guard import OWN_PAGE_POLICY, SANDBOX_POLICY, LocalGuard
from copilot_eval.history.queries import load_series, series_names
from copilot_eval.history.review_page import review_page_html
from copilot_eval.history.review_queue import review_queue
from copilot_eval.history.store import HistoryStore
from copilot_eval.history.trends import series_trends
from copilot_eval.redaction import redact_bytes
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.html_page import esc, page, safe_href
from copilot_eval.reports.html_page import link as html_link
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.safe_paths import OutsideFolder, inside_folder

# SQLAlchemy is imported inside the one query that needs it, as in the rest of the history package (see lazy_tables).

DEFAULT_PORT = 8737
DEFAULT_WINDOW = 50
LOOPBACK = "127.0.0.1"


def run_folder_of(run: dict[str, Any]) -> Path | None:
    """Where a run's files are on this machine: its run folder, else the folder of its report; None when gone."""
    for stored in (run.get("run_folder"), run.get("report_path")):
        if stored:
            path = Path(stored)
            folder = path if path.is_dir() else path.parent
            if (folder / LAYOUT.run_json).is_file() or (path.is_file() and path.suffix == ".html"):
                return folder
    return None


def review_link(run: dict[str, Any]) -> str | None:
    """The dashboard's link to a run's review queue, when its folder is on this machine."""
    folder = run_folder_of(run)
    return f"/runs/{run['id']}/review" if folder is not None and (folder / LAYOUT.run_json).is_file() else None


def run_link(run: dict[str, Any]) -> str | None:
    """The dashboard's link for a run: its report when its folder is here, else the CI run, else none."""
    if run_folder_of(run) is not None:
        return f"/runs/{run['id']}/report.html"
    ci = run.get("ci_run_url")
    return ci if safe_href(ci) is not None else None  # a stored CI link is someone's text: http(s) only


class _Handler(BaseHTTPRequestHandler):
    server: HistoryServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a dashboard in a terminal should not print a line per request."""

    def _refused(self, *, write: bool) -> bool:
        """Refuse (and answer) a request not addressed to this dashboard, or a write from another origin."""
        guard = self.server.guard
        why = guard.host_refusal(self.headers.get("Host"))
        if why is not None:
            self._send(HTTPStatus.MISDIRECTED_REQUEST, "text/plain; charset=utf-8", why.encode("utf-8"))
            return True
        why = guard.origin_refusal(self.headers.get("Origin")) if write else None
        if why is not None:
            self._send(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", why.encode("utf-8"))
            return True
        return False

    def do_GET(self) -> None:
        """Answer one GET request (see the module docstring for the routes)."""
        if self._refused(write=False):
            return
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        try:
            if parts.path == "/":
                self._send(HTTPStatus.OK, "text/html; charset=utf-8", self.server.dashboard(query).encode("utf-8"))
            elif parts.path == "/trends.json":
                data = json.dumps(self.server.trends(query), indent=2, ensure_ascii=False).encode("utf-8")
                self._send(HTTPStatus.OK, "application/json", data)
            elif parts.path.startswith("/runs/"):
                self._run_file(unquote(parts.path).removeprefix("/runs/"))
            else:
                self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found")
        except Exception as exc:  # a page must say what failed, and the server must keep serving
            message = f"copilot-eval serve: {type(exc).__name__}: {exc}"
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8", message.encode("utf-8"))

    def do_POST(self) -> None:
        """Take a person's verdict posted from a review page (``/runs/ID/review``) and show the page again."""
        if self._refused(write=True):
            return
        parts = urlsplit(self.path)
        run_id, _, rest = unquote(parts.path).removeprefix("/runs/").partition("/")
        try:
            if not parts.path.startswith("/runs/") or rest != "review":
                self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found")
                return
            length = min(int(self.headers.get("Content-Length") or 0), 64 * 1024)
            form = {key: values[0] for key, values in parse_qs(self.rfile.read(length).decode("utf-8")).items()}
            session = self.server.guard.session_of(self.headers.get("Cookie"))
            if not self.server.guard.token_fits(session, run_id, form.get("token", "")):
                refusal = (
                    "not stored: not a form this dashboard served to this browser session for this run; "
                    "open the review page again and give the verdict there\n"
                )
                self._send(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", refusal.encode("utf-8"))
                return
            run = self.server.run(run_id)
            if run is None:
                self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", f"no run {run_id}".encode())
                return
            label = HumanLabel(
                form.get("case", ""),
                form.get("verdict", ""),
                form.get("reviewer", ""),
                note=form.get("note") or None,
                repeat_index=int(form.get("repeat", "0") or 0),
                source=SOURCE_DASHBOARD,
            )
            add_verdicts(self.server.store, run["id"], [label])
            self.server.last_reviewer = label.reviewer
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", f"/runs/{run['id']}/review")
            self.send_header("Content-Length", "0")
            self.end_headers()
        except ValueError as exc:  # a verdict that is not pass or fail, no reviewer, a case the run lacks
            self._send(HTTPStatus.BAD_REQUEST, "text/plain; charset=utf-8", f"not stored: {exc}".encode())
        except Exception as exc:  # the server must keep serving
            message = f"copilot-eval serve: {type(exc).__name__}: {exc}"
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8", message.encode("utf-8"))

    def _review(self, run: dict[str, Any], folder: Path) -> None:
        items = review_queue(read_run_folder(folder), given_verdicts(self.server.store, run["id"]))
        guard = self.server.guard
        session, cookie = guard.session_of(self.headers.get("Cookie")), None
        if session is None:
            session, cookie = guard.new_session()
        html = review_page_html(
            run,
            items,
            rescore(self.server.store, run["id"]),
            token=guard.form_token(session, str(run["id"])),
            reviewer=self.server.last_reviewer,
        )
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", html.encode("utf-8"), cookie=cookie)

    def _run_file(self, rest: str) -> None:
        run_id, _, relative = rest.partition("/")
        run = self.server.run(run_id)
        if run is None:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", f"no run {run_id} in the history".encode())
            return
        folder = run_folder_of(run)
        relative = relative or LAYOUT.report_html
        if folder is None:
            self._send(HTTPStatus.NOT_FOUND, "text/html; charset=utf-8", _missing_page(run).encode("utf-8"))
            return
        if relative == "review" and (folder / LAYOUT.run_json).is_file():
            self._review(run, folder)
            return
        try:  # the one rule for a path from a folder: inside it, links followed, or refused
            target = inside_folder(folder, relative)
        except OutsideFolder:
            self._send(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", b"outside the run folder")
            return
        if relative == LAYOUT.report_html and run.get("report_path"):
            try:  # the stored report's path is served only while it lies in the run's folder
                stored = inside_folder(folder, run["report_path"])
            except OutsideFolder:
                stored = None
            if stored is not None and stored.is_file():
                target = stored
        if target.is_file():
            kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
            self._send(HTTPStatus.OK, kind, target.read_bytes(), sandbox=True)
        elif relative == LAYOUT.report_html and (folder / LAYOUT.run_json).is_file():
            html = run_report_html(read_run_folder(folder)).encode()
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", html, sandbox=True)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", f"{relative}: not in the run folder".encode())

    def _send(
        self, status: HTTPStatus, kind: str, body: bytes, *, sandbox: bool = False, cookie: str | None = None
    ) -> None:
        """Send one response; ``sandbox`` for a run folder's own files (see ``local_guard``)."""
        body = redact_bytes(body)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", SANDBOX_POLICY if sandbox else OWN_PAGE_POLICY)
        if not sandbox:
            self.send_header("X-Frame-Options", "DENY")
        if cookie is not None:
            self.send_header("Set-Cookie", cookie)
        self.end_headers()
        self.wfile.write(body)


def _missing_page(run: dict[str, Any]) -> str:
    where = run.get("run_folder") or run.get("report_path")
    ci = run.get("ci_run_url")
    link = f"<p>The CI run that made it: {html_link(ci)}</p>" if ci else ""
    body = f"<p>The run folder of run {run['id']} is not on this machine (it was at {esc(where)}).</p>{link}"
    return page(f"run {run['id']}: folder not here", "", body)


class HistoryServer(ThreadingHTTPServer):
    """The dashboard's HTTP server over one history store."""

    daemon_threads = True

    def __init__(self, store: HistoryStore, *, port: int = DEFAULT_PORT, window: int = DEFAULT_WINDOW) -> None:
        super().__init__((LOOPBACK, port), _Handler)
        self.store, self.window = store, window
        # A verdict is taken only from a form this server served to the same browser session (local_guard).
        self.guard = LocalGuard(self.server_address[1])
        self.last_reviewer = ""

    @property
    def url(self) -> str:
        """The dashboard's address."""
        return f"http://{LOOPBACK}:{self.server_address[1]}/"

    def _names(self) -> list[tuple[str, str | None]]:
        return series_names(self.store)

    def dashboard(self, query: dict[str, list[str]]) -> str:
        """The dashboard page for the series the query names (the most recent one by default)."""
        names = self._names()
        current = _index(query, len(names))
        series = None
        if names:
            name, agent = names[current]
            series = series_trends(load_series(self.store, name, agent, last=self.window, details=True))
        return dashboard_html(
            series,
            names=names,
            current=current,
            database=self.store.location.display,
            link=run_link,
            review=review_link,
        )

    def trends(self, query: dict[str, list[str]]) -> dict[str, Any]:
        """The trends JSON of every series, or of the one ``?series=N`` names."""
        names = self._names()
        if "series" in query and names:
            names = [names[_index(query, len(names))]]
        found = [series_trends(load_series(self.store, n, a, last=self.window)) for n, a in names]
        return trends_document(found, database=self.store.location.display, last=self.window)

    def run(self, run_id: str) -> dict[str, Any] | None:
        """The stored run with this id, or None."""
        from sqlalchemy import select

        if not run_id.isdigit():
            return None
        runs = table("Run")
        with self.store.engine.connect() as connection:
            row = connection.execute(select(runs).where(runs.c.id == int(run_id))).mappings().first()
        return dict(row) if row is not None else None

    def serve_in_thread(self) -> threading.Thread:
        """Serve from a background thread (tests, embedding); stop with ``shutdown()``."""
        thread = threading.Thread(target=self.serve_forever, name="copilot-eval-serve", daemon=True)
        thread.start()
        return thread


def _index(query: dict[str, list[str]], count: int) -> int:
    raw = (query.get("series") or ["0"])[0]
    return int(raw) if raw.isdigit() and int(raw) < count else 0


__all__ = ["DEFAULT_PORT", "DEFAULT_WINDOW", "LOOPBACK", "HistoryServer", "review_link", "run_folder_of", "run_link"]
