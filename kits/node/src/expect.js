// Filters for the control API's GET /api/v1/notifications, and expect()'s failure message. Which records match
// is the server's answer; the comparisons here only rank the others for the message, as Sources/APNsTesting does.

/** Filter keys the control API takes, by the name a test may use, with the query parameter each becomes. */
const QUERY_KEYS = {
  token: 'token', topic: 'topic', push_type: 'push_type', pushType: 'push_type',
  status: 'status', reason: 'reason', since: 'since', limit: 'limit',
};

/** How many non-matching pushes a failure message lists before summing up the rest. */
const LIST_LIMIT = 5;

/**
 * The query string for `filter` (keys: token, topic, push_type or pushType, status, reason, since, limit).
 * @param {Record<string, unknown>} filter
 * @param {string[]} [alsoAllowed] keys the caller handles itself (expect's count and timeout)
 */
export function queryFor(filter = {}, alsoAllowed = []) {
  if (filter === null || typeof filter !== 'object') {
    throw new TypeError(`A notification filter is an object such as { topic: 'com.example.app' }; got ${filter}.`);
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (alsoAllowed.includes(key) || value === undefined || value === null) continue;
    const name = QUERY_KEYS[key];
    if (!name) {
      const known = [...Object.keys(QUERY_KEYS), ...alsoAllowed].join(', ');
      throw new TypeError(`Unknown notification filter key "${key}"; use ${known}.`);
    }
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The properties a record is ranked by: [name, expected, actual(record)], for the filter's set keys. */
function properties(filter) {
  const list = [];
  const add = (key, name, actual) => {
    if (filter[key] !== undefined && filter[key] !== null) list.push({ name, expected: filter[key], actual });
  };
  add('topic', 'topic', (r) => header(r, 'apns-topic'));
  add('token', 'token', (r) => r.device_token ?? null);
  add('push_type', 'push type', (r) => header(r, 'apns-push-type'));
  add('pushType', 'push type', (r) => header(r, 'apns-push-type'));
  add('status', 'status', (r) => r.response?.status ?? null);
  add('reason', 'reason', (r) => r.response?.reason ?? null);
  return list;
}

/** Whether a record's value counts as the expected one (tokens are case-insensitive; statuses may be strings). */
function same(name, expected, actual) {
  if (actual === null || actual === undefined) return false;
  if (name === 'token') return String(actual).toLowerCase() === String(expected).toLowerCase();
  return String(actual) === String(expected);
}

/** `a notification`, `exactly 1 notification`, `exactly 3 notifications`. */
function countText(count) {
  if (!count) return 'a notification';
  return `exactly ${count} notification${count === 1 ? '' : 's'}`;
}

/**
 * What `filter` expects, e.g. `a notification with topic "com.example.app", status 200`.
 * @param {Record<string, unknown>} filter
 */
export function describe(filter) {
  const props = properties(filter);
  const text = countText(filter.count);
  if (!props.length) return text;
  return `${text} with ${props.map((p) => `${p.name} ${show(p.expected)}`).join(', ')}`;
}

/**
 * Whether `matching` satisfies the count (0 or undefined: at least one; n: exactly n).
 * @param {number | undefined} count
 * @param {number} matching
 */
export function satisfied(count, matching) {
  return count ? matching === count : matching > 0;
}

/**
 * The failure message: what was expected, then the recorded pushes, closest to the expectation first, with
 * each mismatch spelled out.
 * @param {Record<string, unknown>} filter
 * @param {object[]} matching the records the control API matched
 * @param {object[]} received every record in the same range (the filter's `since`)
 */
export function failureMessage(filter, matching, received) {
  const header = `Expected ${describe(filter)}`;
  if (!received.length && !matching.length) return `${header}, but the mock received no notifications.`;
  const lines = [];
  if (filter.count && matching.length > filter.count) {
    lines.push(`${header}, but ${matching.length} matched:`);
    lines.push(...matching.slice(0, LIST_LIMIT).map((r) => `  ${summary(r)}`));
    if (matching.length > LIST_LIMIT) lines.push(`  … and ${matching.length - LIST_LIMIT} more`);
    return lines.join('\n');
  }
  if (!matching.length) {
    lines.push(`${header}, but ${received.length === 1 ? 'the only notification received did not match'
      : `none of the ${received.length} received matched`}.`);
  } else {
    lines.push(`${header}, but only ${matching.length} matched (${matching.map((r) => `#${r.seq}`).join(', ')}).`);
  }
  const props = properties(filter);
  const matched = new Set(matching.map((r) => r.seq));
  const others = received.filter((r) => !matched.has(r.seq))
    .map((record, order) => {
      const misses = props.filter((p) => !same(p.name, p.expected, p.actual(record)));
      return { record, order, misses };
    })
    .sort((a, b) => a.misses.length - b.misses.length || a.order - b.order);
  if (others.length) {
    lines.push(matching.length ? 'Other notifications, closest match first:' : 'Received, closest match first:');
    for (const { record, misses } of others.slice(0, LIST_LIMIT)) {
      const score = props.length > 1 ? ` — has ${props.length - misses.length} of ${props.length}` : '';
      lines.push(`  ${summary(record)}${score}`);
      for (const p of misses) lines.push(`      ${p.name}: expected ${show(p.expected)}, got ${show(p.actual(record))}`);
    }
    if (others.length > LIST_LIMIT) lines.push(`  … and ${others.length - LIST_LIMIT} more`);
  }
  return lines.join('\n');
}

/**
 * One readable line for a record, e.g.
 * `#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Shipped", body "Order 42"`.
 * @param {object} record a record from GET /api/v1/notifications
 */
export function summary(record) {
  const pushType = header(record, 'apns-push-type');
  let text = `#${record.seq} ${pushType ? `${pushType} push` : 'push'} to ${shortToken(record.device_token)}`;
  const topic = header(record, 'apns-topic');
  if (topic) text += `, topic ${topic}`;
  const { status, reason } = record.response ?? {};
  if (status === 200) text += ': accepted (200)';
  else if (!status) text += `: not answered (${(record.faults ?? []).join(', ') || 'no response'})`;
  else text += `: rejected ${status}${reason ? ` ${reason}` : ''}`;
  const alert = record.payload?.aps?.alert;
  const details = [];
  if (typeof alert?.title === 'string') details.push(`title ${JSON.stringify(alert.title)}`);
  const body = typeof alert === 'string' ? alert : alert?.body;
  if (typeof body === 'string') details.push(`body ${JSON.stringify(body)}`);
  if (record.payload === undefined) details.push('body is not JSON');
  return details.length ? `${text}; ${details.join(', ')}` : text;
}

/** The first value of a request header in a record (`headers` is a list of [name, value] pairs). */
function header(record, name) {
  const pair = (record.headers ?? []).find(([n]) => n === name);
  return pair ? pair[1] : null;
}

/** A long token shortened to its first 8 and last 6 characters. */
function shortToken(token) {
  if (!token) return '(no device token)';
  return token.length > 16 ? `${token.slice(0, 8)}…${token.slice(-6)}` : token;
}

/** Strings in quotes, numbers and null as they are. */
function show(value) {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
