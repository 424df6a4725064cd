// The FCM front door (`startMockAPNs({ fcm: true })`, `mockapns serve --fcm`): a Firebase sender with Google's names
// hard-coded (test/firebase-sender.js, the network calls of firebase-admin-node) reaches the mock through
// intercept() unchanged, and the kit's registerFCM / fcmMessages / expectFCM / apnsPushesOf read what happened.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http2 from 'node:http2';
import tls from 'node:tls';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { GOOGLE_HOSTS, MockAPNsError, fcmSummary, startMockAPNs } from 'mockapns';
import { FirebaseSender, fcmErrorCode } from './firebase-sender.js';
import { deviceToken, suiteMode } from './support.js';

const originalConnect = tls.connect;
const BUNDLE = 'com.example.app';
/** A failure's lines, each clock time as {time}. */
const linesOf = (error) => error.message.replace(/\b\d{2}:\d{2}:\d{2}\.\d{3}\b/g, '{time}').split('\n');

/** A notification message to one registration token, as firebase-admin's Message is sent. */
function notification(token, title, body = 'Order 42') {
  return { token, notification: { title, body } };
}

/** Connects to `authority` and resolves with 'connected' or the error (then closes), within `ms`. */
function tryConnect(authority, ms = 5000) {
  const session = http2.connect(authority);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ outcome: 'no answer' }), ms);
    session.once('error', (error) => { clearTimeout(timer); resolve({ outcome: `error: ${error.code}`, error }); });
    session.once('connect', () => { clearTimeout(timer); resolve({ outcome: 'connected' }); });
  }).finally(() => session.destroy());
}

describe('a Firebase sender through intercept()', () => {
  let mock;
  let sender;
  before(async () => {
    mock = await startMockAPNs({ fcm: true });
    sender = new FirebaseSender(mock.fcmServiceAccount);
  });
  after(() => mock?.stop());
  beforeEach(() => mock.clear());
  afterEach(() => mock.restore());

  it("names the FCM ports, a trusted service account and the CA", () => {
    assert.match(mock.fcmURL, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(Object.keys(mock.fcmPorts), ['443']);
    // A binary serves Google's 443 on a listener of its own; a container publishes only its FCM port 2199, which
    // serves Google's names too.
    if (suiteMode === 'binary') assert.notEqual(mock.fcmPorts[443], Number(new URL(mock.fcmURL).port));
    else assert.equal(mock.fcmPorts[443], Number(new URL(mock.fcmURL).port));
    const account = JSON.parse(fs.readFileSync(mock.fcmServiceAccount, 'utf8'));
    assert.deepEqual([account.type, account.project_id, account.token_uri],
      ['service_account', 'mockapns-test', 'https://oauth2.googleapis.com/token']);
    assert.match(account.private_key, /^-----BEGIN PRIVATE KEY-----/);
    assert.equal(fs.readFileSync(mock.fcmCAFile, 'utf8'), mock.fcmCA);
    assert.match(mock.fcmCA, /^-----BEGIN CERTIFICATE-----/);
    assert.deepEqual(Object.keys(GOOGLE_HOSTS).sort(), ['fcm.googleapis.com', 'iid.googleapis.com', 'oauth2.googleapis.com']);
  });

  it('sendEach over http2.connect reaches the iPhone, recorded as FCM sends it to APNs', async () => {
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    assert.match(phone.token, new RegExp(`^${phone.fid}:APA91b`));
    assert.match(phone.apns_token, /^[0-9a-f]{64}$/i);
    mock.intercept();
    const [answer] = await sender.sendEach([notification(phone.token, 'Shipped')]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(answer.body.name, /^projects\/mockapns-test\/messages\/0:\d+%[0-9a-f]+$/);

    const [record] = await mock.expectFCM({ count: 1, name: answer.body.name, token: phone.token, status: 200 });
    assert.equal(record.transport, 'h2');
    assert.equal(record.message.notification.title, 'Shipped');
    assert.equal(record.apns_ids.length, 1);
    // The APNs push FCM made of it, an ordinary record of the mock: aps.alert and FCM's keys.
    const [push] = await mock.notifications({ token: phone.apns_token });
    assert.equal(push.response.status, 200);
    assert.deepEqual(push.payload.aps.alert, { title: 'Shipped', body: 'Order 42' });
    assert.match(String(push.payload['gcm.message_id']), /^\d+$/);
    assert.equal(push.payload['google.c.fid'], phone.fid);
    assert.deepEqual(await mock.apnsPushesOf(record), [push]);
    assert.deepEqual(await mock.apnsPushesOf(answer.body.name), [push]);
    await mock.expectShown(phone.apns_token, { title: 'Shipped' });
  });

  it('send over node:https (HTTP/1.1) reaches the iPhone too', async () => {
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    mock.intercept();
    const answer = await sender.send(notification(phone.token, 'Over HTTP/1.1'));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [record] = await mock.expectFCM({ count: 1, token: phone.token, status: 200 });
    assert.equal(record.transport, 'http/1.1');
    assert.equal((await mock.apnsPushesOf(record))[0].payload.aps.alert.title, 'Over HTTP/1.1');
  });

  it('answers 404 UNREGISTERED when the APNs token behind the registration is unregistered', async () => {
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    await mock.setDevice(phone.apns_token, 'unregistered');
    mock.intercept();
    const [answer] = await sender.sendEach([notification(phone.token, 'Too late')]);
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error.status, 'NOT_FOUND');
    assert.equal(fcmErrorCode(answer.body), 'UNREGISTERED');
    const [record] = await mock.expectFCM({ count: 1, token: phone.token, status: 404 });
    assert.equal(record.name, null);
    // What APNs answered FCM.
    await mock.expect({ token: phone.apns_token, status: 410, reason: 'Unregistered', count: 1 });
    assert.deepEqual((await mock.device(phone.apns_token)).notifications, []);
  });

  it('answers 400 INVALID_ARGUMENT to a malformed token, and pushes nothing', async () => {
    mock.intercept();
    const answer = await sender.send(notification('not-a-token', 'Nowhere'));
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
    assert.equal(fcmErrorCode(answer.body), 'INVALID_ARGUMENT');
    const [record] = await mock.expectFCM({ count: 1, status: 400 });
    assert.deepEqual([record.token, record.apns_ids], ['not-a-token', []]);
    assert.deepEqual(await mock.notifications(), []);
  });

  it('answers the grant and checks the bearer token, as Google does', async () => {
    mock.intercept();
    const grant = await sender.requestToken();
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    assert.equal(grant.body.token_type, 'Bearer');
    assert.equal(grant.body.expires_in, 3599);
    // google-auth-library 10 posts the grant with fetch (undici), which reaches the mock the same way.
    const fetched = await fetch('https://oauth2.googleapis.com/token', { method: 'POST', body: sender.grantBody(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(fetched.status, 200);
    assert.ok((await fetched.json()).access_token);
    const unsigned = new FirebaseSender(mock.fcmServiceAccount);
    unsigned.accessToken = 'not-a-token-the-mock-issued';
    const refused = await unsigned.send(notification('not-a-token', 'Unauthenticated'));
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.status, 'UNAUTHENTICATED');
  });

  it('sends for another project with a service account made for it', async () => {
    const file = await mock.newFCMServiceAccount('mockapns-kit');
    const account = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual([account.project_id, account.token_uri], ['mockapns-kit', 'https://oauth2.googleapis.com/token']);
    const phone = await mock.registerFCM({ project: 'mockapns-kit', bundleId: BUNDLE, apnsToken: deviceToken(60) });
    assert.equal(phone.apns_token.toLowerCase(), deviceToken(60));
    mock.intercept();
    const [answer] = await new FirebaseSender(file).sendEach([notification(phone.token, 'Other project')]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(answer.body.name, /^projects\/mockapns-kit\/messages\//);
    assert.equal((await mock.fcmMessages({ project: 'mockapns-kit' })).length, 1);
    assert.deepEqual(await mock.fcmMessages({ project: 'mockapns-test' }), []);
    assert.deepEqual(await mock.fcmMessages({ project: 'mockapns-kit', validateOnly: true }), []);
    assert.equal((await mock.fcmMessages({ project: 'mockapns-kit', validateOnly: false })).length, 1);
    await mock.expectShown(deviceToken(60), { title: 'Other project' });
  });

  it('refuses other ports of Google\'s names, leaves Apple\'s alone, and ends with restore()', async () => {
    const interception = mock.intercept();
    const refused = await tryConnect('https://fcm.googleapis.com:8443');
    assert.equal(refused.outcome, 'error: ECONNREFUSED');
    assert.match(refused.error.message, /Google serves fcm\.googleapis\.com on port 443 only/);
    // This mock serves no Apple names: they go wherever this machine's resolver sends them, not to the mock.
    assert.notEqual((await tryConnect('https://api.push.apple.com')).outcome, 'connected');
    interception.restore();
    assert.equal(tls.connect, originalConnect);
    assert.deepEqual(await mock.notifications(), []);
    assert.deepEqual(await mock.fcmMessages(), []);
  });

  it("fails with the mock's report when expectFCM finds no match, closest records first", async () => {
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    mock.intercept();
    await sender.send(notification(phone.token, 'Shipped'));
    const [sent] = await mock.fcmMessages();
    const id = sent.name.split('/').pop();
    const error = await mock.expectFCM({ count: 1, token: phone.token, status: 404 }).then(
      () => assert.fail('expectFCM should have rejected'), (e) => e);
    assert.ok(error instanceof assert.AssertionError, `not an AssertionError: ${error}`);
    assert.equal(error.operator, 'expectFCM');
    assert.deepEqual(linesOf(error), [
      `expect: FAILED — wanted exactly 1 FCM record with token=${phone.token}, status=404; ` +
        "0 matched (of 1 FCM record in the mock's FCM records).",
      'Closest FCM records:',
      `  #${sent.seq}  {time}  200 ${id}  token ${phone.token.slice(0, 8)}…${phone.token.slice(-4)}  meets 1 of 2; ` +
        `missed: status=404 (found 200 ${id})`]);
    assert.match(fcmSummary(sent), /^#\d+ FCM message to token \S+…\S+, project mockapns-test: accepted \(200\), 1 APNs push; title "Shipped"$/);
    await assert.rejects(mock.expectFCM({ colour: 'red' }), { name: 'TypeError', message: /Unknown FCM filter key "colour"/ });
    await assert.rejects(mock.expectFCM({ validateOnly: 'yes' }), { name: 'TypeError', message: /"validateOnly" is true or false/ });
    await assert.rejects(mock.expectFCM({ count: 1.5 }), { name: 'TypeError', message: /"count" must be a whole number/ });
    await assert.rejects(mock.registerFCM({ platform: 'windows' }), { name: 'TypeError', message: /platform is one of ios, android, web/ });
    await assert.rejects(mock.registerFCM({ platform: 'android', apnsToken: deviceToken(61) }), { name: 'TypeError' });
  });

  it('expectFCM counts: none given expects at least one, a number exactly that many', async () => {
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    mock.intercept();
    for (const title of ['One', 'Two']) await sender.send(notification(phone.token, title));
    await sender.send(notification(phone.token, 'Dry run'), true);
    const records = await mock.fcmMessages();
    assert.equal(records.length, 3);
    const real = records.filter((record) => !record.validate_only);
    assert.deepEqual(await mock.expectFCM({ token: phone.token, validateOnly: false }), real);
    assert.deepEqual(await mock.expectFCM({ token: phone.token, count: 3 }), records);
    assert.deepEqual(await mock.expectFCM({ validate_only: true, count: 1 }), records.slice(2));
    assert.deepEqual((await mock.expectFCM({ name: real[1].name.split('/').pop() })).map((record) => record.seq), [real[1].seq]);
    const started = Date.now();
    const error = await mock.expectFCM({ token: phone.token, validateOnly: false, count: 1, timeout: 20000 }).then(
      () => assert.fail('expectFCM should have rejected'), (e) => e);
    assert.ok(Date.now() - started < 10000, 'FCM records past an exact count fail at once, not after the timeout');
    const shortToken = `${phone.token.slice(0, 8)}…${phone.token.slice(-4)}`;
    assert.deepEqual(linesOf(error), ['Waited 20000 ms.',
      `expect: FAILED — wanted exactly 1 FCM record with token=${phone.token}, validate_only=false; ` +
        "2 matched (of 3 FCM records in the mock's FCM records).",
      'Matching FCM records:',
      ...real.map((record) => `  #${record.seq}  {time}  200 ${record.name.split('/').pop()}  token ${shortToken}`)]);
  });

  it('expectFCM keeps asking until a late send arrives, and says when none arrived at all', async () => {
    const error = await mock.expectFCM({ status: 200 }).then(() => assert.fail('expectFCM should have rejected'), (e) => e);
    assert.deepEqual(linesOf(error), [
      'mockapns: no FCM request reached the mock. Is the sender inside mock.intercept() (or pointed at mock.fcmURL), ' +
        'with a service account of this mock (mock.fcmServiceAccount)?',
      "expect: FAILED — wanted at least 1 FCM record with status=200; 0 matched (of 0 FCM records in the mock's FCM records).",
      'No FCM records arrived at all.']);
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    mock.intercept();
    const waiting = mock.expectFCM({ token: phone.token, status: 200, timeout: 20000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sender.send(notification(phone.token, 'Late'));
    const [record] = await waiting;
    assert.equal(record.message.notification.title, 'Late');
  });

  it('clear() forgets FCM records and keeps registrations', async () => {
    const phone = await mock.registerFCM({ bundleId: BUNDLE });
    mock.intercept();
    await sender.send(notification(phone.token, 'Before'));
    const cleared = await mock.clear();
    assert.deepEqual([cleared.fcmMessages, cleared.notifications], [1, 1]);
    assert.deepEqual(await mock.fcmMessages(), []);
    assert.equal((await sender.send(notification(phone.token, 'After'))).status, 200);
    const [after] = await mock.expectFCM({ count: 1, status: 200 });
    assert.equal(after.message.notification.title, 'After');
  });
});

describe('a mock without fcm', () => {
  it('says how to get FCM, and intercept() how to get either name set', async () => {
    const mock = await startMockAPNs();
    try {
      assert.deepEqual([mock.fcmURL, mock.fcmPorts, mock.fcmServiceAccount, mock.fcmCA], [undefined, undefined, undefined, undefined]);
      await assert.rejects(mock.registerFCM({ bundleId: BUNDLE }), (error) => error instanceof MockAPNsError &&
        /registerFCM\(\): this mock serves no FCM; start it with startMockAPNs\(\{ fcm: true \}\)/.test(error.message));
      await assert.rejects(mock.expectFCM({}), MockAPNsError);
      assert.throws(() => mock.intercept(), /and Google's FCM names, with startMockAPNs\(\{ fcm: true \}\)/);
      assert.deepEqual(Object.keys(await mock.clear()).sort(), ['devices', 'faults', 'notifications']);
    } finally {
      await mock.stop();
    }
  });
});

describe('a mock with appleHosts and fcm', () => {
  it("routes Apple's names and Google's in one interception", async () => {
    const mock = await startMockAPNs({ appleHosts: true, fcm: true });
    try {
      const phone = await mock.registerFCM({ bundleId: BUNDLE });
      const interception = mock.intercept();
      assert.throws(() => mock.intercept(), /Apple's and Google's host names already go to this mock/);
      const [answer] = await new FirebaseSender(mock.fcmServiceAccount).sendEach([notification(phone.token, 'Both')]);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal((await tryConnect('https://api.push.apple.com')).outcome, 'connected');
      interception.restore();
      await mock.expectShown(phone.apns_token, { title: 'Both' });
    } finally {
      await mock.stop();
    }
  });
});
