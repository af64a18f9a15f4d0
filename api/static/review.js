// The puzzle page: pick a cell (arrows or a click), say what it holds (a digit, Backspace or
// Delete for empty, B for blocked, or a runner-up button), Enter sends it to the API's
// PATCH /puzzles/{id}/cells/{row}/{col}; then GET /puzzles/{id} is followed until the new
// verdict is in, and the page is drawn again by the server.
"use strict";

(function () {
  const board = document.getElementById("board");
  if (!board || !board.querySelector(".cell")) return;
  const puzzleId = board.dataset.puzzle;
  const size = Number(board.dataset.size);
  const cells = new Map();
  board.querySelectorAll(".cell").forEach((g) => cells.set(`${g.dataset.row},${g.dataset.col}`, g));
  const show = (id) => document.getElementById(id);
  const POLL_MS = 400;
  let row = 0;
  let col = 0;
  let pending = null; // {kind, digit} to send for the selected cell
  let typed = ""; // digits typed so far (grids over 9 need two)

  function valueText(value) {
    return value.kind === "given" ? String(value.digit) : value.kind;
  }

  function select(r, c) {
    const before = cells.get(`${row},${col}`);
    if (before) before.classList.remove("selected", "pending");
    row = Math.max(0, Math.min(size - 1, r));
    col = Math.max(0, Math.min(size - 1, c));
    pending = null;
    typed = "";
    const cell = cells.get(`${row},${col}`);
    cell.classList.add("selected");
    show("cell-name").textContent = `row ${row + 1}, column ${col + 1}`;
    const read = cell.dataset.readKind === "given" ? `read ${cell.dataset.read}` : `read ${cell.dataset.readKind}`;
    const sure = cell.dataset.confidence ? ` (confidence ${cell.dataset.confidence})` : "";
    show("cell-read").textContent = read + sure;
    const runnerUps = show("runner-ups");
    runnerUps.replaceChildren();
    for (const [digit, p] of JSON.parse(cell.dataset.alternatives || "[]")) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${digit} (${Number(p).toFixed(2)})`;
      button.addEventListener("click", () => { propose({ kind: "given", digit }); board.focus(); });
      runnerUps.append(button);
    }
    const now = cell.dataset.kind === "given" ? { kind: "given", digit: Number(cell.dataset.digit) } : { kind: cell.dataset.kind };
    show("cell-pending").textContent = valueText(now);
  }

  function propose(value) {
    pending = value;
    cells.get(`${row},${col}`).classList.add("pending");
    show("cell-pending").textContent = `${valueText(value)} (Enter to correct)`;
  }

  function typeDigit(key) {
    typed = typed + key;
    if (Number(typed) > size || typed === "0") typed = key === "0" ? "" : key;
    if (typed) propose({ kind: "given", digit: Number(typed) });
  }

  async function submit() {
    if (!pending) return;
    const status = show("cell-status");
    status.textContent = "Correcting…";
    const body = pending.kind === "given" ? pending : { kind: pending.kind };
    const response = await fetch(`/puzzles/${puzzleId}/cells/${row}/${col}`, {
      method: "PATCH",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", [board.dataset.header]: "1" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) {
      status.textContent = `Not corrected: ${typeof answer.detail === "string" ? answer.detail : JSON.stringify(answer.detail)}`;
      return;
    }
    status.textContent = "Solving again…";
    show("verdict").textContent = answer.status;
    show("verdict").className = `tag ${answer.status}`;
    follow();
  }

  async function follow() {
    const response = await fetch(`/puzzles/${puzzleId}`, { credentials: "same-origin" });
    const puzzle = await response.json();
    if (response.ok && (puzzle.status === "read" || puzzle.status === "pending")) {
      setTimeout(follow, POLL_MS);
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.set("cell", `${row},${col}`);
    window.location.replace(url);
  }

  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  board.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (moves[event.key]) {
      select(row + moves[event.key][0], col + moves[event.key][1]);
    } else if (/^[0-9]$/.test(event.key)) {
      typeDigit(event.key);
    } else if (event.key === "Backspace" || event.key === "Delete") {
      propose({ kind: "empty" });
    } else if (event.key === "b" || event.key === "B") {
      propose({ kind: "blocked" });
    } else if (event.key === "Enter") {
      submit();
    } else {
      return;
    }
    event.preventDefault();
  });
  cells.forEach((cell) => cell.addEventListener("click", () => {
    select(Number(cell.dataset.row), Number(cell.dataset.col));
    board.focus();
  }));
  show("clear-cell").addEventListener("click", () => propose({ kind: "empty" }));
  show("block-cell").addEventListener("click", () => propose({ kind: "blocked" }));
  show("submit-cell").addEventListener("click", submit);

  const start = new URLSearchParams(window.location.search).get("cell");
  const [r, c] = start ? start.split(",").map(Number) : [0, 0];
  select(r, c);
  if (start) board.focus();
})();
