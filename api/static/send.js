// The send forms of /ui/: files dropped on the drop area go into its file input; a form is sent
// with fetch (the pages' header, so the answer is JSON), each file's outcome shown beside its
// name; then the new batch is followed with the API's long polling (GET /batches/{id} with
// since, wait and pace) and its grids are drawn by the server (/ui/batches/{id}/grids) each
// time its work moves. Without this script the forms post as they are and the browser goes
// to the batch's page.
"use strict";

(function () {
  const forms = [document.getElementById("send-files"), document.getElementById("send-text")];
  if (!forms[0]) return;
  const show = (id) => document.getElementById(id);
  const STAGES = ["ingest", "rectify", "ocr", "solve"];
  const WAIT_S = 25;
  const PACE_S = 1;
  const RETRY_MS = 2000;
  const header = forms[0].dataset.header;
  const input = show("files");
  const drop = show("drop");

  function listChosen() {
    const list = show("chosen");
    list.replaceChildren();
    for (const file of input.files) {
      const item = document.createElement("li");
      item.textContent = `${file.name} (${(file.size / 1048576).toFixed(1)} MB)`;
      list.append(item);
    }
  }

  input.addEventListener("change", listChosen);
  ["dragenter", "dragover"].forEach((name) => drop.addEventListener(name, (event) => {
    event.preventDefault();
    drop.classList.add("over");
  }));
  ["dragleave", "drop"].forEach((name) => drop.addEventListener(name, () => drop.classList.remove("over")));
  // A file dropped beside the area would make the browser open it and leave the page.
  ["dragover", "drop"].forEach((name) => window.addEventListener(name, (event) => event.preventDefault()));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    if (!event.dataTransfer.files.length) return;
    input.files = event.dataTransfer.files;
    listChosen();
  });

  function detailText(detail) {
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).slice(-1)[0]}: ${d.msg}`).join("; ");
    return JSON.stringify(detail);
  }

  function showFiles(files) {
    const list = show("sent-files");
    list.replaceChildren();
    for (const file of files || []) {
      const item = document.createElement("li");
      const name = document.createElement("strong");
      name.textContent = file.name;
      const outcome = document.createElement("span");
      outcome.className = file.message ? "bad" : "ok";
      outcome.textContent = file.message ? `not read: ${file.message}` : "sent";
      item.append(name, ": ", outcome);
      list.append(item);
    }
  }

  function meter(done, failed, all) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "meter");
    svg.setAttribute("viewBox", "0 0 100 1");
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("aria-hidden", "true");
    const share = (n) => (all ? (100 * n) / all : 0);
    for (const [cls, x, width] of [["done", 0, share(done)], ["failed", share(done), share(failed)]]) {
      const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      rect.setAttribute("class", cls);
      rect.setAttribute("x", String(x));
      rect.setAttribute("width", String(width));
      rect.setAttribute("height", "1");
      svg.append(rect);
    }
    return svg;
  }

  function showStages(stages) {
    const body = show("sent-stages").tBodies[0];
    body.replaceChildren();
    for (const name of STAGES) {
      const p = stages[name];
      if (!p) continue;
      const row = body.insertRow();
      row.dataset.stage = name;
      for (const value of [name, p.queued, p.running, p.done, p.failed]) row.insertCell().textContent = String(value);
      row.insertCell().append(meter(p.done, p.failed, p.queued + p.running + p.done + p.failed));
    }
  }

  async function showGrids(batchId) {
    const response = await fetch(`/ui/batches/${batchId}/grids`, { credentials: "same-origin" });
    if (!response.ok) return;
    // Drawn by the server from its templates (everything escaped); parsed, never run.
    const parsed = new DOMParser().parseFromString(await response.text(), "text/html");
    show("sent-grids").replaceChildren(...parsed.body.childNodes);
  }

  let following = 0; // the batch being followed; a new one sent ends the follow of the last

  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function follow(batchId) {
    const state = show("sent-state");
    const mine = ++following;
    let since = null;
    while (mine === following) {
      const query = since === null ? "" : `?since=${encodeURIComponent(since)}&wait=${WAIT_S}&pace=${PACE_S}`;
      let status;
      try {
        const response = await fetch(`/batches/${batchId}${query}`, {
          credentials: "same-origin",
          headers: { [header]: "1" },
        });
        status = await response.json();
        if (!response.ok) throw new Error(detailText(status.detail));
      } catch (error) {
        state.textContent = `Status not available (${error.message}); trying again…`;
        await pause(RETRY_MS);
        continue;
      }
      if (mine !== following) return;
      showStages(status.stages);
      const grids = Object.values(status.puzzles).reduce((sum, n) => sum + n, 0);
      state.textContent = status.finished
        ? `Finished: ${grids} grid${grids === 1 ? "" : "s"} found.`
        : `Running: ${status.unfinished} item${status.unfinished === 1 ? "" : "s"} to go.`;
      if (status.progress !== since) await showGrids(batchId);
      if (status.finished) return;
      since = status.progress;
    }
  }

  async function send(form) {
    const button = form.querySelector("button[type=submit]");
    const state = show("sent-state");
    show("sent").hidden = false;
    following += 1;
    show("sent-title").textContent = "Sent";
    show("sent-files").replaceChildren();
    show("sent-stages").tBodies[0].replaceChildren();
    show("sent-grids").replaceChildren();
    state.textContent = "Sending…";
    button.disabled = true;
    let response;
    let answer;
    try {
      response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        credentials: "same-origin",
        headers: { [header]: "1" },
      });
      answer = await response.json().catch(() => ({ detail: response.statusText }));
    } catch (error) {
      state.textContent = `Not sent: ${error.message}`;
      return;
    } finally {
      button.disabled = false;
    }
    showFiles(answer.input_files);
    show("sent-title").focus();
    if (!response.ok) {
      state.textContent = `Not sent: ${detailText(answer.detail)}`;
      return;
    }
    show("sent-title").textContent = `Sent: batch ${answer.batch_id}`;
    const link = document.createElement("a");
    link.href = `/ui/batches/${answer.batch_id}`;
    link.textContent = "its page";
    show("sent-title").append(" (", link, ")");
    form.reset();
    listChosen();
    await follow(answer.batch_id);
  }

  forms.forEach((form) => form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(form);
  }));
})();
