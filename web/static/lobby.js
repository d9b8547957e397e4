// kittens serve: the lobby. Choose rules and seats, or upload a house rule, and get a
// link per seat.
"use strict";

const $ = (id) => document.getElementById(id);
let lobby = { rulesets: [], expansions: [], bots: [] };
const entries = new Map();  // key -> ruleset entry (shipped, the server's, uploaded)

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

async function start() {
  lobby = await (await fetch("/api/lobby")).json();
  const select = $("ruleset");
  const groups = { edition: el("optgroup"), expansion: el("optgroup") };
  groups.edition.label = "Editions";
  groups.expansion.label = "Expansions (played on their base edition)";
  for (const entry of lobby.rulesets) {
    entries.set(entry.key, entry);
    const option = el("option", null, entry.name);
    option.value = entry.key;
    (groups[entry.kind] || groups.edition).append(option);
  }
  select.append(groups.edition, groups.expansion);
  const original = lobby.rulesets.find((e) => e.name.includes("Original"));
  if (original) select.value = original.key;
  select.onchange = chosen;
  $("variant").onchange = players;
  $("players").onchange = seats;
  $("create").onclick = create;
  $("files").onchange = upload;
  showMyUploads();
  chosen();
  recallUploads();
  $("open-refresh").onclick = openTables;
  openTables();
}

// -- the server's open tables, with their free seats: one click takes a seat
async function openTables() {
  let tables = [];
  try { tables = (await (await fetch("/api/open")).json()).tables; } catch (e) { tables = []; }
  $("open-none").hidden = tables.length > 0;
  $("open-list").replaceChildren(...tables.map((t) => {
    const row = el("li");
    row.dataset.room = t.room;
    const people = t.seats.filter((k) => k === "person").length;
    row.append(el("strong", null, t.name + (t.variant ? ` (${t.variant})` : "")),
      el("span", "muted", ` ${t.players} players, ${people - t.free.length} of ${people} people seated`
        + (t.waiting ? ", in the waiting room" : ", playing") + (t.turn_seconds ? `, ${t.turn_seconds} s a decision` : "") + " "));
    t.free.forEach((seat) => {
      const take = el("button", "small", `Take seat ${seat}`);
      take.type = "button";
      take.onclick = () => join(t.room, seat, take);
      row.append(take);
    });
    return row;
  }));
}
async function join(room, seat, button) {
  button.disabled = true;
  const response = await fetch("/api/open/join", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ room, seat }) });
  const result = await response.json();
  if (!response.ok) {
    button.replaceWith(el("span", "error", result.error));
    setTimeout(openTables, 1500);
    return;
  }
  location.assign(result.link);  // the seat's page, with its own link
}

function current() { return entries.get($("ruleset").value); }

// -- this device's uploads: remembered in the browser (their lobby keys and entries), shown
// again after a reload for as long as the server keeps the files
const store = {  // a private window may remember nothing
  get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* not kept */ } },
};
const MY_UPLOADS = "kittens-uploads", UPLOADS_KEPT = 20;
function myUploads() {
  try {
    const list = JSON.parse(store.get(MY_UPLOADS) || "[]");
    return Array.isArray(list) ? list.filter((u) => u && Array.isArray(u.playable) && Array.isArray(u.files)) : [];
  } catch (e) { return []; }
}
function keepUploads(list) { store.set(MY_UPLOADS, JSON.stringify(list.slice(0, UPLOADS_KEPT))); }
function remember(result) {
  const list = myUploads().filter((u) => u.upload !== result.upload);
  list.unshift({ upload: result.upload, files: result.files, at: Date.now(), playable: result.playable });
  keepUploads(list);
  showMyUploads();
}
async function recallUploads() {
  // the server says which of them it still keeps (it lets old uploads go to make room)
  const list = myUploads();
  if (!list.length) return;
  const keys = list.flatMap((u) => u.playable.map((e) => e.key)).slice(0, 50);
  let kept = [];
  try {
    const response = await fetch("/api/uploads/kept", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ keys }) });
    if (!response.ok) return;  // asked too fast, say: try at the next load
    kept = (await response.json()).kept;
  } catch (e) { return; }
  const still = list.map((u) => ({ ...u, playable: u.playable.filter((e) => kept.includes(e.key)) }))
    .filter((u) => u.playable.length);
  keepUploads(still);
  showMyUploads();
}
function uploadedGroup() {
  let group = $("ruleset").querySelector("optgroup.uploaded");
  if (!group) {
    group = el("optgroup", "uploaded");
    group.label = "Uploaded";
    $("ruleset").append(group);
  }
  return group;
}
function showMyUploads() {
  // the lobby's list of rules gets them all, newest first; the upload section lists them
  // with a button to forget one on this device
  const list = myUploads();
  const group = uploadedGroup();
  const chosenKey = $("ruleset").value;
  group.replaceChildren(...list.flatMap((u) => u.playable.map((entry) => {
    entries.set(entry.key, entry);
    const option = el("option", null, `${entry.name} (${entry.file})`);
    option.value = entry.key;
    return option;
  })));
  group.hidden = !list.length;
  if (entries.has(chosenKey) && [...$("ruleset").options].some((o) => o.value === chosenKey)) $("ruleset").value = chosenKey;
  const box = $("my-uploads");
  box.hidden = !list.length;
  const rows = list.map((u) => {
    const row = el("li");
    row.dataset.upload = u.upload;
    const when = new Date(u.at).toLocaleString();
    row.append(el("span", null, `${u.playable.map((e) => e.name).join(", ")} `),
      el("span", "muted", `(${u.files.join(", ")}; ${when}) `));
    const forget = el("button", "small", "Forget");
    forget.type = "button";
    forget.title = "Take this upload off this device's list (the server lets it go in time)";
    forget.onclick = () => {
      keepUploads(myUploads().filter((v) => v.upload !== u.upload));
      showMyUploads();
      if (!entries.has($("ruleset").value) || !$("ruleset").value) $("ruleset").selectedIndex = 0;
      chosen();
    };
    const play = el("button", "small", "Play this");
    play.type = "button";
    play.onclick = () => {
      $("ruleset").value = u.playable[0].key;
      chosen();
      $("make").scrollIntoView({ behavior: "smooth" });
    };
    row.append(play, forget);
    return row;
  });
  $("my-uploads-list").replaceChildren(...rows);
}

function chosen() {
  const entry = current();
  $("description").textContent = entry.description || "";
  const variant = $("variant");
  const none = el("option", null, "(as written)");
  none.value = "";
  variant.replaceChildren(none, ...entry.variants.map((v) => {
    const option = el("option", null, v.name);
    option.value = v.name;
    option.title = v.description;
    return option;
  }));
  const boxes = lobby.expansions.filter((x) => x.key !== entry.key).map((x) => {
    const label = el("label", "muted");
    label.style.fontWeight = "normal";
    const box = el("input");
    box.type = "checkbox";
    box.value = x.key;
    label.append(box, document.createTextNode(` ${x.name}`));
    return label;
  });
  $("expansions").replaceChildren(...boxes);
  players();
}

function players() {
  const entry = current();
  const variant = entry.variants.find((v) => v.name === $("variant").value);
  const [lo, hi] = (variant || entry).players;
  const input = $("players");
  input.min = lo;
  input.max = hi;
  const value = Number(input.value) || lo;
  input.value = Math.min(hi, Math.max(lo, value));
  const advice = entry.advice && entry.advice[input.value];
  $("range").textContent = `${lo} to ${hi} players` + (advice && !variant ? `; with ${input.value}, play the variant ${advice}` : "");
  seats();
}

function seats() {
  const count = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const teams = current().teams;
  $("teams-note").hidden = !teams;
  $("teams-note").textContent = !teams ? "" : `Played in ${teams.count} teams, `
    + (teams.dealt === "in_turn" ? `seated in turn: seats ${Array.from({ length: teams.count }, (_, t) =>
        Array.from({ length: count }, (_, s) => s).filter((s) => s % teams.count === t).join(" and ")).join(" against ")}.`
      : teams.dealt === "secret" ? "dealt at random and kept secret: each player learns only their own."
      : "dealt at random when the cards are dealt.")
    + (teams.together ? " A team shares its lives." : "");
  const rows = [];
  for (let seat = 0; seat < count; seat++) {
    const row = el("div");
    // a game in teams made in turn: each seat's team is known here, so partners are chosen
    const label = el("label", null, `Seat ${seat}` + (teams && teams.dealt === "in_turn" ? ` (team ${seat % teams.count + 1})` : ""));
    label.htmlFor = `seat-${seat}`;
    const select = el("select");
    select.id = `seat-${seat}`;
    const person = el("option", null, "a person");
    person.value = "person";
    select.append(person, ...lobby.bots.map((bot) => {
      const option = el("option", null, `${bot} bot`);
      option.value = bot;
      return option;
    }));
    select.value = old[seat] || (seat < 2 ? "person" : (lobby.bots.includes("heuristic") ? "heuristic" : lobby.bots[0]));
    row.append(label, select);
    rows.push(row);
  }
  box.replaceChildren(...rows);
}

async function create() {
  $("create-error").textContent = "";
  const entry = current();
  const body = {
    ruleset: entry.key,
    variant: $("variant").value || null,
    expansions: [...$("expansions").querySelectorAll("input:checked")].map((b) => b.value),
    players: Number($("players").value),
    seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  body.wait = $("wait").checked;
  body.turn_seconds = Number($("turn-seconds").value) || 0;
  body.open = $("open").checked;
  const response = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const result = await response.json();
  if (!response.ok) {
    $("create-error").textContent = result.error + (result.diagnostics ? `\n${result.diagnostics.join("\n")}` : "");
    return;
  }
  showLinks(result);
}

function showLinks(result) {
  const list = $("links");
  const items = [];
  const link = (label, path) => {
    const item = el("li");
    const url = location.origin + path;
    const anchor = el("a", null, url);
    anchor.href = url;
    anchor.target = "_blank";
    anchor.rel = "noopener";
    item.append(el("strong", null, `${label}: `), anchor, invite(label, url));
    return item;
  };
  for (const seat of result.seats) {
    if (seat.link) items.push(link(`Seat ${seat.seat}`, seat.link));
    else items.push(el("li", "muted", `Seat ${seat.seat}: ${seat.kind} bot`));
  }
  items.push(link("Watch (everyone may)", result.spectate));
  items.push(link("Rulesheet", `/room/${result.room}/rules`));
  list.replaceChildren(...items);
  $("made").hidden = false;
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  $("lan").hidden = !local;
  $("lan").textContent = "These links name this computer as localhost, so only this computer can open them. "
    + "To play with phones and laptops on your network, start the server with `kittens serve --host 0.0.0.0`, "
    + "open this page at this computer's network address (the server prints it), and make the table there.";
  $("made").scrollIntoView({ behavior: "smooth" });
}

function invite(label, url) {
  // a link's copy button and QR code (drawn by the server as SVG, shown on demand)
  const tools = el("span", "invite");
  const copy = el("button", "small", "Copy");
  copy.type = "button";
  copy.setAttribute("aria-label", `Copy the link: ${label}`);
  copy.onclick = async () => {
    copy.textContent = await copyText(url) ? "Copied" : "Select the link and copy it";
    setTimeout(() => { copy.textContent = "Copy"; }, 2000);
  };
  const show = el("button", "small", "QR code");
  show.type = "button";
  show.setAttribute("aria-expanded", "false");
  show.setAttribute("aria-label", `Show a QR code of the link: ${label}`);
  const code = el("div", "qr");
  code.hidden = true;
  show.onclick = async () => {
    const open = code.hidden;
    code.hidden = !open;
    show.setAttribute("aria-expanded", String(open));
    if (!open || code.firstChild) return;
    const response = await fetch("/api/qr", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: url }) });
    if (!response.ok) { code.append(el("p", "error", "The QR code could not be drawn: copy the link instead.")); return; }
    const image = el("img");
    image.src = URL.createObjectURL(await response.blob());
    image.alt = `QR code of the link: ${label}`;
    code.append(image, el("span", "muted", `Scan it with a phone's camera to open: ${label}`));
  };
  tools.append(copy, show, code);
  return tools;
}
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {  // no clipboard here (an address that is not localhost, over http): the old way
    const area = el("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e2) { done = false; }
    area.remove();
    return done;
  }
}

async function upload() {
  const files = [...$("files").files];
  if (!files.length) return;
  $("upload-status").textContent = "Checking...";
  const texts = await Promise.all(files.map((f) => f.text()));
  const sources = new Map(files.map((f, i) => [f.name, texts[i]]));
  const response = await fetch("/api/uploads", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ files: files.map((f, i) => ({ name: f.name, text: texts[i] })) }),
  });
  const result = await response.json();
  if (!response.ok) { $("upload-status").textContent = result.error; return; }
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = result.diagnostics.length - errors;
  $("upload-status").textContent = `Checked ${result.files.length} file(s): ${errors} error(s), ${warnings} warning(s).`
    + (result.playable.length ? " Ready to play: it is chosen above." : errors ? " Fix the errors and pick the files again." : "");
  showDiagnostics(result, sources);
  if (result.playable.length) {
    remember(result);  // listed for this device, after a reload too
    $("ruleset").value = result.playable[0].key;
    chosen();
    $("make").scrollIntoView({ behavior: "smooth" });
  }
}

function showDiagnostics(result, sources) {
  const box = $("diagnostics");
  const blocks = [];
  const byFile = new Map();
  for (const d of result.diagnostics) {
    if (!byFile.has(d.file)) byFile.set(d.file, []);
    byFile.get(d.file).push(d);
  }
  for (const [file, found] of byFile) {
    blocks.push(el("h2", null, file));
    const source = sources.get(file);
    if (source === undefined) {
      found.forEach((d) => blocks.push(el("p", d.severity === "error" ? "error" : "muted", `${file}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]`)));
      continue;
    }
    const lines = source.split(/\r?\n/);
    const view = el("div", "source");
    const wanted = new Set();
    found.forEach((d) => { for (let n = d.line - 2; n <= d.line + 2; n++) wanted.add(n); });
    let previous = 0;
    for (let n = 1; n <= lines.length; n++) {
      if (!wanted.has(n)) continue;
      if (previous && n > previous + 1) view.append(el("div", "line muted", "   ..."));
      previous = n;
      const here = found.filter((d) => d.line === n);
      const row = el("div", "line" + (here.some((d) => d.severity === "error") ? " bad" : here.length ? " warn" : ""));
      row.append(el("span", "lineno", String(n)), document.createTextNode(lines[n - 1]));
      view.append(row);
      here.forEach((d) => {
        // the caret is a source line of its own (the same monospace font and margin), so it
        // stands under the finding's column; the message follows in plain text
        const caret = el("div", `line caret ${d.severity}`);
        caret.append(el("span", "lineno", ""), document.createTextNode(" ".repeat(Math.max(0, d.column - 1)) + "^"));
        view.append(caret, el("div", `diag ${d.severity}`, `${d.severity}: ${d.message} [${d.code}]`));
      });
    }
    blocks.push(view);
  }
  box.replaceChildren(...blocks);
}

start();
