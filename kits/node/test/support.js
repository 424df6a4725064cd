// The sender the tests use (node:http2, the transport @parse/node-apn uses), and the suite's two modes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http2 from 'node:http2';
import { findEngine } from '../src/container.js';

/** A device token: 64 hex characters made from `n`. */
export function deviceToken(n) {
  return n.toString(16).padStart(2, '0').repeat(32);
}

/**
 * Sends one push to the mock over HTTP/2 with TLS (trusting mock.ca) and a provider token from mock.token():
 * aps.alert { title, body }, aps.badge and aps['thread-id'] when given, apns-collapse-id when `collapseId` is.
 * @returns {Promise<{ status: number, reason?: string, apnsId: string, body: object | null }>}
 */
export async function push(mock, { token, topic = 'com.example.app', title = 'Hello', body = 'Order 42',
  pushType = 'alert', badge, threadId, collapseId }) {
  const session = http2.connect(mock.url, { ca: mock.ca });
  try {
    return await new Promise((resolve, reject) => {
      session.once('error', reject);
      const request = session.request({
        ':method': 'POST', ':path': `/3/device/${token}`, authorization: `bearer ${mock.token()}`,
        'apns-topic': topic, 'apns-push-type': pushType, ...(collapseId ? { 'apns-collapse-id': collapseId } : {}),
      });
      let status = 0;
      let apnsId;
      let text = '';
      request.setEncoding('utf8');
      request.on('response', (headers) => { status = headers[':status']; apnsId = headers['apns-id']; });
      request.on('data', (chunk) => { text += chunk; });
      request.on('end', () => {
        const answer = text ? JSON.parse(text) : null;
        resolve({ status, reason: answer?.reason, apnsId, body: answer });
      });
      request.on('error', reject);
      const aps = { alert: { title, body }, ...(badge === undefined ? {} : { badge }),
        ...(threadId ? { 'thread-id': threadId } : {}) };
      request.end(JSON.stringify({ aps }));
    });
  } finally {
    session.close();
  }
}

// The suite runs in one of two modes, as the kit does: against the mockapns binary (MOCKAPNS_BIN), or against its
// image (MOCKAPNS_IMAGE, run by podman or docker). Every test that starts a real mock runs in both; the few about
// one mode's machinery say which with onlyIn().

/** 'container' when MOCKAPNS_IMAGE names an image, else 'binary'. */
export const suiteMode = process.env.MOCKAPNS_IMAGE ? 'container' : 'binary';

/**
 * node:test options for a test about one mode: in the other, it is skipped saying so.
 * @param {'binary' | 'container'} mode
 * @param {string} why
 */
export function onlyIn(mode, why) {
  return suiteMode === mode ? {} : { skip: `${mode} mode only (${why}); this run is in ${suiteMode} mode` };
}

/** The container engine the kit picks: MOCKAPNS_CONTAINER_ENGINE, else podman or docker on PATH (with both, the one
 * that answers). */
export function engine() {
  try {
    return findEngine(undefined, process.env.MOCKAPNS_IMAGE ?? 'mockapns:latest');
  } catch (error) {
    throw new Error(`container mode needs podman or docker on PATH (or MOCKAPNS_CONTAINER_ENGINE): ${error.message}`);
  }
}

/** The names of the containers the kit started in this test process (node --test runs files in processes of their
 * own, maybe at once) that still exist, running or not. */
export function kitContainers() {
  const out = execFileSync(engine(), ['ps', '-a', '--filter', 'label=io.mockapns.kit=node',
    '--filter', `label=io.mockapns.pid=${process.pid}`, '--format', '{{.Names}}'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split(/\s+/).filter(Boolean).sort();
}

/** Runs `body` and checks that it leaves no container of the kit behind. */
export async function leavesNoContainer(body) {
  const before = kitContainers();
  await body();
  assert.deepEqual(kitContainers(), before, 'the kit left a container behind');
}
