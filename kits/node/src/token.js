// Provider tokens (ES256 JWTs) for a bundled test key of certs/keys.json, minted by the mock's own binary
// (`mockapns token --json`; in container mode the image's, through the engine's exec): the kit signs nothing itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MockAPNsError } from './errors.js';

/** How long token() hands out one token (kits/spec/launch.json's reuse_seconds): APNs refuses a new one more often
 * than every 20 minutes (TooManyProviderTokenUpdates) and one older than an hour (ExpiredProviderToken). */
export const TOKEN_REUSE_MS = 30 * 60 * 1000;

/** The kit's clock for token reuse; the kit's own tests move it. */
export const clock = { now: () => Date.now() };

/**
 * The signing key of `certsDir`/keys.json: the entry with `keyId`, or by default the first key valid in both
 * environments and for every topic (TESTKEY001 in the repository's certs/).
 * @param {string} certsDir
 * @param {string} [keyId]
 * @returns {{ teamId: string, keyId: string, file: string, keyFile: string }} `file` as keys.json names it,
 *   `keyFile` its path in certsDir
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
  if (!fs.existsSync(keyFile)) throw new MockAPNsError(`${listFile} names ${entry.file}, which is not in ${certsDir}.`);
  return { teamId: entry.team_id, keyId: entry.key_id, file: entry.file, keyFile };
}

/**
 * Runs `command` (`mockapns token … --json`, or the engine's exec of it) and returns the token it printed
 * ({ token, team_id, key_id, issued_at }).
 * @param {string} executable
 * @param {string[]} args
 */
export function mintToken(executable, args) {
  const line = `${executable} ${args.join(' ')}`;
  let out;
  try {
    out = execFileSync(executable, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 });
  } catch (error) {
    throw new MockAPNsError(`\`${line}\` failed (${error.status ?? error.signal ?? error.code}): ` +
      `${String(error.stderr ?? error.message).trim()}`, { cause: error });
  }
  let minted;
  try {
    minted = JSON.parse(out);
  } catch {
    minted = undefined;
  }
  if (typeof minted?.token !== 'string') throw new MockAPNsError(`\`${line}\` printed no token JSON: ${out.slice(0, 200)}`);
  return minted.token;
}

/**
 * A function returning a provider token from `mint()`, the same one for TOKEN_REUSE_MS like a real sender.
 * @param {() => string} mint
 * @returns {() => string}
 */
export function tokenSource(mint) {
  let token = null;
  let mintedAt = 0;
  return () => {
    const now = clock.now();
    if (!token || now - mintedAt >= TOKEN_REUSE_MS) {
      token = mint();
      mintedAt = now;
    }
    return token;
  };
}
