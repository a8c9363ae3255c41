"""The replay viewer's page: one HTML document with its style sheet and script, no external resource.

``PAGE`` is filled by ``html.viewer_html`` with ``str.replace`` of three markers: ``@TITLE@`` (the
HTML-escaped title), ``@HEAD@`` (HTML-escaped, shown before the data is decoded) and ``@DATA@`` (the
payload: gzip-compressed JSON in base64, which the script decodes with the browser's built-in
``DecompressionStream('gzip')``). The payload's keys are those of ``html.view_payload``. The page is kept
as a Python string, not a data file, so that it is installed with the package whatever the build backend
copies.

Element ids the tests read: ``first``, ``prev``, ``next``, ``last`` (buttons), ``slider``,
``step-label``, ``pov``, ``turn``, ``action``, ``events`` (one ``li.event`` per event shown),
``scores``, ``board``, ``notice``, ``status``; ``document.body.dataset.ready`` is ``"1"`` once the data
is decoded and the first step shown, ``"error"`` if decoding failed.
"""

HEAD = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
"""  # the start of this page and of ``web_page.PAGE``, up to the title
STYLE = r""":root { --ink: #2b2118; --paper: #f6efe1; --panel: #fffaf0; --line: #d8c8a8; --accent: #8c3b1f; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif; color: var(--ink);
       background: var(--paper); }
header { padding: 8px 16px; background: #3b2a1e; color: #f6d28b; }
header h1 { margin: 0; font: bold 20px Georgia, serif; display: inline; }
header .sub { color: #f3ead7; margin-left: 12px; }
"""  # the style rules both pages share (colours, body, header)

PAGE = HEAD + r"""<title>@TITLE@</title>
<style>
""" + STYLE + r"""#controls { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
            padding: 8px 16px; background: #eadbbd; border-bottom: 1px solid var(--line); }
#controls button { font-size: 16px; min-width: 40px; padding: 3px 8px; cursor: pointer; }
#slider { flex: 1 1 240px; min-width: 160px; }
#step-label { font-weight: bold; min-width: 110px; font-variant-numeric: tabular-nums; }
#controls label { margin-left: 8px; }
#controls .keys { color: #6b5a44; font-size: 12px; }
main { display: flex; gap: 12px; padding: 12px 16px; align-items: flex-start; }
#board-panel { flex: 1 1 auto; min-width: 0; }
#board { background: var(--panel); border: 1px solid var(--line); padding: 6px; overflow: auto; }
#board svg { display: block; max-width: 100%; height: auto; }
#board pre { margin: 0; font: 12px/1.25 "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre; }
#side { flex: 0 0 380px; display: flex; flex-direction: column; gap: 10px; }
.box { background: var(--panel); border: 1px solid var(--line); padding: 8px 10px; }
.box h2 { margin: 0 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--accent); }
#action { font-weight: bold; overflow-wrap: anywhere; }
#events { margin: 0; padding-left: 18px; max-height: 46vh; overflow: auto; }
#events li { margin: 2px 0; overflow-wrap: anywhere; }
#events li.none { list-style: none; margin-left: -18px; color: #8a7a62; font-style: italic; }
#events .secret { font-size: 11px; color: #7a4a9a; margin-left: 4px; }
#scores { border-collapse: collapse; width: 100%; }
#scores td, #scores th { border-bottom: 1px solid var(--line); padding: 2px 6px; text-align: left; }
#scores td.num { text-align: right; font-variant-numeric: tabular-nums; }
#scores tr.turn td { background: #f6e3b4; }
#scores tr.winner td { font-weight: bold; color: var(--accent); }
#notice { margin-bottom: 8px; padding: 6px 10px; background: #fff3c4; border: 1px solid #e0c060; }
#notice:empty { display: none; }
#status { padding: 8px 16px; color: #a01010; }
#status:empty { display: none; }
@media (max-width: 1100px) { main { flex-direction: column; } #side { flex-basis: auto; width: 100%; } }
</style>
</head>
<body data-ready="0">
<header><h1 id="title">@HEAD@</h1><span class="sub" id="subtitle"></span></header>
<div id="status">Decoding the game...</div>
<div id="controls">
  <button id="first" title="first step (Home)">|&#x25C0;</button>
  <button id="prev" title="back one step (left arrow)">&#x25C0;</button>
  <button id="next" title="forward one step (right arrow)">&#x25B6;</button>
  <button id="last" title="last step (End)">&#x25B6;|</button>
  <input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="step">
  <span id="step-label">step 0 / 0</span>
  <label for="pov">point of view</label> <select id="pov"></select>
  <span class="keys">keys: &larr; &rarr; Home End</span>
</div>
<main>
  <section id="board-panel"><div id="notice"></div><div id="board"></div></section>
  <aside id="side">
    <div class="box"><h2>This step</h2><div id="turn"></div><div id="action"></div></div>
    <div class="box"><h2>Events of the action</h2><ul id="events"></ul></div>
    <div class="box"><h2>Scores</h2><table id="scores"></table></div>
  </aside>
</main>
<script id="wildwest-data" type="application/octet-stream">@DATA@</script>
<script>
"use strict";
let D = null, step = 0, pov = 0;
const $ = (id) => document.getElementById(id);

async function decode() {
  const b64 = $("wildwest-data").textContent.trim();
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (typeof DecompressionStream === "undefined") throw new Error("this browser has no DecompressionStream");
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function expand(runs) {  // [id, -k] stands for id, id+1, ..., id+k
  const ids = [];
  for (const x of runs) {
    if (x < 0) { const last = ids[ids.length - 1]; for (let j = 1; j <= -x; j++) ids.push(last + j); }
    else ids.push(x);
  }
  return ids;
}

function seatName(s) { return D.seats[s]; }
function viewer() { return pov - 1; }  // -1: omniscient

function showBoard() {
  const table = D.board_of_pov[pov];
  const text = expand(D.frames[table][step]).map((i) => D.chunks[i]).join(D.drawing === "svg" ? "" : "\n");
  const board = $("board");
  if (D.drawing === "svg") board.innerHTML = text;
  else { board.textContent = ""; const pre = document.createElement("pre"); pre.textContent = text; board.appendChild(pre); }
}

function showAction() {
  const turn = $("turn"), action = $("action");
  const current = D.current[step];
  turn.textContent = D.finished[step] ? "game over" + (D.truncated ? " (turn cap: truncated)" : "")
                                      : "to decide: " + seatName(current);
  if (step === 0) { action.textContent = "the deal, before the first action"; return; }
  const [seat, name] = D.actions[step - 1];
  const hidden = viewer() >= 0 && (D.hidden_actions[step - 1] >> viewer() & 1) === 1;
  action.textContent = "action " + step + ": " + seatName(seat) + " \u2014 " +
      (hidden ? "(its choice is not shown to " + D.players[viewer()] + ")" : name);
  action.dataset.hidden = hidden ? "1" : "0";
}

function showEvents() {
  const list = $("events");
  list.textContent = "";
  const events = step === 0 ? [] : D.events[step - 1];
  const seat = viewer();
  let shown = 0;
  for (const [text, kind, seenBy] of events) {
    if (seat >= 0 && !seenBy.includes(seat)) continue;
    const li = document.createElement("li");
    li.className = "event";
    li.dataset.kind = kind;
    li.textContent = text;
    if (D.kind_docs[kind]) li.title = D.kind_docs[kind];
    if (seat < 0 && seenBy.length < D.players.length) {
      const tag = document.createElement("span");
      tag.className = "secret";
      tag.textContent = seenBy.length ? "(seen by " + seenBy.map((s) => D.players[s]).join(", ") + ")" : "(seen by nobody)";
      li.appendChild(tag);
    }
    list.appendChild(li);
    shown++;
  }
  if (!shown) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = step === 0 ? "nothing yet" : (D.has_events ? "no events" + (events.length ? " this seat may see" : "")
                                                                : "this game reports no events");
    list.appendChild(li);
  }
}

function showScores() {
  const table = $("scores");
  table.textContent = "";
  const seat = viewer();
  D.players.forEach((name, s) => {
    const tr = table.insertRow();
    if (!D.finished[step] && D.current[step] === s) tr.className = "turn";
    const known = seat < 0 || (D.hidden_scores[seat][step] >> s & 1) === 0;
    tr.insertCell().textContent = seatName(s);
    const td = tr.insertCell();
    td.className = "num";
    td.textContent = known ? String(D.scores[step][s]) : "?";
    const tag = tr.insertCell();
    if (step === D.n_steps && D.winners.includes(s)) { tag.textContent = "winner"; tr.className = "winner"; }
  });
}

function show(k) {
  step = Math.max(0, Math.min(D.n_steps, k));
  $("slider").value = String(step);
  $("step-label").textContent = "step " + step + " / " + D.n_steps;
  $("prev").disabled = $("first").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === D.n_steps;
  showBoard(); showAction(); showEvents(); showScores();
  $("notice").textContent = D.notice[pov];
}

function setup() {
  document.title = D.title;
  $("title").textContent = D.title;
  $("subtitle").textContent = D.subtitle;
  const slider = $("slider");
  slider.max = String(D.n_steps);
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(step - 1);
  $("next").onclick = () => show(step + 1);
  $("last").onclick = () => show(D.n_steps);
  const select = $("pov");
  D.povs.forEach((name, i) => { const o = document.createElement("option"); o.value = String(i); o.textContent = name; select.appendChild(o); });
  select.addEventListener("change", () => { pov = Number(select.value); show(step); });
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.target === select || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: D.n_steps };
    if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
  });
  show(0);
}

decode().then((data) => {
  D = data;
  setup();
  $("status").textContent = "";
  document.body.dataset.ready = "1";
}).catch((error) => {
  $("status").textContent = "This viewer could not read its game: " + error;
  document.body.dataset.ready = "error";
  console.error(error);
});
</script>
</body>
</html>
"""
