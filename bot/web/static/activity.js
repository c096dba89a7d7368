// The page as a Discord Activity: Discord's Embedded App SDK (vendored, pinned) asks the
// player to let the application know who they are; the server trades that one-time code for
// the player and the table of the channel the Activity was opened in, and the page goes
// there with the player's seat, keeping Discord's launch parameters.

import { DiscordSDK } from "./vendor/discord-sdk-2.5.0.js";

const main = document.getElementById("activity");
const said = document.getElementById("said");

async function open() {
  const client = main.dataset.client;
  const sdk = new DiscordSDK(client, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: client,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("/activity/open", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, channel_id: sdk.channelId }),
  });
  const body = await answer.json().catch(() => ({}));
  if (body.access_token) await sdk.commands.authenticate({ access_token: body.access_token });
  if (!answer.ok) {
    said.textContent = body.error || answer.statusText;
    return;
  }
  const seat = body.token ? `#seat=${body.token}` : "";
  window.location.replace(`${body.path}${window.location.search}${seat}`);
}

if (main) open().catch((error) => (said.textContent = String(error)));
