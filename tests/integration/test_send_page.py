"""Sending a batch from ``/ui/`` in a real browser, on the review pages' stack
(``browser_stack``: the API and a Celery worker of every image stage as processes, headless
Chromium through Debian's chromedriver): the photo and the PDF book of ``examples/`` chosen
in the file input are sent, the batch's progress per stage is shown as it moves, then its
solved grids with their renders; a file of the wrong kind shows its reason beside its name
while the other goes through; a form posted by another site's page is refused.

The time from choosing the files to the first solved grid shown is written to
``send-timing.json`` beside the screenshots (reported, never asserted on).
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.store.models import Batch
from tests.conftest import REPO_ROOT
from tests.integration.browser_stack import BATCH_LIMIT, PAGE_LIMIT, Stack, chromium
from tests.integration.conftest import free_port, wait_until

pytestmark = pytest.mark.services

EXAMPLES = REPO_ROOT / "examples"
EXAMPLE_GRIDS = sum(
    len(page["grids"])
    for source in json.loads((EXAMPLES / "truth.json").read_text()).values()
    for page in source["pages"]
)


def _log_in(browser, stack: Stack) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{stack.url}/ui/")
    browser.find_element(By.ID, "key").send_keys(stack.key + Keys.ENTER)
    wait_until(lambda: browser.find_elements(By.ID, "files"), PAGE_LIMIT, "the send form")


def _stage_rows(browser) -> list[list[str]]:
    """The stage table's rows (stage, queued, running, done, failed), read at one instant: the
    page's script redraws it at each status answer."""
    return browser.execute_script(
        "return [...document.querySelectorAll('#sent-stages tbody tr')]"
        ".map((r) => [...r.cells].slice(0, 5).map((c) => c.textContent))"
    )


def _solved_shown(browser) -> int:
    """How many solved grids the page shows with their render loaded."""
    return browser.execute_script(
        "return [...document.querySelectorAll('#sent-grids .grid-card')]"
        ".filter((c) => c.querySelector('.tag.solved'))"
        ".filter((c) => { const i = c.querySelector('img'); return i && i.naturalWidth > 0; })"
        ".length"
    )


def test_a_photo_and_a_pdf_sent_from_the_page_are_followed_until_solved(
    stack: Stack, browser, screenshots: Path
) -> None:
    from selenium.webdriver.common.by import By

    _log_in(browser, stack)
    browser.find_element(By.ID, "files-label").send_keys("examples from the page")
    browser.find_element(By.CSS_SELECTOR, ".send").screenshot(str(screenshots / "send-form.png"))
    chosen = time.monotonic()
    browser.find_element(By.ID, "files").send_keys(
        f"{EXAMPLES / 'photo.jpg'}\n{EXAMPLES / 'book.pdf'}"
    )
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#chosen li")] == [
        "photo.jpg (0.0 MB)",
        "book.pdf (0.2 MB)",
    ]
    browser.find_element(By.CSS_SELECTOR, "#send-files button[type=submit]").click()

    title = wait_until(
        lambda: "batch" in browser.find_element(By.ID, "sent-title").text,
        PAGE_LIMIT,
        "the batch sent",
        0.05,
    )
    assert title
    files = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#sent-files li")]
    assert files == ["photo.jpg: sent", "book.pdf: sent"]
    # Progress per stage, drawn from the API's status while the batch runs.
    stages = wait_until(lambda: _stage_rows(browser), PAGE_LIMIT, "the stages", 0.05)
    assert [row[0] for row in stages] == ["ingest", "rectify", "ocr", "solve"]
    progress_shot = 0  # 1: shown running, 2: with a later stage under way
    first_solved = None
    deadline = time.monotonic() + BATCH_LIMIT
    while time.monotonic() < deadline:
        state = browser.find_element(By.ID, "sent-state").text
        # The first view of it running, then one with a stage under way if there is one.
        if progress_shot < 2 and state.startswith("Running"):
            moving = any(int(row[3]) for row in _stage_rows(browser)[1:])
            if not progress_shot or moving:
                sent = browser.find_element(By.ID, "sent")
                sent.screenshot(str(screenshots / "send-progress.png"))
                progress_shot = 2 if moving else 1
        solved = _solved_shown(browser)
        if solved and first_solved is None:
            first_solved = time.monotonic() - chosen
        if state.startswith("Finished") and solved == EXAMPLE_GRIDS:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the examples were not shown solved:\n{stack.logs()}")
    finished = time.monotonic() - chosen
    assert progress_shot, "the batch's progress was never shown while it ran"
    assert state == f"Finished: {EXAMPLE_GRIDS} grids found."
    done = _stage_rows(browser)
    assert done[-1] == ["solve", "0", "0", str(EXAMPLE_GRIDS), "0"], done
    browser.set_window_size(1280, 1800)  # the whole result in view, for its screenshot
    browser.find_element(By.ID, "sent").screenshot(str(screenshots / "send-result.png"))
    # A phone's width: the forms and the grids stack in one column, nothing wider than it.
    browser.set_window_size(400, 900)
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    wide = browser.execute_script(
        "const w = document.documentElement.clientWidth;"
        "return [...document.querySelectorAll('body *')]"
        ".filter((e) => e.getBoundingClientRect().right > w)"
        ".map((e) => `${e.tagName}#${e.id}.${e.className.baseVal ?? e.className}`).slice(0, 12)"
    )
    assert overflow <= 0, f"the page is {overflow} px wider than a 400 px screen: {wide}"
    browser.save_screenshot(str(screenshots / "send-small-screen.png"))
    timing = {"first_solved_grid_seconds": first_solved, "all_shown_seconds": finished}
    (screenshots / "send-timing.json").write_text(json.dumps(timing))
    print(f"examples/ from the page: {timing}")


def test_a_file_of_the_wrong_kind_shows_its_reason_and_the_other_goes_through(
    stack: Stack, browser, tmp_path: Path, screenshots: Path
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    notes = tmp_path / "chapter-1.pdf"
    notes.write_text("Chapter 1: not a PDF at all")
    _log_in(browser, stack)
    files = browser.find_element(By.ID, "files")
    files.send_keys(f"{notes}\n{EXAMPLES / 'photo.jpg'}")
    # By keyboard alone: from the file input, Tab to the label, Tab to the button, Enter.
    browser.execute_script("arguments[0].focus()", files)
    focused = []
    for _ in range(2):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        active = browser.switch_to.active_element
        focused.append(active.get_attribute("id") or active.text)
    assert focused == ["files-label", "Send files"]
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait_until(
        lambda: browser.find_elements(By.CSS_SELECTOR, "#sent-files li"), PAGE_LIMIT, "files"
    )
    files = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#sent-files li")]
    assert files == [
        "chapter-1.pdf: not read: chapter-1.pdf is not an image, PDF or zip archive by its content",
        "photo.jpg: sent",
    ]
    wait_until(lambda: _solved_shown(browser) == 1, BATCH_LIMIT, "the photo solved", 0.2)
    not_read = browser.execute_script(  # at one instant: the script redraws it
        "return document.querySelector('#sent-grids .not-read').innerText"
    )
    assert "chapter-1.pdf: failed chapter-1.pdf is not an image, PDF or zip archive" in not_read
    browser.save_screenshot(str(screenshots / "send-wrong-kind.png"))


@pytest.fixture
def other_site(tmp_path: Path, stack: Stack) -> Iterator[str]:
    """A page of another origin (same host, another port: the same site to the browser, so
    it even sends the SameSite cookies) whose form posts a file to the send form's action."""
    (tmp_path / "index.html").write_text(
        f'<form method="post" action="{stack.url}/ui/batches" enctype="multipart/form-data">'
        '<input type="hidden" name="form_token" value="guessed">'
        '<input id="files" type="file" name="files"><button id="go">go</button></form>'
    )
    handler = lambda *a: http.server.SimpleHTTPRequestHandler(  # noqa: E731
        *a, directory=str(tmp_path)
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()


def test_a_form_posted_by_another_site_is_refused(
    stack: Stack, browser, other_site: str, sessions: sessionmaker[Session]
) -> None:
    from selenium.webdriver.common.by import By

    _log_in(browser, stack)
    with sessions() as db:
        before = db.scalar(select(func.count()).select_from(Batch))
    browser.get(other_site)
    browser.find_element(By.ID, "files").send_keys(str(EXAMPLES / "photo.jpg"))
    browser.find_element(By.ID, "go").click()
    wait_until(lambda: browser.current_url.startswith(stack.url), PAGE_LIMIT, "the answer", 0.1)
    answer = browser.find_element(By.TAG_NAME, "pre").text
    assert json.loads(answer) == {"detail": "a form sent from another site is refused"}
    status = browser.execute_script(
        "return performance.getEntriesByType('navigation')[0].responseStatus"
    )
    assert status == 403
    with sessions() as db:
        assert db.scalar(select(func.count()).select_from(Batch)) == before


@pytest.fixture
def browser_without_script() -> Iterator:
    driver = chromium(script=False)
    yield driver
    driver.quit()


def test_without_script_the_form_goes_to_the_batch_page_which_refreshes_until_solved(
    stack: Stack, browser_without_script
) -> None:
    from selenium.webdriver.common.by import By

    browser = browser_without_script
    _log_in(browser, stack)
    browser.find_element(By.ID, "files").send_keys(str(EXAMPLES / "photo.jpg"))
    browser.find_element(By.ID, "files-label").send_keys("sent without script")
    browser.find_element(By.CSS_SELECTOR, "#send-files button[type=submit]").click()
    wait_until(
        lambda: "/ui/batches/" in browser.current_url,
        PAGE_LIMIT,
        f"the batch's page, at {browser.current_url}: {browser.page_source[:3000]}",
        0.1,
    )
    assert browser.find_element(By.TAG_NAME, "h1").text == "sent without script"
    # The page refreshes itself (every 5 s) until the batch is finished.
    wait_until(
        lambda: browser.find_elements(By.CSS_SELECTOR, "table.puzzles .tag.solved"),
        BATCH_LIMIT,
        f"the photo solved on its batch's page:\n{stack.logs()}",
        0.5,
    )
    assert browser.find_element(By.CSS_SELECTOR, "main .tag").text == "finished"


def test_files_dropped_on_the_drop_area_go_into_the_file_input(stack: Stack, browser) -> None:
    """A drop (its files made in the page: the driver cannot drag from the desktop) fills the
    file input the form sends, and lists the files."""
    from selenium.webdriver.common.by import By

    _log_in(browser, stack)
    dropped = browser.execute_script(
        "const data = new DataTransfer();"
        "data.items.add(new File(['x'], 'scan-1.png', {type: 'image/png'}));"
        "data.items.add(new File(['y'], 'book.pdf', {type: 'application/pdf'}));"
        "document.getElementById('drop').dispatchEvent("
        "  new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));"
        "return [...document.getElementById('files').files].map((f) => f.name)"
    )
    assert dropped == ["scan-1.png", "book.pdf"]
    listed = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#chosen li")]
    assert listed == ["scan-1.png (0.0 MB)", "book.pdf (0.0 MB)"]
