// allfours serve: the director's page.  Every table's state, asked every 4 s, grouped
// by round and match when an event's rounds are served; a table without an entry for
// --stale minutes is flagged; a dispute waits for a ruling on its deal (one the table
// has left too), sent as a line ("E high low") and judged by the server's recording
// core, written "director scored ...".  No rule of All Fours here; record text goes in
// by textContent.
"use strict";

const token = location.pathname.split("/")[2];
const base = "/d/" + encodeURIComponent(token) + "/";
const $ = (id) => document.getElementById(id);
const cards = new Map();  // table name -> its card
const grids = new Map();  // "round\nmatch" -> the grid its tables' cards go in
const rounds = [];  // the rounds served, in the order first seen

function say(accepted, message) {
  const status = $("status");
  status.className = accepted ? "" : "refused";
  status.textContent = message;
}

function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], {
    hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

function ago(seconds) {
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? minutes + " min ago" : Math.round(minutes / 60) + " h ago";
}

// the grid of a round's match (made on first use, in the order the server lists them);
// tables served without an event share one grid without headings
function gridOf(round, match) {
  const key = round + "\n" + match;
  let grid = grids.get(key);
  if (grid) return grid;
  let group = round ? document.querySelector('[data-round="' + CSS.escape(round) + '"]') : null;
  if (!group) {
    group = $("group").content.firstElementChild.cloneNode(true);
    group.dataset.round = round;
    const heading = group.querySelector(".round-name");
    heading.textContent = round ? "Round " + round : "";
    heading.hidden = !round;
    $("tables").appendChild(group);
    if (round) { rounds.push(round); roundLinks(); }
  }
  const block = $("match").content.firstElementChild.cloneNode(true);
  block.querySelector(".match-name").textContent = match;
  block.querySelector(".match-name").hidden = !match;
  group.appendChild(block);
  grid = block.querySelector(".grid");
  grids.set(key, grid);
  return grid;
}

// several rounds served: a page of links and QR codes for each, to print apart
function roundLinks() {
  const links = $("links");
  links.replaceChildren(links.firstElementChild);
  if (rounds.length < 2) return;
  for (const round of rounds) {
    const a = document.createElement("a");
    a.href = "links?round=" + encodeURIComponent(round);
    a.textContent = "round " + round;
    links.append(" · ", a);
  }
}

function cardOf(table) {
  const name = table.table;
  let card = cards.get(name);
  if (!card) {
    card = $("card").content.firstElementChild.cloneNode(true);
    const place = "round " + table.round + " " + table.match + " ";
    card.querySelector(".name").textContent = table.round && name.startsWith(place) ?
      name.slice(place.length) : name;
    const form = card.querySelector(".rule");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = form.querySelector("input");
      rule(name, input.value, input, Number(form.querySelector("select").value) || null);
    });
    form.querySelector("select").addEventListener("change", () => later(card));
    gridOf(table.round || "", table.match || "").appendChild(card);
    cards.set(name, card);
  }
  return card;
}

// the deal chosen is one the table has left: say what the ruling does to the later deals
function later(card) {
  const chosen = Number(card.querySelector("select").value);
  card.querySelector(".later").hidden = !(chosen < Number(card.dataset.ruled));
}

// the disputed deals to choose from, the last one first chosen; a choice made is kept
function choices(card, disputes) {
  const select = card.querySelector("select");
  const deals = [...new Set(disputes.map((d) => d.deal).filter((d) => d))];
  const kept = select.value;
  select.replaceChildren();
  for (const deal of deals) {
    const option = document.createElement("option");
    option.value = option.textContent = String(deal);
    select.appendChild(option);
  }
  select.value = deals.map(String).includes(kept) ? kept : String(deals[deals.length - 1] || "");
  later(card);
}

function flag(text) {
  const span = document.createElement("span");
  span.className = "flag";
  span.textContent = text;
  return span;
}

function show(table, staleMinutes) {
  const card = cardOf(table);
  const flags = card.querySelector(".flags");
  flags.replaceChildren();
  if (table.stale) flags.appendChild(flag("not reporting"));
  if (table.disputes.length) flags.appendChild(flag("dispute"));
  if (table.phase === "over") flags.appendChild(flag("game over"));
  card.classList.toggle("stale", table.stale);
  card.classList.toggle("disputed", table.disputes.length > 0);
  const score = card.querySelector(".score");
  score.replaceChildren();
  for (const [side, points] of table.scores) {
    const span = document.createElement("span");
    span.textContent = side + " " + points;
    score.appendChild(span);
  }
  card.querySelector(".deal").textContent = table.deal ? "deal " + table.deal +
    (table.dealer ? ", " + table.dealer + " deals" : "") : "no deal yet";
  card.querySelector(".next").textContent = "Next: " + table.next;
  card.querySelector(".when").textContent = "last entry " + clock(table.last_entry) + " (" +
    ago(table.idle_seconds) + ")" + (table.stale ? ": nothing for over " + staleMinutes +
    " min" : "");
  card.dataset.ruled = String(table.ruled_deal);
  choices(card, table.disputes);
  const disputes = card.querySelector(".disputes");
  disputes.hidden = table.disputes.length === 0;
  const list = card.querySelector(".list");
  list.replaceChildren();
  for (const dispute of table.disputes) {
    const li = document.createElement("li");
    li.textContent = dispute.message;
    list.appendChild(li);
  }
  card.querySelector(".record").textContent = table.last_deal;
}

function render(body) {
  const minutes = Math.round(body.stale_minutes * 10) / 10;
  for (const table of body.tables) show(table, minutes);
  const stale = body.tables.filter((t) => t.stale).length;
  const disputed = body.tables.filter((t) => t.disputes.length).length;
  $("summary").textContent = body.tables.length + " tables · " + stale +
    " not reporting (no entry for " + minutes + " min) · " + disputed + " waiting for a ruling";
}

async function poll() {
  try {
    const response = await fetch(base + "state");
    if (!response.ok) throw new Error(String(response.status));
    render(await response.json());
    $("net").className = "online";
    $("net").textContent = "online";
  } catch (e) {
    $("net").className = "offline";
    $("net").textContent = "offline";
  }
}

async function rule(name, line, input, deal) {
  let response, body = {};
  try {
    response = await fetch(base + "ruling", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ table: name, line: line, deal: deal }),
    });
    body = await response.json();
  } catch (e) {
    say(false, "the ruling was not sent: the server does not answer");
    return;
  }
  if (!response.ok) { say(false, body.error || "refused: " + response.status); return; }
  say(body.outcome.accepted, name + ": " + body.outcome.message);
  if (body.outcome.accepted) input.value = "";
  poll();
}

// an event's round: its match sheets and the standings, as `allfours event` prints them
async function report() {
  let body;
  try {
    const response = await fetch(base + "report");
    if (!response.ok) return;
    body = await response.json();
  } catch (e) { return; }
  if (!body.event) return;
  $("event").hidden = false;
  const sheets = [];
  for (const round of body.rounds) {
    const title = document.createElement("h2");
    title.textContent = "Round " + round.round + ": the match sheets";
    const sheet = document.createElement("pre");
    sheet.className = "sheet";
    sheet.textContent = round.sheets || "no game of this round finished yet";
    sheets.push(title, sheet);
  }
  $("sheets").replaceChildren(...sheets);
  $("standings").textContent = body.standings;
  $("event-when").textContent = "counted at " + new Date().toLocaleTimeString();
}

poll();
report();
setInterval(poll, 4000);
setInterval(report, 30000);
