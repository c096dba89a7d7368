// A player's own part of the page: what their seat sees and may choose now, as the bot's
// private messages say it, with the places to touch on the big board (`board.js`). Each
// choice is sent as the chat's button would send it; the server says what followed (a
// preview, the next choice, or why not).

import { backButton, mainButton } from "./telegram.js";

export class Seat {
  constructor(base, token, board) {
    this.base = base;
    this.token = token;
    this.board = board;
    this.panel = document.getElementById("mine");
    this.tray = document.getElementById("tray");
    this.start = null;
    board.figure.addEventListener("pointerdown", (event) => {
      this.start = [event.clientX, event.clientY];
    });
    board.figure.addEventListener("pointerup", (event) => this.swiped(event));
    this.said = document.getElementById("said");
    this.choices = document.getElementById("choices");
    this.template = document.getElementById("message");
    this.busy = false;
    this.pressedByKey = false;
    this.shown = -1;
    this.keys = {}; // key -> choice, as the server names them (turning the tile: R, arrows)
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || this.panel.hidden) return;
    const name = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const data = this.keys[name];
    if (!data) return;
    event.preventDefault();
    const shown = [...this.choices.querySelectorAll("button"), ...this.board.layer.children];
    const button = shown.find((b) => b.dataset.choice === data);
    this.pressedByKey = true;
    this.press(data, button || this.choices, true);
  }

  headers(extra = {}) {
    return { Authorization: `Bearer ${this.token}`, ...extra };
  }

  // After every change of the table: what the seat sees and may do now.
  async refresh(state) {
    if (state.version === this.shown) return;
    this.shown = state.version;
    const answer = await fetch(`${this.base}/seat`, { headers: this.headers() });
    await this.answered(answer, true);
  }

  async press(data, button, byKey = false) {
    if (this.busy) return;
    this.busy = true;
    this.pressedByKey = byKey || document.activeElement === button;
    button.setAttribute("aria-busy", "true");
    try {
      const answer = await fetch(`${this.base}/press`, {
        method: "POST",
        headers: this.headers({ "Content-Type": "application/json" }),
        body: JSON.stringify({ data }),
      });
      await this.answered(answer, false);
    } finally {
      this.busy = false;
      button.removeAttribute("aria-busy");
    }
  }

  async answered(answer, fresh) {
    const body = await answer.json().catch(() => ({}));
    this.panel.hidden = false;
    if (!answer.ok) {
      this.said.textContent = body.error || answer.statusText;
      if (answer.status === 403) {
        this.choices.replaceChildren();
        this.tray.replaceChildren();
        this.board.mine("", [], null);
      }
      return;
    }
    if (!body.ok) {
      // Refused (an old choice, not your turn): say why, and show the seat as it is.
      this.said.textContent = body.messages.map((m) => m.text).join("\n");
      if (!fresh) this.shown = -1;
      const again = await fetch(`${this.base}/seat`, { headers: this.headers() });
      const now = await again.json().catch(() => ({ messages: [] }));
      if (again.ok && now.ok) this.draw(now.messages);
      return;
    }
    if (fresh) this.said.textContent = "";
    if (body.messages.length) this.draw(body.messages);
    else this.said.textContent = "";
  }

  draw(messages) {
    // A choice pressed from the keyboard keeps the keyboard in the panel: the next choices
    // replace the pressed one, so the first of them takes the focus.
    // The message's own buttons come first (after a tap on the board: Place it here).
    const focused =
      this.panel.contains(document.activeElement) ||
      this.board.figure.contains(document.activeElement) ||
      this.pressedByKey;
    this.keys = Object.assign({}, ...messages.map((message) => message.keys || {}));
    // What the seat may touch is on the big board: the places of every message, over the
    // seat's own drawing of this moment if one has it.
    const own = messages.find((message) => message.board);
    const places = messages.flatMap((message) => message.spots || []);
    this.board.mine(own ? own.board : "", places, (data, button) => this.press(data, button));
    this.swipes(Object.keys(this.keys).some((key) => key.startsWith("Arrow")));
    const tray = messages.find((message) => message.tray);
    this.tray.replaceChildren();
    if (tray) this.tray.append(this.drawing(tray.tray));
    this.choices.replaceChildren(...messages.map((message) => this.message(message)));
    const first =
      this.choices.querySelector(".buttons button") || this.choices.querySelector("button");
    if (first && focused) first.focus({ preventScroll: true }); // the panel is in sight
    // Inside Telegram, its own buttons: the main choice, and the way back (Escape's).
    const main = this.choices.querySelector(".buttons button.success");
    mainButton(main ? main.textContent : "", main ? () => main.click() : null);
    const back = this.keys.Escape;
    backButton(back ? () => this.press(back, this.choices, true) : null);
  }

  drawing(text) {
    const made = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    return made instanceof SVGSVGElement ? document.importNode(made, true) : document.createTextNode("");
  }

  // A swipe across the board presses what its arrow key presses (sliding an official), when
  // the server offers that key; a short touch stays a tap. A touch that pans a zoomed board
  // is the browser's (it ends in pointercancel), never a swipe.
  swipes(on) {
    this.board.figure.classList.toggle("swipes", on);
  }

  swiped(event) {
    if (!this.start) return;
    const dx = event.clientX - this.start[0];
    const dy = event.clientY - this.start[1];
    this.start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 40) return;
    const across = Math.abs(dx) > Math.abs(dy);
    const key = across ? (dx > 0 ? "ArrowRight" : "ArrowLeft") : dy > 0 ? "ArrowDown" : "ArrowUp";
    if (this.keys[key]) this.press(this.keys[key], this.board.figure);
  }

  message(message) {
    const made = this.template.content.firstElementChild.cloneNode(true);
    made.querySelector(".text").textContent = message.text;
    const view = made.querySelector(".view");
    // A picture only where the big board does not already show it all.
    if (message.image && !message.board && !(message.spots || []).length) view.src = message.image;
    else view.remove();
    const buttons = made.querySelector(".buttons");
    const rows = [...message.buttons];
    if (message.choices.length) rows.unshift(message.choices);
    for (const row of rows) {
      const line = document.createElement("div");
      line.className = "row";
      for (const choice of row) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = choice.label;
        button.className = choice.style || "secondary";
        const drawn = choice.drawing ? this.drawing(choice.drawing) : null;
        if (drawn instanceof SVGSVGElement) {
          // What it chooses, drawn large (an official, a card), named by its words.
          line.classList.add("tray");
          button.classList.add("piece");
          button.replaceChildren(drawn);
          button.setAttribute("aria-label", choice.label);
          button.title = choice.label;
        }
        button.dataset.choice = choice.data;
        button.addEventListener("click", () => this.press(choice.data, button));
        line.append(button);
      }
      buttons.append(line);
    }
    return made;
  }
}
