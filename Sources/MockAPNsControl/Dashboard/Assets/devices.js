// The Devices page: a virtual iPhone for one device token. Its lock screen at any instant (notifications stacked by
// thread, the badge, Live Activities, online or offline and what APNs stores meanwhile), the timeline of what happened
// to each push, by which rule and in the Push Notifications Console's words, scrubbable, and controls that change the
// device now. All of it comes from the control API: GET /api/v1/devices/{token}/screen?at= and …/timeline,
// PUT /api/v1/devices/{token}, POST …/changes.
import { h, alertOf, appName, shortToken } from "/dashboard/render.js";

const $ = (id) => document.getElementById(id);
const APP_STATES = ["foreground", "background", "notRunning", "forceQuit"];
const OUTCOME_KIND = { delivered: "ok", tapped: "info", stored: "warn", throttled: "warn", replaced: "muted", dropped: "bad" };
const RECENT_SHOWN = 8;

// `index` is the scrubber's position: an entry of `entries`, or `entries.length` for now (the live screen).
const page = { token: null, entries: [], live: null, titles: new Map(), app: "App", index: 0, request: 0,
  expanded: new Set(), reloadTimer: null };
let api = null;
let showError = null;

const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const pad = (n, width = 2) => String(n).padStart(width, "0");
const clock = (ms) => { const d = new Date(ms); return `${pad(d.getHours())}:${pad(d.getMinutes())}`; };
const instant = (ms) => { const d = new Date(ms); return `${clock(ms)}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`; };
/** `ms` as HH:MM when on the same day as `reference`, else with its date. */
const moment = (ms, reference) => (new Date(ms).toDateString() === new Date(reference).toDateString() ? clock(ms)
  : new Date(ms).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false }));
const LIMITS = { "apns-expiration": "its apns-expiration", "storage-limit": "the storage limit, a model number" };
const atNow = () => page.index >= page.entries.length;
const titleOf = (apnsID) => page.titles.get(String(apnsID || "").toLowerCase());

/** How long before the lock screen's instant `then` was, as iOS words it. */
function since(now, then) {
  const minutes = Math.floor(Math.max(0, now - then) / 60000);
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes}m ago`;
  return clock(then);
}

/** What a record says, in a few words: its alert, else what kind of push it is. */
function label(record) {
  const alert = alertOf(record);
  if (alert) return [alert.title, alert.body].filter(Boolean).join(": ") || "alert";
  const aps = (record.payload && record.payload.aps) || {};
  if (aps.event) return `Live Activity ${aps.event}`;
  return record.payload ? "silent push" : "body is not JSON";
}

/** Wires the page to the dashboard's `api` (authorised JSON calls) and `showError` (an error line). */
export function setUp(dependencies) {
  ({ api, showError } = dependencies);
  $("phone-form").addEventListener("submit", (event) => { event.preventDefault(); show($("phone-token").value); });
  $("scrub").addEventListener("input", (event) => scrubTo(Number(event.target.value)));
  $("go-online").addEventListener("click", () => change({ online: true }, "online"));
  $("go-offline").addEventListener("click", () => change({ online: false }, "offline"));
  $("app-state").addEventListener("change", (event) => change({ app_state: event.target.value }, `app ${event.target.value}`));
}

/** The page was opened: the tokens to pick from, and the device named by `?device=` or shown before. */
export async function open() {
  await loadTokens();
  const named = new URL(location.href).searchParams.get("device");
  if (page.token) await reload({ keepInstant: true });
  else if (named) await show(named);
}

/** The key `j` (1) or `k` (-1): the scrubber moves to the next or previous entry. */
export function step(delta) {
  if (page.token && page.entries.length) scrubTo(page.index + delta);
}

/** A record arrived on the live stream: when it is for the shown device or one of its Live Activities, look again. */
export function onRecord(item) {
  if (!page.token || item.gap || $("page-devices").hidden) return;
  const text = (item.raw ?? JSON.stringify(item)).toLowerCase();
  const tokens = [page.token, ...(page.live?.live_activities || []).map((a) => a.token).filter(Boolean)];
  if (!tokens.some((token) => text.includes(token))) return;
  clearTimeout(page.reloadTimer);
  page.reloadTimer = setTimeout(() => reload({ keepInstant: true }).catch((e) => showError($("phone-error"), e)), 200);
}

// ---- picking a token ----
// Recently seen: the tokens of the newest accepted pushes (what reached a device), newest first, leaving out Live
// Activity tokens (an activity's, not a device's); the datalist adds the tokens with a configured state.
async function loadTokens() {
  const [found, registry] = await Promise.all([
    api("/api/v1/search?q=status%3A200&limit=500"),
    api("/api/v1/devices").catch(() => ({ devices: {} })),
  ]);
  const seen = new Map();
  for (const record of found.notifications) {
    const token = (record.device_token || "").toLowerCase();
    const type = (record.headers.find(([n]) => n.toLowerCase() === "apns-push-type") || [])[1];
    if (token && type !== "liveactivity") seen.set(token, (seen.get(token) || 0) + 1);
  }
  const all = [...seen.keys(), ...Object.keys(registry.devices || {}).filter((t) => !seen.has(t))];
  $("phone-tokens").replaceChildren(...all.map((token) => h("option", { value: token })));
  const recent = [...seen].slice(0, RECENT_SHOWN);
  $("recent-tokens").replaceChildren(...(recent.length
    ? [h("span", { class: "muted" }, "Recently seen:"), ...recent.map(([token, count]) => h("button", {
      type: "button", class: "token-chip", "data-token": token, "aria-pressed": String(token === page.token), title: token,
      onclick: () => { $("phone-token").value = token; show(token); },
    }, h("span", { class: "mono" }, shortToken(token)), h("span", { class: "muted" }, ` ${plural(count, "push", "pushes")}`)))]
    : [h("span", { class: "muted" }, "No device has received a push yet; type a token to follow one.")]));
}

async function show(raw) {
  const token = String(raw || "").trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(token)) {
    showError($("phone-error"), new Error(`A device token is hexadecimal (0-9, a-f); "${raw}" is not. Pick one above or paste one from a push.`));
    return;
  }
  showError($("phone-error"), null);
  if (token !== page.token) page.expanded.clear();
  page.token = token;
  $("phone-token").value = token;
  for (const chip of document.querySelectorAll("#recent-tokens [data-token]")) chip.setAttribute("aria-pressed", String(chip.dataset.token === token));
  const url = new URL(location.href);
  url.searchParams.set("device", token);
  history.replaceState(null, "", url);
  try { await reload(); } catch (error) { showError($("phone-error"), error); }
}

// ---- loading ----
// The timeline, the screen now and the device's records (for titles), together. With `keepInstant` a page scrubbed
// into the past stays on its entry (new entries come after it); at now it moves on to the new now.
async function reload({ keepInstant = false } = {}) {
  const token = page.token;
  const wasNow = atNow();
  const [timeline, live, records] = await Promise.all([
    api(`/api/v1/devices/${token}/timeline`),
    api(`/api/v1/devices/${token}/screen`),
    api(`/api/v1/notifications?token=${token}&limit=1000`),
  ]);
  // Pushes to the device's Live Activity tokens are recorded under those tokens: read them one by one (a few).
  const own = new Set(records.notifications.map((r) => String(r.response.apns_id || "").toLowerCase()));
  const others = [...new Set(timeline.entries.map((e) => String(e.apns_id || "").toLowerCase()))].filter((id) => id && !own.has(id));
  const more = await Promise.all(others.slice(0, 20).map((id) => api(`/api/v1/notifications/${id}`).catch(() => null)));
  if (token !== page.token) return;
  page.titles = new Map(records.notifications.concat(more.filter(Boolean)).filter((r) => r.response.apns_id)
    .map((r) => [r.response.apns_id.toLowerCase(), label(r)]));
  const newest = records.notifications[records.notifications.length - 1];
  page.app = appName(newest ? (newest.headers.find(([n]) => n.toLowerCase() === "apns-topic") || [])[1] : live.notifications[0]?.topic);
  page.entries = timeline.entries;
  page.live = live;
  const stay = keepInstant && !wasNow && page.index < page.entries.length;
  if (!stay) page.index = page.entries.length;
  $("phone-view").hidden = false;
  renderControls(live);
  renderTimeline();
  const scrub = $("scrub");
  scrub.max = String(page.entries.length);
  scrub.disabled = page.entries.length === 0;
  if (stay) { await scrubTo(page.index); return; }
  scrub.value = String(page.index);
  page.request += 1;   // an answer still coming for an older instant is not shown over now
  showScreen(live);
}

async function scrubTo(index) {
  page.index = Math.max(0, Math.min(index, page.entries.length));
  $("scrub").value = String(page.index);
  markCurrent();
  const request = ++page.request;
  const screen = atNow() ? page.live : await api(`/api/v1/devices/${page.token}/screen?at=${page.entries[page.index].time}`)
    .catch((error) => { showError($("phone-error"), error); return null; });
  if (request === page.request && screen) showScreen(screen);
}

// A change to the device now (PUT /api/v1/devices/{token}); the page then shows now.
async function change(body, what) {
  try {
    await api(`/api/v1/devices/${page.token}`, { method: "PUT", body: JSON.stringify(body) });
    showError($("phone-change-error"), null);
    await reload();
    $("announcer").textContent = `Device ${shortToken(page.token)} is now ${what}`;
  } catch (error) { showError($("phone-change-error"), error); }
}

// The user taps a notification (rule 5): POST …/changes; the notification leaves Notification Center.
async function tap(apnsID) {
  try {
    await api(`/api/v1/devices/${page.token}/changes`, { method: "POST", body: JSON.stringify({ change: "tap", apns_id: apnsID }) });
    showError($("phone-change-error"), null);
    await reload();
  } catch (error) { showError($("phone-change-error"), error); }
}

// ---- the phone ----
function showScreen(screen) {
  $("phone-slot").replaceChildren(phone(screen, atNow()));
  renderInstant(screen);
  const where = atNow() ? "now" : `${instant(screen.at)}, entry ${page.index + 1} of ${page.entries.length}`;
  const label = `${where}: ${plural(screen.notifications.length, "notification")}, badge ${screen.badge}, ${screen.online ? "online" : "offline"}`;
  $("scrub").setAttribute("aria-valuetext", where);
  $("scrub-label").textContent = label;
}

function phone(screen, live) {
  const activities = screen.live_activities.filter((a) => !a.dismissed);
  const stored = screen.stored.length;
  return h("div", { class: "lockphone", role: "region", "aria-label": `The device's lock screen at ${instant(screen.at)}` },
    h("div", { class: `lockscreen${screen.online ? "" : " offline"}`, "data-testid": "lockscreen", "data-at": screen.at },
      h("div", { class: "statusbar" }, h("span", {}, clock(screen.at)), h("span", { class: "island", "aria-hidden": "true" }),
        h("span", { class: "net", "data-testid": "network", "data-online": String(screen.online) },
          screen.online ? h("span", { role: "img", "aria-label": "online" }, "5G ▂▄▆█") : "No Service")),
      h("div", { class: "lock-clock" }, clock(screen.at)),
      h("div", { class: "lock-date" }, new Date(screen.at).toLocaleDateString([], { weekday: "long", month: "long", day: "numeric" })),
      screen.online ? null : h("div", { class: "lock-offline", "data-testid": "offline-note" },
        `Offline · APNs is storing ${plural(stored, "push", "pushes")}`),
      activities.length ? h("ul", { class: "activities", "aria-label": "Live Activities" }, activities.map(activity)) : null,
      screen.groups.length
        ? h("ul", { class: "stacks", "aria-label": "Notification Center" }, screen.groups.map((g) => stack(g, screen, live)))
        : h("p", { class: "lock-empty" }, "No notifications"),
      h("div", { class: "home-row" },
        h("span", { class: "app-icon", role: "img", "aria-label": `${page.app}, badge ${screen.badge}` }, page.app.charAt(0),
          screen.badge > 0 ? h("span", { class: "badge", "data-testid": "device-badge" }, screen.badge) : null),
        h("span", { class: "app-name" }, page.app))));
}

// A thread's stack, newest on top; collapsed it shows the newest and how many more (a button expands it, as a tap
// on a stack does on iOS).
function stack(group, screen, live) {
  const key = group.thread_id ?? "";
  const count = group.notifications.length;
  const open = page.expanded.has(key);
  const shown = open ? group.notifications : group.notifications.slice(0, 1);
  return h("li", { class: `stack${count > 1 && !open ? " many" : ""}`, "data-testid": "stack", "data-thread": key, "data-count": count,
    "aria-label": `${group.thread_id ? `Thread ${group.thread_id}` : "No thread"}, ${plural(count, "notification")}` },
  shown.map((n, i) => card(n, i === 0 ? count : 1, screen, live)),
  count > 1 ? h("button", { type: "button", class: "more", "aria-expanded": String(open), onclick: () => {
    if (open) page.expanded.delete(key); else page.expanded.add(key);
    showScreen(screen);
    document.querySelector(`#phone-slot .stack[data-thread="${CSS.escape(key)}"] .more`)?.focus();
  } }, open ? "Show less" : `${plural(count - 1, "more notification")}`) : null);
}

function card(n, count, screen, live) {
  const app = appName(n.topic);
  return h("button", { type: "button", class: "lock-card", "data-testid": "lock-notification", "data-apns-id": n.apns_id, disabled: !live,
    title: live ? "Tap it: the app opens it (rule 5) and it leaves Notification Center" : "A past instant: move the scrubber to now to tap",
    onclick: () => tap(n.apns_id) },
  h("span", { class: "head" }, h("span", { class: "icon", "aria-hidden": "true" }, app.charAt(0)), h("span", {}, app.toUpperCase()),
    count > 1 ? h("span", { class: "count", "data-testid": "group-count", "aria-label": `${count} in this stack` }, count) : null,
    h("span", { class: "when" }, since(screen.at, n.time))),
  n.title ? h("span", { class: "t" }, n.title) : null,
  n.body ? h("span", { class: "b" }, n.body) : null);
}

function activity(a) {
  const state = a.content_state && typeof a.content_state === "object" ? Object.entries(a.content_state) : [["state", a.content_state]];
  return h("li", { class: `activity${a.ended ? " ended" : ""}${a.stale ? " stale" : ""}`, "data-testid": "live-activity",
    "data-stale": String(a.stale), "data-ended": String(a.ended) },
  h("span", { class: "head" }, h("span", {}, a.attributes_type || "Live Activity"),
    a.stale ? h("span", { class: "chip warn" }, "stale") : null,
    a.ended ? h("span", { class: "chip muted", title: a.ended_by ? `ended by ${a.ended_by}` : "" }, "ended") : null),
  h("dl", { class: "kv" }, state.slice(0, 4).flatMap(([key, value]) => [h("dt", {}, key),
    h("dd", {}, value !== null && typeof value === "object" ? JSON.stringify(value) : String(value))])));
}

// ---- beside the phone ----
function renderControls(live) {
  $("go-online").setAttribute("aria-pressed", String(live.online));
  $("go-offline").setAttribute("aria-pressed", String(!live.online));
  const select = $("app-state");
  if (!select.options.length) select.append(...APP_STATES.map((s) => h("option", { value: s }, s)));
  select.value = live.app_state;
}

function renderInstant(screen) {
  const budget = screen.background_budget;
  const lastSound = screen.sounds[screen.sounds.length - 1];
  $("instant").replaceChildren(
    h("dt", {}, "instant"), h("dd", {}, atNow() ? `now (${instant(screen.at)})` : instant(screen.at)),
    h("dt", {}, "network"), h("dd", { "data-testid": "instant-network" }, screen.online ? "online" : "offline"),
    h("dt", {}, "app"), h("dd", { "data-testid": "instant-app" }, screen.app_state),
    h("dt", {}, "badge"), h("dd", {}, screen.badge),
    h("dt", {}, "sounds"), h("dd", {}, screen.sounds.length ? `${screen.sounds.length} (last: ${lastSound.sound})` : "none"),
    h("dt", {}, "background budget"), h("dd", { title: "a model number (settings), not Apple's" },
      `${budget.used} of ${budget.limit} per hour used${budget.next_free_at ? `, next free ${moment(budget.next_free_at, screen.at)}` : ""} (model)`),
    h("dt", {}, "Live Activities"), h("dd", {}, screen.live_activities.length
      ? screen.live_activities.map((a) => (a.dismissed ? "dismissed" : a.ended ? "ended" : a.stale ? "stale" : "active")).join(", ") : "none"));
  $("stored").replaceChildren(screen.stored.length
    ? h("ul", { class: "stored", "data-testid": "stored" }, screen.stored.map((s) => h("li", {},
      h("b", {}, titleOf(s.apns_id) || s.apns_id), h("span", { class: "muted" },
        ` · ${s.push_type} · ${s.topic} · kept until ${moment(s.deliverable_until, screen.at)} (${LIMITS[s.limited_by] || s.limited_by})`))))
    : h("p", { class: "muted" }, screen.online ? "Nothing: the device is online, so APNs delivers at once." : "Nothing stored."));
}

// ---- the timeline ----
function renderTimeline() {
  const list = $("timeline");
  if (!page.entries.length) {
    list.replaceChildren(h("li", { class: "muted" }, "Nothing has happened to this device yet: no push was accepted for it."));
    return;
  }
  list.replaceChildren(...page.entries.map((e, i) => h("li", { class: "entry", "data-testid": "entry",
    dataset: { index: i, outcome: e.outcome, console: e.console_state || "" } },
    h("button", { type: "button", class: "at mono", title: "Show the screen at this instant", onclick: () => scrubTo(i) }, instant(e.time)),
    h("span", { class: `chip ${OUTCOME_KIND[e.outcome] || "muted"}` }, e.outcome),
    h("span", { class: "what" }, titleOf(e.apns_id) || h("span", { class: "mono" }, e.apns_id || "—")),
    h("code", { class: "rule" }, e.rule),
    consoleLine(e),
    h("div", { class: "why" }, e.explanation))));
  markCurrent();
}

// The entry in the words of Apple's Push Notifications Console (device-rules §16: the mock's model of APNs's view),
// so a timeline read here matches what the Console's delivery log would say; an entry it has no state for says so.
function consoleLine(e) {
  return h("div", { class: "console", "data-testid": "console-state", title: "Apple's Push Notifications Console's name for it (the mock's model)" },
    h("span", { class: "muted" }, "Push Notifications Console: "),
    e.console_state ? h("b", {}, e.console_state) : h("span", { class: "muted" }, "no state for this"));
}

function markCurrent() {
  const at = atNow() ? Infinity : page.entries[page.index].time;
  for (const li of document.querySelectorAll("#timeline .entry")) {
    const i = Number(li.dataset.index);
    const current = i === page.index;
    li.classList.toggle("current", current);
    li.classList.toggle("later", page.entries[i].time > at);
    if (current) { li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest" }); } else li.removeAttribute("aria-current");
  }
}
