// A player's own part of the page: what their seat sees and may choose now, as the bot's
// private messages show it. Each choice is sent as the chat's button would send it; the
// server says what followed (a preview, the next choice, or why not).

export class Seat {
  constructor(base, token) {
    this.base = base;
    this.token = token;
    this.panel = document.getElementById("mine");
    this.said = document.getElementById("said");
    this.choices = document.getElementById("choices");
    this.template = document.getElementById("message");
    this.busy = false;
    this.pressedByKey = false;
    this.shown = -1;
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

  async press(data, button) {
    if (this.busy) return;
    this.busy = true;
    this.pressedByKey = document.activeElement === button;
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
      if (answer.status === 403) this.choices.replaceChildren();
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
    const focused = this.panel.contains(document.activeElement) || this.pressedByKey;
    this.choices.replaceChildren(...messages.map((message) => this.message(message)));
    const first = this.choices.querySelector("button");
    if (first && focused) first.focus();
  }

  message(message) {
    const made = this.template.content.firstElementChild.cloneNode(true);
    made.querySelector(".text").textContent = message.text;
    const view = made.querySelector(".view");
    if (message.image) view.src = message.image;
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
        button.dataset.choice = choice.data;
        button.addEventListener("click", () => this.press(choice.data, button));
        line.append(button);
      }
      buttons.append(line);
    }
    return made;
  }
}
