// The sender the tests use: node:http2, the transport @parse/node-apn uses.
import http2 from 'node:http2';

/** A device token: 64 hex characters made from `n`. */
export function deviceToken(n) {
  return n.toString(16).padStart(2, '0').repeat(32);
}

/**
 * Sends one push to the mock over HTTP/2 with TLS (trusting mock.ca) and a provider token from mock.token().
 * @returns {Promise<{ status: number, reason?: string, body: object | null }>}
 */
export async function push(mock, { token, topic = 'com.example.app', title = 'Hello', pushType = 'alert' }) {
  const session = http2.connect(mock.url, { ca: mock.ca });
  try {
    return await new Promise((resolve, reject) => {
      session.once('error', reject);
      const request = session.request({
        ':method': 'POST', ':path': `/3/device/${token}`, authorization: `bearer ${mock.token()}`,
        'apns-topic': topic, 'apns-push-type': pushType,
      });
      let status = 0;
      let text = '';
      request.setEncoding('utf8');
      request.on('response', (headers) => { status = headers[':status']; });
      request.on('data', (chunk) => { text += chunk; });
      request.on('end', () => {
        const body = text ? JSON.parse(text) : null;
        resolve({ status, reason: body?.reason, body });
      });
      request.on('error', reject);
      request.end(JSON.stringify({ aps: { alert: { title, body: 'Order 42' } } }));
    });
  } finally {
    session.close();
  }
}
