// allfours serve: the table page's card-by-card mode, the recorder's "revoke: record
// it?" and the next game.  No rule of All Fours here either: a card tapped is sent as
// the line `allfours record` would take (js, th), a hand as "E js 9h ..."; which cards
// are legal, who acts and how many cards a hand has are the server's (state.offered,
// state.actor, state.hand_size), shown as they are.  Loaded before table.js, whose
// enqueue(), say() and state these functions use.
"use strict";

const SUITS = [["s", "\u2660", "spades"], ["h", "\u2665", "hearts"],
               ["d", "\u2666", "diamonds"], ["c", "\u2663", "clubs"]];
const RANKS = ["a", "k", "q", "j", "t", "9", "8", "7", "6", "5", "4", "3", "2"];
const RANK_NAMES = { a: "ace", k: "king", q: "queen", j: "jack", t: "ten" };
const CALLS = { call: ["stand", "beg"], answer: ["give", "run"], exhausted: ["redeal"] };

let hand = null;  // a hand being composed: { seat: "E", cards: ["js", ...] }
let toConfirm = null;  // a line the referee asked to confirm (a revoke): { line, message }

function cardLabel(card) {
  const rank = card[0] === "t" ? "10" : card[0].toUpperCase();
  return rank + SUITS.find((s) => s[0] === card[1])[1];
}

function buildGrid() {
  const grid = document.getElementById("grid");
  for (const [suit, symbol, name] of SUITS) {
    const row = document.createElement("div");
    row.className = "suit suit-" + suit;
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", name);
    const label = document.createElement("span");
    label.className = "suit-name";
    label.textContent = symbol;
    row.appendChild(label);
    for (const rank of RANKS) {
      const button = document.createElement("button");
      button.dataset.card = rank + suit;
      button.textContent = cardLabel(rank + suit);
      button.setAttribute("aria-label", (RANK_NAMES[rank] || rank) + " of " + name);
      row.appendChild(button);
    }
    grid.appendChild(row);
  }
}

function showCards() {
  const due = state !== null && state.cards_due;
  document.getElementById("cards-pad").hidden = !due;
  for (const button of document.querySelectorAll("#mode-switch button")) {
    const chosen = state !== null && button.dataset.mode === state.mode;
    button.classList.toggle("chosen", chosen);
    button.setAttribute("aria-pressed", chosen ? "true" : "false");
  }
  if (!due) hand = null;
  if (hand !== null && state.hand_size === null) hand = null;
  // the calls the server's phase is waiting for (a beg again: its may_beg)
  const words = (due && CALLS[state.phase]) || (due && state.may_beg ? ["beg"] : []);
  for (const button of document.querySelectorAll("#calls button")) {
    button.hidden = !words.includes(button.dataset.line);
  }
  document.getElementById("calls").hidden = words.length === 0;
  const offered = due && hand === null ? state.offered : [];
  document.getElementById("grid").classList.toggle("has-offered", offered.length > 0);
  for (const button of document.querySelectorAll("#grid button")) {
    button.classList.toggle("legal", offered.includes(button.dataset.card));
    button.classList.toggle("chosen", hand !== null && hand.cards.includes(button.dataset.card));
  }
  const hands = document.getElementById("hand-seats");
  hands.hidden = !due || hand !== null || state.hand_size === null;
  if (!hands.hidden && hands.childElementCount !== state.seats.length) {
    hands.replaceChildren();
    for (const seat of state.seats) {
      const button = document.createElement("button");
      button.textContent = "Hand " + seat;
      button.dataset.hand = seat;
      hands.appendChild(button);
    }
  }
  document.getElementById("hand-draft").hidden = hand === null;
  document.getElementById("cards-title").textContent = hand === null ?
    (state && state.actor && state.phase === "play" ? state.actor + " plays: tap the card"
      : "Cards") : "Hand of " + hand.seat + ": " + hand.cards.length + " of " +
      state.hand_size + " cards";
  showConfirm();
  showOver();
}

function showConfirm() {
  const box = document.getElementById("confirm-card");
  box.hidden = toConfirm === null;
  document.getElementById("confirm-message").textContent =
    toConfirm === null ? "" : toConfirm.message;
}

function showOver() {
  const over = state !== null && state.phase === "over";
  document.getElementById("over-pad").hidden = !over;
  const next = over ? state.next_game : null;
  const button = document.getElementById("next-game");
  button.hidden = !(next && next.offered);
  button.textContent = next ? "Start game " + next.game : "Start the next game";
  document.getElementById("match-note").textContent = next && !next.offered ?
    "No next game here: " + next.why_not : "";
}

// an answer to an entry: a refusal the referee wants confirmed shows its question
function answered(outcome) {
  toConfirm = outcome && outcome.confirm ? { line: outcome.line, message: outcome.message }
    : null;
  if (toConfirm !== null) say(false, "not recorded yet: the referee asks first (below)");
  showConfirm();
}

// a tap on the cards pad, the mode switch, the next game or the confirmation:
// true when it was one of theirs
function cardTapped(button) {
  if (button.dataset.mode !== undefined) {
    enqueue("mode " + button.dataset.mode);
  } else if (button.dataset.hand !== undefined) {
    hand = { seat: button.dataset.hand, cards: [] };
    say(true, "tap " + state.hand_size + " cards of " + button.dataset.hand + "'s hand");
  } else if (button.dataset.card !== undefined && hand !== null) {
    const at = hand.cards.indexOf(button.dataset.card);
    if (at >= 0) hand.cards.splice(at, 1); else hand.cards.push(button.dataset.card);
  } else if (button.dataset.card !== undefined) {
    enqueue(button.dataset.card);
  } else if (button.id === "hand-send") {
    enqueue(hand.seat + " " + hand.cards.join(" "));
    hand = null;
  } else if (button.id === "hand-cancel") {
    hand = null;
  } else if (button.id === "confirm-yes") {
    enqueue("confirm " + toConfirm.line);
    toConfirm = null;
  } else if (button.id === "confirm-no") {
    say(false, "not recorded: " + toConfirm.line);
    toConfirm = null;
  } else {
    return false;
  }
  showCards();
  return true;
}

buildGrid();
