// The FCM front door as a test reads it (`mockapns serve --fcm`, docs/fcm.md): registrations (the tokens an app
// instance would get from FCM), the records of FCM requests, and expectFCM()'s failure message.

/** The project the mock makes a service account for at start (`fcm_service_account` in its ready file). */
export const DEFAULT_PROJECT = 'mockapns-test';
/** The platforms a registration can be for. */
const PLATFORMS = ['ios', 'android', 'web'];
/** What GET /api/v1/fcm/messages filters by on the server. */
const SERVER_FILTERS = ['project', 'name', 'token', 'topic', 'status', 'limit'];
/** What expectFCM() checks one by one (and ranks near misses by), by the name a test may use, with the record's
 * field each reads. */
const PROPERTY_FILTERS = {
  project: 'project', name: 'name', token: 'token', topic: 'topic', condition: 'condition', status: 'status',
  validateOnly: 'validate_only', validate_only: 'validate_only',
};
/** How many non-matching records a failure message lists before summing up the rest. */
const LIST_LIMIT = 5;

/**
 * The body of POST /api/v1/fcm/registrations for registerFCM()'s options.
 * @param {{ project?: string, platform?: string, bundleId?: string, bundle_id?: string, apnsToken?: string,
 *   apns_token?: string }} options
 */
export function registrationBody(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`registerFCM() takes an object such as { platform: 'ios', bundleId: 'com.example.app' }; got ${options}.`);
  }
  const known = ['project', 'platform', 'bundleId', 'bundle_id', 'apnsToken', 'apns_token'];
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length) throw new TypeError(`registerFCM() takes ${known.join(', ')}; not ${unknown.join(', ')}.`);
  const platform = options.platform ?? 'ios';
  if (!PLATFORMS.includes(platform)) {
    throw new TypeError(`registerFCM(): platform is one of ${PLATFORMS.join(', ')}, not ${JSON.stringify(platform)}.`);
  }
  const body = { project: options.project ?? DEFAULT_PROJECT, platform,
    bundle_id: options.bundleId ?? options.bundle_id ?? 'com.example.app' };
  const apnsToken = options.apnsToken ?? options.apns_token;
  if (apnsToken !== undefined && apnsToken !== null) {
    if (platform !== 'ios') throw new TypeError(`registerFCM(): apnsToken is for an iOS registration, not ${platform}.`);
    body.apns_token = apnsToken;
  }
  return body;
}

/**
 * The query string of GET /api/v1/fcm/messages for `filter` (project, name, token, topic, status, limit).
 * @param {Record<string, unknown>} filter
 */
export function fcmQuery(filter = {}) {
  if (filter === null || typeof filter !== 'object') {
    throw new TypeError(`An FCM filter is an object such as { token: registration.token }; got ${filter}.`);
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (!SERVER_FILTERS.includes(key)) {
      throw new TypeError(`Unknown FCM filter key "${key}"; fcmMessages() takes ${SERVER_FILTERS.join(', ')}.`);
    }
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * expectFCM()'s filter without count and timeout, checked: [name, expected] for each key that is set.
 * @param {Record<string, unknown>} filter
 */
export function fcmWanted(filter = {}) {
  if (filter === null || typeof filter !== 'object') {
    throw new TypeError(`An FCM filter is an object such as { token: registration.token, status: 200 }; got ${filter}.`);
  }
  const wanted = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'count' || key === 'timeout' || value === undefined || value === null) continue;
    if (!PROPERTY_FILTERS[key]) {
      throw new TypeError(`Unknown FCM filter key "${key}"; expectFCM() takes ${[...Object.keys(PROPERTY_FILTERS), 'count', 'timeout'].join(', ')}.`);
    }
    wanted.push([key, value]);
  }
  return wanted;
}

/** Whether `record` has the value `expected` for filter key `key` (a name: the whole name, or its last part, as
 * the control API takes it). */
function has(record, key, expected) {
  const actual = record[PROPERTY_FILTERS[key]];
  if (key === 'name') return typeof actual === 'string' && (actual === expected || actual.endsWith(`/${expected}`));
  if (key === 'validateOnly' || key === 'validate_only') return Boolean(actual) === Boolean(expected);
  return actual !== undefined && actual !== null && String(actual) === String(expected);
}

/** Whether `record` matches every [key, value] of `wanted`. */
export function fcmMatches(record, wanted) {
  return wanted.every(([key, value]) => has(record, key, value));
}

/**
 * Whether `matching` FCM records satisfy expectFCM()'s count (0 or undefined: at least one; n: exactly n).
 * @param {number | undefined} count
 * @param {number} matching
 */
export function satisfied(count, matching) {
  return count ? matching === count : matching > 0;
}

/**
 * The failure message of expectFCM(): what was expected, then the recorded FCM requests, closest match first.
 * @param {number | undefined} count 0 or undefined: at least one; n: exactly n
 * @param {[string, unknown][]} wanted from fcmWanted()
 * @param {object[]} received every record of GET /api/v1/fcm/messages
 */
export function fcmFailureMessage(count, wanted, received) {
  const matching = received.filter((record) => fcmMatches(record, wanted));
  let what = count ? `exactly ${count} FCM message${count === 1 ? '' : 's'}` : 'an FCM message';
  if (wanted.length) what += ` with ${wanted.map(([key, value]) => `${key} ${show(value)}`).join(', ')}`;
  const lines = [`Expected ${what}, but ${matching.length} matched.`];
  if (!received.length) {
    lines.push('The mock recorded no FCM message. Is the sender inside mock.intercept() (or pointed at mock.fcmURL), ' +
      'with a service account of this mock (mock.fcmServiceAccount)?');
    return lines.join('\n');
  }
  const score = (record) => wanted.filter(([key, value]) => has(record, key, value)).length;
  const ranked = received.map((record, order) => ({ record, order, score: score(record) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  lines.push(`It recorded ${received.length} FCM message${received.length === 1 ? '' : 's'}` +
    `${received.length > 1 ? ', closest first' : ''}:`);
  lines.push(...ranked.slice(0, LIST_LIMIT).map(({ record }) => `  ${fcmSummary(record)}`));
  if (ranked.length > LIST_LIMIT) lines.push(`  … and ${ranked.length - LIST_LIMIT} more`);
  return lines.join('\n');
}

/**
 * One readable line for an FCM record, e.g. `#3 FCM message to token cJ3sX0aB…Qw9zPk, project mockapns-test:
 * accepted (200), 1 APNs push; title "Shipped"`.
 * @param {object} record a record from GET /api/v1/fcm/messages
 */
export function fcmSummary(record) {
  const kind = ['token', 'topic', 'condition', 'fid'].find((key) => record[key] !== undefined && record[key] !== null);
  const to = kind ? `${kind} ${short(String(record[kind]))}` : 'no target';
  let text = `#${record.seq ?? '?'} FCM message to ${to}, project ${record.project}: ${responseText(record)}`;
  const title = record.message?.notification?.title;
  if (typeof title === 'string') text += `; title ${JSON.stringify(title)}`;
  return text;
}

/** `accepted (200), 1 APNs push`, `accepted (200), dry run` or `refused 404 NOT_FOUND/UNREGISTERED`. */
function responseText(record) {
  if (record.status === 200) {
    const pushes = (record.apns_ids ?? []).length;
    return `accepted (200)${record.validate_only ? ', dry run' : ''}` +
      `${pushes ? `, ${pushes} APNs push${pushes === 1 ? '' : 'es'}` : ''}`;
  }
  const error = record.answer?.error;
  const code = (error?.details ?? []).find((detail) => String(detail?.['@type'] ?? '').endsWith('google.firebase.fcm.v1.FcmError'))?.errorCode;
  const words = [error?.status, code].filter(Boolean).join('/');
  return `refused ${record.status}${words ? ` ${words}` : ''}`;
}

/** A long value shortened to its first 8 and last 6 characters. */
function short(value) {
  return value.length > 20 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
}

/** Strings in quotes, numbers and booleans as they are. */
function show(value) {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
