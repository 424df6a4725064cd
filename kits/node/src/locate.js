// Finding the mockapns binary and its bundled test credentials (certs/).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enginesOnPath } from './container.js';
import { MockAPNsError } from './errors.js';

/**
 * The mockapns binary to run: `explicit` (options.bin), else `$MOCKAPNS_BIN`, else `mockapns` on `$PATH`.
 * Throws a MockAPNsError naming where it looked and how to point the kit at a binary.
 * @param {string | undefined} explicit
 * @param {NodeJS.ProcessEnv} env
 * @returns {string} an absolute path to an executable file
 */
export function findBinary(explicit, env = process.env) {
  const named = explicit ? ['options.bin', explicit] : env.MOCKAPNS_BIN ? ['MOCKAPNS_BIN', env.MOCKAPNS_BIN] : null;
  if (named) {
    const [source, file] = named;
    const problem = executableProblem(file);
    if (problem) {
      throw new MockAPNsError(`The mockapns binary ${source}=${file} ${problem}. ` +
        'Build it (swift build --product mockapns) and point options.bin or MOCKAPNS_BIN at it.');
    }
    return path.resolve(file);
  }
  const dirs = (env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const file = path.join(dir, 'mockapns');
    if (!executableProblem(file)) return path.resolve(file);
  }
  throw new MockAPNsError('No mockapns binary: options.bin and MOCKAPNS_BIN are not set and no "mockapns" is on PATH ' +
    `(${dirs.length} folder${dirs.length === 1 ? '' : 's'} searched). Either build it (swift build --product mockapns), ` +
    'then pass { bin } to startMockAPNs, set MOCKAPNS_BIN to its path, or put it on PATH; or run the mock from its ' +
    'image: pass { image } or set MOCKAPNS_IMAGE=mockapns:latest (`make image` builds it; podman or docker runs it; ' +
    `${enginesOnPath(env)}).`);
}

/** Why `file` cannot be run, or null when it can. */
function executableProblem(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'does not exist';
  }
  if (!stat.isFile()) return 'is not a file';
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return 'is not executable (chmod +x it)';
  }
  return null;
}

/**
 * The folder of the bundled test credentials (ca.pem, keys.json, AuthKey_*.p8), searched like the server's
 * BundledCredentials: `explicit` (options.certsDir, alone), else `$MOCKAPNS_CERTS_DIR`, then `certs/` beside the
 * binary and up to 4 folders above it (a `.build/<triple>/debug/mockapns` sits 4 levels below the package), then
 * the `certs/` of the checkout this kit is in (kits/node/../../certs), as the binary falls back on the checkout it
 * was built from.
 * @param {string} binary the binary's path (symbolic links are followed)
 * @param {string | undefined} explicit
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ dir: string | null, searched: string[] }} dir is null when no candidate holds keys.json
 */
export function findCertsDir(binary, explicit, env = process.env) {
  if (explicit) {
    if (hasKeys(explicit)) return { dir: path.resolve(explicit), searched: [explicit] };
    throw new MockAPNsError(`options.certsDir=${explicit} holds no keys.json: point it at the repository's certs/ folder.`);
  }
  const searched = env.MOCKAPNS_CERTS_DIR ? [env.MOCKAPNS_CERTS_DIR] : [];
  let dir = path.dirname(fs.realpathSync(binary));
  for (let level = 0; level <= 4; level++) {
    searched.push(path.join(dir, 'certs'));
    dir = path.dirname(dir);
  }
  searched.push(fileURLToPath(new URL('../../../certs', import.meta.url)));
  const found = searched.find(hasKeys);
  return { dir: found ? path.resolve(found) : null, searched: [...new Set(searched)] };
}

/** Whether `dir` holds a keys.json. */
export function hasKeys(dir) {
  return fs.existsSync(path.join(dir, 'keys.json'));
}
