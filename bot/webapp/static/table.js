// The web table: one table as its viewer sees it, played by tapping the card or tile itself.
// The server sends frames built from the seat's view (pictures, the rectangle of every card or tile, the legal
// actions with their payloads and labels, why a card cannot be played); this file only shows them and sends the
// payload of the action tapped. No game rule lives here. Plain ES2020, no build step; used by the Mini App page
// (page.js) and by the playground page.
"use strict";

const WT_TEXT = {
  en: {
    cancel: "Cancel", close: "Continue", connecting: "connecting…", offline: "offline, reconnecting…",
    waiting: "No game is being played here yet.", spectator: "You are watching: no hand, no choices.",
    your_turn: "Your turn", sound_on: "Sound on", sound_off: "Sound off", round_over: "Round over",
    game_over: "Game over", choose: "Choose:", bid: "Bid", session_lost: "This page has lost its session: open the table again.",
  },
  ru: {
    cancel: "Отмена", close: "Дальше", connecting: "подключаемся…", offline: "нет связи, переподключаемся…",
    waiting: "Здесь пока не играют.", spectator: "Вы смотрите: без руки и без ходов.",
    your_turn: "Ваш ход", sound_on: "Звук включён", sound_off: "Звук выключен", round_over: "Кон сыгран",
    game_over: "Игра окончена", choose: "Выберите:", bid: "Заказать", session_lost: "Страница потеряла сессию: откройте стол ещё раз.",
  },
  uk: {
    cancel: "Скасувати", close: "Далі", connecting: "підключаємося…", offline: "немає звʼязку, перепідключаємося…",
    waiting: "Тут поки не грають.", spectator: "Ви дивитеся: без руки й без ходів.",
    your_turn: "Ваш хід", sound_on: "Звук увімкнено", sound_off: "Звук вимкнено", round_over: "Кон зіграно",
    game_over: "Гру закінчено", choose: "Оберіть:", bid: "Замовити", session_lost: "Сторінка втратила сесію: відкрийте стіл ще раз.",
  },
};

const STEPPER_FROM = 7; // more values than this: a stepper instead of a row of buttons
const RETRY_FIRST = 500; // ms before the first try to reconnect; doubled after each failed one …
const RETRY_MAX = 5000; // … up to this

function wtEl(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

class WebTable {
  // root: an element to fill; opts.session(): a promise of a session token; opts.lang; opts.onTurn(bool, title)
  constructor(root, opts) {
    this.root = root;
    this.opts = opts;
    this.lang = opts.lang || "en";
    this.frame = null;
    this.req = 0;
    this.pending = new Map();
    this.sheetRound = null;
    this.choosing = null; // the hand item whose several actions are offered
    this.sound = localStorage.getItem("wt-sound") === "on";
    this.build();
  }

  t(key) { return (WT_TEXT[this.lang] || WT_TEXT.en)[key] || WT_TEXT.en[key] || key; }

  build() {
    const r = this.root;
    r.classList.add("wt");
    r.innerHTML = "";
    this.head = wtEl("div", "wt-head");
    this.titleEl = wtEl("span", "wt-title");
    this.statusEl = wtEl("span", "wt-status");
    this.soundBtn = wtEl("button", "wt-sound");
    this.soundBtn.type = "button";
    this.soundBtn.addEventListener("click", () => this.toggleSound());
    this.head.append(this.titleEl, this.statusEl, this.soundBtn);
    this.tableBox = wtEl("div", "wt-table");
    this.tablePic = wtEl("img", "wt-pic");
    this.tablePic.alt = "";
    this.tableBox.append(this.tablePic);
    this.linesEl = wtEl("div", "wt-lines");
    this.promptEl = wtEl("div", "wt-prompt");
    this.choicesEl = wtEl("div", "wt-choices");
    this.handBox = wtEl("div", "wt-hand");
    this.handInner = wtEl("div", "wt-hand-inner");
    this.handPic = wtEl("img", "wt-hand-pic");
    this.handPic.alt = "";
    this.hitsEl = wtEl("div", "wt-hits");
    this.handInner.append(this.handPic, this.hitsEl);
    this.handBox.append(this.handInner);
    this.handPic.addEventListener("load", () => this.placeHits());
    new ResizeObserver(() => this.fitLines()).observe(this.linesEl);
    this.emptyEl = wtEl("div", "wt-empty", this.t("connecting"));
    this.sheetEl = wtEl("div", "wt-sheet");
    this.sheetEl.hidden = true;
    this.toastEl = wtEl("div", "wt-toast");
    this.toastEl.setAttribute("role", "status");
    r.append(this.head, this.emptyEl, this.tableBox, this.linesEl, this.promptEl, this.choicesEl, this.handBox,
      this.sheetEl, this.toastEl);
    this.showSound();
    this.setVisible(false);
  }

  setVisible(on) {
    for (const e of [this.tableBox, this.linesEl, this.promptEl, this.choicesEl, this.handBox]) e.hidden = !on;
    this.emptyEl.hidden = on;
  }

  // ---- the socket ----------------------------------------------------------------------------------------
  // The page comes back by itself after any outage (a server restart, a lost network): the session request and
  // the socket are tried again with a growing pause (RETRY_FIRST … RETRY_MAX, a little random), at once when the
  // browser is back online or the page is shown again. Only a refusal that another try cannot mend (an error
  // with ``final`` from opts.session(), a fresh session refused twice) stops it, and the page says why.
  async connect() {
    this.closed = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!this.watching) {
      this.watching = true;
      const now = () => { if (!this.closed && this.retryTimer) this.connect(); };
      window.addEventListener("online", now);
      document.addEventListener("visibilitychange", () => { if (!document.hidden) now(); });
    }
    let token;
    try {
      token = await this.opts.session();
    } catch (e) {
      if (this.closed) return;
      if (e && e.final) {
        this.stop(String(e.message || e));
        return;
      }
      this.retry(); // the server is away (a network error, or 5xx from a proxy while it restarts)
      return;
    }
    if (!token || this.closed) return; // no web table on this server, or closed while the session was asked for
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/app/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", session: token })));
    if (this.opts.onTable) this.opts.onTable(this.frame);
    ws.addEventListener("message", (ev) => this.receive(JSON.parse(ev.data)));
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.closed) return;
      this.retry();
    });
  }

  retry() {
    this.ws = null;
    this.online(false);
    const delay = Math.min(RETRY_FIRST * 2 ** (this.tries || 0), RETRY_MAX) * (0.8 + 0.4 * Math.random());
    this.tries = (this.tries || 0) + 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => { if (!this.closed) this.connect(); }, delay);
  }

  online(on) {
    this.root.dataset.online = on ? "yes" : "no";
    if (on) {
      this.tries = 0;
      this.statusEl.textContent = this.frame ? this.frame.status : "";
      return;
    }
    this.statusEl.textContent = this.t("offline");
    if (!this.frame) this.emptyEl.textContent = this.t("offline");
    for (const req of [...this.pending.keys()]) this.settle(req); // what was in flight is answered by the frame after
  }

  stop(why) {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.root.dataset.online = "no";
    this.emptyEl.textContent = why;
    this.setVisible(false);
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  receive(frame) {
    if (frame.type === "hello") {
      this.refused = 0;
      this.online(true);
      if (frame.lang && WT_TEXT[frame.lang]) this.lang = frame.lang;
      this.emptyEl.textContent = this.t("waiting");
      this.signal("hello", { lang: this.lang });
    } else if (frame.type === "table") {
      // frames of one table may cross on the way: an older one never rolls the view back
      if (this.frame && this.frame.table === frame.table && frame.version < this.frame.version) return;
      this.show(frame);
    } else if (frame.type === "none") {
      this.frame = null;
      this.root.dataset.table = "";
      this.titleEl.textContent = "";
      this.statusEl.textContent = "";
      this.emptyEl.textContent = this.t("waiting");
      this.setVisible(false);
      this.turn(false);
      if (this.opts.onTable) this.opts.onTable(null);
    } else if (frame.type === "answer") {
      const pressed = this.pending.get(frame.req);
      this.settle(frame.req);
      // a hint is advice, not a refusal: shown longer and without the alarm colour
      if (pressed && pressed.dataset.kind === "hint") this.toast(frame.text, false, false, 8000);
      else if (frame.text) this.toast(frame.text, frame.alert);
    } else if (frame.type === "error") {
      this.settle(frame.req);
      if (frame.code === "too_many_pages") this.stop(frame.text); // refused: a new socket would be refused again
      if (frame.code === "no_session") {
        // a session from before a restart may meet a server with a new key: one more try with a fresh one
        this.refused = (this.refused || 0) + 1;
        if (this.refused > 1) this.stop(this.t("session_lost"));
      }
    }
  }

  settle(req) {
    const el = this.pending.get(req);
    if (el) el.classList.remove("pending");
    this.pending.delete(req);
    this.root.classList.toggle("busy", this.pending.size > 0);
  }

  press(payload, el) {
    const req = ++this.req;
    if (!this.send({ type: "press", payload, req })) {
      this.toast(this.t("offline"), false, true); // nothing is sent: say so, the tap changes nothing
      return;
    }
    if (el) {
      el.classList.add("pending");
      this.pending.set(req, el);
    } else {
      this.pending.set(req, this.root);
    }
    this.root.classList.add("busy");
  }

  // ---- drawing a frame -----------------------------------------------------------------------------------
  show(f) {
    const fresh = !this.frame || this.frame.table !== f.table;
    this.frame = f;
    this.choosing = null;
    this.setVisible(true);
    this.root.dataset.table = String(f.table);
    this.root.dataset.version = String(f.version);
    this.root.dataset.seat = f.seat === null ? "" : String(f.seat);
    this.root.dataset.finished = f.finished ? "yes" : "no";
    this.root.dataset.turn = f.your_turn ? "mine" : "";
    this.titleEl.textContent = f.title;
    this.statusEl.textContent = f.status;
    if (this.tablePic.getAttribute("src") !== f.picture) this.tablePic.src = f.picture;
    this.drawLines(f.lines);
    this.promptEl.textContent = f.seat === null ? this.t("spectator") : f.prompt;
    this.promptEl.classList.toggle("mine", f.your_turn);
    this.drawHand();
    this.drawChoices();
    this.drawSheet(fresh);
    this.fitLines(); // once the parts around the lines box have their new sizes (a resize refits it too)
    this.turn(f.your_turn);
    if (this.opts.onTable) this.opts.onTable(f);
  }

  drawLines(lines) {
    // oldest first, the newest at the bottom next to the prompt; the box shows the newest whole lines that fit
    // (a wrapped line takes two) and cuts the oldest at its top
    this.linesEl.replaceChildren(...lines.map((line) => wtEl("div", "wt-line", line)));
  }

  fitLines() {
    // the lines stand on the box's bottom: an old line that reaches above its top is hidden, never cut in half
    const lines = [...this.linesEl.children];
    for (const el of lines) el.hidden = false;
    const top = this.linesEl.getBoundingClientRect().top;
    for (const el of lines.slice(0, -1)) el.hidden = el.getBoundingClientRect().top < top - 0.5;
  }

  drawHand() {
    const f = this.frame;
    const hand = f.hand && f.hand.items.length ? f.hand : null; // no cards left (the game's end): no empty frame
    this.handBox.hidden = !hand;
    this.hitsEl.innerHTML = "";
    if (!hand) {
      this.handPic.removeAttribute("src");
      return;
    }
    if (this.handPic.getAttribute("src") !== hand.picture) this.handPic.src = hand.picture;
    for (const item of hand.items) {
      const b = wtEl("button", "wt-hit");
      b.type = "button";
      b.dataset.key = item.key;
      b.dataset.box = item.box.join(",");
      b.setAttribute("aria-label", item.key);
      if (item.actions.length) b.classList.add("playable");
      b.addEventListener("click", () => this.tap(item, b));
      this.hitsEl.append(b);
    }
    this.placeHits();
  }

  placeHits() {
    const w = this.handPic.naturalWidth, h = this.handPic.naturalHeight;
    if (!w || !h) return;
    for (const b of this.hitsEl.children) {
      const [x0, y0, x1, y1] = b.dataset.box.split(",").map(Number);
      b.style.left = `${(100 * x0) / w}%`;
      b.style.top = `${(100 * y0) / h}%`;
      b.style.width = `${(100 * (x1 - x0)) / w}%`;
      b.style.height = `${(100 * (y1 - y0)) / h}%`;
    }
  }

  tap(item, el) {
    if (!item.actions.length) {
      this.toast(item.why || "", false, true);
      el.classList.remove("refused");
      void el.offsetWidth; // restart the shake
      el.classList.add("refused"); // the tint goes with the shake: the tile looks as before once it is told
      el.addEventListener("animationend", () => el.classList.remove("refused"), { once: true });
      return;
    }
    if (item.actions.length === 1) {
      this.press(this.frame.actions[item.actions[0]].payload, el);
      return;
    }
    this.choosing = item;
    this.drawChoices();
  }

  button(action) {
    const b = wtEl("button", "wt-choice " + (action.style || ""), action.label);
    b.type = "button";
    b.dataset.payload = action.payload;
    b.addEventListener("click", () => this.press(action.payload, b));
    return b;
  }

  drawChoices() {
    const f = this.frame;
    const box = this.choicesEl;
    box.innerHTML = "";
    if (this.choosing) {
      const row = wtEl("div", "wt-row");
      row.append(wtEl("span", "wt-ask", this.t("choose")));
      for (const i of this.choosing.actions) row.append(this.button(f.actions[i]));
      const cancel = wtEl("button", "wt-choice", this.t("cancel"));
      cancel.type = "button";
      cancel.addEventListener("click", () => { this.choosing = null; this.drawChoices(); });
      row.append(cancel);
      box.append(row);
      return;
    }
    const free = f.actions.filter((a) => a.key === null);
    const values = free.filter((a) => a.value !== null);
    const others = free.filter((a) => a.value === null);
    if (values.length > STEPPER_FROM) {
      box.append(this.stepper(values));
    } else if (values.length) {
      const row = wtEl("div", "wt-row");
      for (const a of values) row.append(this.button(a));
      box.append(row);
    }
    if (others.length) {
      const row = wtEl("div", "wt-row");
      for (const a of others) row.append(this.button(a));
      box.append(row);
    }
    // the seat's other buttons (hint, take my seat back, the vote to stop, play again), as the frame lists them
    const flows = f.buttons || [];
    if (flows.length) {
      const row = wtEl("div", "wt-row wt-flows");
      for (const b of flows) row.append(this.flowButton(b));
      box.append(row);
    }
  }

  flowButton(b) {
    const el = this.button(b);
    el.dataset.kind = b.kind;
    return el;
  }

  stepper(values) {
    // many values (bids): one of the server's values at a time, the lowest first
    const row = wtEl("div", "wt-row wt-stepper");
    let i = 0;
    const minus = wtEl("button", "wt-choice wt-step", "−");
    const plus = wtEl("button", "wt-choice wt-step", "+");
    const go = wtEl("button", "wt-choice primary");
    minus.type = plus.type = go.type = "button";
    const update = () => {
      go.textContent = values[i].label;
      go.dataset.payload = values[i].payload;
      minus.disabled = i === 0;
      plus.disabled = i === values.length - 1;
    };
    minus.addEventListener("click", () => { i = Math.max(0, i - 1); update(); });
    plus.addEventListener("click", () => { i = Math.min(values.length - 1, i + 1); update(); });
    go.addEventListener("click", () => this.press(values[i].payload, go));
    update();
    row.append(minus, go, plus);
    return row;
  }

  drawSheet(fresh) {
    const f = this.frame;
    const round = f.sheet ? f.sheet.round : 0;
    const show = f.sheet && ((this.sheetRound !== null && round > this.sheetRound && !fresh) || (f.finished && fresh));
    if (show || (f.finished && this.sheetRound !== null && !this.sheetShownFinished && f.sheet)) {
      this.sheetShownFinished = f.finished;
      this.sheetEl.innerHTML = "";
      const card = wtEl("div", "wt-sheet-card");
      card.append(wtEl("h2", "", f.finished ? this.t("game_over") : this.t("round_over")));
      const img = wtEl("img", "wt-sheet-pic");
      img.src = f.sheet.picture;
      img.alt = "";
      card.append(img);
      if (f.result) card.append(wtEl("p", "wt-result", f.result));
      const row = wtEl("div", "wt-row");
      for (const b of (f.buttons || []).filter((x) => x.kind === "play_again")) row.append(this.flowButton(b));
      const ok = wtEl("button", "wt-choice wt-dismiss" + (row.children.length ? "" : " primary"), this.t("close"));
      ok.type = "button";
      ok.addEventListener("click", () => this.closeSheet());
      row.append(ok);
      card.append(row);
      this.sheetEl.append(card);
      this.sheetEl.hidden = false;
      this.signal("sheet", { open: true });
    }
    this.sheetRound = round;
  }

  closeSheet() {
    if (this.sheetEl.hidden) return;
    this.sheetEl.hidden = true;
    this.signal("sheet", { open: false });
  }

  // what the page around the table may follow (page.js: haptics, the Back button): wt-hello, wt-turn, wt-notice,
  // wt-sheet
  signal(name, detail) {
    this.root.dispatchEvent(new CustomEvent("wt-" + name, { detail: detail || {} }));
  }

  // ---- notices, turn, sound ------------------------------------------------------------------------------
  toast(text, alert = false, why = false, lasts = 0) {
    if (!text) return;
    this.signal("notice", { text, alert, why });
    const e = wtEl("div", "wt-note" + (alert ? " alert" : "") + (why ? " why" : ""), text);
    this.toastEl.append(e);
    setTimeout(() => e.remove(), lasts || (alert ? 5000 : 3000));
  }

  turn(mine) {
    const f = this.frame;
    if (this.opts.onTurn) this.opts.onTurn(mine, f ? f.title : "");
    if (mine && !this.wasMine) {
      if (this.sound) this.beep();
      this.signal("turn");
    }
    this.wasMine = mine;
  }

  toggleSound() {
    this.sound = !this.sound;
    localStorage.setItem("wt-sound", this.sound ? "on" : "off");
    this.showSound();
    if (this.sound) this.beep();
  }

  showSound() {
    this.soundBtn.textContent = this.sound ? "♪ ✓" : "♪ ✕";
    this.soundBtn.title = this.sound ? this.t("sound_on") : this.t("sound_off");
    this.soundBtn.setAttribute("aria-pressed", this.sound ? "true" : "false");
  }

  beep() {
    try {
      const ctx = this.audio || (this.audio = new AudioContext());
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.08, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.25);
    } catch (e) {
      /* no sound where the browser allows none */
    }
  }
}

window.WebTable = WebTable;
