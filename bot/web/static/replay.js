// A kept game's replay: one position at a time, its board drawn by the server in SVG (sharp
// on any screen) and beside it its seats and facts, as the server lays them out for it. The
// buttons, the slider, the moves and the arrow keys (Home and End too) choose which.

const main = document.getElementById("replay");
const last = Number(main.dataset.last);
const frame = document.getElementById("frame");
const slider = document.getElementById("slider");
const where = document.getElementById("where");
const moves = [...document.querySelectorAll("#log button")];
let step = 0;
let beside = 0; // the position whose seats and facts are shown, or asked for last

// The seats and facts of position `at`, in place of those shown, unless the page has moved
// on to another meanwhile; on a failure the page keeps what it shows.
async function showBeside(at) {
  if (at === beside) return;
  beside = at;
  try {
    const answer = await fetch(`${main.dataset.base}/frame/${at}.html`);
    const text = answer.ok ? await answer.text() : "";
    if (!text || at !== beside) return;
    const made = new DOMParser().parseFromString(text, "text/html");
    for (const id of ["seats", "facts"]) {
      const part = made.getElementById(id);
      if (part) document.getElementById(id).replaceWith(part);
    }
    main.dataset.beside = String(at);
  } catch {
    // offline for a moment: the next step asks again
  }
}

// `follow`: keep the current move in sight in the list (not when the page opens: it opens at
// its top, on the deal).
function go(to, follow = true) {
  step = Math.max(0, Math.min(last, to));
  frame.src = `${main.dataset.base}/frame/${step}.svg`;
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
  showBeside(step);
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
main.dataset.beside = "0"; // the page came with the deal's
go(0, false);
