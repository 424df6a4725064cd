// The dashboard: live list (server-sent events read with fetch), server-side search, detail with the iPhone rendering,
// devices (the virtual iPhone is devices.js), faults and the test-push form. Everything goes through the JSON API on
// this origin.
import * as view from "/dashboard/render.js";
import * as devices from "/dashboard/devices.js";
const { h } = view;

const $ = (id) => document.getElementById(id);
// The live list keeps at most MAX_ROWS rows (newest first); older pushes stay reachable by "Older pushes" and search.
// Arrivals are queued and inserted once per animation frame; counters are polled at most twice a second.
const MAX_ROWS = 200;
const state = { records: [], selected: null, nextBefore: null, paused: false, pending: [], pendingOverflow: false, query: "",
  stream: null, lastSeq: 0, incoming: [], frame: 0, deviceState: "foreground", authorization: "authorized" };

// ---- control token ----
// With --control-token every API call needs `authorization: Bearer`. The token comes from the person (asked on
// the first 401) or from the URL fragment `#token=…` (never sent to a server, so never in a log), and is kept in
// this tab's sessionStorage only. The live stream is read with fetch so it can carry the header too; the token
// never goes into a URL.
const TOKEN_KEY = "mockapns.controlToken";
function takeTokenFromFragment() {
  if (!location.hash.startsWith("#token=")) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(location.hash.slice("#token=".length)));
  history.replaceState(null, "", location.pathname + location.search);   // out of the address bar and history
}
const authHeaders = () => { const token = sessionStorage.getItem(TOKEN_KEY); return token ? { authorization: `Bearer ${token}` } : {}; };

function askForToken(message) {
  const form = $("token-form");
  const hadToken = !!sessionStorage.getItem(TOKEN_KEY);
  if (!form.hidden) return;
  sessionStorage.removeItem(TOKEN_KEY);
  state.stream?.abort();
  showError($("token-error"), hadToken ? message : null);
  form.hidden = false;
  $("token-input").focus();
}
$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token-input").value.trim());
  $("token-input").value = "";
  $("token-form").hidden = true;
  start();
});

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { "content-type": "application/json", ...authHeaders(), ...(options.headers || {}) } });
  const text = await response.text();
  const body = text ? JSON.parse(text) : {};
  if (response.status === 401) { askForToken(body.error); throw Object.assign(new Error(body.error || "401"), { unauthorized: true }); }
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}
// A 401 is answered by the token prompt, not by an error line beside the control that made the call.
const showError = (node, error) => { if (error?.unauthorized) error = null; node.hidden = !error; node.textContent = error ? String(error.message || error) : ""; };
devices.setUp({ api, showError });

// ---- list and search ----
const rowsBody = $("rows");

function rowFor(item) {
  if (item.gap && item.pruned) {
    return h("tr", { class: "gap" }, h("td", { colspan: "7" },
      `Pushes with store ids ${item.from}–${item.through} were pruned by the store's retention before this page read them`));
  }
  if (item.gap) {
    return h("tr", { class: "gap" }, h("td", { colspan: "7" },
      `${item.count} push${item.count === 1 ? "" : "es"} not shown here (seq ${item.from}–${item.through}): this page fell behind `
      + "and the server no longer holds them in memory; search or “Older pushes” reach those in the record file"));
  }
  const tr = view.row(item);
  if (item.seq === state.selected) tr.classList.add("selected");
  return tr;
}

function showEmptyAndMore() {
  $("empty").hidden = state.records.length > 0;
  $("empty").textContent = state.query ? "No push matches this search." : "No pushes yet. Send one to the mock and it appears here.";
  $("more").hidden = !state.nextBefore;
}

// The whole list, after a search or a page of older pushes.
function render() {
  rowsBody.replaceChildren(...state.records.map(rowFor));
  showEmptyAndMore();
}

// One click listener for every row, present and future.
rowsBody.addEventListener("click", (event) => {
  const tr = event.target.closest("tr[data-seq]");
  if (tr) select(Number(tr.dataset.seq));
});

async function search({ append = false } = {}) {
  const params = new URLSearchParams({ q: state.query, limit: "100" });
  if (append && state.nextBefore) params.set("before", state.nextBefore);
  try {
    const page = await api(`/api/v1/search?${params}`);
    showError($("search-error"), null);
    state.records = append ? state.records.concat(page.notifications) : page.notifications;
    state.nextBefore = page.next_before;
    if (!append) state.lastSeq = Math.max(state.lastSeq, page.last_seq || 0, page.notifications[0]?.seq || 0);
    render();
  } catch (error) {
    showError($("search-error"), error);
  }
}

function setQuery(text) {
  state.query = text.trim();
  const url = new URL(location.href);
  if (state.query) url.searchParams.set("q", state.query); else url.searchParams.delete("q");
  history.replaceState(null, "", url);
  search();
}

// Inserts what arrived since the last frame: new rows on top, the oldest beyond MAX_ROWS removed from the bottom.
function flushIncoming() {
  state.frame = 0;
  const batch = state.incoming;
  state.incoming = [];
  if (!batch.length) return;
  // Only what will be shown is parsed: at full speed most records of a frame never reach the list.
  const newest = batch.slice(-MAX_ROWS).reverse().map((item) => item.raw === undefined ? item : JSON.parse(item.raw));
  const fragment = document.createDocumentFragment();
  for (const item of newest) {
    const tr = rowFor(item);
    if (!item.gap) tr.classList.add("fresh");
    fragment.append(tr);
  }
  rowsBody.prepend(fragment);
  state.records = newest.concat(state.records);
  if (state.records.length > MAX_ROWS) {
    state.records.length = MAX_ROWS;
    while (rowsBody.children.length > MAX_ROWS) rowsBody.lastElementChild.remove();
    const oldest = state.records.findLast((item) => !item.gap);
    if (oldest) state.nextBefore = oldest.seq;
  }
  showEmptyAndMore();
}

function enqueue(item) {
  state.incoming.push(item);
  if (state.incoming.length > MAX_ROWS) state.incoming.splice(0, state.incoming.length - MAX_ROWS);
  if (!state.frame) state.frame = requestAnimationFrame(flushIncoming);
}

// The server passed over pushes older than the newest MAX_ROWS waiting (a burst): the rows shown before them are
// no longer next to what comes, so they go; "Older pushes" pages back from the passed-over ones through search.
function onElided(range) {
  if (range.through > state.lastSeq) state.lastSeq = range.through;
  scheduleCounters();
  if (state.paused) { state.pending = []; state.pendingOverflow = true; return; }
  if (state.query) return;
  state.incoming = [];
  state.records = [];
  rowsBody.replaceChildren();
  state.nextBefore = range.through + 1;
  showEmptyAndMore();
}

let searchTimer = null;
function onLiveItem(item) {
  if (!item.gap) {
    if (item.seq <= state.lastSeq) return;   // already on the page
    state.lastSeq = item.seq;
  }
  devices.onRecord(item);
  scheduleCounters();
  if (state.paused) {
    state.pending.push(item);   // still raw: parsed when shown
    if (state.pending.length > MAX_ROWS) { state.pending.shift(); state.pendingOverflow = true; }
    return;
  }
  if (state.query) {   // the server applies the grammar: ask it again, at most twice a second
    if (!searchTimer) searchTimer = setTimeout(() => { searchTimer = null; search(); }, 500);
    return;
  }
  enqueue(item);
}

// The live stream: server-sent events over fetch (EventSource cannot send the token), reconnecting like
// EventSource does when the connection drops, from the last push this page has (the server replays the rest, or
// sends a gap event naming what it no longer holds).
async function openStream() {
  state.stream?.abort();
  const controller = new AbortController();
  state.stream = controller;
  try {
    const response = await fetch(`/api/v1/stream?since=${state.lastSeq}&newest=${MAX_ROWS}`, { headers: authHeaders(), signal: controller.signal });
    if (response.status === 401) { askForToken((await response.json().catch(() => ({}))).error); return; }
    if (!response.ok) throw new Error(`${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      let start = 0;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n", start)) {
        const lines = buffer.slice(start, end).split("\n");
        start = end + 2;
        const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).replace(/^ /, "")).join("\n");
        if (!data) continue;
        if (lines.includes("event: gap")) { onLiveItem({ gap: true, ...JSON.parse(data) }); continue; }
        if (lines.includes("event: elided")) { onElided(JSON.parse(data)); continue; }
        // A record stays text until it is shown; its number comes from the event's id line.
        const id = lines.find((line) => line.startsWith("id:"));
        onLiveItem({ seq: Number(id ? id.slice(3) : JSON.parse(data).seq), raw: data });
      }
      buffer = buffer.slice(start);
    }
  } catch { /* dropped or aborted */ }
  if (state.stream === controller && !controller.signal.aborted) setTimeout(() => { if (state.stream === controller) openStream(); }, 2000);
}

// Counters: at most one request per COUNTER_INTERVAL ms whatever the push rate, and one after the last push, so
// they are exact once a burst ends. Screen readers hear a summary at most every ANNOUNCE_INTERVAL ms.
const COUNTER_INTERVAL = 500;
const ANNOUNCE_INTERVAL = 10000;
let countersTimer = null;
let countersAt = 0;
function scheduleCounters() {
  if (countersTimer) return;
  const wait = Math.max(0, countersAt + COUNTER_INTERVAL - performance.now());
  countersTimer = setTimeout(() => { countersTimer = null; countersAt = performance.now(); refreshCounters(); }, wait);
}

let announced = { total: null, at: 0, timer: null };
function announce(total) {
  if (announced.total === null) { announced.total = total; return; }
  if (total === announced.total || announced.timer) return;
  const wait = Math.max(0, announced.at + ANNOUNCE_INTERVAL - performance.now());
  announced.timer = setTimeout(() => {
    const now = Number($("count-total").textContent);
    const added = now - announced.total;
    announced = { total: now, at: performance.now(), timer: null };
    if (added > 0) $("announcer").textContent = `${added} new push${added === 1 ? "" : "es"}, ${now} in all`;
  }, wait);
}

async function refreshCounters() {
  try {
    const stats = await api("/api/v1/stats");
    $("count-total").textContent = stats.total;
    $("count-accepted").textContent = stats.accepted;
    $("count-rejected").textContent = stats.rejected;
    announce(stats.total);
  } catch { /* the next record tries again */ }
}

// ---- detail ----
async function select(seq) {
  state.selected = seq;
  const url = new URL(location.href);
  url.searchParams.set("seq", seq);
  history.replaceState(null, "", url);
  for (const tr of $("rows").children) tr.classList.toggle("selected", Number(tr.dataset.seq) === seq);
  const record = state.records.find((r) => r.seq === seq) || await api(`/api/v1/notifications/${seq}`).catch(() => null);
  const pane = $("detail");
  if (!record) { pane.hidden = true; return; }
  pane.hidden = false;
  pane.parentElement.classList.add("open");
  pane.replaceChildren(detail(record));
  refreshWebhooks(seq, 60);
  if (record.fcm) showFCMMessage(seq, record.fcm);
  await simulate(record);
}

// The FCM message a push delivers (`serve --fcm`): the push names it, and the front door's record holds the message
// as the sender wrote it and what FCM answered.
function showFCMMessage(seq, link) {
  const id = link.message_name.split("/").pop();
  api(`/api/v1/fcm/messages/${encodeURIComponent(id)}`).then((message) => {
    const slot = $("fcm-slot");
    if (state.selected !== seq || !slot) return;
    const answer = message.status === 200 ? "200" : `${message.status} ${(message.answer.error || {}).status || ""}`;
    slot.replaceChildren(...section("From Firebase", h("dl", { class: "kv", "data-testid": "fcm" },
      h("dt", {}, "message"), h("dd", { class: "mono" }, link.message_name),
      h("dt", {}, "project"), h("dd", {}, link.project),
      h("dt", {}, "registration token"), h("dd", { class: "mono" }, link.registration_token),
      h("dt", {}, "FCM answered"), h("dd", {}, answer),
      h("dt", {}, "sent over"), h("dd", {}, `${message.transport} from ${message.remote}`)),
      h("details", {}, h("summary", {}, "The message as sent"), h("pre", {}, JSON.stringify(message.message, null, 2)))));
  }).catch(() => {});
}

// What each webhook (`serve --webhook`) did with the selected record: only the record's own API answer says, so ask
// for it, and again every second (at most `tries` times) while a delivery is still queued or being sent.
function refreshWebhooks(seq, tries) {
  api(`/api/v1/notifications/${seq}`).then((full) => {
    const slot = $("webhooks-slot");
    if (state.selected !== seq || !slot || !full || !full.webhooks) return;
    slot.replaceChildren(...webhookSection(full.webhooks));
    const pending = full.webhooks.some((w) => w.state === "queued" || w.state === "sending");
    if (pending && tries > 1) setTimeout(() => refreshWebhooks(seq, tries - 1), 1000);
  }).catch(() => {});
}

function webhookSection(hooks) {
  if (!hooks.length) return [];
  return section("Webhooks", h("dl", { class: "kv", "data-testid": "webhooks" },
    hooks.flatMap((w) => [h("dt", { class: "mono" }, w.url),
      h("dd", {}, w.state, w.attempts ? ` (${w.attempts} attempt${w.attempts === 1 ? "" : "s"})` : "", w.error ? ` — ${w.error}` : "")])));
}

function section(title, ...children) { return [h("h3", {}, title), ...children]; }

function download(name, text, type) {
  const link = h("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function copyButton(label, text) {
  return h("button", { type: "button", onclick: async (event) => {
    try { await navigator.clipboard.writeText(text); event.target.textContent = "Copied"; }
    catch { window.prompt("Copy:", text); }
    setTimeout(() => { event.target.textContent = label; }, 1200);
  } }, label);
}

function detail(record) {
  const alert = view.alertOf(record);
  const lintPaths = new Set(record.lint.map((f) => view.lintPath(f.path)));
  const auth = record.auth || {};
  const age = auth.issued_at ? Math.round(new Date(record.received_at).getTime() / 1000 - auth.issued_at) : null;
  const states = ["foreground", "background", "notRunning", "forceQuit"];
  const auths = ["authorized", "provisional", "denied", "notDetermined"];
  const hasInApp = !!(record.payload && (record.payload.inAppSymbol || (record.payload.aps || {}).inAppSymbol));
  return h("div", { "data-testid": "detail" },
    h("h2", {}, `#${record.seq} `, view.statusChip(record), " ", alert?.title || (record.payload ? "silent push" : "body is not JSON")),
    h("div", { class: "muted" }, `${record.received_at} · ${view.header(record, "apns-topic") || "no topic"}`),
    h("div", { class: "actions" },
      copyButton("Copy as curl", view.curlCommand(record)),
      copyButton("Copy as mockapns send", view.sendCommand(record)),
      h("button", { type: "button", onclick: () => download(`push-${record.seq}.apns`, view.apnsFile(record), "application/json") }, "Download .apns"),
      h("button", { type: "button", onclick: () => download(`push-${record.seq}.json`, JSON.stringify(record, null, 2), "application/json") }, "Download JSON")),
    ...section("On an iPhone",
      h("div", { class: "states", id: "state-switch" }, states.map((s) => h("button", { type: "button", class: s === state.deviceState ? "on" : "", dataset: { state: s },
        onclick: () => { state.deviceState = s; simulate(record); } }, s))),
      h("div", { class: "states", id: "auth-switch" }, auths.map((a) => h("button", { type: "button", class: a === state.authorization ? "on" : "", dataset: { auth: a },
        onclick: () => { state.authorization = a; simulate(record); } }, a))),
      h("label", { class: "toggle" }, h("input", { type: "checkbox", id: "inapp-routing", checked: hasInApp, onchange: () => simulate(record) }), " app routes foreground pushes in-app"),
      h("div", { class: "sim", id: "sim" }, h("p", { class: "muted" }, "Simulating…"))),
    ...section("Verdict", h("dl", { class: "kv" },
      h("dt", {}, "status"), h("dd", {}, record.response.status, record.response.reason ? ` ${record.response.reason}` : ""),
      h("dt", {}, "apns-id"), h("dd", { class: "mono" }, record.response.apns_id || "—"),
      h("dt", {}, "faults applied"), h("dd", {}, record.faults.length ? record.faults.join(", ") : "none"),
      h("dt", {}, "duration"), h("dd", {}, `${record.duration_us} µs`),
      h("dt", {}, "connection / stream"), h("dd", {}, `${record.connection_id} / ${record.stream_id} from ${record.remote}`),
      ...(record.instance ? [h("dt", {}, "instance"), h("dd", {}, record.instance)] : []),
      h("dt", {}, "device token"), h("dd", { class: "mono" }, record.device_token || "—"))),
    ...(record.relay ? section("Mock and upstream", relayComparison(record)) : []),
    h("div", { id: "fcm-slot" }, record.fcm ? section("From Firebase", h("dl", { class: "kv" },
      h("dt", {}, "message"), h("dd", { class: "mono" }, record.fcm.message_name))) : []),
    h("div", { id: "webhooks-slot" }, record.webhooks ? webhookSection(record.webhooks) : []),
    ...section(`Lint (${record.lint.length})`, record.lint.length
      ? h("ul", { class: "lint" }, record.lint.map((f) => h("li", { class: f.severity }, h("code", {}, f.id), ` ${f.message} `, h("span", { class: "mono" }, f.path))))
      : h("p", { class: "muted" }, "No findings.")),
    ...section("Payload", h("details", { open: true }, h("summary", {}, `${record.payload_bytes} bytes`),
      h("pre", { "data-testid": "payload" }, record.payload !== undefined ? view.prettyJSON(record.payload, lintPaths) : atob(record.payload_base64 || "")))),
    ...section("Headers", h("dl", { class: "kv" }, h("dt", {}, ":method"), h("dd", {}, record.method), h("dt", {}, ":path"), h("dd", { class: "mono" }, record.path),
      record.headers.flatMap(([n, v]) => [h("dt", {}, n), h("dd", { class: "mono" }, n.toLowerCase() === "authorization" ? `${v.slice(0, 24)}…` : v)]))),
    ...section("Authentication (JWT)", h("dl", { class: "kv" },
      h("dt", {}, "kind"), h("dd", {}, auth.kind || "—"),
      h("dt", {}, "team (iss)"), h("dd", {}, auth.team_id || "—"),
      h("dt", {}, "key (kid)"), h("dd", {}, auth.key_id || "—"),
      h("dt", {}, "issued (iat)"), h("dd", {}, auth.issued_at ? `${new Date(auth.issued_at * 1000).toISOString()} (${age} s before the push)` : "—"),
      h("dt", {}, "topics"), h("dd", {}, (auth.topics || []).join(", ") || "—"))));
}

// The mock's verdict beside the upstream's (`serve --relay`), rows that differ marked: where the mock and Apple
// disagree is a fidelity gap or a change on Apple's side.
function relayComparison(record) {
  const mine = record.response, up = record.relay;
  if (up.skipped) return h("p", { class: "muted", "data-testid": "relay" }, up.skipped);
  const spell = (status, reason) => (status ? `${status}${reason ? ` ${reason}` : ""}` : "no answer");
  const rows = [
    ["status", spell(mine.status, mine.reason), spell(up.status, up.reason)],
    ["apns-id", mine.apns_id || "—", up.apns_id || "—"],
    ["apns-unique-id", mine.apns_unique_id || "—", up.apns_unique_id || "—"],
    ["410 timestamp", mine.timestamp ? String(mine.timestamp) : "—", up.timestamp ? String(up.timestamp) : "—"],
  ];
  return h("table", { class: "compare", "data-testid": "relay" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "mock"), h("th", {}, "upstream"))),
    h("tbody", {},
      rows.map(([name, a, b]) => h("tr", { class: name === "status" && a !== b ? "differs" : "" }, h("th", {}, name), h("td", { class: "mono" }, a), h("td", { class: "mono" }, b))),
      h("tr", {}, h("th", {}, "upstream time"), h("td", {}, "—"), h("td", {}, up.duration_us !== undefined ? `${up.duration_us} µs` : "—")),
      up.error ? h("tr", { class: "differs" }, h("th", {}, "upstream error"), h("td", {}, "—"), h("td", {}, up.error)) : null));
}

async function simulate(record) {
  for (const b of document.querySelectorAll("#state-switch button")) b.classList.toggle("on", b.dataset.state === state.deviceState);
  for (const b of document.querySelectorAll("#auth-switch button")) b.classList.toggle("on", b.dataset.auth === state.authorization);
  const target = $("sim");
  if (!target) return;
  if (record.payload === undefined) { target.replaceChildren(h("p", { class: "muted" }, "The body is not JSON: a device shows nothing.")); return; }
  const params = new URLSearchParams({ state: state.deviceState, authorization: state.authorization, in_app_routing: String($("inapp-routing").checked) });
  try {
    const answer = await api(`/api/v1/notifications/${record.seq}/delivery?${params}`);
    const sim = answer.simulation;
    target.replaceChildren(view.phone(record, answer), h("div", {},
      h("h3", {}, "What runs"), sim.events.length
        ? h("ol", { class: "events", "data-testid": "events" }, sim.events.map((e) => h("li", {}, h("code", {}, e.handler), h("span", { class: "proc" }, e.process))))
        : h("p", { class: "muted" }, "No app code runs."),
      sim.warnings.length ? [h("h3", {}, "Warnings"), h("ul", { class: "warnings" }, sim.warnings.map((w) => h("li", {}, w)))] : null,
      sim.unknown ? h("p", { class: "error" }, `Not modelled: ${sim.unknown}`) : null,
      h("p", { class: "muted" }, `presentation: ${sim.presentation.kind}${sim.presentation.sound ? ", with sound" : ""}`)));
  } catch (error) {
    target.replaceChildren(h("p", { class: "error" }, error.message));
  }
}

// ---- devices ----
async function loadDevices() {
  const { devices } = await api("/api/v1/devices");
  $("device-rows").replaceChildren(...Object.entries(devices).map(([token, device]) => h("tr", {},
    h("td", { class: "mono" }, token), h("td", { class: "mono" }, JSON.stringify(device)),
    h("td", {}, h("button", { type: "button", class: "link", onclick: async () => { await api(`/api/v1/devices/${token}`, { method: "DELETE" }); loadDevices(); } }, "Remove")))));
}
$("device-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = { state: form.get("state") };
  const extra = String(form.get("extra") || "").trim();
  if (body.state === "topics") body.topics = extra.split(",").map((t) => t.trim()).filter(Boolean);
  if (body.state === "rateLimited") { const [max, window] = extra.split("/"); body.max = Number(max || 5); body.window_seconds = Number(window || 60); }
  try {
    await api(`/api/v1/devices/${String(form.get("token")).trim()}`, { method: "PUT", body: JSON.stringify(body) });
    showError($("device-error"), null);
    loadDevices();
  } catch (error) { showError($("device-error"), error); }
});

// ---- faults ----
async function loadFaults() {
  const { faults } = await api("/api/v1/faults");
  $("fault-rows").replaceChildren(...faults.map((f) => h("tr", {},
    h("td", { class: "mono" }, f.id), h("td", {}, f.name), h("td", { class: "mono" }, JSON.stringify(f.match)),
    h("td", { class: "mono" }, JSON.stringify(f.action)), h("td", { class: "num" }, f.fired),
    h("td", {}, h("button", { type: "button", class: "link", onclick: async () => { await api(`/api/v1/faults/${f.id}`, { method: "DELETE" }); loadFaults(); } }, "Remove")))));
}
$("fault-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const type = form.get("action");
  const action = { type };
  if (type === "status") { action.status = Number(form.get("status")); if (form.get("reason")) action.reason = form.get("reason"); }
  if (type === "delay") action.ms = Number(form.get("status"));
  const match = {};
  if (form.get("topic")) match.topic = form.get("topic");
  if (form.get("token")) match.token = form.get("token");
  const rule = { match, action };
  if (form.get("name")) rule.name = form.get("name");
  if (form.get("count")) rule.count = Number(form.get("count"));
  try {
    await api("/api/v1/faults", { method: "POST", body: JSON.stringify(rule) });
    showError($("fault-error"), null);
    loadFaults();
  } catch (error) { showError($("fault-error"), error); }
});

// ---- send a test push ----
let lintTimer = null;
async function lintPayload() {
  const form = new FormData($("send-form"));
  const params = new URLSearchParams({ push_type: form.get("push_type"), topic: form.get("topic") });
  if (form.get("priority")) params.set("priority", form.get("priority"));
  try {
    const { lint } = await api(`/api/v1/lint?${params}`, { method: "POST", body: form.get("payload") });
    $("send-lint").replaceChildren(...lint.map((f) => h("li", { class: f.severity }, h("code", {}, f.id), ` ${f.message} `, h("span", { class: "mono" }, f.path))));
  } catch { /* shown on send */ }
}
$("send-form")?.addEventListener("input", () => { clearTimeout(lintTimer); lintTimer = setTimeout(lintPayload, 250); });
$("send-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = { token: form.get("token"), topic: form.get("topic"), push_type: form.get("push_type"), payload: form.get("payload") };
  if (form.get("priority")) body.priority = Number(form.get("priority"));
  try {
    const result = await api("/api/v1/test-push", { method: "POST", body: JSON.stringify(body) });
    $("send-result").replaceChildren(view.statusChip({ response: result }), ` apns-id ${result.apns_id || "—"}`);
  } catch (error) { $("send-result").replaceChildren(h("span", { class: "error" }, error.message)); }
});

// ---- pages, keyboard ----
function showPage() {
  const page = (location.hash || "#pushes").slice(1);
  for (const section of document.querySelectorAll(".page")) section.hidden = section.id !== `page-${page}`;
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("current", link.dataset.page === page);
  if (page === "devices") {
    loadDevices().catch((e) => showError($("device-error"), e));
    devices.open().catch((e) => showError($("phone-error"), e));
  }
  if (page === "faults") loadFaults().catch((e) => showError($("fault-error"), e));
  if (page === "send") lintPayload();
}

function move(step) {
  const records = state.records.filter((r) => !r.gap);
  if (!records.length) return;
  const index = records.findIndex((r) => r.seq === state.selected);
  const next = records[Math.min(records.length - 1, Math.max(0, index < 0 ? 0 : index + step))];
  select(next.seq);
  document.querySelector(`#rows tr[data-seq="${next.seq}"]`)?.scrollIntoView({ block: "nearest" });
}

document.addEventListener("keydown", (event) => {
  const typing = /INPUT|TEXTAREA|SELECT/.test(document.activeElement?.tagName || "");
  if (event.key === "Escape" && typing) { document.activeElement.blur(); return; }
  if (typing || event.metaKey || event.ctrlKey || event.altKey) return;
  if (event.key === "/") { event.preventDefault(); ($("page-devices").hidden ? $("search") : $("phone-token")).focus(); }
  else if (event.key === "j") { if ($("page-devices").hidden) move(1); else devices.step(1); }
  else if (event.key === "k") { if ($("page-devices").hidden) move(-1); else devices.step(-1); }
  else if (event.key === "Enter" && state.selected) select(state.selected);
});

$("search-form").addEventListener("submit", (event) => { event.preventDefault(); setQuery($("search").value); });
let typingTimer = null;
$("search").addEventListener("input", () => { clearTimeout(typingTimer); typingTimer = setTimeout(() => setQuery($("search").value), 300); });
$("pause").addEventListener("change", (event) => {
  state.paused = event.target.checked;
  if (state.paused) return;
  const pending = state.pending, overflow = state.pendingOverflow;
  state.pending = []; state.pendingOverflow = false;
  if (overflow || state.query) search(); else pending.forEach(enqueue);
});
$("clear").addEventListener("click", async () => {
  if (!window.confirm("Forget every recorded push in memory? (A record file is kept.)")) return;
  await api("/api/v1/notifications", { method: "DELETE" });
  state.records = []; state.incoming = []; state.selected = null; $("detail").hidden = true; $("detail").parentElement.classList.remove("open");
  render(); refreshCounters();
});
$("more").addEventListener("click", () => search({ append: true }));
window.addEventListener("hashchange", () => {
  if (!location.hash.startsWith("#token=")) { showPage(); return; }
  takeTokenFromFragment();
  $("token-form").hidden = true;
  start();
});

const initial = new URL(location.href).searchParams;
state.query = initial.get("q") || "";
$("search").value = state.query;
takeTokenFromFragment();

// Loads everything; again after a token is entered.
function start() {
  showPage();
  refreshCounters();
  // The first page once; the stream then starts after the newest push the page knows of.
  search().then(() => {
    openStream();
    const seq = Number(initial.get("seq"));
    if (seq) select(seq);
  });
}
start();
