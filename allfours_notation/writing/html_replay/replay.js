// The replay page's script: draws the step chosen by the buttons, keys, slider and deal
// links from the JSON in #replay-data.  It holds no rule of the game: every fact it shows
// was computed by the replayer.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  // The steps are in columns (data.steps): each step's kind and text; its deal and
  // trick as [step, value, step, value, ...] where they change; its diagnostics as
  // [step, [diagnostic, ...], ...].  The table is in data.parts: by part, the steps that
  // change it and its value there, [step, value, ...] (the hands seat by seat); a part of
  // seats, suits or cards, or of counts by side ("NS 1 EW 0"), is one text, "step step
  // ...|value|value...", empty where there is no seat or suit.  A part's cards are one text of codes (a trick's each led by its
  // seat's letter), the points and the items not counted yet the indexes of rows in
  // data.rows.  Read once here into
  // each step's changes, then the rest is carried forward, so each step holds the whole
  // table again.
  const cards = (text) => (text ? text.split(" ") : []);
  const row = (index) => data.rows[index];
  const letter = (text) => text || null;
  const bySide = (text) => {  // "NS 1 EW 0": [["NS", 1], ["EW", 0]]
    const words = cards(text), out = [];
    for (let j = 0; j < words.length; j += 2) out.push([words[j], Number(words[j + 1])]);
    return out;
  };
  const read = {
    dealer: letter, elder: letter, trump: letter, to: letter, last: letter,
    turnups: cards, legal: cards, won: bySide, pips: bySide, scores: bySide,
    trick: (text) => cards(text).map((played) => [played[0], played.slice(1)]),
    points: (indexes) => indexes.map(row), later: (indexes) => indexes.map(row),
  };
  const steps = data.steps.kind.map((k, i) => ({ k: k, x: data.steps.text[i], s: {}, dg: [] }));
  function atSteps(column, each) {
    if (typeof column === "string") {
      if (!column) return;
      const values = column.split("|");
      values.shift().split(" ").forEach((at, j) => each(steps[Number(at)], values[j]));
      return;
    }
    for (let j = 0; j < column.length; j += 2) each(steps[column[j]], column[j + 1]);
  }
  atSteps(data.steps.deal, (step, deal) => { step.d = deal; });
  atSteps(data.steps.trick, (step, trick) => { step.t = trick; });
  atSteps(data.steps.found, (step, found) => { step.dg = found; });
  for (const [name, column] of Object.entries(data.parts)) {
    if (name === "hands") {
      for (const [seat, held] of Object.entries(column)) {
        atSteps(held, (step, text) => {
          if (!step.s.hands) step.s.hands = {};
          step.s.hands[seat] = cards(text);
        });
      }
      continue;
    }
    const value = read[name] || ((same) => same);
    atSteps(column, (step, part) => { step.s[name] = value(part); });
  }
  for (let i = 1; i < steps.length; i++) {
    if (steps[i].d === undefined) steps[i].d = steps[i - 1].d;
    if (steps[i].t === undefined) steps[i].t = steps[i - 1].t;
    const before = steps[i - 1].s, changed = steps[i].s;
    steps[i].s = Object.assign({}, before, changed);
    if (changed.hands) steps[i].s.hands = Object.assign({}, before.hands, changed.hands);
  }
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const stops = new Set(data.stops);
  let current = 0;

  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function cardEl(code, legal) {
    const suit = code.slice(-1);
    const node = el("span", "card" + (suit === "H" || suit === "D" ? " red" : "") +
      (legal ? " legal" : ""), code.slice(0, -1).replace("T", "10") + (SUITS[suit] || suit));
    node.dataset.card = code;
    return node;
  }
  function backEl() { return el("span", "card back", "##"); }
  function pairs(list) { return list.map((p) => p[0] + " " + p[1]).join("  ") || "\u2014"; }

  function drawSeat(seat, s) {
    const box = el("div", "seat " + seat + (s.to === seat ? " to-move" : ""));
    box.dataset.seat = seat;
    const who = el("div", "who", SEAT_NAMES[seat] + " \u00b7 " + data.names[seat]);
    const roles = [];
    if (data.seats.length === 4) roles.push("[" + data.sides[seat] + "]");
    if (s.dealer === seat) roles.push("dealer");
    if (s.elder === seat) roles.push("elder");
    if (roles.length) who.append(" ", el("span", "role", roles.join(" ")));
    box.append(who);
    const hand = el("div", "hand");
    const legal = new Set(s.to === seat ? s.legal : []);
    for (const code of s.hands[seat] || []) hand.append(cardEl(code, legal.has(code)));
    for (let i = 0; i < (s.unknown[seat] || 0); i++) hand.append(backEl());
    if (!hand.childNodes.length) hand.append(el("span", "role", "(no cards)"));
    box.append(hand);
    return box;
  }

  function drawTrick(step) {
    const s = step.s;
    const box = el("div", "trick");
    box.id = "trick";
    const head = el("div", "head", s.tn ? "Trick " + s.tn : "");
    if (s.trick.length) head.append(" \u00b7 " + s.trick[0][0] + " led");
    if (step.k === "trick_end" && s.last) {
      head.append(el("br"), el("span", "won", "won by " + s.last));
    }
    box.append(head);
    for (const [seat, code] of s.trick) {
      const spot = el("div", "at-" + seat);
      spot.dataset.seat = seat;
      spot.append(seat + " ", cardEl(code, false));
      box.append(spot);
    }
    return box;
  }

  function drawTable(step) {
    const table = $("table");
    table.replaceChildren();
    const position = dealOf(current);
    if (position >= 0 && data.deals[position].entry === "results") {
      // a deal recorded by its results alone: no cards, the items each side took
      const box = el("div", "results");
      box.id = "results";
      box.append(el("p", "label", "Deal " + step.d + ", recorded by its results"));
      const list = el("ul");
      for (const [side, item, points] of step.s.points) list.append(el("li", "item", side + " " + item + " +" + points));
      if (!step.s.points.length) list.append(el("li", "label", "no item yet"));
      box.append(list);
      table.append(box);
      return;
    }
    for (const seat of data.seats) table.append(drawSeat(seat, step.s));
    table.append(drawTrick(step));
  }

  function fact(label, value) {
    const span = el("span");
    span.append(el("span", "label", label + " "), value);
    return span;
  }

  function drawFacts(step) {
    const s = step.s;
    const turnups = el("span");
    if (s.turnups.length) s.turnups.forEach((c) => turnups.append(cardEl(c, false), " "));
    else turnups.append("\u2014");
    const box = $("facts");
    box.replaceChildren(
      fact("Turn-up", turnups),
      fact("Trumps", s.trump ? SUITS[s.trump] + " " + s.trump : "\u2014"),
      fact("Tricks won", pairs(s.won)),
      fact("Pips toward Game", pairs(s.pips)),
    );
    if (s.to) box.append(fact("To move", s.to + " (" + data.names[s.to] + ")"));
  }

  function diagEl(d) {
    return el("p", "diag " + d.severity, d.code + (d.where ? " [" + d.where + "]" : "") + ": " + d.message);
  }

  function drawNow(step) {
    const where = step.t !== null ? "deal " + step.d + ", trick " + step.t : "deal " + step.d;
    const box = $("now");
    box.replaceChildren(
      el("div", "where", "Step " + (current + 1) + " of " + steps.length + " \u00b7 " + where),
      el("div", "text", step.x),
    );
    for (const d of step.dg) box.append(diagEl(d));
  }

  function drawScore(step) {
    const s = step.s;
    const box = $("score");
    const total = el("div", "total");
    total.id = "scores";
    total.append(el("span", "label", "Score "));
    s.scores.forEach(([side, points], i) => {
      const item = el("span", "side-score", side + " " + points);
      item.dataset.side = side;
      item.dataset.points = String(points);
      total.append(i ? "  " : "", item);
    });
    total.append(el("span", "label", "  target " + data.target));
    box.replaceChildren(total);
    if (s.winner) box.append(el("div", "winner", "Game won by " + s.winner));
    box.append(el("div", "label", "Points in deal " + step.d));
    const list = el("ul");
    list.id = "points";
    for (const [side, item, points, reason] of s.points) {
      const li = el("li");
      li.append(el("span", "item", side + " " + item + " " + points), " \u2014 " + reason);
      list.append(li);
    }
    for (const [side, item, points, status, reason] of s.later || []) {
      const li = el("li", "provisional");
      const word = status === "d" ? "decided, counted at the end" : "provisional, if the deal ended now";
      li.append(el("span", "item", side + " " + item + " (" + points + ")"), " \u2014 " + word + ": " + reason);
      list.append(li);
    }
    if (!s.points.length && !(s.later || []).length) list.append(el("li", "label", "none yet"));
    box.append(list);
  }

  // A list of flagged cards, each taking the reader to the step that plays it.
  function flagList(id, flags, none) {
    const list = el("ul");
    list.id = id;
    for (const flag of flags) {
      const li = el("li", "flag" + (flag.step === current ? " here" : ""), flag.text);
      li.dataset.step = String(flag.step);
      li.addEventListener("click", () => go(flag.step));
      list.append(li);
    }
    if (!flags.length) list.append(el("li", "label", none));
    return list;
  }

  // The analysis of the deal (allfours html --analyse): par, result, the flagged cards,
  // all hands seen.  Absent from the data: the section stays empty.
  function drawAnalysis(step) {
    const box = $("analysis");
    if (!data.analysis) { box.replaceChildren(); return; }
    const found = data.analysis.deals[String(step.d)];
    box.replaceChildren(el("div", "label", "Analysis of deal " + step.d + ": " +
      data.analysis.label));
    if (!found) { box.append(el("p", "label", "not analysed")); return; }
    if (!found.solved) { box.append(el("p", "label", found.note)); return; }
    const par = el("p", "par");
    par.id = "par";
    par.append(el("span", "label", "Par "), pairs(found.par),
      el("span", "label", "  actual "), pairs(found.actual));
    box.append(par);
    box.append(flagList("flags", found.flags, "every card kept its side's value"));
    if (found.note) box.append(el("p", "label", found.note));
    const single = found.single_dummy;
    if (!single) return;
    box.append(el("div", "label", single.label));
    box.append(flagList("single-dummy", single.flags, "no card flagged by either"));
    if (single.note) box.append(el("p", "label", single.note));
  }

  // What the advisor would have said at a call (allfours html --advice): absent from the
  // data, or no call at this step, the section stays empty.
  function drawAdvice() {
    const box = $("advice");
    const lines = data.advice ? data.advice[String(current)] : undefined;
    if (!lines) { box.replaceChildren(); return; }
    box.replaceChildren(el("div", "label", "The advisor at this call"),
      el("pre", "", lines.join("\n")));
  }

  function drawDeals(step) {
    for (const link of $("deal-links").children) {
      link.classList.toggle("current", Number(link.dataset.deal) === step.d);
    }
  }

  function go(index) {
    if (!steps.length) return;
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    drawTable(step); drawFacts(step); drawNow(step); drawScore(step); drawDeals(step);
    drawAnalysis(step);
    drawAdvice();
    $("slider").value = String(current);
    document.body.dataset.step = String(current);
  }

  function dealOf(index) {
    for (let i = 0; i < data.deals.length; i++) {
      if (data.deals[i].first <= index && index <= data.deals[i].last) return i;
    }
    let found = 0;
    data.deals.forEach((deal, i) => { if (deal.first <= index) found = i; });
    return found;
  }
  function nextTrick() {
    for (let i = current + 1; i < steps.length; i++) if (stops.has(steps[i].k)) return i;
    return steps.length - 1;
  }
  function previousTrick() {
    for (let i = current - 1; i >= 0; i--) if (stops.has(steps[i].k)) return i;
    return 0;
  }
  function deal(delta) {
    if (!data.deals.length) return current;
    const position = Math.max(0, Math.min(data.deals.length - 1, dealOf(current) + delta));
    return data.deals[position].first;
  }
  function dealEdge(end) {
    if (!data.deals.length) return end ? steps.length - 1 : 0;
    const found = data.deals[dealOf(current)];
    return end ? found.last : found.first;
  }

  const moves = {
    ArrowRight: () => current + 1, ArrowLeft: () => current - 1,
    ArrowDown: nextTrick, ArrowUp: previousTrick,
    PageDown: () => deal(1), PageUp: () => deal(-1),
    Home: () => dealEdge(false), End: () => dealEdge(true),
  };
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement && event.target.type === "range" &&
        (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
      event.preventDefault();  // the slider would move by one as well
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    go(move());
  });
  const buttons = {
    prev: () => current - 1, next: () => current + 1, "prev-trick": previousTrick,
    "next-trick": nextTrick, "prev-deal": () => deal(-1), "next-deal": () => deal(1),
  };
  for (const [id, move] of Object.entries(buttons)) $(id).addEventListener("click", () => go(move()));
  const slider = $("slider");
  slider.max = String(Math.max(0, steps.length - 1));
  slider.addEventListener("input", () => go(Number(slider.value)));

  function fromHash() {
    const match = /^#deal-(\d+)$/.exec(location.hash);
    if (!match) return false;
    const found = data.deals.find((d) => d.n === Number(match[1]));
    if (found) go(found.first);
    return Boolean(found);
  }
  for (const d of data.deals) {
    const link = el("a", "", "Deal " + d.n);
    link.href = "#deal-" + d.n;
    link.dataset.deal = String(d.n);
    link.title = "Scores after deal " + d.n + ": " + pairs(d.scores);
    $("deal-links").append(link);
  }
  window.addEventListener("hashchange", fromHash);

  $("rules").textContent = "rules " + data.rules + ", target " + data.target;
  const problems = $("problems");
  if (data.problems.length) {
    problems.append(el("div", "label", "Problems in the record"));
    data.problems.forEach((d) => problems.append(diagEl(d)));
  } else {
    problems.hidden = true;
  }

  const root = document.documentElement;
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  let scheme = null;
  try { scheme = localStorage.getItem("afn-scheme"); } catch (e) { scheme = null; }
  root.classList.toggle("dark", scheme ? scheme === "dark" : dark);
  $("scheme").addEventListener("click", () => {
    const now = !root.classList.contains("dark");
    root.classList.toggle("dark", now);
    try { localStorage.setItem("afn-scheme", now ? "dark" : "light"); } catch (e) { /* private mode */ }
  });

  const record = $("afn").textContent;
  $("save").href = "data:text/plain;charset=utf-8," + encodeURIComponent(record);

  if (!steps.length) {
    $("now").textContent = "This game has no steps to replay.";
  } else if (!fromHash()) {
    go(0);
  }
  window.afnReplay = { go: go, steps: steps.length, current: () => current };
})();
