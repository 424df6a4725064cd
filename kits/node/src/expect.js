// The queries of GET /api/v1/notifications and of expect()'s GET /api/v1/expect, whose answer says whether the
// expectation is met and words a miss: the mock ranks the records and writes the message, not the kit.

/** Filter keys the control API takes, by the name a test may use, with the query parameter each becomes. */
const QUERY_KEYS = {
  token: 'token', topic: 'topic', push_type: 'push_type', pushType: 'push_type',
  status: 'status', reason: 'reason', since: 'since', limit: 'limit',
};
/** What expect() takes besides the record filters (all but `limit`, which does not apply to an expectation). */
const EXPECT_KEYS = ['count', 'atLeast', 'none', 'where', 'timeout'];

/**
 * The query string for `filter` (keys: token, topic, push_type or pushType, status, reason, since, limit).
 * @param {Record<string, unknown>} filter
 * @param {string[]} [alsoAllowed] keys the caller handles itself (expect's count, where, timeout…)
 */
export function queryFor(filter = {}, alsoAllowed = []) {
  return search(filterParams(filter, alsoAllowed));
}

function filterParams(filter, alsoAllowed) {
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
    // Lowercase: the mock records tokens as hex, and its expectation compares them exactly (its list filter does not).
    params.set(name, name === 'token' ? String(value).toLowerCase() : String(value));
  }
  return params;
}

/** `?query`, or '' for none; a space as %20, which the mock reads as one (it takes '+' literally; URLSearchParams
 * writes a '+' of the value as %2B). */
export function search(params) {
  const text = params.toString().replace(/\+/g, '%20');
  return text ? `?${text}` : '';
}

/**
 * expect()'s filter, checked, as GET /api/v1/expect asks it: the record filters, one `where=PATH=VALUE` per payload
 * condition and the quantity (count n > 0: exactly n; atLeast n; none; else at least one).
 * @param {Record<string, unknown>} filter
 * @returns {{ query: string, exactly: number | null, timeout: number }} `exactly` is the number an exact quantity
 *   wants (null for at least), so a recording past it fails at once
 */
export function expectQuery(filter = {}) {
  if (filter?.limit !== undefined && filter.limit !== null) {
    throw new TypeError('expect(): "limit" does not apply to an expectation; narrow the records with "since" or the filters.');
  }
  const params = filterParams(filter, EXPECT_KEYS);
  for (const key of ['count', 'atLeast', 'timeout']) {
    const value = filter[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new TypeError(`expect(): "${key}" must be a whole number, 0 or more; got ${value}.`);
    }
  }
  if (filter.none !== undefined && typeof filter.none !== 'boolean') {
    throw new TypeError(`expect(): "none" is true or false; got ${filter.none}.`);
  }
  const given = ['count', 'atLeast', 'none'].filter((key) => filter[key]);
  if (given.length > 1) throw new TypeError(`expect(): give one of count, atLeast and none, not ${given.join(' and ')}.`);
  for (const condition of conditions(filter.where)) params.append('where', condition);
  let exactly = null;
  if (filter.none) {
    params.set('none', 'true');
    exactly = 0;
  } else if (filter.count) {
    params.set('count', String(filter.count));
    exactly = filter.count;
  } else if (filter.atLeast) {
    params.set('at_least', String(filter.atLeast));
  }
  return { query: search(params), exactly, timeout: filter.timeout ?? 0 };
}

/** `where` as PATH=VALUE strings: a list of them, or an object { 'aps.alert.title': 'Shipped', 'aps.badge': 3 } (a
 * string value as it is, anything else as compact JSON: 3, true, null, {"id":42}). */
function conditions(where) {
  if (where === undefined || where === null) return [];
  if (typeof where === 'string') {
    throw new TypeError(`expect(): "where" is a list of "PATH=VALUE" strings or an object { PATH: VALUE }, not the string ${JSON.stringify(where)}.`);
  }
  if (Array.isArray(where)) return where.map(String);
  if (typeof where !== 'object') throw new TypeError(`expect(): "where" is a list or an object; got ${where}.`);
  return Object.entries(where).map(([path, value]) => `${path}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
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
