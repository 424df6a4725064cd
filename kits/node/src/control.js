// Requests to the mock's control API (Sources/MockAPNsControl/OpenAPI/openapi.json).
import http from 'node:http';
import { MockAPNsError } from './errors.js';

/** Functions told of every control request the kit sends ({ method, route, body }): the kit's OpenAPI test records
 * them. */
export const observers = new Set();

/** One control API request; resolves with the JSON answer, rejects with a MockAPNsError for an error status. */
export function controlRequest(base, method, route, body, timeout, token) {
  for (const observe of observers) observe({ method, route, body });
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(route, base), { method, agent: false, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        if (response.statusCode >= 400 || json === undefined) {
          reject(new MockAPNsError(`The mock's control API answered ${method} ${route} with ${response.statusCode}: ` +
            `${json?.error ?? text}`, { status: response.statusCode }));
        } else {
          resolve(json);
        }
      });
    });
    request.setTimeout(timeout, () => request.destroy(new Error(`no answer within ${timeout} ms`)));
    request.on('error', reject);
    request.end(data);
  });
}
