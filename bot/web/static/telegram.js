// What Telegram hands a page it opens as the bot's Mini App, in the address's fragment: the
// signed launch data (who opened it, and the direct link's start parameter) and the
// chat's theme colours, which the page takes on.

export function launchData() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const initData = fragment.get("tgWebAppData");
  if (!initData) return null;
  const theme = fragment.get("tgWebAppThemeParams");
  if (theme) applyTheme(theme);
  return { initData };
}

function applyTheme(text) {
  let theme;
  try {
    theme = JSON.parse(text);
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
