// The table page: shows what the server sends, as it sends it. It knows no rule: every word,
// picture and choice comes from the server, which draws them from what the table's channel
// sees, and a player's own from what their seat sees.

import { Board } from "./board.js";
import { Seat } from "./seat.js";
import { launchData } from "./telegram.js";

const main = document.getElementById("table");
const board = main ? new Board(document.getElementById("figure")) : null;
const connection = document.getElementById("connection");

// A list's items, one per text, as text (never markup).
function listed(id, texts) {
  document.getElementById(id).replaceChildren(
    ...texts.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }),
  );
}

// A small drawing of the game's art, from the server (its markup never runs).
function drawing(text) {
  const made = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  return made instanceof SVGSVGElement ? document.importNode(made, true) : null;
}

function span(name, text) {
  const made = document.createElement("span");
  made.className = name;
  made.textContent = text;
  return made;
}

function pieces(list) {
  const made = span("pieces", "");
  made.append(...list.map((piece) => drawing(piece.drawing)).filter(Boolean));
  return made;
}

// Each seat as the chat's picture shows it: marker, name, score, whose turn; and the table's
// facts (dice, the exile terrace). Before the deal, the names alone.
function seated(state) {
  const rows = state.sidebar.seats.length
    ? state.sidebar.seats
    : state.seats.map((name) => ({ name, said: "", mark: null, tag: "", turn: false, pieces: [] }));
  document.getElementById("seats").replaceChildren(
    ...rows.map((row) => {
      const item = document.createElement("li");
      if (row.turn) item.setAttribute("aria-current", "true");
      if (row.mark) item.append(span("mark", ""));
      if (row.mark) item.lastChild.append(drawing(row.mark.drawing) || "");
      const who = span("who", "");
      who.append(span("name", row.name));
      if (row.tag) who.append(" ", span("tag", row.tag));
      item.append(who);
      if (row.said) item.append(span("said", row.said));
      if (row.pieces.length) item.append(pieces(row.pieces));
      return item;
    }),
  );
  document.getElementById("facts").replaceChildren(
    ...state.sidebar.facts.map((fact) => {
      const pair = document.createElement("div");
      const term = document.createElement("dt");
      const told = document.createElement("dd");
      term.textContent = fact.label;
      if (fact.text) told.append(span("", fact.text));
      if (fact.pieces.length) told.append(pieces(fact.pieces));
      pair.append(term, told);
      return pair;
    }),
  );
}

function show(state) {
  document.title = state.title;
  document.getElementById("title").textContent = state.title;
  document.getElementById("place").textContent = state.place;
  document.getElementById("status").textContent = state.text;
  seated(state);
  listed("story", state.log);
  board.figure.hidden = !state.board;
  board.show(state.board);
  main.dataset.version = String(state.version);
  main.dataset.over = String(state.over);
}

function listen(seat) {
  const events = new EventSource(main.dataset.events);
  events.addEventListener("open", () => {
    connection.hidden = true;
  });
  events.addEventListener("state", (event) => {
    connection.hidden = true;
    const state = JSON.parse(event.data);
    show(state);
    if (seat) seat.refresh(state);
    if (state.over) events.close(); // an ended game changes no more
  });
  events.addEventListener("gone", () => {
    events.close();
    window.location.reload(); // the server says what became of the table
  });
  events.addEventListener("idle", () => {
    // The table was quiet for long: the stream rests until the page is looked at again.
    events.close();
    again(seat, 0);
  });
  events.addEventListener("error", () => {
    // EventSource connects again by itself after a drop; a refusal (a busy server) closes
    // it, and the page tries again a little later.
    connection.hidden = false;
    if (events.readyState === EventSource.CLOSED) again(seat, 10000);
  });
}

// Follow the table again: after `delay` ms, once the page is in sight.
function again(seat, delay) {
  setTimeout(() => {
    if (document.visibilityState === "visible") {
      listen(seat);
      return;
    }
    document.addEventListener("visibilitychange", () => listen(seat), { once: true });
  }, delay);
}

// A personal link carries the player's token in its fragment, which no server ever sees;
// opened as the Telegram Mini App, the page has Telegram's signed launch data instead, which
// the server trades for a token. Either way the page sends the token in a header, and keeps
// the fragment out of the address bar and the history.
async function token() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const launch = launchData();
  if (window.location.hash) {
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  if (fragment.get("seat")) return fragment.get("seat");
  if (!launch) return null;
  const answer = await fetch(`${main.dataset.base}/telegram`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ initData: launch.initData }),
  });
  const body = await answer.json().catch(() => ({}));
  return answer.ok ? body.token : null;
}

if (main) {
  board.show(board.figure.dataset.board);
  token().then((seat) => listen(seat ? new Seat(main.dataset.base, seat, board) : null));
}
