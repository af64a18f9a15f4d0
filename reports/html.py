"""The book report as one self-contained HTML file (no script, no external resources: it
opens offline and prints as it shows)."""

from __future__ import annotations

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from reports.book_report import BookReport

_environment = Environment(
    loader=PackageLoader("reports", "templates"),
    autoescape=select_autoescape(["html", "j2"]),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render_report_html(report: BookReport) -> str:
    return _environment.get_template("book_report.html.j2").render(report=report)
