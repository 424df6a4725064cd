// The kit against kits/spec (its README says what each file is): the arguments it starts the mock with in both modes
// (launch.json), the ready file, provider tokens from the mock's own binary, the expectation cases run through
// expect() (expectations/*.json), and every control-API request it sends checked against the server's openapi.json.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMockAPNs } from 'mockapns';
import { observers } from '../src/control.js';
import { internals } from '../src/internal.js';
import { TOKEN_REUSE_MS, clock } from '../src/token.js';
import { deviceToken, engine, push, suiteMode } from './support.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SPEC = path.join(ROOT, 'kits', 'spec');
const OPENAPI = path.join(ROOT, 'Sources', 'MockAPNsControl', 'OpenAPI', 'openapi.json');
const load = (name) => JSON.parse(fs.readFileSync(path.join(SPEC, name), 'utf8'));
const LAUNCH = load('launch.json');

/** launch.json's arguments with {placeholder}s filled in; a placeholder left over fails. */
function substitute(args, values) {
  return args.map((arg) => {
    for (const [name, value] of Object.entries(values)) arg = arg.replaceAll(`{${name}}`, String(value));
    assert.ok(!arg.includes('{'), `launch.json placeholder left in ${arg}`);
    return arg;
  });
}

/** The kit's options for a case's { apple_hosts, fcm }. */
function kitOptions(caseOptions) {
  const names = { apple_hosts: 'appleHosts', fcm: 'fcm' };
  return Object.fromEntries(Object.entries(caseOptions).map(([name, on]) => {
    assert.ok(names[name], `launch.json option "${name}" is not one the Node kit has`);
    return [names[name], on];
  }));
}

/** A folder of this test's own, removed after it. */
function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mockapns-kit-spec-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An executable shell script that, when its first argument is `first` (any call when it is ''), appends one
 * `--call--` line and its arguments (one a line) to <path>.args, and writes MOCKAPNS_CONTROL_TOKEN and XDG_DATA_HOME
 * to <path>.env; then runs `script`. */
function recordingExecutable(dir, name, first, script) {
  const file = path.join(dir, name);
  const condition = first ? `[ "$1" = ${first} ]` : 'true';
  fs.writeFileSync(file, `#!/bin/sh\nif ${condition}; then printf '%s\\n' --call-- "$@" >> '${file}.args'; ` +
    `printf '%s\\n' "\${MOCKAPNS_CONTROL_TOKEN:-}" "\${XDG_DATA_HOME:-}" > '${file}.env'; fi\n${script}\n`, { mode: 0o755 });
  return file;
}

/** The calls <path>.args recorded, each a list of arguments. */
function recordedCalls(file) {
  if (!fs.existsSync(`${file}.args`)) return [];
  const calls = [];
  for (const line of fs.readFileSync(`${file}.args`, 'utf8').replace(/\n$/, '').split('\n')) {
    if (line === '--call--') calls.push([]);
    else calls.at(-1).push(line);
  }
  return calls;
}

/** Runs `body` with process.env.NAME set to `value` (undefined removes it), then puts it back. */
async function withEnv(name, value, body) {
  const saved = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

describe('launch.json', () => {
  for (const c of LAUNCH.binary.cases) {
    it(`binary mode runs its arguments for ${JSON.stringify(c.options)}`, async (t) => {
      const bin = recordingExecutable(tempDir(t), 'mockapns', '', 'exit 3');
      // A control token meant for another mock must not reach this one.
      await withEnv('MOCKAPNS_CONTROL_TOKEN', 'another-mocks-token', () => assert.rejects(
        startMockAPNs({ bin, args: ['--log-level', 'debug'], ...kitOptions(c.options) }),
        { name: 'MockAPNsError', message: /exited with code 3 before it was ready/ }));
      const calls = recordedCalls(bin);
      assert.equal(calls.length, 1, `the binary was run ${calls.length} times`);
      const [args] = calls;
      const workdir = path.dirname(args[args.indexOf('--ready-file') + 1]);
      assert.deepEqual(args, [...substitute(c.arguments, { ready_file: `${workdir}/ready.json`, workdir }),
        '--log-level', 'debug']);
      const [token, dataHome] = fs.readFileSync(`${bin}.env`, 'utf8').split('\n');
      assert.equal(token, '', 'MOCKAPNS_CONTROL_TOKEN is removed from the server\'s environment');
      assert.equal(dataHome, c.options.fcm ? `${workdir}/data` : (process.env.XDG_DATA_HOME ?? ''));
    });
  }

  for (const c of LAUNCH.container.cases) {
    it(`container mode runs its arguments for ${JSON.stringify(c.options)}`, async (t) => {
      const fake = recordingExecutable(tempDir(t), 'engine', 'run',
        '[ "$1" = run ] && { echo "no engine here" >&2; exit 1; }; exit 0');
      await assert.rejects(startMockAPNs({ image: 'mockapns:spec', engine: fake, args: ['--log-level', 'debug'],
        ...kitOptions(c.options) }), { name: 'MockAPNsError', message: /no engine here/ });
      const calls = recordedCalls(fake);
      assert.equal(calls.length, 1, `the engine ran ${calls.length} containers`);
      const [args] = calls;
      const name = args[args.indexOf('--name') + 1];
      assert.match(name, /^mockapns-node-[0-9a-f]{12}$/);
      assert.deepEqual(args, [...substitute(c.arguments, { name, kit: 'node', pid: process.pid, image: 'mockapns:spec' }),
        '--log-level', 'debug']);
      const [token] = fs.readFileSync(`${fake}.env`, 'utf8').split('\n');
      assert.match(token, /^[0-9a-f]{32}$/, 'a control token of the kit\'s, in the engine\'s environment');
      assert.ok(!args.join(' ').includes(token), 'the control token is on no command line');
    });
  }

  it("the kit's ready file has launch.json's fields, and the kit reads them", async () => {
    const spec = LAUNCH.ready_file;
    const mock = await startMockAPNs({ appleHosts: true, fcm: true });
    try {
      const ready = JSON.parse(await internals.get(mock).readyFile());
      // The fields every listener the kit turns on writes; the rest depend on flags the kit does not choose.
      for (const name of [...spec.always, 'control_url', 'http1_url', 'ca_file', 'apple_ports', 'fcm_url', 'fcm_ports',
        'fcm_service_account', 'fcm_ca_file']) {
        assert.ok(name in ready, `the ready file has no ${name}: ${JSON.stringify(ready)}`);
      }
      for (const name of Object.keys(ready)) assert.ok(name in spec.fields, `launch.json does not list ${name}`);
      if (suiteMode === 'binary') {
        assert.deepEqual([mock.url, mock.http1URL, mock.controlURL, mock.fcmURL],
          [ready.apns_url, ready.http1_url, ready.control_url, ready.fcm_url]);
        assert.deepEqual(mock.applePorts, Object.fromEntries(Object.entries(ready.apple_ports).map(([k, v]) => [Number(k), v])));
      }
    } finally {
      await mock.stop();
    }
  });

  it('provider tokens come from the mock\'s own binary, reused for launch.json\'s time', async (t) => {
    const spec = LAUNCH.provider_token;
    assert.equal(TOKEN_REUSE_MS, spec.reuse_seconds * 1000);
    const dir = tempDir(t);
    const container = suiteMode === 'container';
    // A wrapper that records the minting calls and runs the real binary (the real engine).
    const wrapper = container
      ? recordingExecutable(dir, 'engine', 'exec', `exec '${engine()}' "$@"`)
      : recordingExecutable(dir, 'mockapns', 'token', `exec '${process.env.MOCKAPNS_BIN}' "$@"`);
    const mock = await startMockAPNs(container ? { engine: wrapper } : { bin: wrapper });
    const real = clock.now;
    let now = Date.UTC(2030, 0, 1, 12);
    clock.now = () => now;
    try {
      const tokens = [mock.token()];
      now += TOKEN_REUSE_MS - 1000;
      tokens.push(mock.token());
      now += 1000;
      tokens.push(mock.token());
      const want = container ? substitute(spec.container, { name: mock.container })
        : substitute(spec.binary, { team_id: mock.teamId, key_id: mock.keyId, key_file: internals.get(mock).keyFile });
      const calls = recordedCalls(wrapper).filter((call) => !container || call[2] === 'mockapns');
      assert.deepEqual(calls, [want, want], 'minted once at first, and again once the reuse time is over');
      assert.equal(tokens[1], tokens[0]);
      assert.equal(tokens[2].split('.').length, 3);
    } finally {
      clock.now = real;
      await mock.stop();
    }
  });
});

/** Sends one case push over HTTP/2; resolves with its status. */
function send(mock, { token, topic = 'com.example.app', push_type: pushType = 'alert', payload }) {
  const session = http2.connect(mock.url, { ca: mock.ca });
  return new Promise((resolve, reject) => {
    session.once('error', reject);
    const request = session.request({ ':method': 'POST', ':path': `/3/device/${token}`,
      authorization: `bearer ${mock.token()}`, 'apns-topic': topic, 'apns-push-type': pushType });
    request.on('response', (headers) => resolve(headers[':status']));
    request.on('error', reject);
    request.resume();
    request.end(JSON.stringify(payload));
  }).finally(() => session.close());
}

/** A case's `expect` as expect()'s filter. */
function expectFilter(wanted) {
  const names = { token: 'token', topic: 'topic', push_type: 'push_type', status: 'status', reason: 'reason',
    where: 'where', count: 'count', none: 'none', at_least: 'atLeast' };
  return Object.fromEntries(Object.entries(wanted).map(([key, value]) => {
    assert.ok(names[key], `the Node kit's expect() cannot express "${key}" of the case's expect`);
    return [names[key], value];
  }));
}

const CLOCK_TIME = /\b\d{2}:\d{2}:\d{2}\.\d{3}\b/g;

/** A failure's lines from the mock's own first line (`expect: …`) on, each clock time as {time}. */
function serverLines(failure) {
  const lines = failure.split('\n');
  const start = lines.findIndex((line) => line.startsWith('expect: '));
  assert.notEqual(start, -1, `the failure does not carry the mock's message (no line starts with 'expect: '):\n${failure}`);
  return lines.slice(start).map((line) => line.replace(CLOCK_TIME, '{time}'));
}

describe('expectations/*.json through expect()', () => {
  const files = fs.readdirSync(path.join(SPEC, 'expectations')).filter((file) => file.endsWith('.json')).sort();
  let mock;
  before(async () => { mock = await startMockAPNs(); });
  after(() => mock?.stop());

  it('holds the cases', () => assert.ok(files.length >= 4, `kits/spec/expectations holds ${files.length} cases`));

  for (const file of files) {
    it(file.replace(/\.json$/, ''), async () => {
      const c = load(path.join('expectations', file));
      await mock.clear();
      for (const [token, state] of Object.entries(c.devices ?? {})) await mock.setDevice(token, state);
      for (const p of c.pushes) await send(mock, p);
      const seqs = (await mock.notifications()).map((record) => record.seq);
      assert.equal(seqs.length, c.pushes.length, `the mock recorded ${seqs.length} of the case's ${c.pushes.length} pushes`);
      const outcome = await mock.expect(expectFilter(c.expect)).then((records) => ({ records }), (error) => ({ error }));
      if (c.met) {
        assert.equal(outcome.error, undefined, `the case is met, but expect() failed:\n${outcome.error?.message}`);
        assert.deepEqual(outcome.records.map((record) => record.seq), c.matched.map((n) => seqs[n - 1]));
        return;
      }
      assert.ok(outcome.error instanceof assert.AssertionError, `the case is not met, but expect() gave ${outcome.error ?? 'records'}`);
      const want = c.message.map((line) => line.replace(/#p(\d+)\b/g, (_, n) => `#${seqs[Number(n) - 1]}`));
      assert.deepEqual(serverLines(outcome.error.message), want);
    });
  }
});

/** The control API's document, and the check of one request a kit sent against it. */
class OpenAPI {
  constructor() {
    this.doc = JSON.parse(fs.readFileSync(OPENAPI, 'utf8'));
    this.gaps = Object.fromEntries(Object.entries(load('openapi-gaps.json')).filter(([key]) => !key.startsWith('$')));
    this.templates = Object.keys(this.doc.paths).map((template) => [new RegExp(`^${template
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^/]+?\\\}/g, '[^/]+')}$`), template]);
  }

  resolve(node) {
    while (node && node.$ref) node = node.$ref.replace(/^#\//, '').split('/').reduce((at, part) => at[part], this.doc);
    return node;
  }

  /** What in `method route` (its query included) with JSON `body` openapi.json does not declare. */
  problems(method, route, body) {
    const [pathPart, queryPart = ''] = route.split('?');
    const decoded = decodeURIComponent(pathPart);
    const template = this.templates.find(([, t]) => t === decoded)?.[1]
      ?? this.templates.find(([regex]) => regex.test(decoded))?.[1];
    if (!template) return [`${decoded} is no path of openapi.json`];
    const item = this.doc.paths[template];
    const operation = item[method.toLowerCase()];
    if (!operation) return [`${method} ${decoded}: openapi.json's ${template} has no ${method}`];
    const key = `${method} ${template}`;
    const allowed = this.gaps[key] ?? {};
    const declared = new Set([...[...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => this.resolve(p))
      .filter((p) => p.in === 'query').map((p) => p.name), ...(allowed.query ?? [])]);
    const problems = [...new Set(new URLSearchParams(queryPart).keys())].filter((name) => !declared.has(name))
      .map((name) => `${key}: query parameter "${name}" is not declared`);
    if (body !== undefined) {
      const schema = this.resolve(this.resolve(operation.requestBody)?.content?.['application/json']?.schema);
      if (!schema) {
        problems.push(`${key}: sends a JSON body, but openapi.json declares none`);
      } else if (schema.properties && body && typeof body === 'object' && !Array.isArray(body)) {
        const known = new Set([...Object.keys(schema.properties), ...(allowed.body ?? [])]);
        problems.push(...Object.keys(body).filter((name) => !known.has(name)).map((name) => `${key}: body key "${name}" is not declared`));
      }
    }
    return problems;
  }
}

describe('openapi.json', () => {
  it('declares every control request the kit sends', async () => {
    const sent = [];
    const record = (request) => sent.push(request);
    observers.add(record);
    let mock;
    try {
      mock = await startMockAPNs({ fcm: true });
      const phone = deviceToken(30);
      const at = new Date(Date.UTC(2024, 4, 1, 12));
      const called = new Set();
      /** Calls mock[name](...args); a miss says so, but its requests were sent all the same. */
      const call = async (name, ...args) => {
        called.add(name);
        try {
          return await mock[name](...args);
        } catch (error) {
          if (!(error instanceof assert.AssertionError)) throw error;
          return undefined;
        }
      };
      await push(mock, { token: phone, title: 'Shipped', badge: 1 });
      await call('notifications', { token: phone, topic: 'com.example.app', push_type: 'alert', status: 200,
        reason: 'Unregistered', since: 0, limit: 5 });
      await call('notifications', { pushType: 'alert' });
      await call('expect', { token: phone, topic: 'com.example.app', pushType: 'alert', status: 200, reason: 'X',
        since: 0, where: ['aps.alert.title=Shipped'], count: 2, timeout: 0 });
      await call('expect', { topic: 'com.example.none', none: true });
      await call('expect', { where: { 'aps.badge': 1 }, atLeast: 1 });
      await call('setDevice', deviceToken(31), { state: 'rateLimited', max: 5, window_seconds: 60, at });
      await call('setDevice', deviceToken(31), { state: 'topics', topics: ['com.example.app'] });
      await call('setDevice', deviceToken(31), { state: 'unregistered', timestamp: at.getTime() });
      await call('setDevice', deviceToken(31), 'expired');
      await call('setDevice', phone, { online: false, offlineUntil: at, appState: 'background',
        settings: { background_budget_per_hour: 2 }, pushToStartTokens: [deviceToken(32)], at });
      await call('setDevice', deviceToken(31), null);
      const apnsId = (await mock.notifications({ token: phone }))[0].response.apns_id;
      await call('changeDevice', phone, 'tap', { apns_id: apnsId, at });
      await call('changeDevice', phone, 'app_state', { state: 'foreground' });
      await call('device', phone, { at });
      await call('timeline', phone, { until: at });
      await call('expectShown', phone, { title: 'Shipped', body: 'Order 42', at });
      await call('addFault', { name: 'down', match: { token: phone, topic: 'com.example.app', push_type: 'alert' },
        count: 1, action: { type: 'status', status: 503, reason: 'ServiceUnavailable' } });
      await call('addFault', { action: { type: 'delay', ms: 1 } });
      await call('newFCMServiceAccount', 'other-project');
      const ios = await call('registerFCM', { project: 'mockapns-test', platform: 'ios', bundleId: 'com.example.app',
        apnsToken: deviceToken(33) });
      await call('registerFCM', { platform: 'android', bundle_id: 'com.example.app' });
      await call('fcmMessages', { project: 'mockapns-test', name: 'x', token: ios.token, topic: 'news', status: 200, limit: 3 });
      await call('expectFCM', { project: 'mockapns-test', name: 'x', token: ios.token, topic: 'news', condition: 'c',
        status: 200, validateOnly: false, count: 1, timeout: 0 });
      await call('expectFCM', { validate_only: true });
      await call('apnsPushesOf', 'projects/mockapns-test/messages/none');
      await call('clear');
      // The members that send no control request (and [Symbol.asyncDispose], which is stop()).
      const local = ['token', 'intercept', 'restore', 'stop'];
      const unexercised = Object.keys(mock).filter((name) => typeof mock[name] === 'function')
        .filter((name) => !called.has(name) && !local.includes(name));
      assert.deepEqual(unexercised, [], 'methods this test neither calls nor lists as sending nothing');
      assert.deepEqual(Object.getOwnPropertySymbols(mock), [Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose')]);
    } finally {
      observers.delete(record);
      await mock?.stop();
    }
    const openapi = new OpenAPI();
    assert.ok(sent.length >= 25, `only ${sent.length} control requests were recorded`);
    assert.deepEqual(sent.flatMap((r) => openapi.problems(r.method, r.route, r.body)), []);
    const expectParameters = new Set(sent.filter((r) => r.route.startsWith('/api/v1/expect'))
      .flatMap((r) => [...new URLSearchParams(r.route.split('?')[1]).keys()]));
    for (const name of ['token', 'topic', 'push_type', 'status', 'reason', 'since', 'where', 'count', 'none', 'at_least']) {
      assert.ok(expectParameters.has(name), `no GET /api/v1/expect carried ${name}`);
    }
    const fcmExpectParameters = new Set(sent.filter((r) => r.route.startsWith('/api/v1/fcm/expect'))
      .flatMap((r) => [...new URLSearchParams(r.route.split('?')[1]).keys()]));
    for (const name of ['project', 'name', 'token', 'topic', 'condition', 'status', 'validate_only', 'count']) {
      assert.ok(fcmExpectParameters.has(name), `no GET /api/v1/fcm/expect carried ${name}`);
    }
  });

  it('its check refuses what openapi.json does not declare', () => {
    const openapi = new OpenAPI();
    assert.deepEqual(openapi.problems('GET', '/api/v1/expect?token=x&where=a%3Db&title=y'),
      ['GET /api/v1/expect: query parameter "title" is not declared']);
    assert.deepEqual(openapi.problems('PATCH', '/api/v1/faults'), ["PATCH /api/v1/faults: openapi.json's /api/v1/faults has no PATCH"]);
    assert.deepEqual(openapi.problems('PUT', '/api/v1/devices/abcd', { state: 'expired', colour: 'red' }),
      ['PUT /api/v1/devices/{token}: body key "colour" is not declared']);
    assert.deepEqual(openapi.problems('GET', '/api/v1/fcm/expect?token=x&validate_only=true&count=1&where=a%3Db'),
      ['GET /api/v1/fcm/expect: query parameter "where" is not declared']);
    assert.deepEqual(openapi.problems('GET', '/api/v1/nowhere'), ['/api/v1/nowhere is no path of openapi.json']);
    assert.deepEqual(openapi.problems('POST', '/api/v1/devices/ab/changes', { change: 'tap', apns_id: 'x' }), [],
      "openapi-gaps.json's entry allows tap's apns_id");
  });
});
