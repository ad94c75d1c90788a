// Kingdom Studio's page: CodeMirror 5 on the card file, the language service's problems and
// completions as you type, the proxy beside it, scenarios, rating and a game (server.py).
"use strict";

const state = { path: null, card: null, game: null, rating: null };
const $ = (id) => document.getElementById(id);

async function api(url, data) {
  const options = data === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) };
  const response = await fetch(url, options);
  const answer = await response.json().catch(() => ({ message: response.statusText }));
  answer.status = response.status;
  return answer;
}

function say(text) { $("save-status").textContent = text; }

// ------------------------------------------------------------------ the editor
const editor = CodeMirror($("editor"), {
  mode: "yaml", lineNumbers: true, indentUnit: 2, tabSize: 2, indentWithTabs: false,
  gutters: ["CodeMirror-lint-markers"], inputStyle: "textarea", screenReaderLabel: "Card file",
  extraKeys: { "Ctrl-Space": (cm) => complete(cm), "Ctrl-S": () => save(),
               Tab: (cm) => cm.replaceSelection("  ") },
  lint: { getAnnotations: check, async: true, delay: 250 },
});
editor.getInputField().setAttribute("aria-label", "Card file");
editor.getInputField().id = "editor-input";

let checked = 0;
function check(text, updateLinting) {
  if (!state.path) { updateLinting([]); return; }
  const asked = ++checked;
  api("/api/check", { path: state.path, text }).then((answer) => {
    if (asked !== checked) return; // (a later text is being checked)
    const marks = (answer.problems || []).map((p) => ({
      from: CodeMirror.Pos(p.from[0], p.from[1]),
      to: CodeMirror.Pos(p.to[0], Math.max(p.to[1], p.from[1] + 1)),
      message: `${p.code}: ${p.message}` + (p.hint ? `\n${p.hint}` : ""), severity: "error" }));
    updateLinting(marks);
    showProblems(answer.problems || []);
    showProxy(answer);
  });
}

function showProblems(problems) {
  const list = $("problems");
  list.replaceChildren();
  if (!problems.length) {
    const ok = document.createElement("li");
    ok.className = "none";
    ok.textContent = "No problems.";
    list.append(ok);
    return;
  }
  for (const p of problems) {
    const item = document.createElement("li");
    item.className = "problem";
    item.textContent = `line ${p.from[0] + 1}, column ${p.from[1] + 1}: ${p.code} ${p.message}`;
    if (p.hint) {
      const hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = p.hint;
      item.append(hint);
    }
    for (const fix of p.fixes) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fix";
      button.textContent = fix.title;
      button.addEventListener("click", () => {
        editor.replaceRange(fix.text, CodeMirror.Pos(p.from[0], p.from[1]),
                            CodeMirror.Pos(p.to[0], p.to[1]));
        editor.focus();
      });
      item.append(" ", button);
    }
    list.append(item);
  }
}

function showProxy(answer) {
  const box = $("proxy");
  if (answer.proxy) {
    box.innerHTML = answer.proxy; // (built by the server from escaped text: proxy.py)
    box.classList.remove("stale");
    $("proxy-note").textContent = "";
    state.card = answer.card;
  } else if (box.querySelector(".proxy")) {
    box.classList.add("stale");
    $("proxy-note").textContent = "The last version that compiled; fix the problems to update it.";
  }
}

// completion: the language service's items at the cursor
function hints(cm, callback) {
  const cursor = cm.getCursor();
  api("/api/complete", { path: state.path, text: cm.getValue(), line: cursor.line,
                         column: cursor.ch }).then((answer) => {
    const items = answer.items || [];
    if (!items.length) { callback(null); return; }
    const list = items.slice(0, 60).map((item) => ({
      text: item.text, displayText: item.label,
      from: CodeMirror.Pos(item.from[0], item.from[1]), to: CodeMirror.Pos(item.to[0], item.to[1]),
      render: (element) => {
        element.append(item.label);
        if (item.detail) {
          const detail = document.createElement("span");
          detail.className = "detail";
          detail.textContent = item.detail;
          element.append(detail);
        }
      },
      documentation: item.documentation }));
    const result = { list, from: list[0].from, to: list[0].to };
    CodeMirror.on(result, "select", (choice) => { $("phrase").textContent = choice.documentation || ""; });
    callback(result);
  });
}
hints.async = true;

function complete(cm) {
  if (state.path) cm.showHint({ hint: hints, completeSingle: false });
}
editor.on("inputRead", (cm, change) => {
  if (/[\w $]/.test(change.text.join(""))) complete(cm);
});

// ------------------------------------------------------------------ files
async function loadFiles() {
  const answer = await api("/api/files");
  $("root").textContent = answer.root;
  const list = $("cards");
  list.replaceChildren();
  for (const file of answer.files) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.path = file.path;
    button.setAttribute("aria-current", String(file.path === state.path));
    button.textContent = file.name || file.path;
    if (file.name || file.scenario) {
      const where = document.createElement("span");
      where.className = "file";
      where.textContent = file.scenario ? " (scenarios)" : ` ${file.path}`;
      button.append(where);
    }
    button.addEventListener("click", () => open(file.path));
    item.append(button);
    list.append(item);
  }
}

function unsavedKept() {
  // (leaving a changed buffer asks first: an edit is never lost without a word)
  return !state.path || editor.isClean() || confirm(`Discard the unsaved changes to ${state.path}?`);
}
window.addEventListener("beforeunload", (event) => {
  if (state.path && !editor.isClean()) event.preventDefault();
});

async function open(path) {
  if (!unsavedKept()) return;
  const answer = await api(`/api/file?path=${encodeURIComponent(path)}`);
  if (answer.status !== 200) { say(answer.message); return; }
  state.path = path;
  state.card = null;
  $("file-name").textContent = path;
  $("proxy").innerHTML = "";
  editor.setValue(answer.text);
  editor.clearHistory();
  editor.markClean();
  loadFiles();
}

async function save() {
  if (!state.path) return false;
  const answer = await api("/api/save", { path: state.path, text: editor.getValue() });
  say(answer.message);
  if (answer.saved) {
    editor.markClean();
    loadFiles();
  }
  return answer.saved;
}

$("new-card").addEventListener("submit", (event) => {
  event.preventDefault();
  let name = $("new-name").value.trim();
  if (!name) { say("Give the new card's file name first."); return; }
  if (!name.endsWith(".yaml")) name += ".yaml";
  if (!unsavedKept()) return;
  state.path = name;
  state.card = null;
  $("file-name").textContent = name;
  $("proxy").innerHTML = "";
  editor.setValue("");
  editor.markClean();
  editor.focus();
  say(`New file ${name}: not saved yet.`);
});
$("save").addEventListener("click", save);

// ------------------------------------------------------------------ scenarios, rating
function needCard() {
  if (state.card) return true;
  say("The card must compile first.");
  return false;
}

$("run-scenarios").addEventListener("click", async () => {
  if (!needCard() || !(await save())) return;
  const box = $("scenario-results");
  box.textContent = "Running the scenarios…";
  const answer = await api("/api/scenarios", { card: state.card });
  box.replaceChildren();
  const head = document.createElement("h3");
  const passed = answer.outcomes.filter((o) => o.passed).length;
  head.textContent = answer.outcomes.length
    ? `Scenarios of ${answer.card}: ${passed} of ${answer.outcomes.length} passed`
    : `No scenario names ${answer.card} (write one under scenarios/)`;
  box.append(head);
  for (const outcome of answer.outcomes) {
    const line = document.createElement("p");
    line.className = outcome.passed ? "passed" : "failed";
    line.textContent = `${outcome.passed ? "passed" : "FAILED"}: ${outcome.name} (${outcome.file})`
      + (outcome.passed ? "" : `\n${outcome.message}`);
    box.append(line);
  }
});

$("rate").addEventListener("click", async () => {
  if (!needCard()) return;
  const games = Number($("games").value) || 20;
  $("rating").hidden = false;
  $("rating-result").textContent = "";
  let job = await api("/api/rate", { card: state.card, games });
  if (job.status !== 200) { say(job.message); return; }
  while (!job.finished) {
    $("rating-progress").max = job.total;
    $("rating-progress").value = job.done;
    $("rating-count").textContent = `${job.done} of ${job.total} cards rated`;
    await new Promise((resolve) => setTimeout(resolve, 300));
    job = await api(`/api/rate/${job.id}`);
  }
  $("rating-progress").max = job.total;
  $("rating-progress").value = job.total;
  $("rating-count").textContent = `${job.total} of ${job.total} cards rated`;
  showRating(job);
});

function showRating(job) {
  const box = $("rating-result");
  box.replaceChildren();
  if (job.error) { box.textContent = `The rating failed: ${job.error}`; return; }
  const r = job.result;
  const summary = document.createElement("p");
  summary.className = "rating-summary";
  summary.textContent = `${r.card}: ${Math.round(100 * r.win_rate)}% of ${r.games} games won by `
    + `${r.bot} against Big Money; ranked ${r.rank} of ${r.of} among the official cards `
    + `(better than ${Math.round(r.percentile)}%).`;
  const table = document.createElement("table");
  table.setAttribute("aria-label", "Win rates of the official cards and this one");
  table.innerHTML = "<thead><tr><th>Card</th><th>Win rate</th></tr></thead>";
  const rows = document.createElement("tbody");
  for (const row of r.table) {
    const tr = document.createElement("tr");
    if (row.card === r.card) tr.className = "this";
    const name = document.createElement("td");
    name.textContent = row.card;
    const rate = document.createElement("td");
    rate.textContent = `${Math.round(100 * row.win_rate)}%`;
    tr.append(name, rate);
    rows.append(tr);
  }
  table.append(rows);
  box.append(summary, table);
}

// ------------------------------------------------------------------ a game
$("play").addEventListener("click", async () => {
  if (!needCard()) return;
  $("game").hidden = false;
  $("narration").replaceChildren();
  $("game-result").textContent = "";
  showGame(await api("/api/play", { card: state.card }));
});

function showGame(game) {
  if (game.status !== 200) { say(game.message); return; }
  state.game = game.id;
  const log = $("narration");
  for (const text of game.narration) {
    const line = document.createElement("p");
    line.textContent = text;
    log.append(line);
  }
  log.scrollTop = log.scrollHeight;
  const choices = $("choices");
  choices.replaceChildren();
  if (game.refused) $("how").textContent = game.refused;
  if (game.over) {
    $("decision").hidden = true;
    $("game-status").textContent = "";
    const scores = game.result.scores.map(([who, vp]) => `${who} ${vp} VP`).join(", ");
    $("game-result").textContent = `Game over after ${game.result.turns} turns: ${scores}. `
      + `${game.result.winners.join(" and ")} won.`;
    return;
  }
  const pending = game.pending;
  $("decision").dataset.kind = pending.kind; // (what is asked, and the fewest cards to pick)
  $("decision").dataset.min = pending.min;
  $("decision").hidden = false;
  $("prompt").textContent = pending.prompt;
  $("game-status").textContent = pending.status;
  if (!game.refused) $("how").textContent = pending.how;
  if (pending.numbers) { // "how many do you spend?": a number field
    const [low, high] = pending.numbers;
    const field = document.createElement("input");
    field.type = "number";
    field.min = low;
    field.max = high;
    field.value = high;
    field.id = "number-answer";
    const label = document.createElement("label");
    label.htmlFor = field.id;
    label.textContent = `A number from ${low} to ${high}`;
    choices.append(label, field, answerButton("Answer", () => field.value));
    return;
  }
  if (pending.many) { // a pick of cards: one box per card (a group of three Coppers is three)
    pending.choices.forEach((choice, i) => {
      for (let n = 0; n < choice.count; n++) {
        const box = document.createElement("label");
        const tick = document.createElement("input");
        tick.type = "checkbox";
        tick.value = String(i + 1);
        box.append(tick, choice.count > 1 ? `${choice.name} ${n + 1} of ${choice.count}` : choice.label);
        choices.append(box);
      }
    });
    choices.append(answerButton("Done", () => {
      const picked = [...choices.querySelectorAll("input:checked")].map((t) => t.value);
      return picked.length ? picked.join(",") : "0";
    }));
    return;
  }
  pending.choices.forEach((choice, i) => choices.append(answerButton(choice.label, () => String(i + 1))));
  if (pending.optional) choices.append(answerButton("None", () => "0"));
}

function answerButton(label, answer) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "choice";
  button.textContent = label;
  button.addEventListener("click", async () => {
    showGame(await api(`/api/play/${state.game}`, { answer: answer() }));
  });
  return button;
}

loadFiles();
