// kittens serve: motion and sound where they help a person follow the table. Nothing
// here changes what is shown, only how it arrives; with "reduce motion" asked for by
// the system, cards do not move (the stylesheet stops the rest); the turn's tone still
// sounds, if the person switched it on: it is sound, not motion.
"use strict";

const motion = {
  reduced: () => window.matchMedia("(prefers-reduced-motion: reduce)").matches,

  // a card that came to the hand slides in from where it came from (``sources``, in
  // order: another player's seat, or null for the draw pile); one that left the hand
  // slides from where its tile was to the discard pile (``oldTiles``: the tiles before,
  // as {id, rect, label})
  cardMoves(before, after, hand, drawPile, discardPile, oldTiles, sources = []) {
    if (motion.reduced() || !before) return 0;
    let moved = 0;
    const left = [...before];
    const stays = [];
    after.forEach((id) => {
      const at = left.indexOf(id);
      if (at >= 0) { left.splice(at, 1); stays.push(true); } else stays.push(false);
    });
    let arrived = 0;
    [...hand.querySelectorAll(".card")].forEach((tile, i) => {
      if (stays[i] !== false) return;
      const from = sources[arrived++] || drawPile;
      if (from) {
        motion.fly(from, tile, "arrive");
        moved++;
        // where each card flew in from, for whoever looks (a seat's number, or "pile")
        (motion.arrivals = motion.arrivals || []).push(from.dataset.seat !== undefined ? Number(from.dataset.seat) : "pile");
      }
    });
    if (left.length && discardPile) {
      const gone = [];
      left.forEach((id) => {
        const tile = oldTiles.filter((t) => t.id === id && !gone.includes(t)).pop();
        if (tile) gone.push(tile);
      });
      gone.forEach((tile) => motion.ghost(tile, discardPile));
      motion.pulse(discardPile);
      moved += gone.length;
    }
    return moved;
  },

  ghost(tile, target) {
    // a copy of the tile that left, flying to the pile; it goes when it lands
    const to = target.getBoundingClientRect(), from = tile.rect;
    const ghost = document.createElement("div");
    ghost.className = "card ghost";
    ghost.setAttribute("aria-hidden", "true");  // a picture in flight, gone when it lands
    ghost.textContent = tile.label;
    Object.assign(ghost.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`,
      width: `${from.width}px`, height: `${from.height}px`, margin: "0", pointerEvents: "none", zIndex: "20" });
    document.body.append(ghost);
    const flight = ghost.animate([
      { transform: "none", opacity: 1 },
      { transform: `translate(${to.left - from.left}px, ${to.top - from.top}px) scale(.7)`, opacity: 0.3 },
    ], { duration: 450, easing: "ease-in" });
    flight.onfinish = () => ghost.remove();
    motion.ghosts = (motion.ghosts || 0) + 1;
  },

  fly(from, to, cls) {
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    to.style.setProperty("--from-x", `${Math.round(a.left - b.left)}px`);
    to.style.setProperty("--from-y", `${Math.round(a.top - b.top)}px`);
    to.classList.add(cls);
    to.addEventListener("animationend", () => to.classList.remove(cls), { once: true });
  },

  pulse(node) {
    node.classList.remove("landed");
    void node.offsetWidth;  // restart the animation
    node.classList.add("landed");
  },

  // a short tone when it becomes this person's turn, if they switched the sound on
  // (reduced motion or not)
  beep() {
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      motion.audio = motion.audio || new Context();
      const ctx = motion.audio, tone = ctx.createOscillator(), gain = ctx.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
      tone.connect(gain).connect(ctx.destination);
      tone.start();
      tone.stop(ctx.currentTime + 0.25);
      motion.beeps = (motion.beeps || 0) + 1;
    } catch (error) { /* no sound on this device: the title still says it */ }
  },
};
