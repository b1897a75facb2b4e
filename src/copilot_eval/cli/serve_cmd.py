"""`copilot-eval serve`: the history dashboard on http://127.0.0.1:PORT/, offline, until Ctrl-C.

Exit codes (``copilot_eval.exit_codes``): 0 stopped with Ctrl-C; 2 no history database, or the port is taken.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.history_cmd import HistoryOption, open_store
from copilot_eval.history.server import HistoryServer


def serve(
    history: HistoryOption = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port on 127.0.0.1 (0: any free port).")] = 8737,
    last: Annotated[int, typer.Option("--last", min=1, help="Runs shown per series (the newest N).")] = 50,
) -> None:
    """Serve the history dashboard: pass rate over time, limitation episodes, a case-by-run grid, each run's report."""
    with open_store(history, create=False) as store:
        try:
            server = HistoryServer(store, port=port, window=last)
        except OSError as exc:
            raise bad_input(f"--port {port}: {exc.strerror or exc}; choose another port (0 picks a free one)") from None
        typer.echo(f"history dashboard: {server.url} (database {store.location.display}; Ctrl-C stops it)")
        sys.stdout.flush()  # a supervising process reads the address before the first request
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()


def register(app: typer.Typer) -> None:
    """Add the `serve` command."""
    app.command(name="serve")(serve)
