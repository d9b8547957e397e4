// kittens serve: the replay viewer. The server replays the game and sends every step as
// the chosen seat saw it (or as everyone, for a finished game); this page only shows them.
"use strict";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/");
const roomId = parts[1] === "room" ? parts[2] : null;
let data = null, at = 0, logText = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}
const title = (id) => (data.cards[id] && data.cards[id].title) || "a card";
const text = (id) => (data.cards[id] && data.cards[id].text) || "";
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
function chip(id, label) {
  const node = el("span", "chip", label || title(id));
  node.title = text(id);
  return node;
}

async function load(seat, game) {
  $("error").textContent = "";
  const response = roomId
    ? await fetch(`/api/replay/room/${roomId}?seat=${encodeURIComponent(seat)}`)
    : await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" },
                                   body: JSON.stringify({ log: logText, seat: seat === "all" ? "all" : Number(seat), game }) });
  const result = await response.json();
  if (!response.ok) { $("error").textContent = result.error; return; }
  const keep = data && data.steps.length === result.steps.length ? at : 0;
  data = result;
  setUp();
  show(keep);
}

function setUp() {
  $("edition").textContent = `${data.edition}: replay`;
  $("source").hidden = !!roomId;
  $("controls").hidden = false;
  const seat = $("seat");
  const chosen = String(data.viewer);
  seat.replaceChildren(el("option", null, "Everyone (every hand)"), ...data.names.map((name, s) => {
    const option = el("option", null, name);
    option.value = String(s);
    return option;
  }));
  seat.firstChild.value = "all";
  seat.value = chosen;
  $("game-box").hidden = !data.games || data.games < 2;
  if (data.games) {
    $("game").replaceChildren(...Array.from({ length: data.games }, (_, i) => {
      const option = el("option", null, `Game ${i + 1}`);
      option.value = String(i + 1);
      return option;
    }));
    $("game").value = String(data.game);
  }
  $("slider").max = String(data.steps.length - 1);
  $("problem").hidden = !data.problem;
  $("problem").textContent = data.problem ? `The replay stops here: ${data.problem}` : "";
  for (const id of ["hand-box", "seats-box", "piles-box", "log-box"]) $(id).hidden = false;
  const log = $("log");
  log.replaceChildren(...data.log.map((entry) => {
    const line = el("p", null, entry.text);
    line.dataset.n = entry.n;
    const where = el("span", "lineno", `line ${entry.line}`);
    line.prepend(where);
    return line;
  }));
}

function show(step) {
  at = Math.max(0, Math.min(data.steps.length - 1, step));
  const current = data.steps[at], before = at ? data.steps[at - 1].upto : 0;
  const view = current.view;
  $("slider").value = String(at);
  $("step-label").textContent = `Step ${at} of ${data.steps.length - 1}` + (at === 0 ? " (the deal)" : "");
  $("pile-count").textContent = `Draw pile: ${plural(view.draw_pile.count, "card")}`;
  $("next").textContent = current.next ? `Next to choose: ${current.next}` :
    data.finished ? "The game is over." : "";
  // at the last step of a finished game: how it ended, in plain words
  const ended = data.summary && at === data.steps.length - 1;
  $("summary").hidden = !ended;
  $("summary").replaceChildren(...(ended ? data.summary : []).map((line) => el("li", null, line)));
  // the final scores by name, once the game is over (a game with scores)
  const scores = view.finished && view.scores ? view.scores : null;
  $("replay-scores").hidden = !scores;
  $("replay-scores").textContent = scores ? "Scores: " + scores.map((score, s) => `${data.names[s]} ${score}`).join(", ") : "";
  $("back").disabled = $("first").disabled = at === 0;
  $("forward").disabled = $("last").disabled = at === data.steps.length - 1;
  const hand = $("hand");
  $("hand-box").hidden = view.hand === null;
  if (view.hand !== null) {
    hand.replaceChildren(...view.hand.map((id) => {
      const tile = el("div", "card");
      tile.title = text(id);
      const svg = data.cards[id] && data.cards[id].face;  // the card's face, as at the table
      if (svg) {
        const face = el("img", "face");
        face.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
        face.alt = "";
        tile.classList.add("faced");
        tile.append(face);
      }
      tile.append(el("div", "title", title(id)));
      return tile;
    }));
    if (!view.hand.length) hand.append(el("span", "muted", "No cards."));
  }
  $("seats").replaceChildren(...view.seats.map((seat) => {
    const box = el("div", "seat");
    if (seat.seat === view.turn.seat && !view.finished) box.classList.add("current");
    if (!seat.alive) box.classList.add("out");
    box.append(el("div", "name", data.names[seat.seat]), el("div", "count", seat.alive ? plural(seat.count, "card") : "out"));
    if (seat.alive && seat.owed > 1) box.append(el("div", "muted", `owes ${seat.owed} turns`));
    if (seat.counters && Object.keys(seat.counters).length) {  // public per-player numbers: scores, tokens
      box.append(el("div", "counters", Object.entries(seat.counters)
        .map(([name, value]) => `${name.replace(/_/g, " ")}: ${value}`).join(", ")));
    }
    if (view.scores) box.append(el("div", "score", `score: ${view.scores[seat.seat]}`));
    if (seat.known && seat.known.length) {
      const chips = el("div", "chips");
      seat.known.forEach((id) => chips.append(chip(id)));
      box.append(chips);
    }
    return box;
  }));
  const piles = [];
  const pile = (label, big, chips) => {
    const box = el("div", "pile");
    box.append(el("div", "muted", label), el("div", "big", big));
    if (chips) box.append(chips);
    piles.push(box);
  };
  const known = el("div", "chips");
  view.draw_pile.known.forEach((k) => known.append(chip(k.card, `${k.place === 0 ? "top" : `place ${k.place + 1}`}: ${title(k.card)}`)));
  pile("Draw pile", plural(view.draw_pile.count, "card"), view.draw_pile.known.length ? known : null);
  pile("Discard pile", view.discard_pile.length ? title(view.discard_pile[0]) : "empty");
  $("piles").replaceChildren(...piles);
  // this step's lines (the events of its decision) are marked; the first of them in sight
  let first = null;
  $("log").querySelectorAll("p").forEach((line) => {
    const n = Number(line.dataset.n);
    const mine = n < current.upto && (n >= before || (at === 0));
    line.classList.toggle("step", mine);
    line.classList.toggle("later", n >= current.upto);
    if (mine && first === null) first = line;
  });
  if (first) {
    const log = $("log");
    log.scrollTop = first.offsetTop - log.offsetTop - 8;
  }
}

$("first").onclick = () => show(0);
$("back").onclick = () => show(at - 1);
$("forward").onclick = () => show(at + 1);
$("last").onclick = () => show(data.steps.length - 1);
$("slider").oninput = () => show(Number($("slider").value));
$("seat").onchange = () => load($("seat").value, data.game);
$("game").onchange = () => load($("seat").value, Number($("game").value));
document.addEventListener("keydown", (event) => {
  if (!data || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (event.key === "ArrowRight") show(at + 1);
  if (event.key === "ArrowLeft") show(at - 1);
});
$("file").onchange = async () => {
  const file = $("file").files[0];
  if (!file) return;
  logText = await file.text();
  data = null;
  load("all", 1);
};
if (roomId) load("all", 1);
