// Pure view helpers: records (the control API's JSON) to DOM nodes. Text always goes in as text nodes,
// never as HTML, because every field here came from a client on the wire.

/** Makes an element: h("td", {class: "x"}, "text", child…). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export const header = (record, name) => (record.headers.find(([n]) => n.toLowerCase() === name) || [])[1];

/** The alert's title, subtitle and body, whichever form `aps.alert` takes. */
export function alertOf(record) {
  const alert = record.payload && record.payload.aps && record.payload.aps.alert;
  if (typeof alert === "string") return { title: null, subtitle: null, body: alert };
  if (alert && typeof alert === "object") return { title: alert.title ?? null, subtitle: alert.subtitle ?? null, body: alert.body ?? null };
  return null;
}

export function statusChip(record) {
  const { status, reason } = record.response;
  const kind = status === 200 ? "ok" : status >= 500 ? "bad" : "bad";
  return h("span", { class: `chip ${kind}`, title: reason || "" }, status === 200 ? "200" : `${status} ${reason || ""}`.trim());
}

export const shortToken = (token) => (token ? `${token.slice(0, 8)}…${token.slice(-4)}` : "—");
export const time = (iso) => new Date(iso).toLocaleTimeString([], { hour12: false });

export function preview(record) {
  const alert = alertOf(record);
  if (!alert) return h("span", { class: "muted" }, record.payload ? "silent" : "not JSON");
  return h("span", { class: "msg" }, alert.title ? h("b", {}, alert.title, " ") : "", h("span", {}, alert.body || ""));
}

export function row(record) {
  return h("tr", { dataset: { seq: record.seq } },
    h("td", { class: "mono" }, time(record.received_at)),
    h("td", {}, statusChip(record)),
    h("td", {}, header(record, "apns-push-type") || "—"),
    h("td", {}, header(record, "apns-topic") || "—"),
    h("td", { class: "mono", title: record.device_token || "" }, shortToken(record.device_token)),
    h("td", { class: "msgcell" }, preview(record)),
    h("td", { class: "num" }, `${record.payload_bytes} B`));
}

/** The payload pretty-printed, with the spans at `highlight` paths (lint findings) marked. */
export function prettyJSON(value, highlight = new Set(), path = "", indent = "") {
  const mark = (node) => (highlight.has(path) ? h("span", { class: "hl", title: path }, node) : node);
  if (Array.isArray(value)) {
    if (!value.length) return mark(h("span", {}, "[]"));
    const parts = ["[\n"];
    value.forEach((item, i) => {
      parts.push(indent + "  ", prettyJSON(item, highlight, `${path}[${i}]`, indent + "  "), i < value.length - 1 ? ",\n" : "\n");
    });
    parts.push(indent + "]");
    return mark(h("span", {}, ...parts));
  }
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    if (!keys.length) return mark(h("span", {}, "{}"));
    const parts = ["{\n"];
    keys.forEach((key, i) => {
      const child = path ? `${path}.${key}` : key;
      const keyNode = highlight.has(child) ? h("span", { class: "hl", title: child }, JSON.stringify(key)) : JSON.stringify(key);
      parts.push(indent + "  ", keyNode, ": ", prettyJSON(value[key], highlight, child, indent + "  "), i < keys.length - 1 ? ",\n" : "\n");
    });
    parts.push(indent + "}");
    return mark(h("span", {}, ...parts));
  }
  return mark(h("span", {}, JSON.stringify(value)));
}

/** A lint path as the payload view names it: `$.aps.alert` → `aps.alert`. */
export const lintPath = (path) => path.replace(/^\$\.?/, "");

export function bodyText(record) {
  if (record.payload !== undefined) return JSON.stringify(record.payload);
  return atob(record.payload_base64 || "");
}

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlCommand(record) {
  const lines = ["curl -v --http2 --cacert certs/ca.pem"];
  for (const [name, value] of record.headers) {
    if (name.toLowerCase() === "authorization") lines.push(`  -H ${shellQuote("authorization: bearer $APNS_JWT")}`);
    else lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  }
  lines.push(`  --data-binary ${shellQuote(bodyText(record))}`);
  lines.push(`  "\${APNS_URL:-https://127.0.0.1:2197}${record.path}"`);
  return lines.join(" \\\n");
}

export function sendCommand(record) {
  const parts = ["echo", shellQuote(bodyText(record)), "> payload.json &&", "mockapns send payload.json"];
  if (record.device_token) parts.push("--token", record.device_token);
  for (const [flag, name] of [["--topic", "apns-topic"], ["--push-type", "apns-push-type"], ["--priority", "apns-priority"]]) {
    const value = header(record, name);
    if (value) parts.push(flag, shellQuote(value));
  }
  parts.push("--key-file", "TEAMID:KEYID:AuthKey.p8");
  return parts.join(" ");
}

/** A Simulator `.apns` file: the payload plus the target bundle id. */
export function apnsFile(record) {
  const payload = record.payload && typeof record.payload === "object" ? { ...record.payload } : {};
  const topic = header(record, "apns-topic");
  if (topic) payload["Simulator Target Bundle"] = topic.replace(/\.(voip|complication|pushkit\..*)$/, "");
  return JSON.stringify(payload, null, 2);
}

export function relativeTime(iso) {
  const seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return "now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  return `${Math.floor(seconds / 3600)}h ago`;
}

/** The app's display name, guessed from the topic's last component. */
export function appName(topic) {
  const last = (topic || "App").replace(/\.(voip|complication|pushkit\..*)$/, "").split(".").pop();
  return last.charAt(0).toUpperCase() + last.slice(1);
}

/** The iPhone: what the user sees for this record in the simulated state. */
export function phone(record, answer) {
  const sim = answer.simulation;
  const state = answer.profile.state;
  const inApp = state === "foreground";
  const screen = h("div", { class: `screen ${inApp ? "app" : "lock"}`, "data-testid": "screen" }, h("div", { class: "island" }));
  if (!inApp) screen.append(h("div", { class: "clock" }, new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false })));
  const p = sim.presentation;
  if (p.kind === "banner" || p.kind === "list") {
    const alert = alertOf(record) || {};
    const topic = header(record, "apns-topic");
    const thread = record.payload && record.payload.aps && record.payload.aps["thread-id"];
    const card = h("div", { class: "notif", "data-testid": "notification" },
      h("div", { class: "head" }, h("span", { class: "icon" }, appName(topic).charAt(0)), appName(topic).toUpperCase(),
        h("span", { class: "when" }, relativeTime(record.received_at))),
      alert.title ? h("div", { class: "t" }, alert.title) : null,
      alert.subtitle ? h("div", { class: "s" }, alert.subtitle) : null,
      alert.body ? h("div", { class: "b" }, alert.body) : null,
      thread ? h("div", { class: "muted" }, `thread ${thread}`) : null,
      p.badge !== null && p.badge !== undefined ? h("span", { class: "badge", "data-testid": "badge" }, p.badge) : null);
    if (p.kind === "list") card.append(h("div", { class: "muted" }, "Notification Center only"));
    screen.append(card);
  } else if (p.kind === "inApp" && p.style) {
    const s = p.style;
    const banner = h("div", { class: `inapp size-${s.size}`,
      "data-testid": "inapp", "data-symbol": s.symbol, "data-color": s.color, "data-size": s.size, "data-haptics": s.haptics },
      h("span", { class: "sym" }, "✦"),
      h("div", {}, h("div", { class: "t" }, (alertOf(record) || {}).title || s.symbol), h("div", { class: "detail" }, `${s.symbol} · ${s.size} · haptics ${s.haptics}`)));
    banner.style.backgroundColor = /^#[0-9a-fA-F]{3,8}$/.test(s.color) ? s.color : "#555";   // CSSOM: allowed by the CSP
    screen.append(banner);
  } else {
    screen.append(h("div", { class: "nothing", "data-testid": "nothing" },
      "Nothing shown", h("br"), sim.events.length ? "wakes the app" : "no code runs"));
  }
  return h("div", { class: "phone" }, screen);
}
