"""The page of browser play (``web_play``): one HTML document with its style sheet and script, no external
resource. It reads ``GET /state`` and posts ``POST /move``; the style mirrors the replay viewer's
(``page.py``).

Element ids the tests read: ``title``, ``turn``, ``board`` (an ``svg`` or a ``pre``), ``notice``, ``moves``
(one ``button.move`` per legal move, ``data-action`` its id), ``filter`` (shown when there are many moves),
``since`` (one ``li.step`` per decision since the person's last move, its events as ``li.event``), ``scores``,
``result``, ``record``, ``status`` (errors). ``document.body.dataset``: ``ready`` is ``"1"`` once a state is
shown (``"error"`` if the first failed), ``decision`` the decision count shown, ``finished`` ``"1"`` at the
end, ``busy`` ``"1"`` while a move is being played.
"""

from .page import HEAD, STYLE

PAGE = HEAD + r"""<title>wildwest-play</title>
<style>
""" + STYLE + r"""#bar { position: sticky; top: 0; z-index: 2; padding: 8px 16px; background: #eadbbd;
       border-bottom: 1px solid var(--line); font-weight: bold; }
#bar.mine { background: #f6d28b; }
#bar.over { background: #d9e8c4; }
main { display: flex; gap: 12px; padding: 12px 16px; align-items: flex-start; }
#board-panel { flex: 1 1 auto; min-width: 0; }
#board { background: var(--panel); border: 1px solid var(--line); padding: 6px; overflow: auto; }
#board svg { display: block; max-width: 100%; height: auto; }
#board pre { margin: 0; font: 12px/1.25 "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre; }
#side { flex: 0 0 400px; display: flex; flex-direction: column; gap: 10px; }
.box { background: var(--panel); border: 1px solid var(--line); padding: 8px 10px; }
.box h2 { margin: 0 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--accent); }
#filter { width: 100%; margin-bottom: 6px; padding: 3px 6px; }
#filter[hidden] { display: none; }
#moves { display: flex; flex-wrap: wrap; gap: 4px; max-height: 40vh; overflow: auto; }
#moves button { font: 13px "DejaVu Sans", Verdana, Arial, sans-serif; padding: 3px 8px; cursor: pointer;
                background: #fff3d6; border: 1px solid #b89a66; border-radius: 3px; text-align: left; }
#moves button:hover { background: #f6d28b; }
#moves button:disabled { cursor: wait; opacity: 0.5; }
#moves .none { color: #8a7a62; font-style: italic; }
#since { margin: 0; padding-left: 18px; max-height: 36vh; overflow: auto; }
#since li.step { margin: 3px 0; overflow-wrap: anywhere; }
#since li.step > .who { font-weight: bold; }
#since ul { margin: 0; padding-left: 16px; color: #5a4a36; font-size: 12px; }
#since li.none { list-style: none; margin-left: -18px; color: #8a7a62; font-style: italic; }
#scores { border-collapse: collapse; width: 100%; }
#scores td { border-bottom: 1px solid var(--line); padding: 2px 6px; text-align: left; }
#scores td.num { text-align: right; font-variant-numeric: tabular-nums; }
#scores tr.turn td { background: #f6e3b4; }
#scores tr.me td:first-child { font-weight: bold; }
#scores tr.winner td { font-weight: bold; color: var(--accent); }
#result { padding: 8px 10px; background: #eef6e2; border: 1px solid #9cbf73; font-size: 15px; }
#result:empty { display: none; }
#result .where { font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }
#notice { margin-bottom: 8px; padding: 6px 10px; background: #fff3c4; border: 1px solid #e0c060; }
#notice:empty { display: none; }
#status { padding: 8px 16px; color: #a01010; background: #fde8e0; }
#status:empty { display: none; }
@media (max-width: 1100px) { main { flex-direction: column; } #side { flex-basis: auto; width: 100%; } }
</style>
</head>
<body data-ready="0" data-busy="0">
<header><h1 id="title">wildwest-play</h1><span class="sub" id="subtitle"></span></header>
<div id="bar"><span id="turn">loading the game...</span></div>
<div id="status"></div>
<main>
  <section id="board-panel"><div id="notice"></div><div id="board"></div></section>
  <aside id="side">
    <div id="result"></div>
    <div class="box"><h2>Your moves</h2><input id="filter" type="search" placeholder="filter the moves" hidden>
      <div id="moves"></div></div>
    <div class="box"><h2>Since your last move</h2><ul id="since"></ul></div>
    <div class="box"><h2>Scores</h2><table id="scores"></table></div>
  </aside>
</main>
<script>
"use strict";
let S = null, busy = false;
const $ = (id) => document.getElementById(id);
const FILTER_FROM = 24;  // show the filter box from this many legal moves on

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function showBoard() {
  const board = $("board");
  if (S.board.kind === "svg") board.innerHTML = S.board.content;
  else { board.textContent = ""; board.appendChild(el("pre", "", S.board.content)); }
  $("notice").textContent = S.board.notice;
}

function showTurn() {
  const bar = $("bar");
  bar.className = S.finished ? "over" : (S.your_turn ? "mine" : "");
  $("turn").textContent = S.finished ? "game over after " + S.decision + " decisions"
      : (S.your_turn ? "your turn (" + S.seats[S.seat] + "): choose a move"
                     : "waiting for " + S.seats[S.current]);
}

function showMoves() {
  const box = $("moves"), filter = $("filter");
  box.textContent = "";
  filter.hidden = S.legal.length < FILTER_FROM;
  const wanted = filter.hidden ? "" : filter.value.trim().toLowerCase();
  for (const move of S.legal) {
    if (wanted && !move.name.toLowerCase().includes(wanted)) continue;
    const b = el("button", "move", move.name);
    b.dataset.action = String(move.action);
    b.title = "action " + move.action;
    b.disabled = busy;
    b.onclick = () => play(move.action);
    box.appendChild(b);
  }
  if (!box.children.length) {
    box.appendChild(el("span", "none", S.finished ? "the game is over" :
        (S.your_turn ? "no move matches the filter" : "not your turn")));
  }
}

function showSince() {
  const list = $("since");
  list.textContent = "";
  for (const step of S.since) {
    const li = el("li", "step");
    li.dataset.decision = String(step.decision);
    li.appendChild(el("span", "who", step.who + ": "));
    li.appendChild(el("span", "what", step.action === null ? "(a move you may not see)" : step.action));
    if (step.events.length) {
      const ul = el("ul");
      for (const text of step.events) ul.appendChild(el("li", "event", text));
      li.appendChild(ul);
    }
    list.appendChild(li);
  }
  if (!S.since.length) list.appendChild(el("li", "none", "nothing yet"));
  list.scrollTop = list.scrollHeight;
}

function showScores() {
  const table = $("scores");
  table.textContent = "";
  const winners = S.result ? S.result.winners : [];
  S.seats.forEach((name, s) => {
    const tr = table.insertRow();
    const classes = [];
    if (!S.finished && S.current === s) classes.push("turn");
    if (s === S.seat) classes.push("me");
    if (winners.includes(s)) classes.push("winner");
    tr.className = classes.join(" ");
    tr.insertCell().textContent = name;
    const td = tr.insertCell();
    td.className = "num";
    td.textContent = S.scores[s] === null ? "?" : String(S.scores[s]);
    tr.insertCell().textContent = winners.includes(s) ? "winner" : "";
  });
}

function showResult() {
  const box = $("result");
  box.textContent = "";
  if (!S.result) return;
  const r = S.result;
  let text;
  if (r.truncated && !r.winners.length) text = "The game reached its turn cap: no result.";
  else if (r.you_win) text = r.winners.length > 1 ? "You share the win!" : "You win!";
  else text = "You lose: " + r.winners.map((w) => S.seats[w]).join(", ") + (r.winners.length > 1 ? " win." : " wins.");
  box.appendChild(el("div", "verdict", text + " Final scores: " + r.scores.join(" / ") + "."));
  const where = el("div", "where");
  where.id = "record";
  if (S.record.path) where.appendChild(document.createTextNode("Game record saved to " + S.record.path + " \u2014 "));
  else if (S.record.error) where.appendChild(document.createTextNode(S.record.error + " \u2014 "));
  const a = el("a", "", "download the record");
  a.href = S.record.url;
  a.setAttribute("download", "");
  where.appendChild(a);
  box.appendChild(where);
}

function show(state) {
  S = state;
  document.title = (S.finished ? "game over" : (S.your_turn ? "your turn" : "waiting")) + " \u2014 " + S.game;
  $("title").textContent = S.game;
  $("subtitle").textContent = S.players.length + " players, seed " + S.seed + " \u00b7 you are " + S.seats[S.seat];
  showTurn(); showBoard(); showMoves(); showSince(); showScores(); showResult();
  document.body.dataset.decision = String(S.decision);
  document.body.dataset.finished = S.finished ? "1" : "0";
  document.body.dataset.ready = "1";
}

function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "1" : "0";
  for (const b of document.querySelectorAll("#moves button")) b.disabled = value;
}

async function play(action) {
  if (busy || !S || !S.your_turn) return;
  setBusy(true);
  $("status").textContent = "";
  $("turn").textContent = "playing your move; the agents answer...";
  try {
    const response = await fetch("/move", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ action: action, decision: S.decision }) });
    const data = await response.json();
    if (!response.ok) { $("status").textContent = "Move refused: " + data.error; await reload(); return; }
    busy = false;
    show(data);
  } catch (error) {
    $("status").textContent = "The server did not answer: " + error;
  } finally {
    setBusy(false);
    if (S) showTurn();
  }
}

async function reload() {
  const response = await fetch("/state");
  const data = await response.json();
  if (!response.ok) throw new Error(data.error);
  show(data);
}

$("filter").addEventListener("input", () => { if (S) showMoves(); });
reload().catch((error) => {
  $("status").textContent = "Could not load the game: " + error;
  document.body.dataset.ready = "error";
});
</script>
</body>
</html>
"""
