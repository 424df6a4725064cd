// The FCM front door as a test reads it (`mockapns serve --fcm`, docs/fcm.md): registrations (the tokens an app
// instance would get from FCM), the records of FCM requests, and the query of expectFCM()'s GET /api/v1/fcm/expect,
// whose answer says whether the expectation is met and words a miss: the mock ranks the records and writes the
// message, not the kit.
import { search } from './expect.js';

/** The project the mock makes a service account for at start (`fcm_service_account` in its ready file). */
export const DEFAULT_PROJECT = 'mockapns-test';
/** The platforms a registration can be for. */
const PLATFORMS = ['ios', 'android', 'web'];
/** What GET /api/v1/fcm/messages filters by on the server. */
/** The FCM record filters of fcmMessages() and expectFCM(), by the name a test may use, with the query parameter of
 * GET /api/v1/fcm/messages and GET /api/v1/fcm/expect each becomes. */
const RECORD_FILTERS = {
  project: 'project', name: 'name', token: 'token', topic: 'topic', condition: 'condition', status: 'status',
  validateOnly: 'validate_only', validate_only: 'validate_only',
};

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
 * The query string of GET /api/v1/fcm/messages for `filter` (project, name, token, topic, condition, status,
 * validateOnly, limit).
 * @param {Record<string, unknown>} filter
 */
export function fcmQuery(filter = {}) {
  if (filter === null || typeof filter !== 'object') {
    throw new TypeError(`An FCM filter is an object such as { token: registration.token }; got ${filter}.`);
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    const name = key === 'limit' ? 'limit' : RECORD_FILTERS[key];
    if (!name) {
      throw new TypeError(`Unknown FCM filter key "${key}"; fcmMessages() takes ${[...Object.keys(RECORD_FILTERS), 'limit'].join(', ')}.`);
    }
    if (name === 'validate_only' && typeof value !== 'boolean') {
      throw new TypeError(`fcmMessages(): "${key}" is true or false; got ${value}.`);
    }
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * expectFCM()'s filter, checked, as GET /api/v1/fcm/expect asks it: the record filters and the quantity (count n > 0:
 * exactly n, as `count`; 0 or undefined: at least one, the mock's default).
 * @param {Record<string, unknown>} filter
 * @returns {{ query: string, exactly: number | null, timeout: number }} `exactly` is the number an exact count wants
 *   (null for at least one), so a recording past it fails at once
 */
export function fcmExpectQuery(filter = {}) {
  if (filter === null || typeof filter !== 'object') {
    throw new TypeError(`An FCM filter is an object such as { token: registration.token, status: 200 }; got ${filter}.`);
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'count' || key === 'timeout' || value === undefined || value === null) continue;
    const name = RECORD_FILTERS[key];
    if (!name) {
      throw new TypeError(`Unknown FCM filter key "${key}"; expectFCM() takes ${[...Object.keys(RECORD_FILTERS), 'count', 'timeout'].join(', ')}.`);
    }
    if (name === 'validate_only' && typeof value !== 'boolean') {
      throw new TypeError(`expectFCM(): "${key}" is true or false; got ${value}.`);
    }
    params.set(name, String(value));
  }
  for (const key of ['count', 'timeout']) {
    const value = filter[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new TypeError(`expectFCM(): "${key}" must be a whole number, 0 or more; got ${value}.`);
    }
  }
  if (filter.count) params.set('count', String(filter.count));
  return { query: search(params), exactly: filter.count || null, timeout: filter.timeout ?? 0 };
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
