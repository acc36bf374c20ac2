// The playground page: one WebSocket to the server; the group pane and the private pane show what the bot
// sends; buttons, typed commands and the start panel send frames the server checks. No build step.
"use strict";

const COMMANDS = ["new", "join", "leave", "stop", "table", "rules", "settings", "lang", "score", "top", "me", "history",
  "export", "daily", "notify", "season", "help"];
const LEVEL_DEFAULT = "normal";

const UI = {
  en: {
    playground: "playground", room: "Room", name: "Your name", language: "Language", enter: "Enter",
    start_title: "Start a game", game: "Game", seats: "Seats", players: "Players", you: "you",
    person: "a person (another tab)", computer: "computer", table_language: "Table language",
    conventions: "Conventions", start: "Open the table", commands: "Commands", group: "Group",
    private: "Only you", send: "Send", type_command: "Say something, or a command: /help",
    new_room: "new room", tab_table: "Table", tab_start: "Start", your_turn: "Your turn",
    online: "connected", offline: "offline, reconnecting…", connecting: "connecting…",
    open_private: "Open my private pane", invite_for: "for {name}", download: "Download",
    step_start: "start", guest: "Guest {n}",
    finish_by_hand: "Finish setting up the table with its own buttons.",
    conventions_hint: "Every convention of the game is set on the table itself: its ⚙ button.",
    levels: { easy: "easy", normal: "normal", strong: "strong" },
    games: { thousand: "Thousand (1000)", deberts: "Deberts", kozel: "Kozel" },
    errors: {
      bad_request: "The page sent something the playground does not understand; nothing was changed.",
      bad_button: "This button is not valid; nothing was changed.",
      unknown_command: "Unknown command. The commands are: {commands}.",
      too_long: "That is too long; nothing was sent.",
      bad_hello: "Choose a room (letters, digits, - and _) and a name.",
      no_hello: "Enter a room and a name first.",
      internal: "Something went wrong on the server; nothing was changed. Try again.",
    },
  },
  ru: {
    playground: "песочница", room: "Комната", name: "Ваше имя", language: "Язык", enter: "Войти",
    start_title: "Начать игру", game: "Игра", seats: "Мест", players: "Игроки", you: "вы",
    person: "человек (другая вкладка)", computer: "компьютер", table_language: "Язык стола",
    conventions: "Правила стола", start: "Открыть стол", commands: "Команды", group: "Группа",
    private: "Только вам", send: "Отправить", type_command: "Напишите что-нибудь или команду: /help",
    new_room: "новая комната", tab_table: "Стол", tab_start: "Начать", your_turn: "Ваш ход",
    online: "на связи", offline: "нет связи, переподключаемся…", connecting: "подключаемся…",
    open_private: "Открыть мою личную панель", invite_for: "для {name}", download: "Скачать",
    step_start: "начать", guest: "Гость {n}",
    finish_by_hand: "Закончите настройку стола его кнопками.",
    conventions_hint: "Все правила игры задаются на самом столе: кнопка ⚙.",
    levels: { easy: "лёгкий", normal: "средний", strong: "сильный" },
    games: { thousand: "Тысяча (1000)", deberts: "Деберц", kozel: "Козёл" },
    errors: {
      bad_request: "Страница отправила то, чего песочница не понимает; ничего не изменилось.",
      bad_button: "Эта кнопка недействительна; ничего не изменилось.",
      unknown_command: "Неизвестная команда. Команды: {commands}.",
      too_long: "Слишком длинно; ничего не отправлено.",
      bad_hello: "Выберите комнату (буквы, цифры, - и _) и имя.",
      no_hello: "Сначала войдите: комната и имя.",
      internal: "На сервере что-то сломалось; ничего не изменилось. Попробуйте ещё раз.",
    },
  },
  uk: {
    playground: "пісочниця", room: "Кімната", name: "Ваше імʼя", language: "Мова", enter: "Увійти",
    start_title: "Почати гру", game: "Гра", seats: "Місць", players: "Гравці", you: "ви",
    person: "людина (інша вкладка)", computer: "компʼютер", table_language: "Мова столу",
    conventions: "Правила столу", start: "Відкрити стіл", commands: "Команди", group: "Група",
    private: "Лише вам", send: "Надіслати", type_command: "Напишіть щось або команду: /help",
    new_room: "нова кімната", tab_table: "Стіл", tab_start: "Почати", your_turn: "Ваш хід",
    online: "на звʼязку", offline: "немає звʼязку, перепідключаємось…", connecting: "підключаємось…",
    open_private: "Відкрити мою особисту панель", invite_for: "для {name}", download: "Завантажити",
    step_start: "почати", guest: "Гість {n}",
    finish_by_hand: "Завершіть налаштування столу його кнопками.",
    conventions_hint: "Усі правила гри задаються на самому столі: кнопка ⚙.",
    levels: { easy: "легкий", normal: "середній", strong: "сильний" },
    games: { thousand: "Тисяча (1000)", deberts: "Деберц", kozel: "Козел" },
    errors: {
      bad_request: "Сторінка надіслала те, чого пісочниця не розуміє; нічого не змінилося.",
      bad_button: "Ця кнопка недійсна; нічого не змінилося.",
      unknown_command: "Невідома команда. Команди: {commands}.",
      too_long: "Задовго; нічого не надіслано.",
      bad_hello: "Оберіть кімнату (літери, цифри, - і _) та імʼя.",
      no_hello: "Спершу увійдіть: кімната та імʼя.",
      internal: "На сервері щось зламалося; нічого не змінилося. Спробуйте ще раз.",
    },
  },
};

const $ = (sel, root = document) => root.querySelector(sel);
const state = {
  ws: null, me: null, room: null, lang: "en", req: 0, pending: new Map(), retry: 500,
  boxes: { group: new Map(), private: new Map() }, games: [], levels: [], waiters: new Map(),
  table: null, tableKey: "", seenTables: new Set(), title: document.title,
};

function t(key, params = {}) {
  const dict = UI[state.lang] || UI.en;
  let text = key.split(".").reduce((d, k) => (d ? d[k] : undefined), dict);
  if (text === undefined) text = key.split(".").reduce((d, k) => (d ? d[k] : undefined), UI.en) ?? key;
  return String(text).replace(/\{(\w+)\}/g, (_, k) => params[k] ?? "");
}

// ---- who am I --------------------------------------------------------------------------------------------
function initialIdentity() {
  const params = new URLSearchParams(location.search);
  let lang = params.get("lang") || localStorage.getItem("pg-lang") || (navigator.language || "en").slice(0, 2);
  if (!UI[lang]) lang = "en";
  let name = params.get("name") || sessionStorage.getItem("pg-name");
  // a new tab's name, in the page's language: "Guest 1234", "Гость 1234", "Гість 1234"
  if (!name) name = UI[lang].guest.replace("{n}", String(Math.floor(1000 + Math.random() * 9000)));
  const hashRoom = decodeURIComponent(location.hash.slice(1));
  const room = (hashRoom || params.get("room") || sessionStorage.getItem("pg-room") || "kitchen").toLowerCase();
  return { name, room, lang };
}

function applyLanguage() {
  document.documentElement.lang = state.lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  document.querySelectorAll("[data-tp]").forEach((el) => { el.placeholder = t(el.dataset.tp); });
  updateStatus();
  renderPanel();
  rerenderAll();
}

// ---- the connection --------------------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  state.ws = ws;
  setStatus("connecting");
  ws.onopen = () => {
    state.retry = 500;
    setStatus("online");
    hello();
  };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    if (state.ws !== ws) return;
    setStatus("offline");
    for (const [, press] of state.pending) pressedButton(press)?.classList.remove("pending");
    state.pending.clear();
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

function send(frame) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
    toast(t("offline"), true);
    return false;
  }
  state.ws.send(JSON.stringify(frame));
  return true;
}

function hello() {
  send({ type: "hello", room: $("#room").value.trim().toLowerCase(), name: $("#name").value.trim(), lang: state.lang });
}

function setStatus(s) {
  $("#status").dataset.state = s;
  updateStatus();
}

function updateStatus() {
  const el = $("#status");
  el.textContent = t(el.dataset.state || "connecting");
}

function nextReq() {
  state.req += 1;
  return state.req;
}

function receive(frame) {
  switch (frame.type) {
    case "snapshot": {
      // the same room, empty now although this page showed it: the server restarted and lost its board;
      // ask the application for the table and my hand again (the ``table`` command), as a player would
      const restarted = state.room === frame.room && state.boxes.group.size > 0 && frame.group.length === 0;
      state.me = frame.user;
      state.room = frame.room;
      $("#room-title").textContent = `#${frame.room}`;
      showRoom(frame.room);
      openWebTable();
      $("#me-title").textContent = `— ${frame.user.name}`;
      for (const box of ["group", "private"]) {
        state.boxes[box] = new Map(frame[box].map((e) => [e.id, e]));
        renderBox(box);
      }
      if (restarted) sendCommand("/table");
      break;
    }
    case "upsert":
      if (frame.box === "group" && frame.room !== state.room) return;
      upsert(frame.box, frame.entries);
      break;
    case "answer":
      settle(frame.req);
      if (frame.text) {
        if (frame.alert) showAlert(frame.text);
        else toast(frame.text);
      }
      break;
    case "error":
      settle(frame.req);
      toast(t(`errors.${frame.code}`, { commands: COMMANDS.map((c) => `/${c}`).join(", ") }), true);
      break;
    default:
      break;
  }
}

function settle(req) {
  const waiter = state.waiters.get(req);
  if (waiter) waiter();
  state.waiters.delete(req);
  const press = state.pending.get(req);
  state.pending.delete(req);
  // a redrawn button stays marked while another press of it (same message and payload) still waits
  if (press && !(press.id && isPending(press.id, press.payload))) pressedButton(press)?.classList.remove("pending");
}

// A press waits for its answer: its button shows so, also when its message is drawn again meanwhile (the
// button is then a new element; the press is known by its message and payload)
function pressedButton(press) {
  if (press.el.isConnected) return press.el;
  if (!press.id) return null;
  return document.querySelector(`li[data-id="${CSS.escape(press.id)}"] button[data-payload="${CSS.escape(press.payload)}"]`);
}

function isPending(id, payload) {
  for (const p of state.pending.values()) if (p.id === id && p.payload === payload) return true;
  return false;
}

// ---- the panes ---------------------------------------------------------------------------------------------
function listOf(box) {
  return box === "group" ? $("#group-messages") : $("#private-messages");
}

function nearBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
}

function renderBox(box) {
  const list = listOf(box);
  list.replaceChildren(...[...state.boxes[box].values()].map((e) => renderEntry(box, e)));
  list.scrollTop = list.scrollHeight;
}

function rerenderAll() {
  for (const box of ["group", "private"]) {
    const list = listOf(box);
    const keep = list.scrollTop;
    list.replaceChildren(...[...state.boxes[box].values()].map((e) => renderEntry(box, e)));
    list.scrollTop = keep;
  }
}

// a pane out of sight (a phone shows one tab at a time) that gets a new message: its tab is marked unread
function markUnread(box) {
  if (listOf(box).getClientRects().length) return; // on view
  const tab = $(`#tabs [data-tab=${box}]`);
  if (tab) tab.dataset.unread = "yes";
}

function upsert(box, entries) {
  const list = listOf(box);
  const stick = nearBottom(list);
  for (const entry of entries) {
    const known = state.boxes[box].has(entry.id);
    if (!known && !(entry.kind === "said" && state.me && entry.user === state.me.name)) markUnread(box);
    state.boxes[box].set(entry.id, entry);
    const el = renderEntry(box, entry);
    const old = known ? list.querySelector(`[data-id="${entry.id}"]`) : null;
    if (old) {
      el.classList.add("updated");
      const [was, img] = [old.querySelector("img"), el.querySelector("img")];
      if (was && img && was.complete && was.naturalWidth) {
        // until the new picture arrives, the old one shows through: no blank flash, no jump, on every move
        img.style.minHeight = `${was.clientHeight}px`;
        img.style.background = `url("${was.src}") center / contain no-repeat`;
        img.addEventListener("load", () => { img.style.minHeight = ""; img.style.background = ""; }, { once: true });
      }
      old.replaceWith(el);
    } else {
      list.append(el);
    }
  }
  while (list.children.length > 200) {
    state.boxes[box].delete(list.firstElementChild.dataset.id);
    list.firstElementChild.remove();
  }
  if (stick) list.scrollTop = list.scrollHeight;
}

function renderEntry(box, entry) {
  const li = document.createElement("li");
  li.className = "msg";
  li.dataset.id = entry.id;
  li.dataset.version = entry.version;
  if (entry.kind === "said") {
    li.classList.add("said");
    if (entry.talk) li.classList.add("talk");
    if (state.me && entry.user === state.me.name) li.classList.add("mine");
    const who = document.createElement("div");
    who.className = "author";
    who.textContent = entry.user;
    const text = document.createElement("div");
    text.className = "text";
    text.textContent = entry.text;
    li.append(who, text);
    return li;
  }
  li.classList.add("bot");
  if (entry.image) {
    const img = document.createElement("img");
    img.src = `/media/${entry.image}`;
    img.dataset.name = entry.image_name || "";
    img.alt = entry.text.split("\n")[0];
    img.addEventListener("load", () => {
      const list = listOf(box);
      if (nearBottom(list) || list.lastElementChild === li) list.scrollTop = list.scrollHeight;
    });
    li.append(img);
  }
  if (entry.text) {
    const text = document.createElement("div");
    text.className = "text";
    text.textContent = entry.text;
    li.append(text);
  }
  if (entry.document) {
    const a = document.createElement("a");
    a.className = "doc";
    a.href = `/media/${entry.document.token}/${encodeURIComponent(entry.document.filename)}`;
    a.download = entry.document.filename;
    a.textContent = `↓ ${entry.document.filename} (${formatSize(entry.document.size)}) — ${t("download")}`;
    li.append(a);
  }
  const rows = [...entry.buttons];
  if (entry.invite) rows.push([{ invite: entry.invite }]);
  if (rows.length) {
    const wrap = document.createElement("div");
    wrap.className = "rows";
    for (const row of rows) {
      const r = document.createElement("div");
      r.className = "row";
      for (const b of row) r.append(renderButton(entry, b));
      wrap.append(r);
    }
    li.append(wrap);
  }
  return li;
}

function renderButton(entry, b) {
  if (b.invite) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "invite";
    el.textContent = `${t("open_private")} (${t("invite_for", { name: b.invite.user })})`;
    el.addEventListener("click", () => {
      const req = nextReq();
      if (send({ type: "start", req, payload: b.invite.payload })) {
        el.classList.add("pending");
        state.pending.set(req, { el, id: null, payload: null });
      }
    });
    return el;
  }
  if (b.url) {
    const a = document.createElement("a");
    a.href = b.url;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = b.label;
    return a;
  }
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = b.label;
  el.dataset.payload = b.payload;
  if (b.style && b.style !== "default") el.classList.add(b.style);
  if (isPending(entry.id, b.payload)) el.classList.add("pending");
  el.addEventListener("click", () => {
    if (el.classList.contains("pending")) return;
    const req = nextReq();
    if (send({ type: "press", req, message: entry.id, payload: b.payload })) {
      el.classList.add("pending");
      state.pending.set(req, { el, id: entry.id, payload: b.payload });
    }
  });
  return el;
}

function formatSize(n) {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

function toast(text, error = false) {
  const el = document.createElement("div");
  el.className = error ? "toast error" : "toast";
  el.textContent = text;
  $("#toasts").append(el);
  setTimeout(() => el.remove(), 4000);
}

function showAlert(text) {
  $("#alert-text").textContent = text;
  const dialog = $("#alert");
  if (!dialog.open) dialog.showModal();
}

// ---- commands and table talk ---------------------------------------------------------------------------------
function sendCommand(text, where = "group") {
  const req = nextReq();
  return send({ type: "command", req, where, text });
}

function sendLine(text, where) {
  // in the group box plain text is table talk; a command starts with "/"
  if (where === "group" && !text.startsWith("/")) return send({ type: "say", req: nextReq(), text });
  return sendCommand(text, where);
}

// ---- the room in the address, the web table, the tabs of a narrow screen ------------------------------------
function showRoom(room) {
  const link = $("#room-link");
  link.textContent = `#${room}`;
  link.href = `${location.pathname}${location.search}#${room}`;
  if (decodeURIComponent(location.hash.slice(1)) !== room) {
    history.replaceState(null, "", `${location.pathname}${location.search}#${room}`);
  }
  sessionStorage.setItem("pg-room", room);
}

function enterRoom(room) {
  $("#room").value = room;
  sessionStorage.setItem("pg-room", room);
  hello();
}

function newRoomName() {
  const words = "abcdefghjkmnpqrstuvwxyz23456789";
  let out = "";
  for (let i = 0; i < 6; i += 1) out += words[Math.floor(Math.random() * words.length)];
  return out;
}

function showTab(tab) {
  document.body.dataset.tab = tab;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === tab));
  const opened = $(`#tabs [data-tab=${tab}]`);
  if (opened) delete opened.dataset.unread;
  // a pane opens at its newest message (while hidden it had no height to scroll)
  if (tab === "group" || tab === "private") listOf(tab).scrollTop = listOf(tab).scrollHeight;
}

async function playgroundSession() {
  const res = await fetch("/app/api/session", {
    method: "POST",
    headers: { Authorization: "playground", "Content-Type": "application/json" },
    body: JSON.stringify({ name: state.me.name, room: state.room, lang: state.lang }),
  });
  if (res.status === 404) return null; // this server has no web table
  if (res.status >= 500) throw new Error(`server ${res.status}`); // the web table tries again later
  if (!res.ok) throw Object.assign(new Error(t("errors.bad_hello")), { final: true });
  return (await res.json()).session;
}

function openWebTable() {
  if (!window.WebTable || !state.me) return;
  const key = `${state.room}|${state.me.name}|${state.lang}`;
  if (state.table && state.tableKey === key) return;
  if (state.table) state.table.close();
  state.tableKey = key;
  state.table = new window.WebTable($("#webtable"), {
    session: playgroundSession,
    lang: state.lang,
    onTable(frame) {
      const has = Boolean(frame);
      document.body.classList.toggle("has-table", has);
      $("#webtable-pane").hidden = false;
      $("#tabs [data-tab=table]").hidden = false;
      if (has && !state.seenTables.has(`${state.room}:${frame.table}`)) {
        state.seenTables.add(`${state.room}:${frame.table}`);
        showTab("table");
      }
    },
    onTurn(mine, title) {
      document.title = mine ? `● ${t("your_turn")} · ${title}` : state.title;
    },
  });
  state.table.connect();
}

function initComposers() {
  $("#command-list").replaceChildren(...COMMANDS.map((c) => Object.assign(document.createElement("option"), { value: `/${c}` })));
  document.querySelectorAll(".composer").forEach((form) => {
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = form.elements.text;
      const text = input.value.trim();
      if (!text) return;
      if (sendLine(text, form.dataset.where)) input.value = "";
    });
  });
  $("#chips").replaceChildren(...COMMANDS.map((c) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `/${c}`;
    b.title = `/${c}`;
    b.addEventListener("click", () => {
      const input = $(".composer[data-where=group] input");
      if (["new", "lang"].includes(c)) {
        input.value = `/${c} `;
        input.focus();
      } else {
        sendCommand(`/${c}`);
      }
    });
    return b;
  }));
}

// ---- the start panel ------------------------------------------------------------------------------------------
async function loadGames() {
  const res = await fetch("/api/games");
  const data = await res.json();
  state.games = data.games;
  state.levels = data.levels;
  renderPanel();
}

function currentGame() {
  return state.games.find((g) => g.name === $("#game").value) || state.games[0];
}

function renderPanel() {
  if (!state.games.length) return;
  const gameSel = $("#game");
  const chosen = gameSel.value || state.games[0].name;
  gameSel.replaceChildren(...state.games.map((g) => new Option(t(`games.${g.name}`), g.name, false, g.name === chosen)));
  const game = currentGame();
  const seatsSel = $("#seats");
  const seatsWas = Number(seatsSel.value) || Math.min(3, game.max_players);
  const seats = Math.min(Math.max(seatsWas, game.min_players), game.max_players);
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n += 1) counts.push(n);
  seatsSel.replaceChildren(...counts.map((n) => new Option(String(n), String(n), false, n === seats)));
  renderSeats(seats);
  $("#table-lang").value = $("#table-lang").dataset.chosen || state.lang;
  previewStart();
}

function renderSeats(seats) {
  const list = $("#seat-list");
  const was = [...list.querySelectorAll("select")].map((s) => s.value);
  const legend = document.createElement("legend");
  legend.textContent = t("players");
  const rows = [legend];
  const me = document.createElement("div");
  me.className = "seat";
  me.innerHTML = "<span>1</span><strong></strong>";
  me.querySelector("strong").textContent = `${$("#name").value} (${t("you")})`;
  rows.push(me);
  for (let i = 1; i < seats; i += 1) {
    const row = document.createElement("label");
    row.className = "seat";
    const num = document.createElement("span");
    num.textContent = String(i + 1);
    const sel = document.createElement("select");
    sel.name = `seat${i + 1}`;
    for (const level of state.levels) sel.append(new Option(`${t("computer")}: ${t(`levels.${level}`)}`, level));
    sel.append(new Option(t("person"), "person"));
    sel.value = was[i - 1] || LEVEL_DEFAULT;
    sel.addEventListener("change", previewStart);
    row.append(num, sel);
    rows.push(row);
  }
  list.replaceChildren(...rows);
}

// The start panel does what a chat user does: it types /lang and /new, then presses the lobby's own buttons
// (found by the kind of their payload, bot/payloads.py: j join, n seats, c add a computer, s start).
const LOBBY = {
  start: /^s\.(\d+)$/,
  join: (table) => new RegExp(`^j\\.${table}$`),
  seats: (table) => new RegExp(`^n\\.${table}\\.\\d+\\.(\\d+)$`),
  computer: (table, level) => new RegExp(`^c\\.${table}\\.\\d+\\.${level}$`),
};

function startPlan() {
  const game = currentGame();
  const seats = Number($("#seats").value);
  const others = [...$("#seat-list").querySelectorAll("select")].map((s) => s.value);
  const computers = others.filter((v) => v !== "person");
  return {
    game, seats, computers,
    lines: [`/lang ${$("#table-lang").value}`, `/new ${game.name} ${seats}`],
    full: computers.length === seats - 1,
  };
}

function previewStart() {
  if (!state.games.length) return;
  const plan = startPlan();
  const steps = plan.computers.map((level) => `+ ${t(`levels.${level}`)}`);
  if (plan.full) steps.push(t("step_start"));
  const then = steps.length ? `  →  ${steps.join(", ")}` : "";
  $("#start-preview").textContent = `${plan.lines.join("  ·  ")}${then}`;
}

function lobbyButtons(table) {
  // the newest group message that carries this table's start button, and its buttons
  const entries = [...state.boxes.group.values()].reverse();
  for (const entry of entries) {
    const buttons = (entry.buttons || []).flat();
    if (buttons.some((b) => b.payload === `s.${table}`)) return { entry, buttons };
  }
  return null;
}

function waitFor(test, timeout = 8000) {
  return new Promise((resolve, reject) => {
    const begun = Date.now();
    const tick = () => {
      const got = test();
      if (got) resolve(got);
      else if (Date.now() - begun > timeout) reject(new Error("timeout"));
      else setTimeout(tick, 50);
    };
    tick();
  });
}

async function pressLobby(table, pattern) {
  const lobby = await waitFor(() => lobbyButtons(table));
  const button = lobby.buttons.find((b) => pattern.test(b.payload));
  if (!button) return false;
  const req = nextReq();
  const version = lobby.entry.version;
  const answered = new Promise((resolve) => state.waiters.set(req, resolve));
  send({ type: "press", req, message: lobby.entry.id, payload: button.payload });
  await answered;
  // the lobby shows the change (or a newer lobby message replaced it)
  await waitFor(() => {
    const now = lobbyButtons(table);
    return now && (now.entry.id !== lobby.entry.id || now.entry.version > version);
  }, 3000).catch(() => null);
  return true;
}

async function openTable() {
  const plan = startPlan();
  const before = new Set(state.boxes.group.keys());
  for (const line of plan.lines) sendCommand(line);
  try {
    const found = await waitFor(() => {
      for (const [id, entry] of state.boxes.group) {
        if (before.has(id)) continue;
        for (const b of (entry.buttons || []).flat()) {
          const m = LOBBY.start.exec(b.payload);
          if (m) return m[1];
        }
      }
      return null;
    });
    const table = found;
    const mine = new RegExp(`^\\d+\\. .*${state.me.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m");
    if (!mine.test(lobbyButtons(table).entry.text)) await pressLobby(table, LOBBY.join(table));
    for (let i = 0; i < 4; i += 1) {
      const lobby = await waitFor(() => lobbyButtons(table));
      const seatsButton = lobby.buttons.find((b) => LOBBY.seats(table).test(b.payload));
      if (!seatsButton) break;
      const next = Number(LOBBY.seats(table).exec(seatsButton.payload)[1]);
      const current = next === plan.game.min_players ? plan.game.max_players : next - 1;
      if (current === plan.seats) break;
      await pressLobby(table, LOBBY.seats(table));
    }
    for (const level of plan.computers) await pressLobby(table, LOBBY.computer(table, level));
    if (plan.full) await pressLobby(table, new RegExp(`^s\\.${table}$`));
  } catch (err) {
    toast(t("finish_by_hand"));
  }
}

function initPanel() {
  $("#game").addEventListener("change", renderPanel);
  $("#seats").addEventListener("change", () => {
    renderSeats(Number($("#seats").value));
    previewStart();
  });
  $("#table-lang").addEventListener("change", () => {
    $("#table-lang").dataset.chosen = $("#table-lang").value;
    previewStart();
  });
  $("#start").addEventListener("submit", (ev) => {
    ev.preventDefault();
    openTable();
  });
}

// ---- start ---------------------------------------------------------------------------------------------------
function init() {
  const who = initialIdentity();
  state.lang = who.lang;
  $("#room").value = who.room;
  $("#name").value = who.name;
  $("#lang").value = who.lang;
  sessionStorage.setItem("pg-name", who.name);
  sessionStorage.setItem("pg-room", who.room);
  $("#who").addEventListener("submit", (ev) => {
    ev.preventDefault();
    sessionStorage.setItem("pg-name", $("#name").value.trim());
    sessionStorage.setItem("pg-room", $("#room").value.trim().toLowerCase());
    renderPanel();
    hello();
  });
  $("#lang").addEventListener("change", () => {
    state.lang = $("#lang").value;
    localStorage.setItem("pg-lang", state.lang);
    applyLanguage();
    hello();
    // my language is mine: what the bot tells me privately follows it; the room keeps its own language
    // (the start panel's "Table language", or /lang typed in the room, changes that)
    sendCommand(`/lang ${state.lang}`, "private");
  });
  $("#new-room").addEventListener("click", (ev) => {
    ev.preventDefault();
    enterRoom(newRoomName());
  });
  window.addEventListener("hashchange", () => {
    const room = decodeURIComponent(location.hash.slice(1)).toLowerCase();
    if (room && room !== state.room) enterRoom(room);
  });
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  showTab("start");
  initComposers();
  initPanel();
  applyLanguage();
  loadGames();
  connect();
}

init();
