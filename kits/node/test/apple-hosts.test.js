// A sender with Apple's URLs hard-coded (no URL, port or CA option: as it runs in production) reaches the mock
// through intercept(), and only between intercept() and restore().
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { APPLE_HOSTS, MockAPNsError, startMockAPNs } from 'mockapns';
import { deviceToken } from './support.js';

const originalConnect = tls.connect;

/** A production sender: Apple's sandbox host hard-coded, node:http2, a provider token from `token()`. */
class SandboxSender {
  constructor(token, host = 'https://api.sandbox.push.apple.com') {
    this.token = token;
    this.host = host;
  }

  /** POST /3/device/<device> with an alert; resolves with { status, reason }, rejects when it cannot connect. */
  send(device, title) {
    const session = http2.connect(this.host);
    return new Promise((resolve, reject) => {
      session.once('error', reject);
      const request = session.request({ ':method': 'POST', ':path': `/3/device/${device}`,
        authorization: `bearer ${this.token()}`, 'apns-topic': 'com.example.app', 'apns-push-type': 'alert' });
      let status = 0;
      let text = '';
      request.setEncoding('utf8');
      request.on('response', (headers) => { status = headers[':status']; });
      request.on('data', (chunk) => { text += chunk; });
      request.on('end', () => resolve({ status, reason: text ? JSON.parse(text).reason : undefined }));
      request.on('error', reject);
      request.end(JSON.stringify({ aps: { alert: { title } } }));
    }).finally(() => session.close());
  }
}

/** GET `path` on `authority` over HTTP/2; resolves with the status. */
function get(authority, path, token) {
  const session = http2.connect(authority);
  return new Promise((resolve, reject) => {
    session.once('error', reject);
    const request = session.request({ ':path': path, authorization: `bearer ${token}` });
    request.on('response', (headers) => resolve(headers[':status']));
    request.on('error', reject);
    request.resume();
    request.end();
  }).finally(() => session.close());
}

/** Connects to `authority` and resolves with 'error: CODE' or 'connected' (then closes), within `ms`. */
function tryConnect(authority, ms = 5000) {
  const session = http2.connect(authority);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('no answer'), ms);
    session.once('error', (error) => { clearTimeout(timer); resolve(`error: ${error.code}`); });
    session.once('connect', () => { clearTimeout(timer); resolve('connected'); });
  }).finally(() => session.destroy());
}

describe("Apple's host names through intercept()", () => {
  let mock;
  before(async () => { mock = await startMockAPNs({ appleHosts: true }); });
  after(() => mock?.stop());
  beforeEach(() => mock.clear());
  afterEach(() => mock.restore());

  it('routes a hard-coded node:http2 sender to the mock, which records its pushes and rejects a bad token', async () => {
    const sender = new SandboxSender(mock.token);
    const token = deviceToken(30);
    mock.intercept();
    assert.deepEqual(await sender.send(token, 'Shipped'), { status: 200, reason: undefined });
    assert.deepEqual(await sender.send('not-a-token', 'Shipped'), { status: 400, reason: 'BadDeviceToken' });
    for (const host of ['https://api.push.apple.com', 'https://api.push.apple.com:2197', 'https://api.development.push.apple.com']) {
      assert.equal((await new SandboxSender(mock.token, host).send(token, 'Again')).status, 200, host);
    }
    const pushes = await mock.expect({ token, topic: 'com.example.app', status: 200, count: 4 });
    assert.equal(pushes[0].payload.aps.alert.title, 'Shipped');
    // The environment is the one Apple's host name implies.
    assert.deepEqual(pushes.map((push) => push.environment), ['development', 'production', 'production', 'development']);
    await mock.expect({ token: 'not-a-token', status: 400, reason: 'BadDeviceToken', count: 1 });
  });

  it("routes the channel-management hosts to their listeners", async () => {
    mock.intercept();
    for (const authority of ['https://api-manage-broadcast.sandbox.push.apple.com:2195', 'https://api-manage-broadcast.push.apple.com:2196']) {
      assert.equal(await get(authority, '/1/apps/com.example.app/all-channels', mock.token()), 200, authority);
    }
    // Each host reached its own listener: 2195 is sandbox (development), 2196 production.
    assert.deepEqual((await mock.notifications()).map((record) => record.environment), ['development', 'production']);
  });

  it('makes node:https trust the mock for Apple\'s names', async () => {
    mock.intercept();
    // The mock speaks HTTP/2 only, so the verified handshake is what node:https can show.
    const handshake = await new Promise((resolve, reject) => {
      const request = https.request('https://api.push.apple.com/', { agent: false });
      request.on('socket', (socket) => socket.once('secureConnect', () => {
        resolve({ authorized: socket.authorized, error: socket.authorizationError, port: socket.remotePort,
          names: socket.getPeerCertificate().subjectaltname });
        request.destroy();
      }));
      request.on('error', (error) => { if (error.code !== 'ECONNRESET') reject(error); });
      request.end();
    });
    assert.equal(handshake.authorized, true, `TLS not verified: ${handshake.error}`);
    assert.match(handshake.names, /DNS:api\.push\.apple\.com/);
    assert.equal(handshake.port, mock.applePorts[443]);
  });

  it('refuses ports APNs does not serve, and leaves other hosts alone', async () => {
    mock.intercept();
    assert.equal(await tryConnect('https://api.push.apple.com:8443'), 'error: ECONNREFUSED');
    const refused = await new Promise((resolve) => http2.connect('https://api-manage-broadcast.push.apple.com:2195').once('error', resolve));
    assert.match(refused.message, /APNs serves api-manage-broadcast\.push\.apple\.com on port 2196 only/);
    // The mock's own address, with its CA given, connects as it did without intercept().
    assert.equal(await tryConnect(mock.url), 'error: UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.deepEqual(await mock.notifications(), []);
  });

  it('leaves Apple\'s names alone before intercept() and after restore()', async () => {
    const sender = new SandboxSender(mock.token);
    const outside = async () => {
      assert.equal(tls.connect, originalConnect);
      // Wherever this machine's resolver sends the name (nowhere without a network; Apple with one), not to the mock.
      await sender.send(deviceToken(31), 'Outside').catch(() => {});
    };
    await outside();
    const interception = mock.intercept();
    assert.notEqual(tls.connect, originalConnect);
    interception.restore();
    await outside();
    mock.intercept()[Symbol.dispose]();
    await outside();
    assert.deepEqual(await mock.notifications(), []);
  });

  it('refuses a second interception, by this mock or another, until restore()', async () => {
    const other = await startMockAPNs({ appleHosts: true });
    try {
      const interception = other.intercept();
      assert.throws(() => mock.intercept(), { name: 'MockAPNsError', message: new RegExp(`already go to the mock at ${other.url}; call restore\\(\\)`) });
      assert.throws(() => other.intercept(), { name: 'MockAPNsError', message: /already go to this mock/ });
      interception.restore();
      mock.intercept();
      assert.equal((await new SandboxSender(mock.token).send(deviceToken(32), 'Mine')).status, 200);
      await mock.expect({ token: deviceToken(32), count: 1 });
      assert.deepEqual(await other.notifications(), []);
    } finally {
      await other.stop();
    }
  });

  it('is ended by stop()', async () => {
    const other = await startMockAPNs({ appleHosts: true });
    other.intercept();
    await other.stop();
    assert.equal(tls.connect, originalConnect);
    assert.throws(() => other.intercept(), { name: 'MockAPNsError', message: /this mock was stopped/ });
  });

  it('lists Apple\'s five names with their ports', () => {
    assert.deepEqual(Object.keys(APPLE_HOSTS).sort(), ['api-manage-broadcast.push.apple.com', 'api-manage-broadcast.sandbox.push.apple.com',
      'api.development.push.apple.com', 'api.push.apple.com', 'api.sandbox.push.apple.com']);
    assert.deepEqual(Object.keys(mock.applePorts).map(Number).sort((a, b) => a - b), [443, 2195, 2196, 2197]);
  });
});

describe('intercept() on a mock without appleHosts', () => {
  it('says how to start one', async () => {
    const mock = await startMockAPNs();
    try {
      assert.throws(() => mock.intercept(), (error) => error instanceof MockAPNsError &&
        /serves them only when started with startMockAPNs\(\{ appleHosts: true \}\)/.test(error.message));
      assert.equal(tls.connect, originalConnect);
    } finally {
      await mock.stop();
    }
  });
});
