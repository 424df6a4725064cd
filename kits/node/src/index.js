// MockAPNs test kit for Node: runs a mock APNs (`mockapns serve`, or its container image) on free ports for a test
// and talks to its control API; with `fcm`, the mock answers Firebase senders under Google's names too.
import { AssertionError } from 'node:assert';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContainerServer, IMAGE_CERTS_DIR, findEngine } from './container.js';
import { controlRequest } from './control.js';
import { deviceChange, deviceUpdate, instantQuery, shownFailure, shows } from './device.js';
import { MockAPNsError } from './errors.js';
import { expectQuery, queryFor } from './expect.js';
import { DEFAULT_PROJECT, fcmExpectQuery, fcmQuery, registrationBody } from './fcm.js';
import { internals } from './internal.js';
import { APPLE_HOSTS, GOOGLE_HOSTS, routeHosts } from './intercept.js';
import { findBinary, findCertsDir, hasKeys } from './locate.js';
import { ServerProcess } from './process.js';
import { loadSigningKey, mintToken, tokenSource } from './token.js';
import { sleep } from './util.js';

export { MockAPNsError } from './errors.js';
export { summary } from './expect.js';
export { fcmSummary } from './fcm.js';
export { APPLE_HOSTS, GOOGLE_HOSTS } from './intercept.js';

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
 * @property {boolean} [fcm] also serve Firebase Cloud Messaging under Google's names (`mockapns serve --fcm`:
 *   fcm.googleapis.com, oauth2.googleapis.com, iid.googleapis.com) and at `fcmURL`, under a private CA made for this
 *   mock, with a service account it trusts (`fcmServiceAccount`); `mock.intercept()` then routes Google's names too
 * @property {string} [certsDir] the test credentials folder; default `$MOCKAPNS_CERTS_DIR`, else `certs/` beside or
 *   up to 4 folders above the binary, else the folder of the CA the server reports (`ca_file` in its ready file);
 *   in container mode, default the credentials the image carries
 * @property {string} [keyId] which key of certs/keys.json token() signs with; default the first for both
 *   environments and all topics (TESTKEY001)
 * @property {boolean} [http1] ignored: the mock always serves plain HTTP/1.1 APNs requests at `http1URL` (kept so
 *   callers that set it still work)
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
  const { server, ready, certsDir, ca, controlToken, fcm } = started;
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
  const fcmPorts = fcm ? Object.fromEntries(Object.entries(ready.fcm_ports).map(([google, port]) => [Number(google), port]))
    : undefined;
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

  // Provider tokens from the mock's own binary (the image's, in container mode), as launch.json's provider_token.
  const token = tokenSource(image
    ? () => mintToken(server.engine, server.tokenArguments(options.keyId
      ? `${signingKey.teamId}:${signingKey.keyId}:${IMAGE_CERTS_DIR}/${signingKey.file}` : undefined))
    : () => mintToken(server.bin, ['token', '--key-file', `${signingKey.teamId}:${signingKey.keyId}:${signingKey.keyFile}`, '--json']));
  const mock = {
    /** Where HTTP/2 senders connect, e.g. `https://127.0.0.1:40123`. */
    url: ready.apns_url,
    /** The control API, e.g. `http://127.0.0.1:40124` (the dashboard is at its `/`). */
    controlURL,
    /** Where HTTP/1.1 senders connect, e.g. `http://127.0.0.1:40125` (plain HTTP/1.1, no TLS). */
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
    /** With `options.fcm`: the mock's own FCM port, e.g. `https://127.0.0.1:40127` (TLS; trust `fcmCA`), for senders
     * given a URL; else undefined. Google's names reach the same front door inside intercept(). */
    fcmURL: fcm?.url,
    /** With `options.fcm`: Google's port (443) → where the mock serves fcm.googleapis.com, oauth2.googleapis.com and
     * iid.googleapis.com; else undefined. */
    fcmPorts,
    /** With `options.fcm`: the path of a service-account key file of project `mockapns-test` that the mock trusts,
     * as Google's console hands one out (`token_uri` https://oauth2.googleapis.com/token), on this machine in either
     * mode: `initializeApp({ credential: cert(mock.fcmServiceAccount) })`. Another project's: newFCMServiceAccount(). */
    fcmServiceAccount: fcm?.serviceAccount,
    /** With `options.fcm`: the CA certificate (PEM text) the FCM ports' certificates chain to (this mock's own). */
    fcmCA: fcm?.ca,
    /** With `options.fcm`: the same CA as a file, e.g. for NODE_EXTRA_CA_CERTS of a sender in another process. */
    fcmCAFile: fcm?.caFile,
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
     * A provider token for `authorization: bearer …`, signed with the bundled test key by the mock's own binary
     * (`mockapns token`; in container mode the image's); the same one for 30 minutes.
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
     * Resolves with the recorded pushes matching `filter`, oldest first, or rejects with an AssertionError carrying
     * the mock's own report (GET /api/v1/expect): what was wanted, the matching records and the closest others, each
     * miss spelled out. Keys: those of notifications() but `limit`, plus `where` (payload conditions: a list of
     * 'PATH=VALUE' strings, or an object { 'aps.alert.title': 'Shipped', 'aps.badge': 3 }), how many must match
     * (`count` n: exactly n, 0 or undefined: at least one; `atLeast` n; `none: true`: none) and `timeout` (ms to
     * keep asking the mock until the expectation is met; default 0).
     * @param {{ token?: string, topic?: string, push_type?: string, pushType?: string, status?: number,
     *   reason?: string, since?: number, where?: string[] | Record<string, unknown>, count?: number,
     *   atLeast?: number, none?: boolean, timeout?: number }} [filter]
     * @returns {Promise<object[]>}
     */
    async expect(filter = {}) {
      const { query, exactly, timeout } = expectQuery(filter);
      const deadline = Date.now() + timeout;
      let answer = await ask('GET', `/api/v1/expect${query}`);
      // A recording past an exact quantity cannot come back to it by waiting.
      while (!answer.met && !(exactly !== null && answer.matching > exactly) && Date.now() < deadline) {
        await sleep(50);
        answer = await ask('GET', `/api/v1/expect${query}`);
      }
      if (!answer.met) {
        const lines = [String(answer.message).replace(/\n+$/, '')];
        if (answer.considered === 0) {
          lines.unshift('mockapns: no push reached the mock. Is the sender pointed at mock.url (or mock.http1URL), ' +
            'trusting mock.ca?');
        }
        if (timeout) lines.unshift(`Waited ${timeout} ms.`);
        throw new AssertionError({ message: lines.join('\n'), operator: 'expect' });
      }
      const seqs = new Set(answer.matched_seqs);
      if (!seqs.size) return [];
      const list = await ask('GET', `/api/v1/notifications${queryFor(filter, ['count', 'atLeast', 'none', 'where', 'timeout'])}`);
      return list.notifications.filter((record) => seqs.has(record.seq));
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
     * Forgets the recorded pushes, the fault rules and the device states and changes, and with `options.fcm` the FCM
     * records: the mock behaves as if just started (record numbering goes on). FCM registrations, their topic
     * subscriptions and trusted service accounts stay.
     * @returns {Promise<{ notifications: number, faults: number, devices: number, fcmMessages?: number }>} how many
     *   of each were removed
     */
    async clear() {
      const notifications = (await ask('DELETE', '/api/v1/notifications')).cleared;
      const faults = (await ask('DELETE', '/api/v1/faults')).removed;
      const devices = (await ask('DELETE', '/api/v1/devices')).removed;
      if (!fcm) return { notifications, faults, devices };
      const fcmMessages = (await ask('DELETE', '/api/v1/fcm/messages')).cleared;
      return { notifications, faults, devices, fcmMessages };
    },

    /**
     * Writes a new service-account key file for `project` (default mockapns-test), which the mock trusts from then
     * on (the project exists once it does), to `file` (default a file in the mock's own folder); resolves with its
     * path. Give it to the sender as Google's file. Needs `options.fcm`.
     * @param {string} [project]
     * @param {string} [file]
     * @returns {Promise<string>}
     */
    async newFCMServiceAccount(project = DEFAULT_PROJECT, file) {
      needsFCM('newFCMServiceAccount()');
      const account = await ask('POST', `/api/v1/fcm/projects/${encodeURIComponent(project)}/service-account`);
      return writeServiceAccount(account, file ?? path.join(started.dir, serviceAccountName(account)));
    },

    /**
     * Registers an app instance with the mock's FCM, as the Firebase SDK in an app does, and resolves with its
     * registration: { token (what the sender sends to), fid, platform, project, bundle_id, apns_token, topics }.
     * `platform` is 'ios' (default), 'android' or 'web'; `bundleId` the app's bundle id or package name (default
     * com.example.app); `project` default mockapns-test. An iOS registration is backed by the APNs device token
     * `apnsToken` (the mock makes one when it is not given), whose virtual iPhone shows what FCM delivers:
     * device(registration.apns_token); setDevice(registration.apns_token, 'unregistered') makes sends to it answer
     * 404 UNREGISTERED. Needs `options.fcm`.
     * @param {{ project?: string, platform?: 'ios' | 'android' | 'web', bundleId?: string, apnsToken?: string }} [app]
     * @returns {Promise<object>}
     */
    async registerFCM(app = {}) {
      const body = registrationBody(app);
      needsFCM('registerFCM()');
      return ask('POST', '/api/v1/fcm/registrations', body);
    },

    /**
     * The recorded FCM requests (`messages:send`, accepted or refused), oldest first, narrowed by `project`, `name`
     * (the whole projects/P/messages/ID or its last part), `token`, `topic`, `condition`, `status`, `validateOnly`
     * (true: only dry runs) and `limit` (the newest n), as the control API filters them. Each record has name,
     * project, status, validate_only, token/topic/condition/fid, message (as sent), answer (as answered), apns_ids
     * (the APNs pushes it became), deliveries, transport.
     * @param {{ project?: string, name?: string, token?: string, topic?: string, condition?: string, status?: number,
     *   validateOnly?: boolean, limit?: number }} [filter]
     * @returns {Promise<object[]>}
     */
    async fcmMessages(filter = {}) {
      const query = fcmQuery(filter);
      needsFCM('fcmMessages()');
      return (await ask('GET', `/api/v1/fcm/messages${query}`)).messages;
    },

    /**
     * Resolves with the recorded FCM requests matching `filter`, oldest first, or rejects with an AssertionError
     * carrying the mock's own report (GET /api/v1/fcm/expect): what was wanted, the matching records and the closest
     * others, each miss spelled out. Keys: project, name (whole or last part), token, topic, condition, status,
     * validateOnly, plus `count` (0 or undefined: at least one; n: exactly n) and `timeout` (ms to keep asking the
     * mock until the expectation is met; default 0).
     * @param {{ project?: string, name?: string, token?: string, topic?: string, condition?: string,
     *   status?: number, validateOnly?: boolean, count?: number, timeout?: number }} [filter]
     * @returns {Promise<object[]>}
     */
    async expectFCM(filter = {}) {
      const { query, exactly, timeout } = fcmExpectQuery(filter);
      needsFCM('expectFCM()');
      const deadline = Date.now() + timeout;
      let answer = await ask('GET', `/api/v1/fcm/expect${query}`);
      // A recording past an exact count cannot come back to it by waiting.
      while (!answer.met && !(exactly !== null && answer.matching > exactly) && Date.now() < deadline) {
        await sleep(50);
        answer = await ask('GET', `/api/v1/fcm/expect${query}`);
      }
      if (!answer.met) {
        const lines = [String(answer.message).replace(/\n+$/, '')];
        if (answer.considered === 0) {
          lines.unshift('mockapns: no FCM request reached the mock. Is the sender inside mock.intercept() (or pointed ' +
            'at mock.fcmURL), with a service account of this mock (mock.fcmServiceAccount)?');
        }
        if (timeout) lines.unshift(`Waited ${timeout} ms.`);
        throw new AssertionError({ message: lines.join('\n'), operator: 'expectFCM' });
      }
      const seqs = new Set(answer.matched_seqs);
      if (!seqs.size) return [];
      return (await ask('GET', '/api/v1/fcm/messages')).messages.filter((record) => seqs.has(record.seq));
    },

    /**
     * The APNs pushes an FCM request became (its `apns_ids`), as recorded pushes (notifications()' records: payload
     * with `aps` and FCM's `gcm.message_id`, `google.c.fid`…), in the order of `apns_ids`. `message` is an FCM record
     * or a message name (whole or last part). Rejects with an AssertionError when the mock has no such record.
     * @param {object | string} message
     * @returns {Promise<object[]>}
     */
    async apnsPushesOf(message) {
      let record = message;
      if (typeof message === 'string') {
        needsFCM('apnsPushesOf()');
        record = (await ask('GET', `/api/v1/fcm/messages${fcmQuery({ name: message })}`)).messages.at(-1);
        if (!record) {
          const count = (await ask('GET', '/api/v1/fcm/messages')).messages.length;
          throw new AssertionError({ message: `No FCM message is named ${message}; the mock recorded ${count} FCM ` +
            `message${count === 1 ? '' : 's'}.`, operator: 'apnsPushesOf' });
        }
      }
      const ids = record?.apns_ids ?? [];
      const byID = new Map((await mock.notifications()).map((push) => [push.response?.apns_id, push]));
      const missing = ids.filter((id) => !byID.has(id));
      if (missing.length) {
        throw new AssertionError({ message: `FCM message ${record.name ?? `#${record.seq}`} names APNs pushes the mock ` +
          `has no record of: ${missing.join(', ')} (cleared since?)`, operator: 'apnsPushesOf' });
      }
      return ids.map((id) => byID.get(id));
    },

    /**
     * Routes Apple's APNs host names to this mock inside this process until restore(): node:http2's
     * connect('https://api.push.apple.com') (or api.sandbox…, api.development…, on 443 or 2197), node:https and
     * fetch reach the mock and trust its CA; api-manage-broadcast.sandbox.push.apple.com:2195 and
     * api-manage-broadcast.push.apple.com:2196 reach its channel management. With `options.fcm`, Google's
     * fcm.googleapis.com, oauth2.googleapis.com and iid.googleapis.com on 443 reach its FCM front door the same way
     * (firebase-admin's sendEach over http2.connect, send and the token request over HTTPS). Other hosts are
     * untouched; other ports of those names are refused. Needs `options.appleHosts` or `options.fcm`; one
     * interception at a time.
     * @returns {{ restore: () => void }} also disposable: `using _ = mock.intercept()`
     */
    intercept() {
      if (stopping) throw new MockAPNsError('intercept(): this mock was stopped; start a new one with startMockAPNs({ appleHosts: true }).');
      if (!applePorts && !fcmPorts) {
        throw new MockAPNsError('intercept() routes Apple\'s host names to the mock, which serves them only when started ' +
          'with startMockAPNs({ appleHosts: true }), and Google\'s FCM names, with startMockAPNs({ fcm: true }).');
      }
      const owner = `the mock at ${ready.apns_url}`;
      const groups = [];
      if (applePorts) groups.push({ what: "Apple's host names", service: 'APNs', hosts: APPLE_HOSTS, ports: applePorts, ca });
      if (fcmPorts) groups.push({ what: "Google's FCM names", service: 'Google', hosts: GOOGLE_HOSTS, ports: fcmPorts, ca: fcm.ca });
      const route = routeHosts({ address: new URL(ready.apns_url).hostname, groups, owner });
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
  /** Throws a MockAPNsError saying how to get FCM, for a mock started without `options.fcm`. */
  function needsFCM(what) {
    if (!fcm) {
      throw new MockAPNsError(`${what}: this mock serves no FCM; start it with startMockAPNs({ fcm: true }) ` +
        '(mockapns serve --fcm).');
    }
  }

  internals.set(mock, {
    /** The ready file's text: the one in the mock's folder, or the container's (read with the engine's exec). */
    readyFile: () => (image ? server.readyFile() : fsp.readFile(path.join(started.dir, 'ready.json'), 'utf8')),
    keyFile: signingKey.keyFile,
  });
  return mock;
}

/** Binary mode: `mockapns serve` on free ports, its ready file, its CA and the test credentials. */
async function startProcess(options) {
  const bin = findBinary(options.bin);
  const certs = findCertsDir(bin, options.certsDir);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mockapns-'));
  const readyFile = path.join(dir, 'ready.json');
  // kits/spec/launch.json's binary arguments, then the test's own.
  const args = ['serve', '--port', '0', '--control-port', '0', '--http1-port', '0', '--ready-file', readyFile, '--quiet',
    // A private CA in this mock's own folder: --apple-hosts refuses the bundled test CA, whose key is public.
    ...(options.appleHosts ? ['--apple-hosts', '--ca-dir', path.join(dir, 'ca'), '--apple-https-port', '0',
      '--manage-sandbox-port', '0', '--manage-production-port', '0'] : []),
    // Google's names: the same private CA (one for Apple's names and Google's), the mock's own FCM port and Google's
    // 443 on free ports.
    ...(options.fcm ? [...(options.appleHosts ? [] : ['--ca-dir', path.join(dir, 'ca')]),
      '--fcm', '--fcm-port', '0', '--fcm-https-port', '0'] : []),
    ...(options.args ?? [])];
  // The default project's service account is made once in the data folder: this mock's own, so its private key dies
  // with the mock and two mocks starting at once do not share (or race for) one.
  const env = options.fcm ? { XDG_DATA_HOME: path.join(dir, 'data'), ...options.env } : options.env;
  const server = new ServerProcess(bin, args, childEnvironment(certs.dir, env), dir);
  try {
    let ready;
    try {
      ready = await server.waitReady(readyFile, options.startTimeout ?? 20000);
    } catch (error) {
      if (options.fcm && /unknown option '--(fcm|fcm-port|fcm-https-port)'/i.test(error.stderr ?? '')) {
        error.message += `\nThis mockapns (${bin}) does not know --fcm (options.fcm): point options.bin or MOCKAPNS_BIN ` +
          'at a build with the FCM front door.';
      }
      throw error;
    }
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
    const controlToken = options.env?.MOCKAPNS_CONTROL_TOKEN;
    const fcm = options.fcm ? await processFCM(ready, { bin, ca, dir, controlToken, options }) : undefined;
    return { server, ready, certsDir, ca, controlToken, fcm, dir };
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
    const ready = await server.start({ args: options.args ?? [], env: options.env ?? {},
      appleHosts: Boolean(options.appleHosts), fcm: Boolean(options.fcm), token: controlToken,
      timeout: options.startTimeout ?? 60000 });
    const certsDir = options.certsDir ? path.resolve(options.certsDir) : await server.copyCredentials();
    let fcm;
    if (options.fcm) {
      // The ready file's service account is a path in the container: the kit has the mock make one for the default
      // project (trusted as that one is) and keeps it on this machine.
      const account = await controlRequest(ready.control_url, 'POST',
        `/api/v1/fcm/projects/${DEFAULT_PROJECT}/service-account`, undefined, options.requestTimeout ?? 10000, controlToken);
      fcm = { url: ready.fcm_url, ca: ready.ca, caFile: ready.ca_file,
        serviceAccount: await writeServiceAccount(account, path.join(dir, serviceAccountName(account))) };
    }
    return { server, ready, certsDir, ca: ready.ca, controlToken, fcm, dir };
  } catch (error) {
    await server.stop(options.stopTimeout ?? 5000);
    throw error;
  }
}

/** Binary mode with `options.fcm`: the ready file's FCM fields, checked, with the CA read. */
async function processFCM(ready, { bin, ca, dir, controlToken, options }) {
  if (!ready.fcm_url || !ready.fcm_ports?.[443]) {
    throw new MockAPNsError(`mockapns serve --fcm (${bin}, version ${ready.version ?? 'unknown'}) started, but its ready ` +
      `file names no ${ready.fcm_url ? 'fcm_ports for Google\'s 443' : 'fcm_url'}: it does not serve FCM as the kit ` +
      'expects; use a newer binary.');
  }
  const caFile = ready.fcm_ca_file ?? ready.ca_file;
  let fcmCA = ca;
  if (caFile && caFile !== ready.ca_file) {
    try {
      fcmCA = await fsp.readFile(caFile, 'utf8');
    } catch (error) {
      throw new MockAPNsError(`Cannot read the mock's FCM CA ${caFile}: ${error.message}.`, { cause: error });
    }
  }
  let serviceAccount = ready.fcm_service_account;
  if (!serviceAccount) {
    const account = await controlRequest(ready.control_url, 'POST', `/api/v1/fcm/projects/${DEFAULT_PROJECT}/service-account`,
      undefined, options.requestTimeout ?? 10000, controlToken);
    serviceAccount = await writeServiceAccount(account, path.join(dir, serviceAccountName(account)));
  }
  return { url: ready.fcm_url, ca: fcmCA, caFile, serviceAccount };
}

/** A file name for a service account of the control API: its project and the start of its key id. */
function serviceAccountName(account) {
  const safe = (text) => String(text ?? '').replace(/[^A-Za-z0-9._-]/g, '_') || 'x';
  return `service-account-${safe(account.project_id)}-${safe(account.private_key_id).slice(0, 12)}.json`;
}

/** Writes a service account of the control API to `file` (readable by this user only: it holds a private key) and
 * resolves with the path. */
async function writeServiceAccount(account, file) {
  if (account?.type !== 'service_account') {
    throw new MockAPNsError(`The mock answered no service-account JSON: ${JSON.stringify(account).slice(0, 200)}`);
  }
  await fsp.writeFile(file, `${JSON.stringify(account, null, 2)}\n`, { mode: 0o600 });
  return path.resolve(file);
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
