// blockprint studio: the few things the pages do without a reload. Every request that changes
// something carries the page's token (the server refuses it otherwise); every piece of HTML put into
// the page comes from the server, which escapes what it shows.
"use strict";

const token = document.querySelector('meta[name="bp-token"]').content;

function post(url, body) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-blockprint-token": token },
    body: JSON.stringify(body),
  });
}

// Make: the options form of the chosen kind, read into the options JSON.
function setPath(obj, path, value) {
  const parts = path.split(".");
  let at = obj;
  for (const p of parts.slice(0, -1)) {
    at = at[p] = at[p] || {};
  }
  at[parts[parts.length - 1]] = value;
}

function readOptions(fieldset) {
  const options = {};
  for (const el of fieldset.querySelectorAll("[data-path]")) {
    if (el.disabled) continue;
    const nullable = el.dataset.nullable === "true";
    const v = el.value.trim();
    let value;
    switch (el.dataset.input) {
      case "checkbox": case "folder": value = el.checked; break;
      case "number": if (v === "") { if (!nullable) continue; value = null; } else value = Number(v); break;
      case "multi": value = Array.from(el.selectedOptions, (o) => o.value); break;
      case "list":
        value = v === "" ? [] : v.split(",").map((s) => s.trim()).filter((s) => s !== "");
        if (el.dataset.numbers === "true") value = value.map(Number);
        if (nullable && value.length === 0) value = null;
        break;
      default:
        if (v === "" && nullable) value = null;
        else if (v === "") continue; // a blank option that has a default keeps it
        else value = el.value;
    }
    setPath(options, el.dataset.path, value);
  }
  return options;
}

// An option given disables the options it cannot go with (the command line's conflicts), so the form
// cannot ask for what the make would refuse.
function isSet(el) {
  if (el.type === "checkbox") return el.checked;
  if (el.multiple) return el.selectedOptions.length > 0;
  return el.value.trim() !== "";
}

function applyConflicts(fieldset) {
  const all = Array.from(fieldset.querySelectorAll("[data-path]"));
  const byPath = new Map(all.map((el) => [el.dataset.path, el]));
  const blocked = new Set();
  for (const el of all) {
    if (!el.dataset.conflicts || !isSet(el)) continue;
    for (const p of el.dataset.conflicts.split(" ")) if (byPath.has(p) && !isSet(byPath.get(p))) blocked.add(p);
  }
  for (const el of all) {
    el.disabled = blocked.has(el.dataset.path);
    el.closest("label").classList.toggle("blocked", el.disabled);
  }
}

// A seed is a whole number from 0 to 2^53 - 1 (what a JSON number holds exactly); anything else is
// refused here, in words, before it is sent.
const MAX_SEED = 9007199254740991n;
function seedProblem(v) {
  if (!/^[0-9]+$/.test(v)) return "A seed is a whole number such as 42, with no sign, point or letters.";
  if (BigInt(v) > MAX_SEED) return "A seed is at most 9007199254740991; give a smaller number.";
  return null;
}

function showJob(id, into) {
  return fetch("/jobs/" + id).then((r) => r.text()).then((html) => {
    into.innerHTML = html;
  });
}

function watchJob(id) {
  const status = document.getElementById("make-status");
  const bar = document.getElementById("make-progress");
  const result = document.getElementById("result");
  const button = document.getElementById("make-button");
  bar.hidden = false;
  const events = new EventSource("/jobs/" + id + "/events");
  events.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    bar.max = Math.max(p.total, 1);
    bar.value = p.done;
    if (p.phase === "typesetting") status.textContent = "typesetting: " + p.done + " of " + p.total;
    else if (p.phase === "previews") status.textContent = "drawing the previews";
    else if (p.phase === "queued") status.textContent = "starting";
    if (p.phase === "done" || p.phase === "failed") {
      events.close();
      status.textContent = p.phase === "done" ? "done" : "failed";
      bar.hidden = true;
      button.disabled = false;
      showJob(id, result);
    }
  });
  events.onerror = () => {
    events.close();
    button.disabled = false;
    status.textContent = "lost touch with the studio; reload the page";
  };
}

function setUpMake() {
  const form = document.getElementById("make-form");
  if (!form) return;
  const choose = () => {
    const kind = form.querySelector('input[name="kind"]:checked');
    for (const fs of form.querySelectorAll("fieldset.options")) {
      fs.hidden = !kind || fs.dataset.kind !== kind.value;
    }
  };
  for (const r of form.querySelectorAll('input[name="kind"]')) r.addEventListener("change", choose);
  choose();
  for (const fs of form.querySelectorAll("fieldset.options")) {
    fs.addEventListener("input", () => applyConflicts(fs));
    fs.addEventListener("change", () => applyConflicts(fs));
    applyConflicts(fs);
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const kind = form.querySelector('input[name="kind"]:checked');
    if (!kind) return;
    const fs = form.querySelector('fieldset.options[data-kind="' + CSS.escape(kind.value) + '"]');
    const body = { kind: kind.value, options: readOptions(fs) };
    const status = document.getElementById("make-status");
    for (const el of fs.querySelectorAll("[data-batch]")) {
      const v = el.value.trim();
      if (v === "") continue;
      if (el.dataset.batch === "seed") {
        const problem = seedProblem(v);
        if (problem) {
          status.textContent = problem;
          el.focus();
          return;
        }
      }
      body[el.dataset.batch] = el.dataset.batch === "paper" ? v : Number(v);
    }
    const button = document.getElementById("make-button");
    button.disabled = true;
    status.textContent = "starting";
    post("/make", body).then(async (r) => {
      if (!r.ok) {
        button.disabled = false;
        status.textContent = await r.text();
        return;
      }
      const { job } = await r.json();
      watchJob(job);
    });
  });
  for (const a of document.querySelectorAll("a[data-job]")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      showJob(a.dataset.job, document.getElementById("result"));
    });
  }
}

// Tables: Roll buttons, each roll added to the top of the session's log.
function setUpTables() {
  const log = document.getElementById("roll-log");
  if (!log) return;
  const find = document.getElementById("table-find");
  const found = document.getElementById("table-found");
  const tables = Array.from(document.querySelectorAll("details.table"));
  find.addEventListener("input", () => {
    const words = find.value.toLowerCase().split(/\s+/).filter((w) => w !== "");
    let shown = 0;
    for (const t of tables) {
      t.hidden = !words.every((w) => t.dataset.find.includes(w));
      if (!t.hidden) shown += 1;
    }
    found.textContent = words.length === 0 ? "" : shown + " of " + tables.length + " tables";
  });
  // A link to another table opens it.
  for (const a of document.querySelectorAll("a.table-link")) {
    a.addEventListener("click", () => {
      const t = document.getElementById(a.getAttribute("href").slice(1));
      if (t) { t.hidden = false; t.open = true; }
    });
  }
  for (const form of document.querySelectorAll("form.roll-form")) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const body = { table: form.dataset.table };
      const seed = form.elements.seed.value.trim();
      // The result shows beside the table rolled, and in the session's log.
      const here = form.nextElementSibling;
      const problem = (text) => {
        const li = document.createElement("li");
        li.className = "roll problem";
        li.textContent = text;
        here.replaceChildren(li);
        log.prepend(li.cloneNode(true));
      };
      if (seed !== "") {
        const why = seedProblem(seed);
        if (why) return problem(why);
        body.seed = Number(seed);
      }
      post("/roll", body).then(async (r) => {
        const text = await r.text();
        if (!r.ok) return problem(text);
        here.innerHTML = text;
        log.insertAdjacentHTML("afterbegin", text);
      });
    });
  }
}

// Author mode: after every save the server checks the content again and typesets the open preview
// again; the diagnostics and the preview are swapped in here, without a reload.
function setUpChanges() {
  const diagnostics = document.getElementById("diagnostics");
  if (!diagnostics) return;
  const events = new EventSource("/events");
  events.addEventListener("change", (e) => {
    const c = JSON.parse(e.data);
    const updating = document.getElementById("updating");
    if (updating) updating.hidden = !c.updating;
    if (c.updating) return;
    document.body.dataset.generation = c.generation;
    fetch("/diagnostics").then((r) => r.text()).then((html) => {
      diagnostics.innerHTML = html;
    });
    if (c.preview !== null && document.getElementById("job-" + c.preview)) {
      showJob(c.preview, document.getElementById("result"));
    }
  });
}

// Campaign: each button runs its command on the open folder; the server answers with the status block
// as it now stands (or with the refusal above it), which replaces the one in the page.
function setUpCampaign() {
  const page = document.body.dataset.page === "campaign" ? document.querySelector("main") : null;
  if (!page) return;
  page.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-action]");
    if (!button) return;
    const box = button.closest(".campaign-actions");
    const body = { dir: box.dataset.dir };
    if (button.dataset.action === "close") body.case = box.querySelector('select[name="case"]').value;
    if (button.dataset.action === "year") body.top_brass = box.querySelector('input[name="top_brass"]').value;
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    document.getElementById("campaign-working").textContent = button.dataset.action + ": working";
    post("/campaign/" + encodeURIComponent(button.dataset.action), body).then(async (r) => {
      const html = await r.text();
      const section = document.getElementById("campaign");
      if (r.headers.get("content-type").startsWith("text/html")) {
        section.outerHTML = html;
      } else {
        for (const b of box.querySelectorAll("button")) b.disabled = false;
        document.getElementById("campaign-working").textContent = html;
      }
    });
  });
}

// Campaign, New: the form's fields are `campaign new`'s options. The server answers with the new
// campaign's status block, shown as if the folder had been opened (the address names it, so a reload
// keeps it), or with the form again, the command line's refusal under it.
function setUpNewCampaign() {
  const page = document.body.dataset.page === "campaign" ? document.querySelector("main") : null;
  if (!page) return;
  page.addEventListener("submit", (e) => {
    const form = e.target.closest("#campaign-new-form");
    if (!form) return;
    e.preventDefault();
    const body = {};
    for (const el of form.querySelectorAll("[name]")) body[el.name] = el.value;
    const button = document.getElementById("campaign-new-button");
    const working = document.getElementById("campaign-new-working");
    button.disabled = true;
    working.textContent = "new: working";
    post("/campaign/new", body).then(async (r) => {
      const html = await r.text();
      const isHtml = (r.headers.get("content-type") || "").startsWith("text/html");
      if (r.ok && isHtml) {
        document.getElementById("campaign").outerHTML = html;
        const dir = document.getElementById("campaign").dataset.dir;
        const open = document.querySelector('#campaign-open input[name="dir"]');
        if (open) open.value = dir;
        history.replaceState(null, "", "/campaign?dir=" + encodeURIComponent(dir));
        button.disabled = false;
        working.textContent = "";
        for (const el of form.querySelectorAll("input[name]")) if (el.name !== "paper") el.value = "";
        // As on a page opened on a campaign: New, collapsed, above its status.
        const details = document.getElementById("campaign-new");
        details.open = false;
        document.getElementById("campaign").before(details);
      } else if (isHtml) {
        document.getElementById("campaign-new").outerHTML = html;
      } else {
        button.disabled = false;
        working.textContent = html;
      }
    });
  });
}

setUpMake();
setUpTables();
setUpChanges();
setUpCampaign();
setUpNewCampaign();
