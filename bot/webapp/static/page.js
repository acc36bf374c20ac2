// The Mini App page: proves who the user is with Telegram's initData (POST /app/api/session), then shows the
// table it was opened for (the start parameter t<table>, or ?t=<table> in the address) with WebTable.
// Inside Telegram it is a game screen: full screen on phones, the safe areas kept clear, vertical swipes off,
// haptics on your turn and on a refused tap, the Back button closing the round's sheet, theme colours, and
// Invite (a message the bot prepares, shared with shareMessage). Each of these is asked for only where the
// client has it (isVersionAtLeast) and a failure is ignored: an older client and a plain browser get the page.
// Inside Discord (an Activity: the address has frame_id and instance_id) it signs in with the Embedded App SDK
// (static/discord-sdk.js, from this origin): authorize → the server exchanges the code and checks the instance
// with Discord (POST /app/api/activity) → authenticate; the session follows the channel's table.
"use strict";

(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  const query = new URLSearchParams(location.search);
  const table = query.get("t") || (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || "";
  const lang = (navigator.language || "en").slice(0, 2);
  const TEXT = {
    en: {
      open_from_telegram: "Open this table from Telegram: the button under your hand or the table's link in the group.",
      invite: "Invite", invite_failed: "The invitation could not be prepared: try again in a moment.",
      discord_refused: "Discord did not let this Activity know who you are: close it and open it again.",
    },
    ru: {
      open_from_telegram: "Откройте этот стол из Telegram: кнопкой под вашей рукой или ссылкой стола в группе.",
      invite: "Позвать", invite_failed: "Не удалось подготовить приглашение: попробуйте чуть позже.",
      discord_refused: "Discord не сообщил этой активности, кто вы: закройте её и откройте снова.",
    },
    uk: {
      open_from_telegram: "Відкрийте цей стіл із Telegram: кнопкою під вашою рукою або посиланням столу в групі.",
      invite: "Покликати", invite_failed: "Не вдалося підготувати запрошення: спробуйте трохи згодом.",
      discord_refused: "Discord не повідомив цій активності, хто ви: закрийте її та відкрийте знову.",
    },
  };
  const text = (key, lng) => (TEXT[lng] || TEXT[lang] || TEXT.en)[key];

  // a feature of the Web App API from `version` on, asked for without letting an older client break the page
  const has = (version) => !!(tg && typeof tg.isVersionAtLeast === "function" && tg.isVersionAtLeast(version));
  function quietly(fn) {
    try {
      fn();
    } catch (e) {
      /* this client lacks it: the page works without */
    }
  }

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

  // the device's safe area (notch, home bar) plus Telegram's own controls in full screen: the page keeps clear
  function insets() {
    const device = (tg && tg.safeAreaInset) || {};
    const content = (tg && tg.contentSafeAreaInset) || {};
    for (const side of ["top", "bottom", "left", "right"]) {
      const px = (Number(device[side]) || 0) + (Number(content[side]) || 0);
      document.documentElement.style.setProperty(`--wt-inset-${side}`, `${px}px`);
    }
  }

  if (tg) {
    quietly(() => tg.ready());
    quietly(() => tg.expand());
    theme(tg.themeParams);
    quietly(() => tg.onEvent("themeChanged", () => theme(tg.themeParams)));
    if (has("8.0") && (tg.platform === "android" || tg.platform === "ios")) quietly(() => tg.requestFullscreen());
    if (has("7.7")) quietly(() => tg.disableVerticalSwipes()); // a swipe down on the hand must not close the app
    insets();
    for (const name of ["safeAreaChanged", "contentSafeAreaChanged", "fullscreenChanged", "viewportChanged"]) {
      quietly(() => tg.onEvent(name, insets));
    }
  } else if (hash.get("tgWebAppThemeParams")) {
    try { theme(JSON.parse(hash.get("tgWebAppThemeParams"))); } catch (e) { /* not JSON: device colours */ }
  }

  function refused() {
    // no try can mend it (no initData, a refused one, no such table): WebTable stops and shows why
    return Object.assign(new Error(text("open_from_telegram")), { final: true });
  }

  let sessionToken = null;
  const inDiscord = query.has("frame_id") && query.has("instance_id");

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = src;
      tag.onload = resolve;
      tag.onerror = () => reject(new Error(text("discord_refused")));
      document.head.append(tag);
    });
  }

  // the Activity's sign-in, once: a later reconnect reuses the session (12 hours)
  async function discordSession() {
    if (sessionToken) return sessionToken;
    // Discord or the server said no: final (a network error while the server is away rejects, and is tried again)
    const denied = Object.assign(new Error(text("discord_refused")), { final: true });
    const conf = await fetch("/app/api/activity").then((r) => (r.ok ? r.json() : Promise.reject(denied)));
    await loadScript("/app/static/discord-sdk.js");
    const sdk = new window.DiscordSDKBundle.DiscordSDK(conf.client_id, { disableConsoleLogOverride: true });
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: conf.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    const res = await fetch("/app/api/activity", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: sdk.instanceId, channel_id: sdk.channelId }),
    });
    if (!res.ok) throw denied;
    const got = await res.json();
    await sdk.commands.authenticate({ access_token: got.access_token });
    sessionToken = got.session;
    return sessionToken;
  }

  async function session() {
    if (inDiscord) return discordSession();
    if (!initData) throw refused();
    // a network error (the server is away) rejects, and WebTable tries again later
    const res = await fetch("/app/api/session", {
      method: "POST",
      headers: { Authorization: "tma " + initData, "Content-Type": "application/json" },
      body: JSON.stringify({ table: table.startsWith("t") ? table : "t" + table }),
    });
    if (res.status >= 500) throw new Error(`server ${res.status}`); // a proxy in front of a restarting server
    if (!res.ok) throw refused();
    sessionToken = (await res.json()).session;
    return sessionToken;
  }

  const title = document.title;
  const root = document.getElementById("table");
  const view = new window.WebTable(root, {
    session,
    lang,
    onTurn(mine, name) {
      document.title = mine ? `● ${name}` : name || title;
    },
  });

  function haptic(kind) {
    if (!has("6.1") || !tg.HapticFeedback) return;
    quietly(() => tg.HapticFeedback.notificationOccurred(kind));
  }
  root.addEventListener("wt-turn", () => haptic("success"));
  root.addEventListener("wt-notice", (e) => haptic(e.detail.why ? "error" : "warning"));

  if (has("6.1") && tg.BackButton) {
    quietly(() => tg.BackButton.onClick(() => view.closeSheet()));
    root.addEventListener("wt-sheet", (e) => quietly(() => (e.detail.open ? tg.BackButton.show() : tg.BackButton.hide())));
  }

  if (has("8.0") && typeof tg.shareMessage === "function") {
    const invite = document.createElement("button");
    invite.type = "button";
    invite.className = "wt-invite";
    invite.textContent = text("invite");
    invite.addEventListener("click", async () => {
      let res = null;
      try {
        res = await fetch("/app/api/invite", { method: "POST", headers: { Authorization: "session " + sessionToken } });
      } catch (e) {
        res = null;
      }
      if (!res || !res.ok) {
        view.toast(text("invite_failed", view.lang), true);
        return;
      }
      const prepared = (await res.json()).id;
      quietly(() => tg.shareMessage(prepared));
    });
    view.head.insertBefore(invite, view.soundBtn);
    root.addEventListener("wt-hello", (e) => { invite.textContent = text("invite", e.detail.lang); });
  }

  view.connect();
})();
