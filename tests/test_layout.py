"""The layout's promises, checked from the source: which package may import which, no import
cycle between packages (docs/architecture.md has the table), and no environment read outside
``settings/``."""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections import defaultdict
from pathlib import Path

from tests.conftest import REPO_ROOT


def setup_folders() -> tuple[str, ...]:
    """setup.py's ``FOLDERS``, read from its source: importing setup.py would run setup()."""
    tree = ast.parse((REPO_ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["FOLDERS"]:
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("setup.py no longer assigns FOLDERS")


# The repository's folders, each installed as a subpackage of the one import name
# (setup.py's package_dir); the folder sudoku_batch/ itself holds the command line.
FOLDERS = setup_folders()
# The folders and the command line's own package.
PACKAGES = (*FOLDERS, "sudoku_batch")
# What each package must never import (the pure pipeline knows no database, queue or driver).
FORBIDDEN = {
    "pipeline": {
        "celery",
        "sqlalchemy",
        "store",
        "workers",
        "jobs",
        "api",
        "sudoku_batch",
        "settings",
    },
    "jobs": {"celery", "workers", "api", "sudoku_batch"},
    "settings": {"store", "workers", "jobs", "api", "sudoku_batch"},
    "store": {"celery", "workers", "jobs", "api", "sudoku_batch", "reports"},
    "reports": {"celery", "workers", "jobs", "api", "sudoku_batch"},
    "workers": {"api", "sudoku_batch"},
    "api": {"sudoku_batch"},
}


# Modules that import only the standard library (checked below), so any package may import
# them without a cycle: the rater's core is chosen at import, before a caller could pass it.
# The job's table likewise: the store, the workers and the embedded runner all read it.
LEAF_MODULES = {
    "sudoku_batch.settings.environment": REPO_ROOT / "settings" / "environment.py",
    "sudoku_batch.jobs.table": REPO_ROOT / "jobs" / "table.py",
}
# Run by any import of a leaf module, so held to the same rule.
LEAF_PARENTS = (REPO_ROOT / "settings" / "__init__.py", REPO_ROOT / "jobs" / "__init__.py")


def layout_package(module: str) -> str:
    """The folder an imported name lives in (``sudoku_batch.pipeline.grid``: pipeline;
    ``sudoku_batch.cli``: sudoku_batch), or its top-level name outside the project (celery)."""
    parts = module.split(".")
    if parts[0] == "sudoku_batch" and len(parts) > 1 and parts[1] in FOLDERS:
        return parts[1]
    return parts[0]


def imported_packages(package: str) -> dict[str, set[str]]:
    """For each package a package's modules import (leaf modules aside), the modules that
    import it."""
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
                if name not in LEAF_MODULES:
                    found[layout_package(name)].add(str(path.relative_to(REPO_ROOT)))
    return found


def run_time_imports(path: Path) -> set[str]:
    """The modules a file imports when it is imported (type-checking imports and those inside
    functions aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_nothing_imports_a_folder_by_its_own_name() -> None:
    """Only ``sudoku_batch`` is installed: ``import pipeline`` works only from the repository's
    root, by accident, and would load a second copy of the module."""
    folders = set(FOLDERS)
    bare = sorted(
        f"{path.relative_to(REPO_ROOT)}: {name}"
        for path in REPO_ROOT.rglob("*.py")
        if not {".venv", ".venv-paddle", "build"} & set(path.relative_to(REPO_ROOT).parts)
        for name in all_imports(path)
        if name.split(".")[0] in folders
    )
    assert not bare


def all_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_leaf_modules_import_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in [*LEAF_MODULES.values(), *LEAF_PARENTS]:
        assert {name.split(".")[0] for name in run_time_imports(path)} <= allowed, path


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
    from sudoku_batch.api.app import ROUTERS

    modules = sorted(p.stem for p in (REPO_ROOT / "api" / "routes").glob("*.py"))
    routers = {name: importlib.import_module(f"sudoku_batch.api.routes.{name}") for name in modules}
    left_out = [
        name
        for name, module in routers.items()
        if name != "__init__" and getattr(module, "router", None) not in ROUTERS
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


# The product's packages; bench/ and tests/ set and read variables for their own runs.
ENV_READERS = {"settings"}
OS_ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def environment_reads(source: str) -> list[int]:
    """The lines of ``source`` that read or write the process environment through ``os``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in OS_ENVIRONMENT:
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in OS_ENVIRONMENT for alias in node.names):
                lines.append(node.lineno)
    return sorted(lines)


def test_the_environment_check_finds_each_way_of_reading_it() -> None:
    source = (
        "import os\n"
        "from os import getenv\n"
        "a = os.environ.get('X')\n"
        "b = os.getenv('X')\n"
        "os.environ.setdefault('X', '1')\n"
        "c = os.cpu_count()\n"
    )
    assert environment_reads(source) == [2, 3, 4, 5]


def test_no_environment_read_outside_settings() -> None:
    reads = [
        f"{path.relative_to(REPO_ROOT)}:{line}"
        for package in PACKAGES
        if package not in ENV_READERS
        for path in sorted((REPO_ROOT / package).rglob("*.py"))
        for line in environment_reads(path.read_text(encoding="utf-8"))
    ]
    assert not reads, "read the environment in settings/ and pass the value down"
