"""Each output kind's one sanitiser keeps hostile text readable and inert, whatever the text (no runtime)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from copilot_eval.untrusted import (
    md_code_block,
    md_inline,
    md_without_markers,
    terminal_line,
    terminal_markup,
    terminal_text,
    utf8_data,
    utf8_text,
    xml_safe_tree,
    xml_text,
)

HOSTILE = (
    "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x00 [/x] [bold]b[/bold]\n::error::forged\r\n  ::add-mask::x ##[warning]w "
    "@octocat #12 <img src=http://evil.invalid/p.png> </details> ```js\n<!-- copilot-eval:gate --> "
    "![i](http://evil.invalid/i.png) [click](javascript:alert(1)) a|b \\| \ud800 \u202eevil"
)
# Any text at all, with the characters these sanitisers care about made likely.
_PIECES = [*"\x1b\x00\x07\n\r\t[]/\\:#@<>&`|!()*_~\u202e\ud800", "::", "##[", "```", "<!--", "[/x]"]
texts = st.lists(st.one_of(st.characters(codec=None), st.sampled_from(_PIECES)), max_size=30).map("".join)
_WORKFLOW_COMMAND = re.compile(r"^[ \t]*::|##\[", re.MULTILINE)
_TERMINAL_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


# -- terminal ------------------------------------------------------------------------------------
def test_terminal_text_shows_every_control_character_as_an_escape_and_forges_no_command() -> None:
    shown = terminal_text(HOSTILE)
    assert "\\x1b]0;pwned\\x07" in shown and "\\x00" in shown and "\\u202e" in shown and "\\ud800" in shown
    assert "\n" not in shown and not _WORKFLOW_COMMAND.search(shown)
    assert "::error::forged" in shown  # mid-line (after the shown line break) it is no command, and is kept


def test_terminal_text_keeps_lines_when_asked_but_no_line_is_a_command() -> None:
    shown = terminal_text("ok\n::error file=a::x\n  ::warning::y", one_line=False)
    assert shown.splitlines() == ["ok", "\\::error file=a::x", "  \\::warning::y"]


@settings(max_examples=300, deadline=None)
@given(texts, st.booleans())
def test_terminal_text_never_holds_a_control_character_or_a_command(text: str, one_line: bool) -> None:
    shown = terminal_text(text, one_line=one_line)
    assert not _TERMINAL_CONTROL.search(shown)
    assert not _WORKFLOW_COMMAND.search(shown)
    assert not one_line or "\n" not in shown


@settings(max_examples=300, deadline=None)
@given(texts)
def test_terminal_markup_is_never_read_as_markup(text: str) -> None:
    from rich.text import Text

    # Inside our own markup (right against our next tag), the untrusted part comes out exactly as
    # terminal_text shows it: no tag of its own, none of ours escaped, no crash.
    # (Rich reads a backslash before a '[' that opens no tag as an escape: only backslashes may differ.)
    rendered = Text.from_markup(f"[green]ok[/]{terminal_markup(text)}[red]end[/]")
    assert rendered.plain.replace("\\", "") == f"ok{terminal_text(text)}end".replace("\\", "")
    assert [span.style for span in rendered.spans] == ["green", "red"]


def test_terminal_line_is_rich_text_that_rich_prints_as_written() -> None:
    import io

    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=400, color_system=None).print(terminal_line("[/x] \x1b[2J done"))
    assert out.getvalue() == "[/x] \\x1b[2J done\n"


def test_terminal_text_cuts_before_escaping() -> None:
    assert terminal_text("abcdef", limit=4) == "abc…"
    assert terminal_text(None) == ""


# -- Markdown ------------------------------------------------------------------------------------
_MD = MarkdownIt("commonmark").enable("table")


def _inert(markdown: str) -> None:
    """Rendered as CommonMark with tables: no HTML, link, image or code of the text's own making."""
    tokens = _MD.parse(markdown)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_block", "html_inline", "link_open", "image", "fence", "code_block", "code_inline"}


def test_md_inline_neutralises_mentions_html_images_links_fences_and_the_marker() -> None:
    shown = md_inline(HOSTILE)
    _inert(f"| a |\n| --- |\n| {shown} |")
    _inert(shown)
    assert "<" not in shown and "\n" not in shown and "<!-- copilot-eval" not in shown
    assert not re.search(r"[@#](?=\w)", shown)  # '@' and '#' are followed by a zero-width space
    html = _MD.render(shown)
    for words in ("pwned", "@\u200boctocat", "&lt;img src=http://evil.invalid/p.png&gt;", "&lt;/details&gt;", "```js"):
        assert words in html  # readable as written


@settings(max_examples=300, deadline=None)
@given(texts)
def test_md_inline_of_any_text_stays_one_inert_table_cell(text: str) -> None:
    shown = md_inline(text)
    assert "\n" not in shown and "<" not in shown
    table = f"| a | b |\n| --- | --- |\n| {shown} | end |"
    _inert(table)
    rows = [t for t in _MD.parse(table) if t.type == "td_open"]
    assert len(rows) == 2  # the text stayed in its own cell


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, max_size=5))
def test_md_code_block_cannot_be_closed_by_its_lines(lines: list[str]) -> None:
    block = md_code_block([*lines, "```", "````"], info="diff")
    tokens = [t for t in _MD.parse("\n".join(block) + "\n\nafter\n") if t.type == "fence"]
    assert len(tokens) == 1 and tokens[0].info == "diff"


def test_md_without_markers_leaves_no_marker_in_a_document() -> None:
    text = md_without_markers("x <!-- copilot-eval:gate --> y\n<!--copilot-eval:k:abc-->")
    assert "<!-- copilot-eval" not in text and "<!--copilot-eval" not in text and "copilot-eval:gate" in text


# -- XML -----------------------------------------------------------------------------------------
def test_xml_text_replaces_forbidden_characters_visibly() -> None:
    assert xml_text("a\x00b\x1bc\ud800d\ufffe\tok") == "a\\x00b\\x1bc\\ud800d\\ufffe\tok"


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_xml_safe_tree_always_parses_back(text: str, attribute: str) -> None:
    root = ET.Element("testsuite", name=attribute)
    ET.SubElement(root, "failure", message=attribute).text = text
    serialised = ET.tostring(xml_safe_tree(root), encoding="unicode")
    parsed = ET.fromstring(serialised.encode("utf-8"))
    assert parsed.get("name") == xml_text(attribute)
    shown = xml_text(text).replace("\r\n", "\n").replace("\r", "\n")  # a parser normalises line ends
    assert (parsed.find("failure").text or "") == shown  # type: ignore[union-attr]


# -- UTF-8 / JSON ----------------------------------------------------------------------------------
def test_utf8_text_replaces_lone_surrogates_and_keeps_the_rest() -> None:
    assert utf8_text("Hi \ud800 there \U0001f600") == "Hi \ufffd there \U0001f600"
    assert utf8_text(b"Caf\xe9 OK") == "Caf\ufffd OK"
    assert utf8_data({"k\udc00": ["A\ud800", 1, None]}) == {"k\ufffd": ["A\ufffd", 1, None]}


@settings(max_examples=300, deadline=None)
@given(texts)
def test_utf8_text_always_encodes_and_changes_nothing_valid(text: str) -> None:
    safe = utf8_text(text)
    json.loads(json.dumps(safe, ensure_ascii=False).encode("utf-8"))
    assert len(safe) <= len(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    assert safe == text
