// allfours serve: the table page.  No rule of All Fours here: every button sends a
// line (the keys of `allfours record`'s results mode) and the server's recording core
// judges it.  Entries wait in localStorage until the server has answered them, and are
// sent once each, in order (a phone id and a counter).  Record text is put on the page
// with textContent only.  The card-by-card mode and the next game are in cards.js.
"use strict";

const token = location.pathname.split("/")[2];
const base = "/t/" + encodeURIComponent(token) + "/";
const storeKey = "afn-serve:" + token;
const $ = (id) => document.getElementById(id);

function newPhoneId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(storeKey));
    if (kept && typeof kept.phone === "string" && Array.isArray(kept.queue)) return kept;
  } catch (e) { /* a broken store starts again */ }
  return { phone: newPhoneId(), next: 1, queue: [] };
}

const store = load();
let state = null;
let item = null;  // an item waiting for its side ("h": High)
let claim = null;  // the other side's claim being composed: a list of words
let sending = false;
let retry = null;

function save() { localStorage.setItem(storeKey, JSON.stringify(store)); }

function enqueue(line) {
  store.queue.push({ number: store.next, line: line });
  store.next += 1;
  save();
  showNet();
  flush();
}

function showNet(offline) {
  const net = $("net");
  const waiting = store.queue.length;
  if (offline) {
    net.className = "offline";
    net.textContent = "offline" + (waiting ? ": " + waiting + " waiting" : "");
  } else {
    net.className = "online";
    net.textContent = waiting ? "sending " + waiting : "online";
  }
}

function later() {
  if (retry === null) retry = setTimeout(() => { retry = null; flush(); }, 1500);
}

async function flush() {
  if (sending || store.queue.length === 0) return;
  sending = true;
  const entry = store.queue[0];
  let response;
  try {
    response = await fetch(base + "entry", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ phone: store.phone, number: entry.number, line: entry.line }),
    });
  } catch (e) {
    sending = false;
    showNet(true);
    later();
    return;
  }
  let body = {};
  try { body = await response.json(); } catch (e) { /* said below */ }
  sending = false;
  if (response.status === 409 && typeof body.expected === "number") {
    // the server expects another number: renumber what waits, keeping its order
    store.queue.forEach((e, i) => { e.number = body.expected + i; });
    store.next = body.expected + store.queue.length;
  } else if (response.status === 429 || response.status >= 500) {
    if (body.error) say(false, body.error);
    showNet(true);
    later();
    return;
  } else {
    store.queue.shift();
    if (!response.ok) say(false, body.error || ("refused by the server: " + response.status));
  }
  save();
  if (body.state) render(body.state);
  if (body.outcome) {
    say(body.outcome.accepted, body.outcome.message);
    answered(body.outcome);  // cards.js: a revoke asks to be confirmed
  }
  showNet(false);
  flush();
}

function say(accepted, message) {
  const status = $("status");
  status.className = accepted ? "" : "refused";
  status.textContent = message;
}

function seatName(seat) {
  const names = { N: "North", E: "East", S: "South", W: "West" };
  const player = state && state.players[names[seat]];
  return player ? seat + " " + player : seat;
}

function fillSeats() {
  for (const box of document.querySelectorAll(".seats")) {
    box.replaceChildren();
    for (const seat of state.seats) {
      const button = document.createElement("button");
      button.textContent = seatName(seat);
      button.dataset.seat = seat.toLowerCase();
      box.appendChild(button);
    }
  }
  const kicks = $("kicks");
  kicks.replaceChildren();
  const values = state.kicks.length > 1 ? state.kicks : [null];
  for (const value of values) {
    const button = document.createElement("button");
    button.textContent = value === null ? "Kick" : "Kick " + value;
    button.dataset.line = value === null ? "k" : "k " + value;
    button.className = "not-claim";
    kicks.appendChild(button);
  }
}

function render(next) {
  const seatsChanged = !state || state.seats.join() !== next.seats.join() ||
    state.kicks.join() !== next.kicks.join();
  state = next;
  if (seatsChanged) fillSeats();
  $("table").textContent = state.table;
  $("deal").textContent = (state.game > 1 ? "· game " + state.game + " " : "") +
    (state.deal ? "· deal " + state.deal +
    (state.dealer ? ", " + state.dealer + " deals" : "") : "");
  const score = $("score");
  score.replaceChildren();
  for (const [side, points] of state.scores) {
    const span = document.createElement("span");
    span.textContent = side + " " + points;
    score.appendChild(span);
  }
  $("next").textContent = "Next: " + state.next;
  $("record").textContent = state.last_deal;
  if (state.phase !== "confirm" && state.phase !== "results") claim = null;
  showPads();
}

function showPads() {
  const phase = state ? state.phase : "";
  const claiming = claim !== null;
  $("dealer-pad").hidden = phase !== "dealer";
  $("results-pad").hidden = !(phase === "results" || claiming);
  $("confirm-pad").hidden = phase !== "confirm" || claiming;
  $("pad-title").textContent = claiming ? "Their claim: an item, then its side" : "Results";
  for (const e of document.querySelectorAll(".not-claim")) e.hidden = claiming;
  for (const e of document.querySelectorAll(".claim-only")) e.hidden = !claiming;
  $("claim-words").textContent = claiming ? (claim.join(", ") || "nothing yet") : "";
  const proposed = state ? state.proposed_dealer : null;
  $("proposed-dealer").hidden = !proposed;
  $("proposed-dealer").textContent = proposed ? proposed + " deals (proposed)" : "";
  for (const b of document.querySelectorAll("[data-item]")) {
    b.classList.toggle("chosen", b.dataset.item === item);
  }
  showCards();  // cards.js: the card grid, the mode switch, the next game
}

const ITEM_WORDS = { h: "high", l: "low", j: "jack", x: "hangjack", g: "game", p: "penalty" };

function tapped(button) {
  if (button.dataset.item !== undefined) {
    item = item === button.dataset.item ? null : button.dataset.item;
    if (item) say(true, button.textContent + ": now tap the side");
    showPads();
  } else if (button.dataset.seat !== undefined) {
    const box = button.parentElement.dataset.send;
    if (box === "seat") {
      enqueue(button.dataset.seat);
    } else if (item === null) {
      say(false, "tap an item first, then its side");
    } else if (claim !== null) {
      claim.push(button.dataset.seat.toUpperCase() + " " + ITEM_WORDS[item]);
      say(true, "their claim so far: " + claim.join(", "));
      item = null;
      showPads();
    } else {
      enqueue(item + " " + button.dataset.seat);
      item = null;
      showPads();
    }
  } else if (button.dataset.line !== undefined) {
    item = null;
    enqueue(button.dataset.line);
    showPads();
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || button.form) return;  // the typed line's Send is the form's
  if (button.id === "claim-start") { claim = []; item = null; showPads(); return; }
  if (button.id === "claim-cancel") { claim = null; item = null; showPads(); return; }
  if (cardTapped(button)) return;  // cards.js
  if (button.id === "claim-send") {
    if (claim.length === 0) { say(false, "tap the items they claim first"); return; }
    enqueue("claim " + claim.join(" "));
    claim = null;
    showPads();
    return;
  }
  tapped(button);
});

$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("line");
  if (input.value.trim() === "") {  // an empty line would end the deal: that is Deal done
    say(false, "type a line first (Deal done ends the deal)");
    return;
  }
  enqueue(input.value);
  input.value = "";
});

async function poll() {
  if (store.queue.length === 0 && !sending) {
    try {
      const response = await fetch(base + "state");
      if (response.ok) {
        render(await response.json());
        showNet(false);
      }
    } catch (e) {
      showNet(true);
    }
  }
  setTimeout(poll, 4000);
}

window.addEventListener("online", flush);
showNet(false);
poll();
flush();
