// Virtual devices over time: the bodies of PUT /api/v1/devices/{token} and POST …/changes, the queries of …/screen
// and …/timeline, and expectShown()'s failure message. What a device shows is the server's answer; the kit only
// words it.

/** A device-update key a test may write in camelCase, with the API's name. */
const UPDATE_KEYS = { appState: 'app_state', offlineUntil: 'offline_until', pushToStartTokens: 'push_to_start_tokens' };

/**
 * Milliseconds since 1970 for an instant given as a Date or a number of milliseconds.
 * @param {Date | number} instant
 * @param {string} name what the instant is, for the error
 */
export function millis(instant, name) {
  if (instant instanceof Date && !Number.isNaN(instant.getTime())) return instant.getTime();
  if (Number.isInteger(instant) && instant >= 0) return instant;
  throw new TypeError(`"${name}" is a Date or milliseconds since 1970 (a whole number); got ${instant}.`);
}

/** `?name=ms`, or '' when `instant` is undefined or null (the mock's now). */
export function instantQuery(name, instant) {
  return instant === undefined || instant === null ? '' : `?${name}=${millis(instant, name)}`;
}

/**
 * The PUT body for setDevice(token, state): a state name becomes { state }; an object is sent with its camelCase
 * keys (appState, offlineUntil, pushToStartTokens) in the API's snake_case and its instants (at, offline_until) in
 * milliseconds.
 * @param {string | object} state
 */
export function deviceUpdate(state) {
  if (typeof state === 'string') return { state };
  if (state === null || typeof state !== 'object' || Array.isArray(state)) {
    throw new TypeError('setDevice() takes a state name such as \'unregistered\', an object such as ' +
      `{ online: false } or { state: 'topics', topics: [...] }, or null; got ${state}.`);
  }
  const body = {};
  for (const [key, value] of Object.entries(state)) {
    if (value !== undefined) body[UPDATE_KEYS[key] ?? key] = value;
  }
  for (const key of ['at', 'offline_until']) {
    if (body[key] !== undefined) body[key] = millis(body[key], key);
  }
  return body;
}

/** The POST body for changeDevice(token, change, fields). */
export function deviceChange(change, fields = {}) {
  if (typeof change !== 'string' || !change) {
    throw new TypeError(`changeDevice() takes the change's name, such as 'tap' or 'offline'; got ${change}.`);
  }
  const body = { change, ...fields };
  if (body.at !== undefined) body.at = millis(body.at, 'at');
  return body;
}

/** Whether a shown notification has every wanted key (title, body) with that value. */
export function shows(notification, wanted) {
  return Object.entries(wanted).every(([key, value]) => notification[key] === value);
}

/** One line per shown notification: `title "Shipped", body "Order 42" (apns-id …, collapse-id order-42)`. */
export function shownSummary(notification) {
  const quoted = (text) => (text === null || text === undefined ? 'none' : JSON.stringify(text));
  const ids = [`apns-id ${notification.apns_id}`];
  if (notification.thread_id) ids.push(`thread-id ${notification.thread_id}`);
  if (notification.collapse_id) ids.push(`collapse-id ${notification.collapse_id}`);
  return `title ${quoted(notification.title)}, body ${quoted(notification.body)} (${ids.join(', ')})`;
}

/**
 * expectShown()'s failure: what was wanted, every notification the screen shows (newest first), the device's state.
 * @param {object} screen the control API's screen
 * @param {{ title?: string, body?: string }} wanted
 */
export function shownFailure(screen, wanted) {
  const token = screen.token.length > 16 ? `${screen.token.slice(0, 8)}…${screen.token.slice(-6)}` : screen.token;
  const keys = Object.entries(wanted).map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  const header = `Expected device ${token} to show a notification${keys.length ? ` with ${keys.join(', ')}` : ''}`;
  const shown = screen.notifications ?? [];
  const lines = [shown.length === 0 ? `${header}, but it shows no notifications.`
    : shown.length === 1 ? `${header}, but the only one it shows did not match:`
      : `${header}, but none of the ${shown.length} it shows matched (newest first):`];
  for (const notification of shown) lines.push(`  ${shownSummary(notification)}`);
  let state = `Device: ${screen.online ? 'online' : 'offline'}, app ${screen.app_state}, badge ${screen.badge ?? 0}`;
  const stored = screen.stored ?? [];
  if (stored.length) {
    state += `; APNs holds ${stored.length} stored push${stored.length === 1 ? '' : 'es'} for it ` +
      `(${stored.map((push) => `apns-id ${push.apns_id}`).join(', ')})`;
  }
  lines.push(`${state}.`);
  return lines.join('\n');
}
