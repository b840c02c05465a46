// binokel-sim's page: the card grid and the hand's text kept in step (by mouse, touch and
// keyboard; words that are no card of the deck are named, never dropped), and a run started,
// followed and cancelled through the JSON API (/api/jobs), its answer put at the top of the
// page. Plain JavaScript, no library, no build step.
"use strict";

const RANK_ALIASES = { "10": "T" };
const SUIT_SYMBOLS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

function cardCode(token) {
  const t = token.trim().toUpperCase();
  if (!t) return null;
  const last = t.slice(-1);
  const suit = SUIT_SYMBOLS[last] || last;
  const rank = t.slice(0, -1);
  return (RANK_ALIASES[rank] || rank) + suit;
}

function gridCards() {
  return Array.from(document.querySelectorAll("#grid .card"));
}

// the hand's text read: copies of each card of the grid, and the words that are none
function readHand(text) {
  const known = new Set(gridCards().map((button) => button.dataset.card));
  const counts = {};
  const unknown = [];
  for (const token of text.split(/[\s,;]+/)) {
    if (!token) continue;
    const code = cardCode(token);
    if (known.has(code)) counts[code] = (counts[code] || 0) + 1;
    else unknown.push(token);
  }
  return { counts, unknown };
}

function showCounts() {
  const { counts, unknown } = readHand(document.getElementById("hand").value);
  let total = 0;
  for (const button of gridCards()) {
    const held = counts[button.dataset.card] || 0;
    total += held;
    button.querySelector(".held").textContent = `${held}/${button.dataset.copies}`;
    button.setAttribute("aria-label", `${button.dataset.name}: ${held} of ${button.dataset.copies}`);
    button.classList.toggle("chosen", held > 0);
  }
  const size = Number(document.body.dataset.handSize);
  const count = document.getElementById("count");
  count.textContent = `${total} of ${size} cards`;
  count.classList.toggle("off", total !== size);
  document.getElementById("unknown").textContent = unknown.length
    ? `Not cards of this deck (so not on the grid): ${unknown.join(", ")}` : "";
}

function writeHand(counts, unknown) {
  // in the grid's order (suits top to bottom, ranks high to low); words that are no card stay
  // at the end, so the text never loses what was typed
  const cards = [];
  for (const button of gridCards()) {
    for (let i = 0; i < (counts[button.dataset.card] || 0); i++) cards.push(button.dataset.card);
  }
  document.getElementById("hand").value = cards.concat(unknown).join(" ");
  showCounts();
}

function step(button, delta) {
  const { counts, unknown } = readHand(document.getElementById("hand").value);
  const copies = Number(button.dataset.copies);
  const held = counts[button.dataset.card] || 0;
  counts[button.dataset.card] = (held + delta + copies + 1) % (copies + 1);
  writeHand(counts, unknown);
}

function takingAway() {
  return document.getElementById("take-away").getAttribute("aria-pressed") === "true";
}

function cardKeys(event, button) {
  // + / ArrowUp adds, - / ArrowDown / Delete / Backspace takes away, ArrowLeft and ArrowRight
  // move along the grid (Enter and Space press the button: one more copy)
  const cards = gridCards();
  const here = cards.indexOf(button);
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -here, End: cards.length - 1 - here };
  if (event.key in moves) {
    const next = cards[Math.min(Math.max(here + moves[event.key], 0), cards.length - 1)];
    next.focus();
  } else if (event.key === "+" || event.key === "ArrowUp") {
    step(button, 1);
  } else if (["-", "ArrowDown", "Delete", "Backspace"].includes(event.key)) {
    step(button, -1);
  } else {
    return;
  }
  event.preventDefault();
}

function showError(message) {
  // at the top of the page, where the answer goes, and in view
  const answer = document.getElementById("answer");
  answer.innerHTML = "";
  const line = document.createElement("p");
  line.className = "error";
  line.id = "error";
  line.tabIndex = -1;
  line.setAttribute("role", "alert");
  line.textContent = message;
  answer.appendChild(line);
  line.scrollIntoView({ block: "start" });
}

let current = null; // the job id of the run shown

async function run() {
  const form = new URLSearchParams(window.location.search);
  const answer = document.getElementById("answer");
  const running = document.getElementById("running");
  const status = document.getElementById("status");
  const progress = document.getElementById("progress");
  form.set("command", document.body.dataset.command);
  answer.innerHTML = "";
  let first;
  let started;
  try {
    started = await fetch(`/api/jobs?${form}`, { method: "POST" });
    first = await started.json();
  } catch (failure) {
    showError(`the server did not answer (${failure.message}); is binokel-sim serve running?`);
    return;
  }
  if (!started.ok) {
    showError(first.error);
    return;
  }
  current = first.job;
  running.hidden = false;
  for (;;) {
    const reply = await fetch(`/api/jobs/${current}`);
    const job = await reply.json();
    if (!reply.ok) { running.hidden = true; showError(job.error); break; }
    progress.max = job.total || 1;
    progress.value = job.done;
    const what = job.state === "queued" ? "waiting for its turn" : "playing out deals";
    status.textContent = `${what}: ${job.done.toLocaleString("en")} of ` +
      `${job.total.toLocaleString("en")}, ${job.seconds} s` + (job.note ? ` (${job.note})` : "");
    if (job.state === "cancelled") { status.textContent = "cancelled"; break; }
    if (job.state === "done" || job.state === "failed") {
      const view = await fetch(`/jobs/${current}/view`);
      answer.innerHTML = await view.text();
      running.hidden = true;
      const top = answer.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) answer.scrollIntoView({ block: "start" });
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  current = null;
}

document.addEventListener("DOMContentLoaded", () => {
  const hand = document.getElementById("hand");
  hand.addEventListener("input", showCounts);
  for (const button of gridCards()) {
    button.addEventListener("click", (event) => step(button, event.shiftKey || takingAway() ? -1 : 1));
    button.addEventListener("contextmenu", (event) => { event.preventDefault(); step(button, -1); });
    button.addEventListener("keydown", (event) => cardKeys(event, button));
  }
  const takeAway = document.getElementById("take-away");
  takeAway.addEventListener("click", () => {
    takeAway.setAttribute("aria-pressed", takingAway() ? "false" : "true");
  });
  document.getElementById("clear").addEventListener("click", () => {
    writeHand({}, readHand(hand.value).unknown);
  });
  document.getElementById("variant").addEventListener("change", (event) => {
    window.location.search = `?variant=${encodeURIComponent(event.target.value)}`;
  });
  const abandon = () => {
    // a new question, or the page left: the run in flight is no one's any more
    if (current) fetch(`/api/jobs/${current}`, { method: "DELETE", keepalive: true });
  };
  window.addEventListener("pagehide", abandon);
  document.getElementById("ask").addEventListener("submit", () => {
    abandon();
    // empty fields stay out of the address: an option not given
    for (const field of document.querySelectorAll("#ask [name]")) {
      field.disabled = field.value.trim() === "";
    }
  });
  window.addEventListener("pageshow", () => {
    // back to this page from the browser's cache: its fields usable again
    for (const field of document.querySelectorAll("#ask [name]")) field.disabled = false;
  });
  document.getElementById("cancel").addEventListener("click", async () => {
    if (current) await fetch(`/api/jobs/${current}`, { method: "DELETE" });
  });
  showCounts();
  const error = document.getElementById("error");
  if (error) error.focus();
  if (document.body.dataset.autorun === "1") run();
});
