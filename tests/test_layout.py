"""The layout's promises, checked from the source: which package may import which, and no
import cycle between packages (docs/architecture.md has the table)."""

from __future__ import annotations

import ast
import importlib
import re
from collections import defaultdict
from pathlib import Path

from tests.conftest import REPO_ROOT

PACKAGES = (
    "pipeline",
    "jobs",
    "settings",
    "store",
    "reports",
    "workers",
    "api",
    "sudoku_batch",
    "synth",
)
# What each package must never import (the pure pipeline knows no database, queue or driver).
FORBIDDEN = {
    "pipeline": {"celery", "sqlalchemy", "store", "workers", "jobs", "api", "sudoku_batch"},
    "jobs": {"celery", "workers", "api", "sudoku_batch"},
    "settings": {"store", "workers", "jobs", "api", "sudoku_batch"},
    "store": {"celery", "workers", "jobs", "api", "sudoku_batch", "reports"},
    "reports": {"celery", "workers", "jobs", "api", "sudoku_batch"},
    "workers": {"api", "sudoku_batch"},
    "api": {"sudoku_batch"},
}


def imported_packages(package: str) -> dict[str, set[str]]:
    """For each top-level name a package's modules import, the modules that import it."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in (REPO_ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found[name.split(".")[0]].add(str(path.relative_to(REPO_ROOT)))
    return found


def test_no_package_imports_what_the_layout_forbids() -> None:
    broken = {
        f"{package} imports {name}": sorted(modules)
        for package, forbidden in FORBIDDEN.items()
        for name, modules in imported_packages(package).items()
        if name in forbidden
    }
    assert not broken


def test_there_is_no_import_cycle_between_packages() -> None:
    graph = {
        package: {name for name in imported_packages(package) if name in PACKAGES} - {package}
        for package in PACKAGES
    }

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in graph[start]
        )

    cycles = [package for package in PACKAGES if reaches(package, package, {package})]
    assert not cycles, {package: sorted(graph[package]) for package in cycles}


def test_every_package_is_in_the_architecture_table() -> None:
    table = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [package for package in PACKAGES if f"`{package}/`" not in table]
    assert not missing
    assert all(Path(REPO_ROOT / package).is_dir() for package in PACKAGES)


APP_MODULE = REPO_ROOT / "api" / "app.py"
# ``create_app`` assembles (middleware, exception handlers, routers); routes live in routers.
MAX_APP_LINES = 120


def test_create_app_only_assembles() -> None:
    source = APP_MODULE.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_APP_LINES
    tree = ast.parse(source, filename=str(APP_MODULE))
    decorated = [
        f"{node.name}: @{ast.unparse(decorator)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for decorator in node.decorator_list
    ]
    added = [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"add_api_route", "add_route", "api_route", "route"}
    ]
    assert not decorated and not added


def test_every_router_of_api_routes_is_included() -> None:
    import api.app

    modules = sorted(p.stem for p in (REPO_ROOT / "api" / "routes").glob("*.py"))
    routers = {name: importlib.import_module(f"api.routes.{name}") for name in modules}
    left_out = [
        name
        for name, module in routers.items()
        if name != "__init__" and getattr(module, "router", None) not in api.app.ROUTERS
    ]
    assert len(routers) > 1 and not left_out


DOCS = REPO_ROOT / "docs"
# A docs page is reference: how the thing works now. Measurement history is in git log and in
# the benches' output; a page that grows past this is becoming a diary again.
MAX_DOC_LINES = 400


def test_no_docs_page_is_over_400_lines() -> None:
    lines = {
        page.name: len(page.read_text(encoding="utf-8").splitlines()) for page in DOCS.glob("*.md")
    }
    assert lines, "no docs pages found"
    assert not {name: count for name, count in lines.items() if count > MAX_DOC_LINES}


def _anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def _referring_files() -> list[Path]:
    folders = [
        path
        for path in REPO_ROOT.iterdir()
        if path.is_dir() and not path.name.startswith(".") and path.name != "docs"
    ]
    code = [path for folder in folders for path in folder.rglob("*.py")]
    return [REPO_ROOT / "README.md", *DOCS.glob("*.md"), *code]


def test_every_docs_reference_names_a_page_and_heading_that_exist() -> None:
    headings = {
        page.name: {
            _anchor(line.lstrip("#"))
            for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")
        }
        for page in DOCS.glob("*.md")
    }
    broken = []
    for path in _referring_files():
        text = path.read_text(encoding="utf-8")
        in_docs = path.parent == DOCS
        references = re.findall(r"docs/(\w+\.md)(?:#([\w-]+))?", text)
        if in_docs:
            references += re.findall(r"\]\((\w+\.md)(?:#([\w-]+))?\)", text)
        for page, anchor in references:
            if page not in headings or (anchor and anchor not in headings[page]):
                broken.append(f"{path.relative_to(REPO_ROOT)}: {page}#{anchor}")
    assert not broken
