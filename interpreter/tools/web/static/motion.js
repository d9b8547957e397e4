// kittens serve: motion and sound where they help a person follow the table. Nothing
// here changes what is shown, only how it arrives; with "reduce motion" asked for by
// the system, cards do not move (the stylesheet stops the rest).
"use strict";

const motion = {
  reduced: () => window.matchMedia("(prefers-reduced-motion: reduce)").matches,

  // a card that came to the hand slides in from the draw pile; one that left slides to the discard
  cardMoves(before, after, hand, drawPile, discardPile) {
    if (motion.reduced() || !before) return 0;
    let moved = 0;
    const left = [...before];
    const stays = [];
    after.forEach((id) => {
      const at = left.indexOf(id);
      if (at >= 0) { left.splice(at, 1); stays.push(true); } else stays.push(false);
    });
    [...hand.querySelectorAll(".card")].forEach((tile, i) => {
      if (stays[i] === false && drawPile) { motion.fly(drawPile, tile, "arrive"); moved++; }
    });
    if (left.length && discardPile) { motion.pulse(discardPile); moved++; }
    return moved;
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
