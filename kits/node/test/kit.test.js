// The kit against a real `mockapns serve` (from MOCKAPNS_BIN), with node:http2 as the sender.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startMockAPNs } from 'mockapns';
import { deviceToken, push } from './support.js';

/** A failure's lines, each clock time (12:00:01.250) as {time}. */
const linesOf = (error) => error.message.replace(/\b\d{2}:\d{2}:\d{2}\.\d{3}\b/g, '{time}').split('\n');

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

  it('fails with the mock\'s report, closest records first, each miss spelled out', async () => {
    await push(mock, { token: deviceToken(2), topic: 'com.example.other', title: 'Far' });
    await push(mock, { token: deviceToken(3), topic: 'com.example.app', title: 'Near' });
    const [far, near] = await mock.notifications();
    const error = await mock.expect({ topic: 'com.example.app', token: deviceToken(9).toUpperCase(), status: 200 }).then(
      () => assert.fail('expect should have rejected'), (e) => e);
    assert.ok(error instanceof assert.AssertionError, `not an AssertionError: ${error}`);
    assert.deepEqual(linesOf(error), [
      `expect: FAILED — wanted at least 1 record with token=${deviceToken(9)}, topic=com.example.app, status=200; ` +
        "0 matched (of 2 records in the mock's recording).",
      'Closest records:',
      `  #${near.seq}  {time}  200 OK  meets 2 of 3; missed: token=${deviceToken(9)} (found "${deviceToken(3)}")`,
      `  #${far.seq}  {time}  200 OK  meets 1 of 3; missed: token=${deviceToken(9)} (found "${deviceToken(2)}"); ` +
        'topic=com.example.app (found "com.example.other")',
    ]);
  });

  it('counts: a number expects exactly that many, atLeast a minimum, none nothing', async () => {
    const token = deviceToken(4);
    for (let i = 0; i < 3; i++) await push(mock, { token, title: `Push ${i}` });
    const seqs = (await mock.notifications()).map((record) => record.seq);
    assert.equal((await mock.expect({ token })).length, 3);
    assert.equal((await mock.expect({ token, count: 3 })).length, 3);
    assert.equal((await mock.expect({ token, atLeast: 2 })).length, 3);
    assert.deepEqual(await mock.expect({ token: deviceToken(13), none: true }), []);
    await assert.rejects(mock.expect({ token, count: 2, timeout: 20000 }), (error) => {
      assert.ok(error instanceof assert.AssertionError);
      assert.deepEqual(linesOf(error), ['Waited 20000 ms.',
        `expect: FAILED — wanted exactly 2 records with token=${token}; 3 matched (of 3 records in the mock's recording).`,
        'Matching records:', ...seqs.map((seq, i) => `  #${seq}  {time}  200 OK  Push ${i} — Order 42`)]);
      return true;
    }, 'a recording past an exact count fails at once, not after the timeout');
    await assert.rejects(mock.expect({ token, none: true }), { message: /^expect: FAILED — wanted no records with token=/ });
    await assert.rejects(mock.expect({ token, atLeast: 4 }), { message: /^expect: FAILED — wanted at least 4 records with/ });
    await assert.rejects(mock.expect({ token, count: 2, none: true }), { name: 'TypeError', message: /give one of count, atLeast and none/ });
  });

  it('checks payload conditions, `where`', async () => {
    const token = deviceToken(14);
    await push(mock, { token, title: 'Shipped', badge: 2 });
    await push(mock, { token, title: 'Delayed', badge: 3 });
    const [shipped, delayed] = await mock.notifications();
    assert.deepEqual((await mock.expect({ where: { 'aps.alert.title': 'Shipped', 'aps.badge': 2 }, count: 1 })).map((r) => r.seq),
      [shipped.seq]);
    assert.deepEqual((await mock.expect({ token, where: ['aps.badge=3.0'] })).map((r) => r.seq), [delayed.seq]);
    // A space in a condition reaches the mock as one (%20: it reads '+' literally).
    assert.equal((await mock.expect({ token, where: { 'aps.alert.body': 'Order 42' }, count: 2 })).length, 2);
    const error = await mock.expect({ where: { 'aps.badge': 4 } }).then(() => assert.fail('should reject'), (e) => e);
    assert.equal(linesOf(error).at(-1), `  #${shipped.seq}  {time}  200 OK  meets 0 of 1; missed: aps.badge=4 (found 2)`);
    await assert.rejects(mock.expect({ where: 'aps.badge=4' }), { name: 'TypeError', message: /"where" is a list/ });
    await assert.rejects(mock.expect({ limit: 1 }), { name: 'TypeError', message: /"limit" does not apply to an expectation/ });
  });

  it('keeps asking for up to `timeout` ms before it fails', async () => {
    const token = deviceToken(11);
    const expectation = mock.expect({ token, count: 2, timeout: 20000 });
    await push(mock, { token });
    await push(mock, { token });
    assert.equal((await expectation).length, 2);
    await assert.rejects(mock.expect({ token: deviceToken(12), timeout: 100 }), {
      name: 'AssertionError', message: new RegExp(`^Waited 100 ms\\.\nexpect: FAILED — wanted at least 1 record with token=${deviceToken(12)}; ` +
        "0 matched \\(of 2 records in the mock's recording\\)\\.\nClosest records:\n"),
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
      name: 'AssertionError', message: 'mockapns: no push reached the mock. Is the sender pointed at mock.url (or ' +
        `mock.http1URL), trusting mock.ca?\nexpect: FAILED — wanted at least 1 record with token=${token}; 0 matched ` +
        "(of 0 records in the mock's recording).\nNo records arrived at all.",
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

describe('a mock with another key of keys.json', () => {
  it('has the binary mint tokens with options.keyId', async () => {
    const mock = await startMockAPNs({ keyId: 'OTHERKEY01' });
    try {
      assert.deepEqual([mock.keyId, mock.teamId], ['OTHERKEY01', 'OTHERTEAM1']);
      const [header, claims] = mock.token().split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url')));
      assert.deepEqual([header.kid, claims.iss], ['OTHERKEY01', 'OTHERTEAM1']);
      const token = deviceToken(15);
      assert.equal((await push(mock, { token })).status, 200);
      const [record] = await mock.expect({ token, count: 1 });
      assert.equal(record.auth.key_id, 'OTHERKEY01');
    } finally {
      await mock.stop();
    }
  });
});

describe('a mock with HTTP/1.1', () => {
  it('serves plain HTTP/1.1 at http1URL, recorded like the HTTP/2 pushes', async () => {
    const mock = await startMockAPNs();
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
