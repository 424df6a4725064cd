// MockAPNs test kit for Node: runs `mockapns serve` on free ports for a test and talks to its control API.
import { AssertionError } from 'node:assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { deviceChange, deviceUpdate, instantQuery, shownFailure, shows } from './device.js';
import { MockAPNsError } from './errors.js';
import { failureMessage, queryFor, satisfied } from './expect.js';
import { findBinary, findCertsDir, hasKeys } from './locate.js';
import { loadSigningKey, tokenSource } from './token.js';

export { MockAPNsError } from './errors.js';
export { summary } from './expect.js';

/** How much of the server's stderr an error quotes. */
const STDERR_KEPT = 8 * 1024;

/** ServerProcesses not yet stopped: if the test process exits first, each gets SIGTERM and its folder is removed. */
const running = new Set();
let exitHookInstalled = false;

/**
 * @typedef {object} MockAPNsOptions
 * @property {string} [bin] the mockapns binary; default `$MOCKAPNS_BIN`, else `mockapns` on PATH
 * @property {string} [certsDir] the test credentials folder; default `$MOCKAPNS_CERTS_DIR`, else `certs/` beside or
 *   up to 4 folders above the binary, else the folder of the CA the server reports (`ca_file` in its ready file)
 * @property {string} [keyId] which key of certs/keys.json token() signs with; default the first for both
 *   environments and all topics (TESTKEY001)
 * @property {boolean} [http1] also serve plain HTTP/1.1 APNs requests at `http1URL`
 * @property {string[]} [args] more `mockapns serve` flags, e.g. ['--environment', 'production']
 * @property {Record<string, string>} [env] more environment for the server (it gets the test's environment without
 *   its MOCKAPNS_* settings, so a stray MOCKAPNS_H2C or MOCKAPNS_CONTROL_TOKEN cannot change the server under test)
 * @property {number} [startTimeout] ms to wait for the server to be ready (default 20000)
 * @property {number} [stopTimeout] ms stop() waits after SIGTERM before SIGKILL (default 5000)
 * @property {number} [requestTimeout] ms a control API request may take (default 10000)
 */

/**
 * Starts `mockapns serve` on free ports (APNs and control plane) and waits until it is ready. Stop it with
 * `await mock.stop()` (an `after` hook), clear it between tests with `await mock.clear()`.
 *
 * Rejects with a MockAPNsError saying what to fix: no binary, no credentials, or a server that exited or did not
 * get ready in time (with its stderr).
 * @param {MockAPNsOptions} [options]
 */
export async function startMockAPNs(options = {}) {
  const bin = findBinary(options.bin);
  const certs = findCertsDir(bin, options.certsDir);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mockapns-'));
  const readyFile = path.join(dir, 'ready.json');
  const args = ['serve', '--port', '0', '--control-port', '0', '--ready-file', readyFile, '--quiet',
    ...(options.http1 ? ['--http1-port', '0'] : []), ...(options.args ?? [])];
  const server = new ServerProcess(bin, args, childEnvironment(certs.dir, options.env), dir);
  let ready, ca, signingKey, certsDir;
  try {
    ready = await server.waitForReadyFile(readyFile, options.startTimeout ?? 20000);
    // Without a certs/ folder of its own to go by, the kit takes the one the server found (its CA's folder).
    certsDir = certs.dir ?? (ready.ca_file && hasKeys(path.dirname(ready.ca_file)) ? path.dirname(ready.ca_file) : null);
    if (!certsDir) {
      throw new MockAPNsError('Cannot find the mockapns test credentials (a certs/ folder with keys.json and ca.pem). ' +
        `Looked in: ${certs.searched.join(', ')}${ready.ca_file ? `, ${path.dirname(ready.ca_file)}` : ''}. ` +
        "Set options.certsDir or MOCKAPNS_CERTS_DIR to the repository's certs/ folder.");
    }
    signingKey = loadSigningKey(certsDir, options.keyId);
    const caFile = ready.ca_file ?? path.join(certsDir, 'ca.pem');
    try {
      ca = await fsp.readFile(caFile, 'utf8');
    } catch (error) {
      throw new MockAPNsError(`Cannot read the mock's CA ${caFile}: ${error.message}.`, { cause: error });
    }
  } catch (error) {
    await server.stop(options.stopTimeout ?? 5000);
    throw error;
  }
  const controlURL = ready.control_url;
  const requestTimeout = options.requestTimeout ?? 10000;
  let stopping = null;

  /** Asks the control API; a server that is gone or stopped is reported as such. */
  async function ask(method, route, body) {
    if (stopping) throw new MockAPNsError(`${method} ${route}: this mock was stopped; start a new one with startMockAPNs().`);
    server.throwIfExited();
    if (!controlURL) throw new MockAPNsError(`${method} ${route}: the mock runs without a control plane; drop --no-control from options.args.`);
    try {
      return await controlRequest(controlURL, method, route, body, requestTimeout);
    } catch (error) {
      if (error instanceof MockAPNsError) throw error;
      await server.exitedWithin(1000);
      server.throwIfExited();
      throw new MockAPNsError(`${method} ${controlURL}${route} failed: ${error.message}. The mock (pid ${server.pid}) ` +
        `is still running but its control API did not answer.${server.stderrText()}`, { cause: error });
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
    /** The test credentials folder token()'s key came from (keys.json, AuthKey_*.p8, ca.pem). */
    certsDir,
    /** The team ID (`iss`) of token()'s key. */
    teamId: signingKey.teamId,
    /** The key ID (`kid`) of token()'s key. */
    keyId: signingKey.keyId,
    /** The server's process id. */
    pid: server.pid,
    /** The server's ChildProcess, for anything the kit does not wrap. It is unref()'d so a forgotten stop() cannot
     * keep the test process alive (the server is sent SIGTERM when it exits): ref() it before waiting on its events. */
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
     * Stops the server: SIGTERM (it flushes its records and exits), SIGKILL if it is still running after
     * `options.stopTimeout`. Safe to call more than once.
     * @returns {Promise<{ code: number | null, signal: string | null }>} how it exited
     */
    stop() {
      stopping ??= server.stop(options.stopTimeout ?? 5000);
      return stopping;
    },
  };
  return mock;
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

/** One `mockapns serve` process in its own temporary folder: its exit, its stderr (a file, which outlives the test
 * process, where a pipe would break the server's last write), and stopping it. */
class ServerProcess {
  constructor(bin, args, env, dir) {
    this.bin = bin;
    this.dir = dir;
    this.stderrFile = path.join(dir, 'stderr.log');
    this.exit = null;
    const stderr = fs.openSync(this.stderrFile, 'w');
    try {
      this.child = spawn(bin, args, { stdio: ['ignore', 'ignore', stderr], env });
    } finally {
      fs.closeSync(stderr);
    }
    this.pid = this.child.pid;
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve(this.exit ??= { code, signal }));
      this.child.once('error', (error) => resolve(this.exit ??= { code: null, signal: null, error }));
    });
    // A forgotten stop() must not keep the test process alive: the exit hook stops the server then.
    this.child.unref();
    running.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const server of running) {
          if (!server.exit) server.child.kill('SIGTERM');
          fs.rmSync(server.dir, { recursive: true, force: true });
        }
      });
    }
  }

  /** The ready file's JSON, once the server wrote it; rejects when the server exits first or `timeout` ms pass. */
  async waitForReadyFile(file, timeout) {
    const deadline = Date.now() + timeout;
    for (;;) {
      if (this.exit) {
        throw new MockAPNsError(`mockapns serve (${this.bin}) ${this.exitText()} before it was ready.` +
          `${this.stderrText()} Check the flags in options.args and that the binary runs on its own.`,
        { stderr: this.stderr(), cause: this.exit.error });
      }
      try {
        return JSON.parse(await fsp.readFile(file, 'utf8'));
      } catch (error) {
        if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
      }
      if (Date.now() >= deadline) {
        throw new MockAPNsError(`mockapns serve (pid ${this.pid}) did not write its ready file within ${timeout} ms.` +
          `${this.stderrText()} Raise options.startTimeout on a slow machine.`, { stderr: this.stderr() });
      }
      await sleep(20);
    }
  }

  /** Throws a MockAPNsError when the server has exited: how, and its stderr. */
  throwIfExited() {
    if (!this.exit) return;
    throw new MockAPNsError(`The mock server (pid ${this.pid}) is no longer running: it ${this.exitText()}.` +
      `${this.stderrText()} Start a new one with startMockAPNs().`, { stderr: this.stderr() });
  }

  /** Waits up to `ms` for the process to exit; resolves either way. */
  exitedWithin(ms) {
    return within(this.exited, ms);
  }

  /** SIGTERM, then SIGKILL after `timeout` ms; removes the folder; resolves with how it exited. */
  async stop(timeout) {
    if (!this.exit) {
      this.child.kill('SIGTERM');
      if (!(await this.exitedWithin(timeout))) {
        this.child.kill('SIGKILL');
        await this.exitedWithin(timeout);
      }
    }
    await fsp.rm(this.dir, { recursive: true, force: true });
    running.delete(this);
    const exit = this.exit ?? { code: null, signal: 'SIGKILL' };
    return { code: exit.code, signal: exit.signal };
  }

  exitText() {
    const { code, signal, error } = this.exit;
    if (error) return `could not be run (${error.message})`;
    return signal ? `was killed by ${signal}` : `exited with code ${code}`;
  }

  /** The last STDERR_KEPT bytes the server wrote to stderr. */
  stderr() {
    try {
      const text = fs.readFileSync(this.stderrFile);
      return text.subarray(Math.max(0, text.length - STDERR_KEPT)).toString('utf8');
    } catch {
      return '';
    }
  }

  stderrText() {
    const text = this.stderr().trim();
    return text ? ` Its stderr:\n${text}\n` : ' It wrote nothing to stderr.';
  }
}

/** One control API request; resolves with the JSON answer, rejects with a MockAPNsError for an error status. */
function controlRequest(base, method, route, body, timeout) {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(route, base), {
      method, agent: false,
      headers: data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
    }, (response) => {
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

/** `promise`'s value, or undefined once `ms` pass (the timer is cleared either way). */
async function within(promise, ms) {
  let timer;
  try {
    return await Promise.race([promise, new Promise((resolve) => { timer = setTimeout(resolve, ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
