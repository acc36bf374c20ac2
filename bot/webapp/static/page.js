// The Mini App page: proves who the user is with Telegram's initData (POST /app/api/session), then shows the
// table it was opened for (the start parameter t<table>, or ?t=<table> in the address) with WebTable.
"use strict";

(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  const query = new URLSearchParams(location.search);
  const table = query.get("t") || (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || "";
  const lang = (navigator.language || "en").slice(0, 2);
  const OPEN_FROM_TELEGRAM = {
    en: "Open this table from Telegram: the button under your hand or the table's link in the group.",
    ru: "Откройте этот стол из Telegram: кнопкой под вашей рукой или ссылкой стола в группе.",
    uk: "Відкрийте цей стіл із Telegram: кнопкою під вашою рукою або посиланням столу в групі.",
  };

  function theme(params) {
    const root = document.documentElement;
    const names = { bg_color: "--tg-bg", text_color: "--tg-text", hint_color: "--tg-hint", button_color: "--tg-button",
      button_text_color: "--tg-button-text", secondary_bg_color: "--tg-secondary-bg" };
    for (const [key, name] of Object.entries(names)) {
      if (params && typeof params[key] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(params[key])) {
        root.style.setProperty(name, params[key]);
      }
    }
  }

  if (tg) {
    tg.ready();
    tg.expand();
    theme(tg.themeParams);
    tg.onEvent("themeChanged", () => theme(tg.themeParams));
  } else if (hash.get("tgWebAppThemeParams")) {
    try { theme(JSON.parse(hash.get("tgWebAppThemeParams"))); } catch (e) { /* not JSON: device colours */ }
  }

  function refused() {
    // no try can mend it (no initData, a refused one, no such table): WebTable stops and shows why
    return Object.assign(new Error(OPEN_FROM_TELEGRAM[lang] || OPEN_FROM_TELEGRAM.en), { final: true });
  }

  async function session() {
    if (!initData) throw refused();
    // a network error (the server is away) rejects, and WebTable tries again later
    const res = await fetch("/app/api/session", {
      method: "POST",
      headers: { Authorization: "tma " + initData, "Content-Type": "application/json" },
      body: JSON.stringify({ table: table.startsWith("t") ? table : "t" + table }),
    });
    if (res.status >= 500) throw new Error(`server ${res.status}`); // a proxy in front of a restarting server
    if (!res.ok) throw refused();
    return (await res.json()).session;
  }

  const title = document.title;
  const view = new window.WebTable(document.getElementById("table"), {
    session,
    lang,
    onTurn(mine, name) {
      document.title = mine ? `● ${name}` : name || title;
    },
  });
  view.connect();
})();
