import http2 from 'node:http2';
import { test } from 'node:test';
import { startMockAPNs } from 'mockapns';

test('the shipping push reaches APNs', async () => {
  const mock = await startMockAPNs();
  const session = http2.connect(mock.url, { ca: mock.ca });
  try {
    const req = session.request({ ':method': 'POST', ':path': `/3/device/${'ab'.repeat(32)}`,
      authorization: `bearer ${mock.token()}`, 'apns-topic': 'com.example.app', 'apns-push-type': 'alert' });
    req.end(JSON.stringify({ aps: { alert: { title: 'Shipped' } } }));
    await new Promise((done) => req.resume().on('close', done));
    await mock.expect({ topic: 'com.example.app', status: 200, count: 1 });
  } finally { session.close(); await mock.stop(); }
});
