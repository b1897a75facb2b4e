"""Text that came from elsewhere, made safe for each kind of output: one sanitiser per kind.

An agent's answers, its tools' results, MCP tool descriptions, HTTP errors, judge reasoning, names
from test sets and agent files: none of it is ours, and every file or line the tool writes repeats
some of it. Each output kind has its one sanitiser here, and every writer of that kind uses it:

- the terminal and CI logs: :mod:`copilot_eval.untrusted.terminal` (control characters shown as
  escapes, Rich markup never read, one line where a line is expected, no workflow command);
- Markdown for GitHub: :mod:`copilot_eval.untrusted.markdown` (mentions, HTML, images, links,
  fences and the sticky comment's marker made inert, the text kept readable);
- XML 1.0 (JUnit): :mod:`copilot_eval.untrusted.xml` (characters XML 1.0 forbids replaced visibly);
- JSON and other UTF-8 files: :mod:`copilot_eval.untrusted.utf8` (lone surrogates and invalid
  bytes replaced by U+FFFD, so a file is always valid UTF-8).

HTML has its own escaping in ``reports/html_page.py``. A leaf package: it imports nothing of
copilot_eval, so every layer may use it.
"""

from __future__ import annotations

from copilot_eval.untrusted.markdown import md_code_block, md_inline, md_without_markers
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup, terminal_text
from copilot_eval.untrusted.utf8 import utf8_data, utf8_text
from copilot_eval.untrusted.xml import xml_safe_tree, xml_text

__all__ = [
    "md_code_block",
    "md_inline",
    "md_without_markers",
    "terminal_line",
    "terminal_markup",
    "terminal_text",
    "utf8_data",
    "utf8_text",
    "xml_safe_tree",
    "xml_text",
]
