// Provider tokens (ES256 JWTs) signed with a bundled test key from certs/keys.json.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MockAPNsError } from './errors.js';

/** A token is re-minted after this long: APNs refuses tokens older than an hour and refreshes more often than 20 min. */
const TOKEN_LIFETIME_MS = 30 * 60 * 1000;

/**
 * Loads a signing key from `certsDir`/keys.json: the entry with `keyId`, or by default the first key valid in
 * both environments and for every topic (TESTKEY001 in the repository's certs/).
 * @param {string} certsDir
 * @param {string} [keyId]
 * @returns {{ teamId: string, keyId: string, key: crypto.KeyObject }}
 */
export function loadSigningKey(certsDir, keyId) {
  const listFile = path.join(certsDir, 'keys.json');
  let entries;
  try {
    entries = JSON.parse(fs.readFileSync(listFile, 'utf8'));
  } catch (error) {
    throw new MockAPNsError(`Cannot read the test key list ${listFile}: ${error.message}.`, { cause: error });
  }
  const entry = keyId ? entries.find((e) => e.key_id === keyId)
    : entries.find((e) => (e.environment ?? 'both') === 'both' && !(e.topics?.length));
  if (!entry) {
    const ids = entries.map((e) => e.key_id).join(', ');
    throw new MockAPNsError(keyId ? `${listFile} has no key "${keyId}"; it has ${ids}.`
      : `${listFile} has no key for both environments and all topics (it has ${ids}); pass options.keyId.`);
  }
  const keyFile = path.join(certsDir, entry.file);
  let key;
  try {
    key = crypto.createPrivateKey(fs.readFileSync(keyFile, 'utf8'));
  } catch (error) {
    throw new MockAPNsError(`Cannot load the test key ${keyFile}: ${error.message}.`, { cause: error });
  }
  return { teamId: entry.team_id, keyId: entry.key_id, key };
}

/**
 * An ES256 provider token `{"alg":"ES256","kid":keyId}.{"iss":teamId,"iat":now}` signed with `key`.
 * @param {{ teamId: string, keyId: string, key: crypto.KeyObject }} signingKey
 * @param {number} [issuedAt] seconds since 1970; now when not given
 */
export function signToken({ teamId, keyId, key }, issuedAt = Math.floor(Date.now() / 1000)) {
  const encode = (object) => Buffer.from(JSON.stringify(object)).toString('base64url');
  const data = `${encode({ alg: 'ES256', kid: keyId })}.${encode({ iss: teamId, iat: issuedAt })}`;
  const signature = crypto.sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' });
  return `${data}.${signature.toString('base64url')}`;
}

/**
 * A function returning a provider token, the same one for 30 minutes like a real sender (APNs answers
 * TooManyProviderTokenUpdates to senders that re-sign too often).
 * @param {{ teamId: string, keyId: string, key: crypto.KeyObject }} signingKey
 * @returns {() => string}
 */
export function tokenSource(signingKey) {
  let token = null;
  let mintedAt = 0;
  return () => {
    if (!token || Date.now() - mintedAt >= TOKEN_LIFETIME_MS) {
      mintedAt = Date.now();
      token = signToken(signingKey, Math.floor(mintedAt / 1000));
    }
    return token;
  };
}
