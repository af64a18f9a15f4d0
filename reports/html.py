"""The book report as one self-contained HTML file (no script, no external resources: it
opens offline and prints as it shows). Everything it shows is escaped; its policy
(``REPORT_CSP``: its inline style and nothing else) is in the file itself, so a copy saved
from the API or written by ``book-check`` keeps it."""

from __future__ import annotations

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from sudoku_batch.reports.book_report import BookReport

# What the file may do: show its own inline style. No script, no request of any kind.
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

_environment = Environment(
    loader=PackageLoader("reports", "templates"),
    autoescape=select_autoescape(["html", "j2"]),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render_report_html(report: BookReport) -> str:
    return _environment.get_template("book_report.html.j2").render(report=report, csp=REPORT_CSP)
