// A kept game's replay: one position at a time, drawn by the server as the channel saw it.
// The buttons, the slider, the moves and the arrow keys (Home and End too) choose which.

const main = document.getElementById("replay");
const last = Number(main.dataset.last);
const frame = document.getElementById("frame");
const slider = document.getElementById("slider");
const where = document.getElementById("where");
const moves = [...document.querySelectorAll("#log button")];
let step = 0;

// `follow`: keep the current move in sight in the list (not when the page opens: it opens at
// its top, on the deal).
function go(to, follow = true) {
  step = Math.max(0, Math.min(last, to));
  frame.src = `${main.dataset.base}/frame/${step}.png`;
  slider.value = String(step);
  where.textContent = `${step} / ${last}`;
  main.dataset.step = String(step);
  for (const move of moves) {
    if (Number(move.dataset.step) === step) {
      move.setAttribute("aria-current", "step");
      if (follow) move.scrollIntoView({ block: "nearest" });
    } else {
      move.removeAttribute("aria-current");
    }
  }
}

document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(step - 1));
document.getElementById("next").addEventListener("click", () => go(step + 1));
document.getElementById("last").addEventListener("click", () => go(last));
slider.addEventListener("input", () => go(Number(slider.value)));
for (const move of moves) move.addEventListener("click", () => go(Number(move.dataset.step)));
document.addEventListener("keydown", (event) => {
  if (event.target === slider) return; // the slider moves itself with the arrows
  const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  go(to);
});
go(0, false);
