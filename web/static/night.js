// kittens serve: who sits at the table (web/seating.py): the waiting room, the bots that
// stand in for people, and the turn clock. table.js hands it each update; it draws only
// its own parts of the page and knows no rules.
"use strict";

const night = (() => {
  const $ = (id) => document.getElementById(id);
  let last = null, ctx = null, context = null, clockAt = 0, clockLeft = 0, ticker = null;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function button(id, action) {
    $(id).addEventListener("click", () => { $(id).disabled = true; ctx.send({ type: action }); });
  }

  function update(message, given) {
    // ``given`` tells what the table page knows now: its seat, the names, who is online
    last = message;
    context = given;
    ctx = given();
    waiting(message.waiting);
    standIn(message.standins || []);
    clock(message.clock, message.clock_ms);
    decorate($("seats"));
  }

  function waiting(room) {
    const box = $("waiting");
    box.hidden = !room;
    document.body.classList.toggle("waiting", !!room);
    if (!room) return;
    const me = ctx.mySeat;
    const missing = room.people.filter((s) => !room.ready[s]);
    $("turn").textContent = "Waiting room: the game starts once everyone is ready";
    $("waiting-text").textContent = me === null ? "The players are arriving." :
      room.ready[me] ? (missing.length ? `You are ready. Waiting for ${missing.map(name).join(", ")}...` : "Starting...")
        : "Say you are ready when you are: the game starts once everyone has."
          + (room.you_host ? " As the host, you may start now: bots play the seats not ready until their people arrive." : "");
    $("waiting-seats").replaceChildren(...ctx.names.map((label, seat) => {
      const row = el("li");
      const person = room.people.includes(seat);
      const here = ctx.online[seat];
      row.append(el("span", "presence " + (!person ? "bot" : here ? "online" : "away")),
        el("span", "label", seat === me ? `${label} (you)` : label),
        el("span", "muted", !person ? " a bot" : room.ready[seat] ? " ready" : here ? " here, not ready yet" : " has not opened the link"));
      if (seat === room.host) row.append(el("span", "muted", " (host)"));
      row.dataset.seat = seat;
      row.classList.toggle("ready", !!room.ready[seat]);
      return row;
    }));
    const offline = document.body.classList.contains("offline");
    $("ready").hidden = me === null || !!room.ready[me];
    $("ready").disabled = offline;
    $("start-now").hidden = !room.you_host;
    $("start-now").disabled = offline;
  }

  function standIn(seats) {
    const mine = ctx.mySeat !== null && seats.includes(ctx.mySeat);
    $("standin").hidden = !mine;
    $("take-over").disabled = document.body.classList.contains("offline");
  }
  function decorate(box) {
    // a seat a bot plays for its person is marked so, on every page
    if (!last) return;
    if (last.waiting) {  // nobody's turn yet
      box.querySelectorAll(".turn-mark").forEach((mark) => mark.remove());
      box.querySelectorAll(".seat.current").forEach((seat) => seat.classList.remove("current"));
    }
    const seats = last.standins || [];
    box.querySelectorAll(".standin-mark").forEach((mark) => {
      if (!seats.includes(Number(mark.closest(".seat").dataset.seat))) mark.remove();
    });
    seats.forEach((seat) => {
      const name = box.querySelector(`.seat[data-seat='${seat}'] .name`);
      if (name && !name.querySelector(".standin-mark")) name.append(el("span", "standin-mark", "a bot plays for now"));
    });
  }

  function clock(timed, ms) {
    const box = $("turn-clock");
    box.hidden = !timed;
    clearInterval(ticker);
    if (!timed) return;
    clockAt = performance.now();
    clockLeft = ms || 0;
    const show = () => {
      const left = Math.max(0, Math.ceil((clockLeft - (performance.now() - clockAt)) / 1000));
      const whose = timed.seat === ctx.mySeat ? "You have" : `${name(timed.seat)} has`;
      box.textContent = `${whose} ${left} s`;
      box.classList.toggle("short", left <= 10);
    };
    show();
    ticker = setInterval(show, 250);
  }
  function name(seat) { return ctx.names[seat]; }

  function people() { if (last && context) update(last, context); }

  document.addEventListener("DOMContentLoaded", () => {
    button("ready", "ready");
    button("start-now", "start");
    button("take-over", "take_over");
  });
  return { update, decorate, people };
})();
