// The big board: the table's drawing inline, and the places a seat may touch on it. It knows
// no rule: the server sends the drawing (SVG, in its own units) and each place as a box in
// those units with what pressing it sends; this module only lays them over one another.

const SMALLEST = 48; // CSS px: a place to touch is never smaller (44 is the least allowed)
const MOST = 6; // the board is never shown more than six times the width of its frame

// An SVG document from the server, as a node of this page (its markup is never run).
function parsed(text) {
  const made = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = made.documentElement;
  return svg instanceof SVGSVGElement ? document.importNode(svg, true) : null;
}

function reduced() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class Board {
  constructor(figure) {
    this.figure = figure;
    this.stage = figure.querySelector("#stage");
    this.layer = figure.querySelector("#spots");
    this.url = "";
    this.table = null; // the table as everyone sees it
    this.own = null; // the seat's own drawing of this moment, if it has one
    this.places = []; // [{box, label, data}]
    this.press = null;
    this.shown = null;
    this.laid = ""; // the box and places the buttons were laid for
  }

  // The table as everyone sees it, from its address; drawn unless the seat shows its own.
  async show(url) {
    if (!url || url === this.url) return;
    this.url = url;
    let text = "";
    try {
      const answer = await fetch(url);
      if (!answer.ok) return;
      text = await answer.text();
    } catch {
      return;
    }
    if (url !== this.url) return; // a newer table was asked for meanwhile
    const svg = url.includes(".svg") ? parsed(text) : null;
    this.table = svg || this.picture(url);
    if (!this.own) this.draw(this.table);
  }

  // A game drawn as a picture only: an image, as before.
  picture(url) {
    const image = document.createElement("img");
    image.id = "board";
    image.alt = this.figure.dataset.alt || "";
    image.src = url;
    return image;
  }

  // The seat's own moment: its drawing ("" for the table's) and the places it may touch.
  mine(drawing, places, press) {
    this.own = drawing ? parsed(drawing) : null;
    this.places = places;
    this.press = press;
    this.draw(this.own || this.table);
  }

  draw(drawing) {
    if (!drawing) return;
    if (drawing !== this.shown) {
      const before = this.shown;
      if (before) before.replaceWith(drawing);
      else this.stage.prepend(drawing);
      drawing.id = "board";
      this.shown = drawing;
      if (before && !reduced()) this.animate(before, drawing);
    }
    this.lay();
  }

  // A button over each place, in percent of the drawing's box, so it stays on its cell at
  // any size; then the board zoomed so that the smallest is large enough to touch.
  // Laid anew only when the places or the drawing's box change (a new decision): the board
  // is drawn again on every answer and every change of the table, mostly with the same
  // places, and a button replaced under a finger loses its touch, as centring the board
  // again undoes the player's own panning. A kept button presses `this.press` of the moment.
  lay() {
    const box = this.shown && this.shown.viewBox ? this.shown.viewBox.baseVal : null;
    const laid = JSON.stringify([box && [box.x, box.y, box.width, box.height], this.places]);
    if (laid === this.laid) return;
    this.laid = laid;
    const buttons = [];
    if (box && box.width) {
      this.stage.style.setProperty("--aspect", String(box.width / box.height));
      for (const place of this.places) {
        const [left, top, right, bottom] = place.box;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "spot";
        button.setAttribute("aria-label", place.label);
        button.title = place.label;
        button.dataset.choice = place.data;
        Object.assign(button.style, {
          left: `${(100 * (left - box.x)) / box.width}%`,
          top: `${(100 * (top - box.y)) / box.height}%`,
          width: `${(100 * (right - left)) / box.width}%`,
          height: `${(100 * (bottom - top)) / box.height}%`,
        });
        button.addEventListener("click", () => this.press(place.data, button));
        buttons.push(button);
      }
    }
    this.layer.replaceChildren(...buttons);
    this.zoom(box);
  }

  zoom(box) {
    this.figure.classList.remove("zoomed");
    this.stage.style.width = "";
    if (!box || !this.places.length) return;
    const sizes = this.places.map(({ box: b }) => Math.min(b[2] - b[0], b[3] - b[1]));
    const fitted = (this.stage.clientWidth * Math.min(...sizes)) / box.width;
    if (!fitted || fitted >= SMALLEST) return;
    const scale = Math.min(SMALLEST / fitted, MOST);
    this.figure.classList.add("zoomed");
    this.stage.style.width = `${scale * 100}%`;
    // The part in play in the middle of the frame: the middle of the places offered.
    const xs = this.places.flatMap(({ box: b }) => [b[0], b[2]]);
    const ys = this.places.flatMap(({ box: b }) => [b[1], b[3]]);
    const middle = (values, start, size) =>
      ((Math.min(...values) + Math.max(...values)) / 2 - start) / size;
    const width = this.stage.clientWidth;
    const height = this.stage.clientHeight;
    this.figure.scrollLeft = middle(xs, box.x, box.width) * width - this.figure.clientWidth / 2;
    this.figure.scrollTop = middle(ys, box.y, box.height) * height - this.figure.clientHeight / 2;
  }

  // What changed, moving: a tile laid settles in, an official walks its path from where it
  // stood (the drawing's own marks: `data-last`, `data-cell`, `data-official`, `data-path`).
  animate(before, after) {
    const last = after.querySelector("[data-last]");
    if (last && !before.querySelector(`[data-last="${CSS.escape(last.dataset.last)}"]`)) {
      const cell = after.querySelector(`[data-cell="${CSS.escape(last.dataset.last)}"]`);
      if (cell) cell.classList.add("settle");
    }
    const at = (pawn) => {
      const disc = pawn.querySelector("circle");
      return disc ? [Number(disc.getAttribute("cx")), Number(disc.getAttribute("cy"))] : null;
    };
    for (const pawn of after.querySelectorAll("[data-official]")) {
      const code = CSS.escape(pawn.dataset.official);
      const old = before.querySelector(`[data-official="${code}"]`);
      const [from, to] = [old && at(old), at(pawn)];
      if (!from || !to || (from[0] === to[0] && from[1] === to[1])) continue;
      const trail = after.querySelector(`[data-path="${code}"]`);
      const points = (trail ? trail.getAttribute("points") : "").trim().split(/\s+/);
      const walked = points.map((point) => point.split(",").map(Number));
      const path = walked.length > 1 && walked.every((p) => p.length === 2) ? walked : [from];
      const frames = path.map(([x, y]) => ({
        transform: `translate(${x - to[0]}px, ${y - to[1]}px)`,
      }));
      frames.push({ transform: "translate(0px, 0px)" });
      pawn.animate(frames, { duration: 400, easing: "ease-in-out" });
    }
  }
}
