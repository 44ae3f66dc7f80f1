// allfours serve: the director's page.  Every table's state, asked every 4 s; a table
// without an entry for --stale minutes is flagged; a dispute waits for a ruling, which
// is sent as a line ("E high low") and judged by the server's recording core, written
// "director scored ...".  No rule of All Fours here; record text goes in by textContent.
"use strict";

const token = location.pathname.split("/")[2];
const base = "/d/" + encodeURIComponent(token) + "/";
const $ = (id) => document.getElementById(id);
const cards = new Map();  // table name -> its card

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

function cardOf(name) {
  let card = cards.get(name);
  if (!card) {
    card = $("card").content.firstElementChild.cloneNode(true);
    card.querySelector(".name").textContent = name;
    card.querySelector(".rule").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = card.querySelector("input");
      rule(name, input.value, input, Number(card.dataset.deal) || null);
    });
    $("tables").appendChild(card);
    cards.set(name, card);
  }
  return card;
}

function flag(text) {
  const span = document.createElement("span");
  span.className = "flag";
  span.textContent = text;
  return span;
}

function show(table, staleMinutes) {
  const card = cardOf(table.table);
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
  // the ruling is on the last disputed deal: the server refuses it if the table went on
  const last = table.disputes[table.disputes.length - 1];
  card.dataset.deal = last && last.deal ? String(last.deal) : "";
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
  $("event-title").textContent = "Round " + body.round + ": the match sheets";
  $("sheets").textContent = body.sheets || "no game of this round finished yet";
  $("standings").textContent = body.standings;
  $("event-when").textContent = "counted at " + new Date().toLocaleTimeString();
}

poll();
report();
setInterval(poll, 4000);
setInterval(report, 30000);
