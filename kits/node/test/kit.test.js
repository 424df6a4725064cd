// The kit against a real `mockapns serve` (from MOCKAPNS_BIN), with node:http2 as the sender.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startMockAPNs } from 'mockapns';
import { deviceToken, push } from './support.js';

describe('a running mock', () => {
  let mock;
  before(async () => { mock = await startMockAPNs(); });
  after(() => mock?.stop());
  beforeEach(() => mock.clear());

  it('finds an accepted push with expect', async () => {
    const token = deviceToken(1);
    const answer = await push(mock, { token, title: 'Shipped' });
    assert.equal(answer.status, 200);
    const found = await mock.expect({ topic: 'com.example.app', token: token.toUpperCase(), status: 200 });
    assert.equal(found.length, 1);
    assert.equal(found[0].device_token, token);
    assert.equal(found[0].payload.aps.alert.title, 'Shipped');
    assert.deepEqual(found[0].auth.key_id, mock.keyId);
  });

  it('mints a standard ES256 JWS with the bundled key, the same one while it is fresh', () => {
    const token = mock.token();
    assert.equal(mock.token(), token);
    const [header, claims, signature] = token.split('.');
    const decode = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    assert.deepEqual(decode(header), { alg: 'ES256', kid: mock.keyId });
    assert.equal(decode(claims).iss, mock.teamId);
    assert.ok(Math.abs(decode(claims).iat - Date.now() / 1000) < 3600);
    const raw = Buffer.from(signature, 'base64url');
    assert.equal(raw.length, 64, 'a JWS ES256 signature is R‖S, 64 bytes (not DER)');
    const key = crypto.createPublicKey(fs.readFileSync(path.join(mock.certsDir, `AuthKey_${mock.keyId}.p8`)));
    assert.ok(crypto.verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, raw));
  });

  it('lists the nearest pushes, closest first, when expect fails', async () => {
    await push(mock, { token: deviceToken(2), topic: 'com.example.other', title: 'Far' });
    await push(mock, { token: deviceToken(3), topic: 'com.example.app', title: 'Near' });
    const error = await mock.expect({ topic: 'com.example.app', token: deviceToken(9), status: 200 }).then(
      () => assert.fail('expect should have rejected'), (e) => e);
    assert.ok(error instanceof assert.AssertionError, `not an AssertionError: ${error}`);
    const lines = error.message.split('\n');
    assert.equal(lines[0], `Expected a notification with topic "com.example.app", token "${deviceToken(9)}", ` +
      'status 200, but none of the 2 received matched.');
    assert.equal(lines[1], 'Received, closest match first:');
    assert.match(lines[2], /^ {2}#\d+ alert push to 03030303…030303, topic com\.example\.app: accepted \(200\); title "Near", body "Order 42" — has 2 of 3$/);
    assert.equal(lines[3], `      token: expected "${deviceToken(9)}", got "${deviceToken(3)}"`);
    assert.match(lines[4], /^ {2}#\d+ alert push to 02020202…020202, topic com\.example\.other: accepted \(200\); title "Far", .* — has 1 of 3$/);
    assert.equal(lines[5], '      topic: expected "com.example.app", got "com.example.other"');
  });

  it('counts: a number expects exactly that many', async () => {
    const token = deviceToken(4);
    for (let i = 0; i < 3; i++) await push(mock, { token });
    assert.equal((await mock.expect({ token })).length, 3);
    assert.equal((await mock.expect({ token, count: 3 })).length, 3);
    await assert.rejects(mock.expect({ token, count: 2 }), (error) => {
      assert.ok(error instanceof assert.AssertionError);
      assert.match(error.message, new RegExp(`^Expected exactly 2 notifications with token "${token}", but 3 matched:\n  #`));
      return true;
    });
  });

  it('keeps asking for up to `timeout` ms before it fails', async () => {
    const token = deviceToken(11);
    const expectation = mock.expect({ token, count: 2, timeout: 20000 });
    await push(mock, { token });
    await push(mock, { token });
    assert.equal((await expectation).length, 2);
    await assert.rejects(mock.expect({ token: deviceToken(12), timeout: 100 }), {
      name: 'AssertionError', message: new RegExp(`^Expected a notification with token "${deviceToken(12)}", but none of the 2 received matched\\.`),
    });
  });

  it('clear empties the records, faults and device states', async () => {
    const token = deviceToken(5);
    await mock.setDevice(token, 'expired');
    await mock.addFault({ match: { topic: 'com.example.never' }, action: { type: 'status', status: 500 } });
    await push(mock, { token });
    assert.equal((await mock.notifications()).length, 1);
    assert.deepEqual(await mock.clear(), { notifications: 1, faults: 1, devices: 1 });
    assert.deepEqual(await mock.notifications(), []);
    await assert.rejects(mock.expect({ token }), {
      name: 'AssertionError', message: `Expected a notification with token "${token}", but the mock received no notifications.`,
    });
    assert.equal((await push(mock, { token })).status, 200);
  });

  it('answers 410 Unregistered for a device set unregistered, and 200 again once forgotten', async () => {
    const token = deviceToken(6);
    await mock.setDevice(token, 'unregistered');
    const answer = await push(mock, { token });
    assert.equal(answer.status, 410);
    assert.equal(answer.reason, 'Unregistered');
    assert.equal(typeof answer.body.timestamp, 'number');
    await mock.expect({ token, status: 410, reason: 'Unregistered', count: 1 });
    await mock.setDevice(token, null);
    assert.equal((await push(mock, { token })).status, 200);
  });

  it('gives the next push a fault’s status and reason, then answers normally', async () => {
    const id = await mock.addFault({ count: 1, action: { type: 'status', status: 503, reason: 'ServiceUnavailable' } });
    assert.equal(typeof id, 'string');
    const token = deviceToken(7);
    const first = await push(mock, { token });
    assert.deepEqual([first.status, first.reason], [503, 'ServiceUnavailable']);
    assert.equal((await push(mock, { token })).status, 200);
    const [faulted] = await mock.notifications({ status: 503 });
    assert.equal(faulted.response.reason, 'ServiceUnavailable');
  });

  it('reports the control API’s refusal and unknown filter keys as errors that say what to send', async () => {
    await assert.rejects(mock.setDevice(deviceToken(8), 'asleep'),
      { name: 'MockAPNsError', status: 400, message: /answered PUT .* with 400: .*unknown device state "asleep"/ });
    await assert.rejects(mock.notifications({ title: 'x' }), { name: 'TypeError', message: /Unknown notification filter key "title"; use token, topic/ });
  });
});

describe('a mock with HTTP/1.1', () => {
  it('serves plain HTTP/1.1 at http1URL, recorded like the HTTP/2 pushes', async () => {
    const mock = await startMockAPNs({ http1: true });
    try {
      assert.match(mock.http1URL, /^http:\/\/127\.0\.0\.1:\d+$/);
      const token = deviceToken(10);
      const status = await new Promise((resolve, reject) => {
        const request = http.request(`${mock.http1URL}/3/device/${token}`, {
          method: 'POST', headers: { authorization: `bearer ${mock.token()}`, 'apns-topic': 'com.example.app' },
        }, (response) => { response.resume(); response.on('end', () => resolve(response.statusCode)); });
        request.on('error', reject);
        request.end(JSON.stringify({ aps: { alert: 'Hi' } }));
      });
      assert.equal(status, 200);
      await mock.expect({ token, status: 200, count: 1 });
    } finally {
      await mock.stop();
    }
  });
});
