// The sender the tests use: node:http2, the transport @parse/node-apn uses.
import http2 from 'node:http2';

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
