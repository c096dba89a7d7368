// The Mini App opened by its direct link: Telegram's signed launch data says who opened it
// and which table the link named; the server checks it and says where to go.

import { launchData } from "./telegram.js";

const said = document.getElementById("said");
const launch = launchData();

async function open() {
  if (!launch) {
    said.textContent = "?";
    return;
  }
  const answer = await fetch("/app/open", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ initData: launch.initData }),
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    said.textContent = body.error || answer.statusText;
    return;
  }
  const seat = body.token ? `#seat=${body.token}` : "";
  window.location.replace(body.path + seat);
}

open();
