// MockAPNs test kit for Node: runs a mock APNs (`mockapns serve`, or its container image) on free ports for a test
// and talks to its control API.
import { AssertionError } from 'node:assert';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ContainerServer, findEngine } from './container.js';
import { deviceChange, deviceUpdate, instantQuery, shownFailure, shows } from './device.js';
import { MockAPNsError } from './errors.js';
import { failureMessage, queryFor, satisfied } from './expect.js';
import { routeAppleHosts } from './intercept.js';
import { findBinary, findCertsDir, hasKeys } from './locate.js';
import { ServerProcess } from './process.js';
import { loadSigningKey, tokenSource } from './token.js';
import { sleep } from './util.js';

export { MockAPNsError } from './errors.js';
export { summary } from './expect.js';
export { APPLE_HOSTS } from './intercept.js';

/** `await using mock = await startMockAPNs()` calls this symbol; Node 18.18+ and 20 define it, and its registered
 * form is what they define it as. */
const asyncDispose = Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose');
const dispose = Symbol.dispose ?? Symbol.for('nodejs.dispose');

/**
 * @typedef {object} MockAPNsOptions
 * @property {string} [bin] the mockapns binary; default `$MOCKAPNS_BIN`, else `mockapns` on PATH
 * @property {string} [image] run the mock from this container image (e.g. 'mockapns:latest', which `make image`
 *   builds) with podman or docker instead of a binary; default `$MOCKAPNS_IMAGE` unless `bin` is given
 * @property {string} [engine] the container engine (podman, docker or a path); default
 *   `$MOCKAPNS_CONTAINER_ENGINE`, else podman or docker on PATH (with both, the one that answers, podman first)
 * @property {boolean} [appleHosts] also serve Apple's own host names (api.push.apple.com, …) under a private CA made
 *   for this mock, so `mock.intercept()` can route a sender with Apple's URLs hard-coded to it
 * @property {string} [certsDir] the test credentials folder; default `$MOCKAPNS_CERTS_DIR`, else `certs/` beside or
 *   up to 4 folders above the binary, else the folder of the CA the server reports (`ca_file` in its ready file);
 *   in container mode, default the credentials the image carries
 * @property {string} [keyId] which key of certs/keys.json token() signs with; default the first for both
 *   environments and all topics (TESTKEY001)
 * @property {boolean} [http1] also serve plain HTTP/1.1 APNs requests at `http1URL`
 * @property {string[]} [args] more `mockapns serve` flags, e.g. ['--environment', 'production']
 * @property {Record<string, string>} [env] more environment for the server (it gets the test's environment without
 *   its MOCKAPNS_* settings, so a stray MOCKAPNS_H2C or MOCKAPNS_CONTROL_TOKEN cannot change the server under test;
 *   a container gets only these)
 * @property {number} [startTimeout] ms to wait for the server to be ready (default 20000; 60000 for a container)
 * @property {number} [stopTimeout] ms stop() waits after SIGTERM before SIGKILL (default 5000)
 * @property {number} [requestTimeout] ms a control API request may take (default 10000)
 */

/**
 * Starts a mock APNs on free ports (APNs and control plane) and waits until it is ready: `mockapns serve`, or with
 * `image` (or MOCKAPNS_IMAGE) the image under podman or docker. Stop it with `await mock.stop()` (an `after` hook)
 * or `await using mock = await startMockAPNs()`, clear it between tests with `await mock.clear()`.
 *
 * Rejects with a MockAPNsError saying what to fix: no binary or engine, no credentials, an image that is missing,
 * or a server that exited or did not get ready in time (with its output).
 * @param {MockAPNsOptions} [options]
 */
export async function startMockAPNs(options = {}) {
  if (options.bin && options.image) {
    throw new MockAPNsError('startMockAPNs() was given both bin and image: pass one (a local binary, or an image ' +
      'run by podman or docker).');
  }
  const image = options.image ?? (options.bin ? undefined : process.env.MOCKAPNS_IMAGE || undefined);
  const started = image ? await startContainer(image, options) : await startProcess(options);
  const { server, ready, certsDir, ca, controlToken } = started;
  let signingKey;
  try {
    signingKey = loadSigningKey(certsDir, options.keyId);
  } catch (error) {
    await server.stop(options.stopTimeout ?? 5000);
    throw error;
  }
  const controlURL = ready.control_url;
  const requestTimeout = options.requestTimeout ?? 10000;
  const applePorts = ready.apple_ports ? Object.fromEntries(
    Object.entries(ready.apple_ports).map(([apple, port]) => [Number(apple), port])) : undefined;
  let stopping = null;
  let interception = null;

  /** Asks the control API; a server that is gone or stopped is reported as such. */
  async function ask(method, route, body) {
    if (stopping) throw new MockAPNsError(`${method} ${route}: this mock was stopped; start a new one with startMockAPNs().`);
    server.assertRunning();
    if (!controlURL) throw new MockAPNsError(`${method} ${route}: the mock runs without a control plane; drop --no-control from options.args.`);
    try {
      return await controlRequest(controlURL, method, route, body, requestTimeout, controlToken);
    } catch (error) {
      if (error instanceof MockAPNsError) throw error;
      const gone = await server.diagnose();
      if (gone) throw gone;
      throw new MockAPNsError(`${method} ${controlURL}${route} failed: ${error.message}. The mock (${server.describe()}) ` +
        `is still running but its control API did not answer.${await server.outputText()}`, { cause: error });
    }
  }

  const token = tokenSource(signingKey);
  const mock = {
    /** Where HTTP/2 senders connect, e.g. `https://127.0.0.1:40123`. */
    url: ready.apns_url,
    /** The control API, e.g. `http://127.0.0.1:40124` (the dashboard is at its `/`). */
    controlURL,
    /** Where HTTP/1.1 senders connect when `options.http1` was set, else undefined. */
    http1URL: ready.http1_url,
    /** The CA certificate (PEM text) that signed the mock's TLS certificate: `http2.connect(url, { ca })`. */
    ca,
    /** The test credentials folder token()'s key came from (keys.json, AuthKey_*.p8). */
    certsDir,
    /** The team ID (`iss`) of token()'s key. */
    teamId: signingKey.teamId,
    /** The key ID (`kid`) of token()'s key. */
    keyId: signingKey.keyId,
    /** With `options.appleHosts`: Apple's ports (443, 2197, 2195, 2196) → where the mock listens for each; else
     * undefined. */
    applePorts,
    /** The image the mock runs from in container mode, else undefined. */
    image,
    /** The container's name in container mode (for `podman logs`), else undefined. */
    container: image ? server.name : undefined,
    /** The server's process id in binary mode, else undefined. */
    pid: server.pid,
    /** The server's ChildProcess in binary mode (else undefined), for anything the kit does not wrap. It is unref()'d
     * so a forgotten stop() cannot keep the test process alive (the server is sent SIGTERM when it exits): ref() it
     * before waiting on its events. */
    child: server.child,

    /**
     * A provider token for `authorization: bearer …`, signed with the bundled test key; the same one for 30 minutes.
     * @returns {string}
     */
    token,

    /**
     * The recorded pushes (accepted and rejected) matching `filter`, oldest first, as the control API returns them.
     * @param {{ token?: string, topic?: string, push_type?: string, pushType?: string, status?: number,
     *   reason?: string, since?: number, limit?: number }} [filter]
     * @returns {Promise<object[]>}
     */
    async notifications(filter = {}) {
      return (await ask('GET', `/api/v1/notifications${queryFor(filter)}`)).notifications;
    },

    /**
     * Resolves with the recorded pushes matching `filter`, or rejects with an AssertionError naming what was
     * expected and listing the closest pushes received. Keys: those of notifications(), plus `count` (0 or
     * undefined: at least one; n: exactly n) and `timeout` (ms to keep asking before failing; default 0).
     * @param {{ token?: string, topic?: string, push_type?: string, pushType?: string, status?: number,
     *   reason?: string, since?: number, limit?: number, count?: number, timeout?: number }} [filter]
     * @returns {Promise<object[]>}
     */
    async expect(filter = {}) {
      const query = queryFor(filter, ['count', 'timeout']);
      for (const key of ['count', 'timeout']) {
        const value = filter[key];
        if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
          throw new TypeError(`expect(): "${key}" must be a whole number, 0 or more; got ${value}.`);
        }
      }
      const deadline = Date.now() + (filter.timeout ?? 0);
      let matching = (await ask('GET', `/api/v1/notifications${query}`)).notifications;
      while (!satisfied(filter.count, matching.length) && !(filter.count && matching.length > filter.count)
        && Date.now() < deadline) {
        await sleep(50);
        matching = (await ask('GET', `/api/v1/notifications${query}`)).notifications;
      }
      if (satisfied(filter.count, matching.length)) return matching;
      const range = filter.since === undefined || filter.since === null ? '' : `?since=${filter.since}`;
      const received = (await ask('GET', `/api/v1/notifications${range}`)).notifications;
      throw new AssertionError({ message: failureMessage(filter, matching, received), operator: 'expect' });
    },

    /**
     * Tells the mock about `deviceToken`. How APNs answers it: 'unregistered' (410 Unregistered), 'expired'
     * (410 ExpiredToken), 'otherEnvironment' (400 BadDeviceToken), or an object such as
     * { state: 'topics', topics: ['com.example.app'] } or { state: 'rateLimited', max: 5, window_seconds: 60 };
     * null forgets the device (its state and its changes). An object may also change the virtual device, with or
     * without a state: { online: false } (APNs stores its pushes), { online: true }, { offline_until: Date },
     * { app_state: 'background' } (foreground, background, notRunning, forceQuit), { settings: {…} },
     * { push_to_start_tokens: [...] }, at `at` (a Date or ms; default now on the mock's clock). appState,
     * offlineUntil and pushToStartTokens are accepted too.
     * @param {string} deviceToken hexadecimal
     * @param {string | object | null} state
     * @returns {Promise<object>} the control API's answer
     */
    async setDevice(deviceToken, state) {
      const route = devicePath(deviceToken);
      if (state === null) return ask('DELETE', route);
      return ask('PUT', route, deviceUpdate(state));
    },

    /**
     * Records one change of the virtual device, e.g. changeDevice(token, 'tap', { apns_id }) (the user taps that
     * notification; `action` for an action button), 'offline', 'online', 'app_state' ({ state }),
     * 'live_activity_token' ({ started_by, token }); `at` (a Date or ms) in `fields`, else now.
     * @param {string} deviceToken
     * @param {string} change
     * @param {object} [fields]
     * @returns {Promise<object>} the change as the mock recorded it
     */
    async changeDevice(deviceToken, change, fields = {}) {
      return (await ask('POST', `${devicePath(deviceToken)}/changes`, deviceChange(change, fields))).change;
    },

    /**
     * What `deviceToken` shows at `at` (a Date or ms; default now on the mock's clock), computed from its changes
     * and the pushes the mock accepted for it: { at, token, online, app_state, badge, notifications (newest first:
     * apns_id, title, body, thread_id, collapse_id, time, topic), groups, stored, live_activities, sounds,
     * background_budget, model }.
     * @param {string} deviceToken
     * @param {{ at?: Date | number }} [options]
     * @returns {Promise<object>}
     */
    async device(deviceToken, { at } = {}) {
      return ask('GET', `${devicePath(deviceToken)}/screen${instantQuery('at', at)}`);
    },

    /**
     * What happened to each push of `deviceToken` until `until` (default now), oldest first: entries of
     * { apns_id, time, outcome (delivered, stored, replaced, dropped, throttled, tapped), rule, explanation }.
     * @param {string} deviceToken
     * @param {{ until?: Date | number }} [options]
     * @returns {Promise<object[]>}
     */
    async timeline(deviceToken, { until } = {}) {
      return (await ask('GET', `${devicePath(deviceToken)}/timeline${instantQuery('until', until)}`)).entries;
    },

    /**
     * Resolves with the newest notification `deviceToken` shows (at `at`, default now) with this `title` and
     * `body` (either may be left out; neither: any notification), or rejects with an AssertionError listing every
     * notification the screen shows and the device's state (offline, stored pushes, badge).
     * @param {string} deviceToken
     * @param {{ title?: string, body?: string, at?: Date | number }} [wanted]
     * @returns {Promise<object>}
     */
    async expectShown(deviceToken, { title, body, at, ...unknown } = {}) {
      const extra = Object.keys(unknown);
      if (extra.length) throw new TypeError(`expectShown() takes title, body and at; not ${extra.join(', ')}.`);
      const wanted = Object.fromEntries(Object.entries({ title, body }).filter(([, value]) => value !== undefined));
      const screen = await mock.device(deviceToken, { at });
      const found = screen.notifications.find((notification) => shows(notification, wanted));
      if (found) return found;
      throw new AssertionError({ message: shownFailure(screen, wanted), operator: 'expectShown' });
    },

    /**
     * Adds a fault rule, e.g. { match: { topic: 'com.example.app' }, count: 1,
     * action: { type: 'status', status: 503, reason: 'ServiceUnavailable' } }.
     * @param {object} rule
     * @returns {Promise<string>} the rule's id
     */
    async addFault(rule) {
      return (await ask('POST', '/api/v1/faults', rule)).id;
    },

    /**
     * Forgets the recorded pushes, the fault rules and the device states and changes: the mock behaves as if just
     * started (record numbering goes on).
     * @returns {Promise<{ notifications: number, faults: number, devices: number }>} how many of each were removed
     */
    async clear() {
      const notifications = (await ask('DELETE', '/api/v1/notifications')).cleared;
      const faults = (await ask('DELETE', '/api/v1/faults')).removed;
      const devices = (await ask('DELETE', '/api/v1/devices')).removed;
      return { notifications, faults, devices };
    },

    /**
     * Routes Apple's APNs host names to this mock inside this process until restore(): node:http2's
     * connect('https://api.push.apple.com') (or api.sandbox…, api.development…, on 443 or 2197) and node:https reach
     * the mock and trust its CA; api-manage-broadcast.sandbox.push.apple.com:2195 and
     * api-manage-broadcast.push.apple.com:2196 reach its channel management. Other hosts are untouched; other ports
     * of Apple's names are refused. Needs `options.appleHosts`; one interception at a time.
     * @returns {{ restore: () => void }} also disposable: `using _ = mock.intercept()`
     */
    intercept() {
      if (stopping) throw new MockAPNsError('intercept(): this mock was stopped; start a new one with startMockAPNs({ appleHosts: true }).');
      if (!applePorts) {
        throw new MockAPNsError('intercept() routes Apple\'s host names to the mock, which serves them only when started ' +
          'with startMockAPNs({ appleHosts: true }).');
      }
      const owner = `the mock at ${ready.apns_url}`;
      const route = routeAppleHosts({ address: new URL(ready.apns_url).hostname, ports: applePorts, ca, owner });
      interception = route;
      return { restore: () => route.restore(), [dispose]: () => route.restore() };
    },

    /** Ends this mock's intercept(), if it is in force: Apple's host names resolve as they did before. */
    restore() {
      interception?.restore();
      interception = null;
    },

    /**
     * Stops the server: SIGTERM (it flushes its records and exits), SIGKILL if it is still running after
     * `options.stopTimeout`; a container is removed. Ends an intercept(). Safe to call more than once.
     * @returns {Promise<{ code: number | null, signal: string | null }>} how it exited
     */
    stop() {
      if (!stopping) {
        mock.restore();
        stopping = server.stop(options.stopTimeout ?? 5000);
      }
      return stopping;
    },

    /** What `await using mock = await startMockAPNs()` calls at the end of the block: stop(). */
    async [asyncDispose]() {
      await mock.stop();
    },
  };
  return mock;
}

/** Binary mode: `mockapns serve` on free ports, its ready file, its CA and the test credentials. */
async function startProcess(options) {
  const bin = findBinary(options.bin);
  const certs = findCertsDir(bin, options.certsDir);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mockapns-'));
  const readyFile = path.join(dir, 'ready.json');
  const args = ['serve', '--port', '0', '--control-port', '0', '--ready-file', readyFile, '--quiet',
    ...(options.http1 ? ['--http1-port', '0'] : []),
    // A private CA in this mock's own folder: --apple-hosts refuses the bundled test CA, whose key is public.
    ...(options.appleHosts ? ['--apple-hosts', '--ca-dir', path.join(dir, 'ca'), '--apple-https-port', '0',
      '--manage-sandbox-port', '0', '--manage-production-port', '0'] : []),
    ...(options.args ?? [])];
  const server = new ServerProcess(bin, args, childEnvironment(certs.dir, options.env), dir);
  try {
    const ready = await server.waitReady(readyFile, options.startTimeout ?? 20000);
    // Without a certs/ folder of its own to go by, the kit takes the one the server found (its CA's folder).
    const certsDir = certs.dir ?? (ready.ca_file && hasKeys(path.dirname(ready.ca_file)) ? path.dirname(ready.ca_file) : null);
    if (!certsDir) {
      throw new MockAPNsError('Cannot find the mockapns test credentials (a certs/ folder with keys.json and ca.pem). ' +
        `Looked in: ${certs.searched.join(', ')}${ready.ca_file ? `, ${path.dirname(ready.ca_file)}` : ''}. ` +
        "Set options.certsDir or MOCKAPNS_CERTS_DIR to the repository's certs/ folder.");
    }
    const caFile = ready.ca_file ?? path.join(certsDir, 'ca.pem');
    let ca;
    try {
      ca = await fsp.readFile(caFile, 'utf8');
    } catch (error) {
      throw new MockAPNsError(`Cannot read the mock's CA ${caFile}: ${error.message}.`, { cause: error });
    }
    return { server, ready, certsDir, ca, controlToken: options.env?.MOCKAPNS_CONTROL_TOKEN };
  } catch (error) {
    await server.stop(options.stopTimeout ?? 5000);
    throw error;
  }
}

/** Container mode: the image with its ports published, a random control token, the CA it serves and the
 * credentials it carries. */
async function startContainer(image, options) {
  const engine = findEngine(options.engine, image);
  if (options.certsDir && !hasKeys(options.certsDir)) {
    throw new MockAPNsError(`options.certsDir=${options.certsDir} holds no keys.json: point it at the repository's certs/ folder.`);
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mockapns-'));
  const server = new ContainerServer(engine, image, dir);
  const controlToken = options.env?.MOCKAPNS_CONTROL_TOKEN ?? crypto.randomBytes(16).toString('hex');
  try {
    const ready = await server.start({ args: options.args ?? [], env: options.env ?? {}, http1: Boolean(options.http1),
      appleHosts: Boolean(options.appleHosts), token: controlToken, timeout: options.startTimeout ?? 60000 });
    const certsDir = options.certsDir ? path.resolve(options.certsDir) : await server.copyCredentials();
    return { server, ready, certsDir, ca: ready.ca, controlToken };
  } catch (error) {
    await server.stop(options.stopTimeout ?? 5000);
    throw error;
  }
}

/** The control API route of one device. */
function devicePath(deviceToken) {
  return `/api/v1/devices/${encodeURIComponent(deviceToken)}`;
}

/** The server's environment: the test's, without MOCKAPNS_* settings, with the credentials the kit found (if any). */
function childEnvironment(certsDir, extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('MOCKAPNS_')) env[name] = value;
  }
  if (certsDir) env.MOCKAPNS_CERTS_DIR = certsDir;
  return { ...env, ...extra };
}

/** One control API request; resolves with the JSON answer, rejects with a MockAPNsError for an error status. */
function controlRequest(base, method, route, body, timeout, token) {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(route, base), { method, agent: false, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        if (response.statusCode >= 400 || json === undefined) {
          reject(new MockAPNsError(`The mock's control API answered ${method} ${route} with ${response.statusCode}: ` +
            `${json?.error ?? text}`, { status: response.statusCode }));
        } else {
          resolve(json);
        }
      });
    });
    request.setTimeout(timeout, () => request.destroy(new Error(`no answer within ${timeout} ms`)));
    request.on('error', reject);
    request.end(data);
  });
}
