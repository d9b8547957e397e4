// kittens serve: the table page. It shows what the server sends for this seat and
// sends back which button was pressed; it knows no rules of its own.
"use strict";

const roomId = location.pathname.split("/")[2];
const token = new URLSearchParams(location.hash.slice(1)).get("seat") || "";
const $ = (id) => document.getElementById(id);
let cards = {}, names = [], mySeat = null, socket = null, retry = 0, deadline = 0, totalMs = 1;
let lastPrompt = null, answerMs = 0, baseTitle = "kittens table";
// the people (names chosen, who is online, who watches), and the page's own state
let bots = [], named = [], online = [], openKey = null, lastHand = null, myTurnPrompt = null, offline = false, pausedLeft = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}
function title(id) { return (cards[id] && cards[id].title) || "a card"; }
function text(id) { return (cards[id] && cards[id].text) || ""; }
function seatName(seat) { return seat === mySeat ? "You" : names[seat]; }
const store = {  // what this browser remembers (a private window may remember nothing)
  get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* not kept */ } },
};
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

const faceUrls = {};
function faceImage(id, cls) {
  // the card's face, drawn by the server from the card's data (the SVG `kittens print`
  // places too); one image address per card, made once
  const svg = cards[id] && cards[id].face;
  if (!svg) return null;
  if (!faceUrls[id]) faceUrls[id] = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  const image = el("img", cls);
  image.src = faceUrls[id];
  image.alt = "";  // the title is in the tile's text
  image.draggable = false;
  return image;
}
function cardTile(id) {
  const tile = el("button", "card");
  tile.type = "button";
  tile.title = text(id);
  tile.dataset.card = id;
  const face = faceImage(id, "face");
  if (face) tile.classList.add("faced");
  tile.append(...(face ? [face] : []), el("div", "title", title(id)));
  return tile;
}
function openCard(tile) {
  // a tap opens this tile only (two copies of a card are two tiles); its text shows
  // under the hand, so the row keeps its height
  const key = tile.dataset.key;
  openKey = openKey === key ? null : key;
  showOpenCard();
}
function showOpenCard() {
  const detail = $("card-detail");
  let shown = null;
  $("hand").querySelectorAll(".card").forEach((tile) => {
    const open = tile.dataset.key === openKey;
    tile.classList.toggle("open", open);
    tile.setAttribute("aria-expanded", String(open));
    if (open) shown = tile.dataset.card;
  });
  if (shown === null) openKey = null;
  detail.hidden = shown === null;
  if (shown !== null) detail.replaceChildren(el("strong", null, title(shown)), el("p", null, text(shown)));
}
function chip(label, hint) {
  const node = el("span", "chip", label);
  if (hint) node.title = hint;
  return node;
}

let retryTimer = null;  // the reconnect note's countdown
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${roomId}`);
  socket.onopen = () => {
    retry = 0;
    clearInterval(retryTimer);
    $("connection").hidden = true;
    socket.send(JSON.stringify({ type: "hello", token, social: true }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    const wait = Math.min(10000, 500 * 2 ** retry++);
    setOffline(true);
    countDown(Date.now() + wait);
    setTimeout(connect, wait);
  };
}
function countDown(at) {
  // the note says, second by second, when the page tries again
  clearInterval(retryTimer);
  const show = () => {
    const left = Math.ceil((at - Date.now()) / 1000);
    note("Connection lost: nothing you click can reach the table. "
      + (left > 0 ? `Trying again in ${left} s...` : "Trying again now..."));
  };
  show();
  retryTimer = setInterval(show, 250);
}
function setOffline(down) {
  // while the server cannot be reached, its buttons are off and the window's clock stands
  // (the server's round goes on or waits: the next update says which)
  if (down && !offline) pausedLeft = Math.max(0, deadline - performance.now());  // once: retries fail too
  offline = down;
  document.body.classList.toggle("offline", down);
  if (down) {
    online = [];  // who is online is unknown from here
    if (lastView) renderSeats(lastView);
    document.querySelectorAll("#prompt button, #window button, #rematch, #chat-form button, #name-form button, "
      + "#waiting button, #standin button").forEach((b) => { b.disabled = true; });
  } else {
    pausedLeft = null;
    // connected again: what stays on the page comes back on (the prompt and the window
    // are drawn anew by the next update)
    document.querySelectorAll("#rematch, #chat-form button, #name-form button")
      .forEach((b) => { b.disabled = false; });
  }
}
function note(message) {
  const box = $("connection");
  box.textContent = message;
  box.hidden = false;
}
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  note("Not connected: that did not reach the table. It will be asked again once the page is back.");
  return false;
}

function receive(message) {
  if (message.type === "welcome") welcome(message);
  else if (message.type === "update") update(message);
  else if (message.type === "names") { names = message.names; named = message.named; renderPeople(); }
  else if (message.type === "presence") { online = message.online; showWatchers(message.watchers); renderPeople(); }
  else if (message.type === "chat") addChat(message.line);
  else if (message.type === "rematch") follow(message.room);
  else if (message.type === "error") {
    if (["bad-token", "no-room", "closed"].includes(message.code)) { refused(message); return; }
    note(message.message);
    setTimeout(() => { if ($("connection").textContent === message.message) $("connection").hidden = true; }, 5000);
    document.querySelectorAll("#prompt button, #window button, #rematch, #chat-form button, #name-form button")
      .forEach((b) => { b.disabled = false; });
  }
}

function refused(message) {
  // the link opens no seat (often a link cut short on its way): say so for good, and how
  // to go on, rather than a note that fades and leaves an empty table
  socket.onclose = null;
  $("connection").hidden = true;
  document.querySelectorAll("main > section").forEach((section) => { section.hidden = true; });
  const box = $("stopped");
  box.hidden = false;
  if (message.code === "no-room") {
    box.textContent = "There is no table here. ";
  } else if (message.code === "closed") {
    // the server retired the table (its game ended long ago, or nobody played in it)
    box.textContent = message.message + " ";
  } else {
    box.textContent = "This seat link is not valid: it may have been cut short on its way to you. "
      + "Ask for your seat's link again, or ";
    const watch = el("a", null, "watch the table");
    watch.href = `/room/${roomId}`;
    box.append(watch, document.createTextNode(". "));
  }
  const lobby = el("a", null, "Make a table");
  lobby.href = "/";
  box.append(lobby, document.createTextNode("."));
}

function welcome(message) {
  cards = message.cards;
  names = message.names;
  bots = message.bots || [];
  mySeat = message.seat;
  answerMs = 1000 * (message.answer_seconds || 0);
  // a new connection (a reload, a reconnect): draw the prompt again, with live buttons,
  // even if it is the one a click was sent for before the connection dropped
  lastPrompt = null;
  if (message.next) { follow(message.next); return; }  // a rematch is on: this link opens it
  setOffline(false);
  named = message.named || [];
  online = message.online || [];
  $("edition").textContent = message.edition + (message.variant ? ` (${message.variant})` : "");
  showWho();
  showWatchers(message.watchers || 0);
  $("log").replaceChildren();
  $("chat-lines").replaceChildren();
  (message.chat || []).forEach(addChat);
  $("chat").hidden = false;
  $("chat-form").hidden = mySeat === null;  // spectators read the chat
  const form = $("name-form");
  form.hidden = mySeat === null || named[mySeat];
  if (!form.hidden && !$("name-input").value) $("name-input").value = store.get("kittens-name") || "";
  baseTitle = `${message.edition}: kittens table`;
  document.title = baseTitle;
}
function showWho() {
  $("who").textContent = mySeat === null ? "Watching" : `You are ${names[mySeat]}`;
}
function showWatchers(count) {
  $("watchers").textContent = count ? `(${count} watching)` : "";
}
function renderPeople() {
  showWho();
  $("name-form").hidden = mySeat === null || named[mySeat];
  if (lastView) { renderSeats(lastView); renderTurn(lastView); night.people(); }
}
function follow(room) {
  // the next game at this table: the same link (the seat's token) opens the seat there
  socket.onclose = null;
  socket.close();
  location.replace(`/room/${room}${location.hash}`);
}
function addChat(line) {
  const box = $("chat-lines");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  const row = el("p", line.seat === mySeat ? "mine" : null);
  row.append(el("strong", null, line.seat === mySeat ? "You" : line.name), document.createTextNode(`: ${line.text}`));
  box.append(row);
  while (box.children.length > 200) box.firstChild.remove();
  if (atBottom) box.scrollTop = box.scrollHeight;
}

let lastView = null;
function update(message) {
  const view = message.view;
  lastView = view;
  renderTurn(view);
  renderHand(view, message.arrivals || []);
  renderSeats(view);
  renderPiles(view);
  animateHand();
  renderLog(message.log);
  renderWindow(message);
  renderPrompt(message);
  renderOver(view);
  renderSummary(message.summary);
  $("waiting-for").hidden = !message.waiting_for || !!message.prompt;
  $("waiting-for").textContent = message.waiting_for ? `Waiting for ${message.waiting_for}...` : "";
  night.update(message, () => ({ mySeat, names, online, send }));  // the waiting room, stand-ins, the clock
  announceTurn(message);
  placeFocus();
  // a page in a background tab tells its person in the tab's title that they are asked
  document.title = (message.prompt ? (message.prompt.kind === "window" ? "Answer? " : "Your turn! ") : "")
    + baseTitle;
  const stopped = $("stopped");
  stopped.hidden = !message.error;
  stopped.textContent = message.error ? `This game has stopped: ${message.error}` : "";
}

function renderTurn(view) {
  // the header, pinned on every screen: whose turn, the turns they owe, the draw pile
  const turn = view.turn;
  const whose = (turn.seat === mySeat ? "your turn" : `${names[turn.seat]}'s turn`)
    + (turn.ending ? " is ending" : "");  // its end is still under way (a discard down): not the next turn yet
  $("turn").textContent = view.finished ? "Game over" :
    `Turn ${turn.number}: ${whose}` + (turn.direction < 0 ? " (play goes in reverse)" : "");
  const current = view.seats[turn.seat];
  const owed = view.finished || !current ? 0 : current.owed;
  $("owed").hidden = owed < 2;
  $("owed").textContent = owed < 2 ? "" : turn.seat === mySeat ? `you owe ${owed} turns` : `owes ${owed} turns`;
  $("pile-count").textContent = `Draw pile: ${plural(view.draw_pile.count, "card")}`;
}
function announceTurn(message) {
  // a person's turn begins: a tone, if they asked for one (never again for the same question)
  const prompt = message.prompt;
  const mine = prompt && prompt.kind === "action" ? prompt.id : null;
  if (mine && mine !== myTurnPrompt && $("sound").checked) motion.beep();  // sound, not motion: reduced motion keeps it
  if (mine || !prompt) myTurnPrompt = mine;
}

function renderHand(view, arrivals) {
  const hand = $("hand");
  hand.closest("section").hidden = view.hand === null;
  if (view.hand === null) return;
  // where each tile was, for a card that leaves the hand to fly from (see animateHand)
  const oldTiles = [...hand.querySelectorAll(".card")].map((t) => ({
    id: t.dataset.card, rect: t.getBoundingClientRect(), label: title(t.dataset.card) }));
  const copies = {};
  hand.replaceChildren(...view.hand.map((id) => {
    const tile = cardTile(id);
    copies[id] = (copies[id] || 0) + 1;
    tile.dataset.key = `${id}#${copies[id]}`;  // which copy: the open state is this tile's own
    tile.addEventListener("click", () => openCard(tile));
    return tile;
  }));
  if (!view.hand.length) hand.append(el("span", "muted", "No cards."));
  showOpenCard();
  handMoves = { before: lastHand, after: view.hand, oldTiles, arrivals };
  lastHand = view.hand.slice();
}
let handMoves = null;
function animateHand() {
  // once the piles are drawn too: cards fly between the hand and them
  if (!handMoves) return;
  const piles = $("piles").querySelectorAll(".pile");
  // a card taken from another player (a steal, a Favor) flies in from their seat
  const sources = handMoves.arrivals.map((seat) =>
    seat === null ? null : document.querySelector(`#seats .seat[data-seat="${seat}"]`));
  motion.cardMoves(handMoves.before, handMoves.after, $("hand"), piles[0], piles[1], handMoves.oldTiles, sources);
  handMoves = null;
}

function renderOrder(view) {
  // who plays after whom, from the seat whose turn it is (it changes when play reverses)
  const order = view.turn.order || [];
  $("order").hidden = order.length < 2;
  $("order").textContent = order.length < 2 ? "" : "Order of play: "
    + order.concat([order[0]]).map(seatName).join(" \u2192 ")
    + (view.turn.direction < 0 ? " (reversed)" : "");
}

function renderSeats(view) {
  renderOrder(view);
  $("seats").replaceChildren(...view.seats.map((seat) => {
    const box = el("div", "seat");
    box.dataset.seat = seat.seat;
    if (seat.seat === view.turn.seat && !view.finished) box.classList.add("current");
    if (!seat.alive) box.classList.add("out");
    if (seat.seat === mySeat) box.classList.add("me");
    const name = el("div", "name");
    const person = !bots[seat.seat];
    const dot = el("span", "presence " + (!person ? "bot" : online[seat.seat] ? "online" : "away"));
    dot.title = !person ? "a bot" : online[seat.seat] ? "online" : "not connected";
    name.append(dot, el("span", "label", seat.seat === mySeat ? `${names[seat.seat]} (you)` : names[seat.seat]));
    if (seat.seat === view.turn.seat && !view.finished) name.append(el("span", "turn-mark", "to play"));
    box.append(name);
    const team = teamOf(view, seat.seat);
    if (team !== null) {  // teams: each seat's, and this person's partners named as such
      box.classList.add(`team-${team % 4}`);
      const partner = seat.seat !== mySeat && mySeat !== null && teamOf(view, mySeat) === team;
      box.append(el("div", "team-mark", `Team ${team + 1}` + (seat.seat === mySeat ? " (yours)" : partner ? ": your partner" : "")));
    }
    box.append(el("div", "count", seat.alive ? plural(seat.count, "card") : "out"));
    if (seat.alive && seat.owed > 1) box.append(el("div", "muted", `owes ${seat.owed} turns`));
    if (seat.counters) {  // public per-player numbers: scores, tokens, marks
      box.append(el("div", "counters", Object.entries(seat.counters)
        .map(([name, value]) => `${name.replace(/_/g, " ")}: ${value}`).join(", ")));
    }
    if (seat.known && seat.known.length) {
      const chips = el("div", "chips");
      chips.append(el("span", "muted", "you know: "), ...seat.known.map((id) => chip(title(id), text(id))));
      box.append(chips);
    }
    return box;
  }));
  night.decorate($("seats"));
}

function teamOf(view, seat) {
  // a seat's team as this page may know it (null: no teams, or a secret one)
  const team = view.teams ? view.teams[seat] : null;
  return team === undefined ? null : team;
}

function pile(label, big, extra) {
  const box = el("div", "pile");
  box.append(el("div", "muted", label), el("div", "big", big));
  if (extra) box.append(extra);
  return box;
}
function placesChips(known) {
  const chips = el("div", "chips");
  known.forEach((k) => chips.append(chip(`${k.place === 0 ? "top" : `place ${k.place + 1}`}: ${title(k.card)}`, text(k.card))));
  return chips;
}

function renderPiles(view) {
  const boxes = [];
  boxes.push(pile("Draw pile", plural(view.draw_pile.count, "card"),
    view.draw_pile.known.length ? placesChips(view.draw_pile.known) : null));
  if (view.draw_pile.known.length) {  // the cards this seat knows in the pile (See the Future): face up, in order
    const seen = el("div", "seen-faces");
    view.draw_pile.known.slice(0, 5).forEach((k) => {
      const face = faceImage(k.card, "pile-face");
      if (!face) return;
      const spot = el("figure", null);
      spot.append(face, el("figcaption", "muted", k.place === 0 ? "top" : `place ${k.place + 1}`));
      seen.append(spot);
    });
    boxes[0].append(seen);
  }
  const discard = view.discard_pile;  // the top card first
  const chips = el("div", "chips");
  discard.slice(1, 9).forEach((id) => chips.append(chip(title(id), text(id))));
  if (discard.length > 9) chips.append(el("span", "muted", `and ${discard.length - 9} more`));
  const top = el("span", null, discard.length ? title(discard[0]) : "empty");
  if (discard.length) top.title = text(discard[0]);
  boxes.push(pile("Discard pile" + (discard.length ? ` (${discard.length}), top:` : ""), "", discard.length > 1 ? chips : null));
  boxes[boxes.length - 1].querySelector(".big").append(top);
  const played = discard.length ? faceImage(discard[0], "pile-face") : null;  // the card just played, face up
  if (played) boxes[boxes.length - 1].prepend(played);
  if (view.removed.length) boxes.push(pile("Out of the game", plural(view.removed.length, "card")));
  for (const zone of view.zones.concat(view.areas)) {
    const label = zone.seat !== undefined ? `${zone.name}: ${seatName(zone.seat)}` : zone.name;
    if (zone.cards) {
      const list = el("div", "chips");
      zone.cards.forEach((id) => list.append(chip(title(id), text(id))));
      boxes.push(pile(label, plural(zone.cards.length, "card"), list));
    } else {
      boxes.push(pile(label, plural(zone.count, "card"), zone.known.length ? placesChips(zone.known) : null));
    }
  }
  $("piles").replaceChildren(...boxes);
}

function renderLog(entries) {
  const box = $("log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  // the log from its first line (a person chose a name: every line says it now): anew
  if (entries.length && entries[0].n === 0) box.replaceChildren();
  if (entries.length) box.querySelectorAll("p.latest").forEach((p) => p.classList.remove("latest"));
  entries.forEach((entry, i) => box.append(el("p", i === entries.length - 1 ? "latest" : null, entry.text)));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function optionButton(option, index, promptId, primary) {
  const button = el("button", primary ? "primary" : null);
  button.type = "button";
  button.append(document.createTextNode(option.label));
  if (option.hint) button.append(el("span", "hint", option.hint));
  if (option.card) button.title = text(option.card);
  if (option.combo) button.title = text(option.combo);
  button.dataset.choice = index;
  button.addEventListener("click", () => choose(promptId, index));
  return button;
}
let focusNext = false;  // an action was sent: the next control drawn takes the keyboard's focus
function placeFocus() {
  // after an action the buttons it was made with are gone (or greyed): the focus goes to
  // the next thing to answer, the window, the prompt or Play again, rather than the page's
  // start; a person who moved the focus elsewhere meanwhile keeps it there
  if (!focusNext) return;
  const active = document.activeElement;
  if (active && active !== document.body && !active.disabled && document.contains(active)) { focusNext = false; return; }
  const next = document.querySelector("#window:not([hidden]) #window-options button:enabled, "
    + "#prompt:not([hidden]) #prompt-body button:enabled, #over:not([hidden]) #rematch:enabled");
  if (next) { next.focus({ preventScroll: true }); focusNext = false; }
}
function choose(promptId, index) {
  if (offline) return;
  focusNext = true;
  document.querySelectorAll("#prompt button, #window button").forEach((b) => { b.disabled = true; });
  if (!send({ type: "act", prompt: promptId, choice: index })) {
    // it never left the page: the same question stays, with live buttons once connected
    setOffline(true);
  }
}

function renderWindow(message) {
  const box = $("window");
  const win = message.window;
  box.hidden = !win;
  if (!win) return;
  $("window-question").textContent = win.question;
  // the bar shows the time left of the round's whole time, also for a page that joins late
  totalMs = Math.max(answerMs, message.remaining_ms || 1);
  box.dataset.id = win.id;
  deadline = performance.now() + (message.remaining_ms || 0);
  const options = $("window-options");
  const prompt = message.prompt && message.prompt.kind === "window" ? message.prompt : null;
  options.replaceChildren(...(prompt ? prompt.options.map((o, i) => optionButton(o, i, prompt.id, i > 0)) : []));
  if (offline) options.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  $("window-note").textContent = prompt ? "" :
    win.answered ? "You answered. Waiting for the others..." : "Waiting for answers...";
}
function tick() {
  const bar = $("window-timer");
  if (bar && !$("window").hidden) {
    // while the connection is down the clock stands where it was: the page cannot know
    const left = pausedLeft !== null ? pausedLeft : Math.max(0, deadline - performance.now());
    bar.style.width = `${Math.round(100 * left / totalMs)}%`;
    $("window-seconds").textContent = offline ? "paused" : `${Math.ceil(left / 1000)} s`;
  }
  requestAnimationFrame(tick);
}

function renderPrompt(message) {
  const box = $("prompt");
  const prompt = message.prompt && message.prompt.kind !== "window" ? message.prompt : null;
  box.hidden = !prompt;
  if (!prompt) { lastPrompt = null; return; }
  if (lastPrompt === prompt.id) return;  // the same question: keep what is half done (an order)
  lastPrompt = prompt.id;
  $("prompt-question").textContent = prompt.question;
  // a new question: bring it into sight if the person had scrolled down (to the log, say)
  // (just under the pinned header, not behind it)
  if (box.getBoundingClientRect().top < $("top").offsetHeight) box.scrollIntoView({ block: "start" });
  const body = $("prompt-body");
  if (prompt.kind === "rearrange") body.replaceChildren(reorder(prompt));
  else if (prompt.kind === "choose_position" && prompt.options.length > 8) body.replaceChildren(places(prompt));
  else {
    const options = el("div", "options");
    prompt.options.forEach((o, i) => options.append(optionButton(o, i, prompt.id, i === 0 && prompt.kind === "action")));
    body.replaceChildren(options);
  }
  if (offline) body.querySelectorAll("button").forEach((b) => { b.disabled = true; });
}

function reorder(prompt) {
  // cards shown top first; the person moves them, then the order is one of the options
  let order = prompt.cards.map((_, i) => i);
  const wrap = el("div");
  const list = el("ol", "order");
  const draw = () => {
    list.replaceChildren(...order.map((cardIndex, at) => {
      const item = el("li");
      const up = el("button", null, "Up"), down = el("button", null, "Down");
      up.type = down.type = "button";
      up.disabled = at === 0;
      down.disabled = at === order.length - 1;
      up.onclick = () => { [order[at - 1], order[at]] = [order[at], order[at - 1]]; draw(); };
      down.onclick = () => { [order[at + 1], order[at]] = [order[at], order[at + 1]]; draw(); };
      const name = el("span", null, title(prompt.cards[cardIndex]));
      name.title = text(prompt.cards[cardIndex]);
      item.append(name, up, down);
      return item;
    }));
  };
  draw();
  const done = el("button", "primary", "Put them back in this order (top first)");
  done.type = "button";
  done.onclick = () => {
    const index = prompt.options.findIndex((o) => JSON.stringify(o.order) === JSON.stringify(order));
    if (index >= 0) choose(prompt.id, index);
  };
  wrap.append(list, done);
  return wrap;
}

function places(prompt) {
  // a long pile: top, bottom, or any place in between
  const wrap = el("div", "options");
  const last = prompt.options.length - 1;
  wrap.append(optionButton(prompt.options[0], 0, prompt.id, false));
  const select = el("select");
  prompt.options.forEach((o, i) => { const item = el("option", null, o.label); item.value = i; select.append(item); });
  select.value = String(Math.min(1, last));
  const here = el("button", null, "Put it there");
  here.type = "button";
  here.onclick = () => choose(prompt.id, Number(select.value));
  wrap.append(select, here, optionButton(prompt.options[last], last, prompt.id, false));
  return wrap;
}

function renderOver(view) {
  const box = $("over");
  box.hidden = !view.finished;
  $("download").hidden = !view.finished;
  $("again").hidden = !view.finished;  // the lobby, for the next game
  $("replay").hidden = !view.finished;
  $("rematch").hidden = !view.finished || mySeat === null;
  if (!view.finished) return;
  $("download").href = `/room/${roomId}/log`;
  $("replay").href = `/room/${roomId}/replay`;
  const winners = view.winners;
  $("over-text").textContent = (!winners.length ? `Game over: ${view.no_winner || "no winner"}.` :
    winners.includes(mySeat) ? (winners.length > 1 ? "Game over: your team wins!" : "Game over: you win!") :
    `Game over: ${winners.map((s) => names[s]).join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`)
    + (view.scores ? " Scores: " + view.scores.map((score, s) => `${names[s]} ${score}`).join(", ") + "." : "");
}

function renderSummary(summary) {
  // the game's end in plain words (the server writes them from this seat's side)
  const box = $("summary");
  box.hidden = !summary;
  if (!summary) return;
  box.replaceChildren(...summary.lines.concat(summary.series || []).map((line) => el("li", null, line)));
}

$("rules").href = `/room/${roomId}/rules`;  // the rules are there before the seat is
$("rematch").addEventListener("click", () => { $("rematch").disabled = true; send({ type: "rematch" }); });
$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name-input").value.trim();
  if (!name) return;
  store.set("kittens-name", name);  // offered again at the next table
  send({ type: "name", name });
});
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-text");
  if (input.value.trim() && send({ type: "chat", text: input.value })) input.value = "";
});
$("sound").checked = store.get("kittens-sound") === "on";
$("sound").addEventListener("change", () => store.set("kittens-sound", $("sound").checked ? "on" : "off"));
// the reaction window pins under the header, however tall the header is on this screen
new ResizeObserver(() => {
  document.documentElement.style.setProperty("--head", `${$("top").offsetHeight}px`);
}).observe($("top"));
connect();
requestAnimationFrame(tick);
