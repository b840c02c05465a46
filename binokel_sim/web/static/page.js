// binokel-sim's page: the card grid and the hand text kept in step, and a run started, followed
// and cancelled through the JSON API (/api/jobs). Plain JavaScript, no library, no build step.
"use strict";

const RANK_ALIASES = { "10": "T" };
const SUIT_SYMBOLS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

function cardCode(token) {
  let t = token.trim().toUpperCase();
  if (!t) return null;
  const last = t.slice(-1);
  const suit = SUIT_SYMBOLS[last] || last;
  let rank = t.slice(0, -1);
  rank = RANK_ALIASES[rank] || rank;
  return rank + suit;
}

function handCounts(text) {
  const counts = {};
  for (const token of text.split(/[\s,]+/)) {
    const code = cardCode(token);
    if (code) counts[code] = (counts[code] || 0) + 1;
  }
  return counts;
}

function showCounts() {
  const counts = handCounts(document.getElementById("hand").value);
  let total = 0;
  for (const button of document.querySelectorAll("#grid .card")) {
    const held = counts[button.dataset.card] || 0;
    total += held;
    button.querySelector(".held").textContent = `${held}/${button.dataset.copies}`;
    button.classList.toggle("chosen", held > 0);
  }
  const size = Number(document.body.dataset.handSize);
  const count = document.getElementById("count");
  count.textContent = `${total} of ${size} cards`;
  count.classList.toggle("off", total !== size);
}

function writeHand(counts) {
  // in the grid's order: suits top to bottom, ranks high to low
  const cards = [];
  for (const button of document.querySelectorAll("#grid .card")) {
    for (let i = 0; i < (counts[button.dataset.card] || 0); i++) cards.push(button.dataset.card);
  }
  document.getElementById("hand").value = cards.join(" ");
  showCounts();
}

function step(button, delta) {
  const counts = handCounts(document.getElementById("hand").value);
  const copies = Number(button.dataset.copies);
  const held = counts[button.dataset.card] || 0;
  counts[button.dataset.card] = (held + delta + copies + 1) % (copies + 1);
  writeHand(counts);
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
  const started = await fetch(`/api/jobs?${form}`, { method: "POST" });
  const first = await started.json();
  if (!started.ok) {
    answer.innerHTML = "";
    const line = document.createElement("p");
    line.className = "error";
    line.setAttribute("role", "alert");
    line.textContent = first.error;
    answer.appendChild(line);
    return;
  }
  current = first.job;
  running.hidden = false;
  for (;;) {
    const reply = await fetch(`/api/jobs/${current}`);
    const job = await reply.json();
    if (!reply.ok) { status.textContent = job.error; break; }
    progress.max = job.total || 1;
    progress.value = job.done;
    status.textContent = `${job.state}: ${job.done.toLocaleString()} of ${job.total.toLocaleString()} deals, ${job.seconds} s` +
      (job.note ? ` (${job.note})` : "");
    if (job.state === "done" || job.state === "failed" || job.state === "cancelled") {
      if (job.state === "cancelled") { status.textContent = "cancelled"; break; }
      const view = await fetch(`/jobs/${current}/view`);
      answer.innerHTML = await view.text();
      running.hidden = true;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  current = null;
}

document.addEventListener("DOMContentLoaded", () => {
  const hand = document.getElementById("hand");
  hand.addEventListener("input", showCounts);
  for (const button of document.querySelectorAll("#grid .card")) {
    button.addEventListener("click", (event) => step(button, event.shiftKey ? -1 : 1));
    button.addEventListener("contextmenu", (event) => { event.preventDefault(); step(button, -1); });
  }
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
  if (document.body.dataset.autorun === "1") run();
});
