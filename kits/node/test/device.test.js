// Virtual devices over time through the kit (device, timeline, setDevice's changes, changeDevice, expectShown),
// against a real `mockapns serve` with node:http2 as the sender.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startMockAPNs } from 'mockapns';
import { deviceToken, push } from './support.js';

/** What happened to one push, in timeline order. */
const outcomes = (entries, apnsId) => entries.filter((entry) => entry.apns_id === apnsId).map((entry) => entry.outcome);

describe('virtual devices', () => {
  let mock;
  before(async () => { mock = await startMockAPNs(); });
  after(() => mock?.stop());
  beforeEach(() => mock.clear());

  it('keeps one of two collapsed pushes while offline and shows the later once online', async () => {
    const token = deviceToken(20);
    await mock.setDevice(token, { online: false });
    const packed = await push(mock, { token, title: 'Packed', badge: 1, collapseId: 'order-42' });
    const shipped = await push(mock, { token, title: 'Shipped', badge: 2, collapseId: 'order-42' });
    assert.deepEqual([packed.status, shipped.status], [200, 200]);

    const offline = await mock.device(token);
    assert.deepEqual([offline.online, offline.notifications, offline.badge], [false, [], 0]);
    assert.deepEqual(offline.stored.map((stored) => stored.apns_id), [shipped.apnsId]);

    await mock.setDevice(token, { online: true });
    const screen = await mock.device(token.toUpperCase());
    assert.deepEqual([screen.online, screen.stored, screen.token, screen.badge], [true, [], token, 2]);
    assert.deepEqual(screen.notifications.map(({ apns_id, title, body, collapse_id }) => [apns_id, title, body, collapse_id]),
      [[shipped.apnsId, 'Shipped', 'Order 42', 'order-42']]);
    assert.equal((await mock.expectShown(token, { title: 'Shipped', body: 'Order 42' })).apns_id, shipped.apnsId);

    const timeline = await mock.timeline(token);
    assert.deepEqual([timeline[0].apns_id, timeline[0].outcome, timeline[0].rule],
      [packed.apnsId, 'stored', '11-store-and-forward']);
    assert.equal(outcomes(timeline, packed.apnsId).at(-1), 'replaced');
    assert.equal(outcomes(timeline, shipped.apnsId).at(-1), 'delivered');
  });

  it('lists what the screen shows when expectShown fails', async () => {
    const token = deviceToken(21);
    const packed = await push(mock, { token, title: 'Packed', threadId: 'order-42' });
    const shipped = await push(mock, { token, title: 'Shipped', threadId: 'order-42', badge: 1 });
    await assert.rejects(mock.expectShown(token, { title: 'Cancelled' }), (error) => {
      assert.ok(error instanceof assert.AssertionError, `not an AssertionError: ${error}`);
      assert.deepEqual(error.message.split('\n'), [
        'Expected device 15151515…151515 to show a notification with title "Cancelled", ' +
          'but none of the 2 it shows matched (newest first):',
        `  title "Shipped", body "Order 42" (apns-id ${shipped.apnsId}, thread-id order-42)`,
        `  title "Packed", body "Order 42" (apns-id ${packed.apnsId}, thread-id order-42)`,
        'Device: online, app foreground, badge 1.',
      ]);
      return true;
    });

    const away = deviceToken(22);
    await mock.setDevice(away, { online: false });
    const held = await push(mock, { token: away, title: 'Shipped' });
    await assert.rejects(mock.expectShown(away), {
      name: 'AssertionError',
      message: 'Expected device 16161616…161616 to show a notification, but it shows no notifications.\n' +
        `Device: offline, app foreground, badge 0; APNs holds 1 stored push for it (apns-id ${held.apnsId}).`,
    });
  });

  it('comes back on its own after offlineUntil, and reads any instant', async () => {
    const token = deviceToken(23);
    const back = new Date((await mock.device(token)).at + 3600000);   // an hour after the mock's now
    await mock.setDevice(token, { offlineUntil: back, appState: 'background', settings: { background_budget_per_hour: 1 } });
    const away = await push(mock, { token, title: 'While away' });

    const now = await mock.device(token);
    assert.deepEqual([now.online, now.app_state, now.background_budget.limit], [false, 'background', 1]);
    const later = await mock.device(token, { at: back });
    assert.deepEqual([later.online, later.at, later.notifications.map((n) => n.apns_id)], [true, back.getTime(), [away.apnsId]]);
    assert.deepEqual(outcomes(await mock.timeline(token), away.apnsId), ['stored']);
    assert.deepEqual(outcomes(await mock.timeline(token, { until: back }), away.apnsId), ['stored', 'delivered']);
    assert.equal((await mock.expectShown(token, { title: 'While away', at: back })).apns_id, away.apnsId);
  });

  it('taps a notification at an instant: the app opens and the notification goes', async () => {
    const token = deviceToken(24);
    await mock.setDevice(token, { app_state: 'background' });
    await push(mock, { token, title: 'Your table is ready' });
    const shown = await mock.expectShown(token, { title: 'Your table is ready' });

    const at = shown.time + 1;
    const change = await mock.changeDevice(token, 'tap', { apns_id: shown.apns_id, at: new Date(at) });
    assert.deepEqual([change.at, change.change, change.apns_id], [at, 'tap', shown.apns_id]);
    const screen = await mock.device(token, { at });
    assert.deepEqual([screen.notifications, screen.app_state], [[], 'foreground']);
    const tap = (await mock.timeline(token, { until: at })).at(-1);
    assert.deepEqual([tap.apns_id, tap.outcome, tap.rule], [shown.apns_id, 'tapped', '5-tap']);
  });

  it('keeps device states beside changes, refuses what it cannot send, and clear forgets changes', async () => {
    const token = deviceToken(25);
    const answer = await mock.setDevice(token, { state: 'expired', online: false });
    assert.deepEqual([answer.device.state, answer.changes.map((change) => change.change)], ['expired', ['offline']]);
    const rejected = await push(mock, { token });
    assert.deepEqual([rejected.status, rejected.reason], [410, 'ExpiredToken']);
    assert.deepEqual((await mock.device(token)).stored, [], 'a rejected push never reaches the device');

    await assert.rejects(mock.setDevice(token, { app_state: 'asleep' }),
      { name: 'MockAPNsError', status: 400, message: /with 400: .*"app_state" is one of foreground, background/ });
    await assert.rejects(mock.changeDevice(token, 'reboot'), { name: 'MockAPNsError', message: /not a device change/ });
    await assert.rejects(mock.device(token, { at: 'yesterday' }), { name: 'TypeError', message: /"at" is a Date or milliseconds/ });
    await assert.rejects(mock.expectShown(token, { titel: 'x' }), { name: 'TypeError', message: /takes title, body and at; not titel/ });

    await mock.clear();
    assert.equal((await mock.device(token)).online, true);
  });
});
