// Apple's and Google's host names for unmodified senders. Between intercept() and restore(), TLS connections this
// process opens to the names the mock serves (node:http2's connect, node:https, fetch, anything else on tls.connect)
// go to the mock and trust its CA; every other connection is left as it is.
//
// Why tls.connect: http2.connect, the https agent and fetch (undici) all call it through the tls module's export,
// and it is the one place that sees the port. A dns.lookup patch would reach the name only, not the port (APNs's
// 443 is the mock's free port), and would not add the mock's CA.
import net from 'node:net';
import tls from 'node:tls';
import { MockAPNsError } from './errors.js';

/** Apple's APNs host names and the ports APNs serves each on: pushes on 443 and 2197, channel management on 2195
 * (sandbox) and 2196 (production). */
export const APPLE_HOSTS = Object.freeze({
  'api.push.apple.com': [443, 2197],
  'api.sandbox.push.apple.com': [443, 2197],
  'api.development.push.apple.com': [443, 2197],
  'api-manage-broadcast.sandbox.push.apple.com': [2195],
  'api-manage-broadcast.push.apple.com': [2196],
});

/** Google's names a Firebase sender calls, each on 443: FCM HTTP v1 (`messages:send`), the service account's OAuth
 * token exchange (`/token`, the `token_uri` of Google's service-account files) and IID topic management. */
export const GOOGLE_HOSTS = Object.freeze({
  'fcm.googleapis.com': [443],
  'oauth2.googleapis.com': [443],
  'iid.googleapis.com': [443],
});

/** The interception in force, if any: { owner, what, restore }. */
let active = null;

/**
 * Routes the host names of `groups` to a mock until the returned handle's restore().
 * @param {{ address: string, groups: { what: string, service: string, hosts: Record<string, number[]>,
 *   ports: Record<number, number>, ca: string }[], owner: string }} target where the mock listens (its address),
 *   and for each group of names (Apple's, Google's): how to name it in errors, whose service it is, the names and
 *   the ports each is served on, the service's port → the mock's, and the CA (PEM) its certificate chains to; how to
 *   name the mock in errors
 * @returns {{ restore: () => void }}
 */
export function routeHosts({ address, groups, owner }) {
  if (active) {
    throw new MockAPNsError(`intercept(): ${active.what} already go to ${active.owner === owner ? 'this mock' : active.owner}; ` +
      'call restore() on that interception first (one mock at a time can take them).');
  }
  /** name → { served, ports, ca, service } */
  const table = new Map();
  for (const group of groups) {
    for (const [name, served] of Object.entries(group.hosts)) table.set(name, { ...group, served });
  }
  const original = tls.connect;
  function connect(...args) {
    const call = parseConnectArgs(args);
    const name = call && typeof call.options.host === 'string' ? canonical(call.options.host) : null;
    const route = name ? table.get(name) : undefined;
    // An existing socket is already connected somewhere: nothing to route.
    if (!route || call.options.socket) return original.apply(this, args);
    const port = Number(call.options.port ?? 443);
    const options = { ...call.options, servername: call.options.servername ?? name };
    if (route.served.includes(port)) {
      options.port = route.ports[port];
      options.lookup = fixedLookup(address);
      options.ca = [...asList(call.options.ca), route.ca];
    } else {
      options.lookup = refusingLookup(route.service, name, port, route.served);
    }
    return call.callback ? original.call(this, options, call.callback) : original.call(this, options);
  }
  tls.connect = connect;
  const state = {
    owner,
    what: groups.length > 1 ? "Apple's and Google's host names" : groups[0].what,
    restore() {
      if (active !== state) return;
      if (tls.connect !== connect) {
        throw new MockAPNsError('restore(): tls.connect was replaced again after intercept() (by another library or ' +
          'test helper); undo that replacement first, then restore().');
      }
      tls.connect = original;
      active = null;
    },
  };
  active = state;
  return state;
}

/** tls.connect's arguments as { options, callback }, the way Node reads them: (options[, cb]) or
 * (port[, host][, options][, cb]), an options object overriding port and host; null for (path, …). */
function parseConnectArgs(args) {
  const list = [...args];
  const callback = typeof list.at(-1) === 'function' ? list.pop() : undefined;
  if (list[0] !== null && typeof list[0] === 'object') return { options: { ...list[0] }, callback };
  const port = list[0];
  if (!(typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port)))) return null;
  const options = { port };
  let rest = list.slice(1);
  if (typeof rest[0] === 'string') {
    options.host = rest[0];
    rest = rest.slice(1);
  }
  if (rest[0] !== null && typeof rest[0] === 'object') Object.assign(options, rest[0]);
  return { options, callback };
}

/** A host name as APPLE_HOSTS and GOOGLE_HOSTS key it: lowercase, without a trailing dot. */
function canonical(host) {
  return host.toLowerCase().replace(/\.$/, '');
}

function asList(ca) {
  if (ca === undefined || ca === null) return [];
  return Array.isArray(ca) ? ca : [ca];
}

/** A `lookup` for net.connect that resolves every name to `address` (asynchronously, as dns.lookup does). */
function fixedLookup(address) {
  const family = net.isIP(address);
  return (hostname, options, callback) => {
    const done = typeof options === 'function' ? options : callback;
    const all = typeof options === 'object' && options?.all;
    process.nextTick(() => (all ? done(null, [{ address, family }]) : done(null, address, family)));
  };
}

/** A `lookup` that fails the connection as a refused one: `service` (APNs, Google) serves `name` on other ports only. */
function refusingLookup(service, name, port, served) {
  return (hostname, options, callback) => {
    const done = typeof options === 'function' ? options : callback;
    const error = new Error(`connect ECONNREFUSED ${name}:${port}: ${service} serves ${name} on port ${served.join(' and ')} ` +
      'only, so the mock does too (intercept() refuses any other port)');
    Object.assign(error, { code: 'ECONNREFUSED', errno: -111, syscall: 'connect', address: name, port });
    process.nextTick(() => done(error));
  };
}
