// What Telegram hands a page it opens as the bot's Mini App, in the address's fragment: the
// signed launch data (who opened it, and the direct link's start parameter) and the
// chat's theme colours, which the page takes on. Inside Telegram the page also uses its
// main button (the page's main choice: Place it here, Confirm) and its back button, through
// the Mini App's events (https://core.telegram.org/api/web-events).

let inside = false;
const pressed = { main_button_pressed: null, back_button_pressed: null };

export function launchData() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const initData = fragment.get("tgWebAppData");
  if (!initData) return null;
  const theme = fragment.get("tgWebAppThemeParams");
  if (theme) applyTheme(theme);
  listen();
  return { initData };
}

function applyTheme(text) {
  let theme;
  try {
    theme = typeof text === "string" ? JSON.parse(text) : text;
  } catch {
    return;
  }
  const colours = {
    "--bg": theme.bg_color,
    "--fg": theme.text_color,
    "--muted": theme.hint_color,
    "--line": theme.section_separator_color || theme.hint_color,
  };
  for (const [name, value] of Object.entries(colours)) {
    if (/^#[0-9a-fA-F]{3,8}$/.test(value || "")) {
      document.documentElement.style.setProperty(name, value);
    }
  }
}

// An event to Telegram: the apps' bridge, or the web client's frame.
function post(eventType, eventData = {}) {
  if (!inside) return;
  const data = JSON.stringify(eventData);
  if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(eventType, data);
  else window.parent.postMessage(JSON.stringify({ eventType, eventData }), "*");
}

function received(eventType, eventData) {
  if (eventType === "theme_changed" && eventData) applyTheme(eventData.theme_params || {});
  if (eventType === "viewport_changed" && eventData && eventData.height) {
    document.documentElement.style.setProperty("--tg-height", `${eventData.height}px`);
  }
  if (eventType in pressed && pressed[eventType]) pressed[eventType]();
}

function listen() {
  inside = true;
  // The apps call this function; the web client posts messages to the frame.
  window.Telegram = window.Telegram || {};
  window.Telegram.WebView = window.Telegram.WebView || {};
  window.Telegram.WebView.receiveEvent = received;
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message && typeof message.eventType === "string") {
      received(message.eventType, message.eventData);
    }
  });
  post("web_app_ready");
  post("web_app_expand");
  post("web_app_request_viewport");
  post("web_app_request_theme");
}

// Telegram's main button as the page's main choice (`label`, `press`), or hidden (null).
export function mainButton(label, press) {
  if (!inside) return;
  pressed.main_button_pressed = press;
  if (press) post("web_app_setup_main_button", { is_visible: true, is_active: true, text: label });
  else post("web_app_setup_main_button", { is_visible: false });
}

// Telegram's back button as the page's way back (`press`), or hidden (null).
export function backButton(press) {
  if (!inside) return;
  pressed.back_button_pressed = press;
  post("web_app_setup_back_button", { is_visible: Boolean(press) });
}
