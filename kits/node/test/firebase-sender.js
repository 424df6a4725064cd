// A Firebase sender written the way firebase-admin-node (14.x) calls the network, with Google's names and nothing
// about the mock: the service account's OAuth grant (an RS256 JWT-bearer assertion signed with node:crypto) posted
// to https://oauth2.googleapis.com/token, then FCM HTTP v1's messages:send at https://fcm.googleapis.com, one request
// over node:https (send) or one stream per message on http2.connect (sendEach). firebase-admin-node itself needs the
// npm registry, which this machine cannot reach; this is its network traffic, so the mock and intercept() are
// tested against what it does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';

/** Where google-auth-library posts a service account's grant, and the audience every grant names. */
const TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** FCM HTTP v1 (firebase-admin-node's FCM_SEND_HOST). */
const FCM_HOST = 'fcm.googleapis.com';
/** The scopes firebase-admin-node asks for (src/app/credential-internal.ts). */
const SCOPES = ['https://www.googleapis.com/auth/cloud-platform', 'https://www.googleapis.com/auth/firebase.database',
  'https://www.googleapis.com/auth/firebase.messaging', 'https://www.googleapis.com/auth/identitytoolkit',
  'https://www.googleapis.com/auth/userinfo.email'];
/** The headers firebase-admin-node's messaging request handler adds. */
const MESSAGING_HEADERS = { 'X-Firebase-Client': 'fire-admin-node/14.3.0', access_token_auth: 'true' };

export class FirebaseSender {
  /** @param {string} serviceAccountFile a service-account key file, as `cert(path)` takes it */
  constructor(serviceAccountFile) {
    this.account = JSON.parse(fs.readFileSync(serviceAccountFile, 'utf8'));
    this.projectId = this.account.project_id;
    this.accessToken = null;
  }

  /** The signed grant: header { alg, typ, kid }, claims { iss, scope, aud, iat, exp } (an hour). */
  assertion(now = Math.floor(Date.now() / 1000)) {
    const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signed = `${part({ alg: 'RS256', typ: 'JWT', kid: this.account.private_key_id })}.` +
      part({ iss: this.account.client_email, scope: SCOPES.join(' '), aud: TOKEN_URL, iat: now, exp: now + 3600 });
    const signature = crypto.sign('sha256', Buffer.from(signed), this.account.private_key).toString('base64url');
    return `${signed}.${signature}`;
  }

  /** The grant's form body. */
  grantBody() {
    return `grant_type=${encodeURIComponent('urn:ietf:params:oauth:grant-type:jwt-bearer')}&assertion=${this.assertion()}`;
  }

  /** Trades the grant for an access token over node:https (POST token_uri); resolves with { status, body }. */
  requestToken() {
    return httpsRequest(this.account.token_uri ?? TOKEN_URL,
      { 'content-type': 'application/x-www-form-urlencoded' }, this.grantBody());
  }

  /** The access token, fetched once; rejects with the token endpoint's answer when it refuses. */
  async token() {
    if (!this.accessToken) {
      const { status, body } = await this.requestToken();
      if (status !== 200 || !body?.access_token) throw new Error(`the token request answered ${status}: ${JSON.stringify(body)}`);
      this.accessToken = body.access_token;
    }
    return this.accessToken;
  }

  /** The request headers of one send. */
  async headers() {
    return { ...MESSAGING_HEADERS, authorization: `Bearer ${await this.token()}`, 'content-type': 'application/json' };
  }

  /** messaging.send(): one POST over node:https (HTTP/1.1); resolves with { status, body }. */
  async send(message, dryRun = false) {
    const body = JSON.stringify({ message, ...(dryRun ? { validate_only: true } : {}) });
    return httpsRequest(`https://${FCM_HOST}${this.sendPath()}`, await this.headers(), body);
  }

  /** messaging.sendEach(): one HTTP/2 session to https://fcm.googleapis.com, one stream per message; resolves with
   * a { status, body } per message, in order. */
  async sendEach(messages) {
    const headers = await this.headers();
    const session = http2.connect(`https://${FCM_HOST}`, { peerMaxConcurrentStreams: 100, ALPNProtocols: ['h2'] });
    try {
      const failed = new Promise((resolve, reject) => session.once('error', reject));
      return await Promise.race([failed, Promise.all(messages.map((message) => new Promise((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':scheme': 'https', ':path': this.sendPath(), ...headers });
        let status = 0;
        let text = '';
        stream.setEncoding('utf8');
        stream.on('response', (answer) => { status = answer[':status']; });
        stream.on('data', (chunk) => { text += chunk; });
        stream.on('end', () => resolve({ status, body: parse(text) }));
        stream.on('error', reject);
        stream.end(JSON.stringify({ message }));
      })))]);
    } finally {
      session.close();
    }
  }

  sendPath() {
    return `/v1/projects/${this.projectId}/messages:send`;
  }
}

/** A POST over node:https with the default agent; resolves with { status, body (JSON, else the text) }. */
function httpsRequest(url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => { text += chunk; });
        response.on('end', () => resolve({ status: response.statusCode, body: parse(text) }));
        response.on('error', reject);
      });
    request.on('error', reject);
    request.end(body);
  });
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The errorCode of an FCM error answer's FcmError detail (what firebase-admin maps to messaging/… codes). */
export function fcmErrorCode(body) {
  return body?.error?.details?.find((detail) => String(detail['@type']).endsWith('google.firebase.fcm.v1.FcmError'))?.errorCode;
}
