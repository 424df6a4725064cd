// Container mode: the mockapns image under podman or docker, its ports published on free loopback ports.
import { execFile, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import tls from 'node:tls';
import { MockAPNsError } from './errors.js';
import { onExit, sleep } from './util.js';

/** Ports of `mockapns serve` in the image (kits/spec/launch.json): APNs, the control plane and the mock's own FCM
 * port are the image's; the kit turns HTTP/1.1 on (beside the FCM port, so both can be on). */
export const CONTAINER_PORTS = { apns: 2197, control: 2198, fcm: 2199, http1: 2200 };
/** Apple's ports, set and published too when the mock serves Apple's host names (2197 is the APNs port above). */
const APPLE_PORTS = [443, 2195, 2196];
/** The test credentials the image's mockapns trusts: certs/ beside the binary (the Containerfile unpacks the
 * release tarball into /opt/mockapns). */
export const IMAGE_CERTS_DIR = '/opt/mockapns/certs';
/** Marks the kit's containers, and OWNER_LABEL the test process that started each: `podman rm -f $(podman ps -aq
 * --filter label=io.mockapns.kit)` removes any a killed test process left. */
const CONTAINER_LABEL = 'io.mockapns.kit';
const OWNER_LABEL = 'io.mockapns.pid';
/** Bounds one engine command, so an engine that hangs fails the test instead. */
const ENGINE_TIMEOUT = 120000;
/** Lines podman prints on every start and stop where there is no systemd or syslog; they say nothing of the mock. */
const ENGINE_NOISE = [/unable to get systemd connection/, /failed to connect to syslog/, /Removing timer for container/];

/** Bounds one `info` of answeringEngine(), in ms: a first podman start sets up its storage. */
const ENGINE_PROBE_TIMEOUT = 15000;
/** The engine picked when both are on PATH, per PATH, DOCKER_HOST and CONTAINER_HOST: asking costs a command. */
const picked = new Map();

/**
 * The container engine to run: `explicit` (options.engine), else $MOCKAPNS_CONTAINER_ENGINE, else podman or docker,
 * whichever is on PATH. With both on PATH it is the one that answers (`info`), podman first: on a Mac, podman may be
 * installed with its machine stopped while Docker Desktop runs. When neither answers it is podman, whose own error
 * then says why. Throws a MockAPNsError with both ways out when there is none.
 * @returns {string} the engine's executable
 */
export function findEngine(explicit, image, env = process.env) {
  const wanted = explicit || env.MOCKAPNS_CONTAINER_ENGINE;
  if (wanted) {
    const found = onPath(wanted, env);
    if (!found) {
      throw new MockAPNsError(`The container engine "${wanted}" (${explicit ? 'options.engine' : 'MOCKAPNS_CONTAINER_ENGINE'}) ` +
        'is not an executable on PATH: name podman or docker, or give a path to one.');
    }
    return found;
  }
  const podman = onPath('podman', env);
  const docker = onPath('docker', env);
  if (podman && docker) return answeringEngine([podman, docker], env);
  const found = podman ?? docker;
  if (found) return found;
  throw new MockAPNsError(`The mock should run from the image ${image} (options.image or MOCKAPNS_IMAGE), but neither ` +
    'podman nor docker is on PATH. Either install one (or set MOCKAPNS_CONTAINER_ENGINE to its path), or run the ' +
    'mockapns binary instead: unset MOCKAPNS_IMAGE and set MOCKAPNS_BIN to it (or put it on PATH).');
}

/** The first of `engines` whose `info` succeeds, else the first; asked once per PATH, DOCKER_HOST and CONTAINER_HOST. */
function answeringEngine(engines, env) {
  const key = [env.PATH, env.DOCKER_HOST, env.CONTAINER_HOST].join('\0');
  if (!picked.has(key)) {
    const answering = engines.find((engine) => {
      try {
        execFileSync(engine, ['info'], { env, stdio: 'ignore', timeout: ENGINE_PROBE_TIMEOUT });
        return true;
      } catch {
        return false;
      }
    });
    picked.set(key, answering ?? engines[0]);
  }
  return picked.get(key);
}

/** Which engines are on PATH, for the no-binary error. */
export function enginesOnPath(env = process.env) {
  const found = ['podman', 'docker'].filter((name) => onPath(name, env));
  return found.length ? `${found.join(' and ')} found on PATH` : 'neither podman nor docker is on PATH';
}

/** `name` as an executable: itself when it holds a slash, else the first on PATH; null when there is none. */
function onPath(name, env) {
  const candidates = name.includes('/') ? [name]
    : (env.PATH || '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name));
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return path.resolve(file);
    } catch {
      // not this one
    }
  }
  return null;
}

/** One container of the image, named mockapns-node-<random>, removed by stop() or when the test process exits. */
export class ContainerServer {
  constructor(engine, image, dir) {
    this.engine = engine;
    this.image = image;
    this.dir = dir;
    this.name = `mockapns-node-${crypto.randomBytes(6).toString('hex')}`;
    this.death = null;
    this.stopped = null;
    // Synchronous, as an exit hook must be: the container must not outlive the test process.
    this.forget = onExit(() => {
      try {
        execFileSync(engine, ['rm', '-f', '-v', this.name], { stdio: 'ignore', timeout: ENGINE_TIMEOUT });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  /**
   * Runs the container (kits/spec/launch.json's container arguments) and waits until it is ready: /healthz answers,
   * its ready file names every listener the kit uses, and a TLS handshake verified with its CA succeeds on each TLS
   * port the kit uses. Resolves with what a ready file says, as this machine reaches it.
   * @param {{ args: string[], env: Record<string, string>, appleHosts: boolean, fcm: boolean, token: string,
   *   timeout: number }} how
   */
  async start({ args, env, appleHosts, fcm, token, timeout }) {
    const run = runArguments({ name: this.name, image: this.image, appleHosts, fcm, env, args });
    const started = await this.engineRun(run, { ...process.env, ...env, MOCKAPNS_CONTROL_TOKEN: token });
    if (!started.ok) {
      throw await this.failure(`could not be started: ${started.text}`,
        `build or pull the image (\`make image\` builds mockapns:latest), check that the engine works ` +
        `(${path.basename(this.engine)} info), or unset MOCKAPNS_IMAGE to run the mockapns binary`);
    }
    const published = await this.publishedPorts();
    const at = (port) => `127.0.0.1:${published[port]}`;
    const ready = {
      apns_url: `https://${at(CONTAINER_PORTS.apns)}`,
      control_url: `http://${at(CONTAINER_PORTS.control)}`,
      http1_url: `http://${at(CONTAINER_PORTS.http1)}`,
      apple_ports: appleHosts ? { 443: published[443], 2197: published[CONTAINER_PORTS.apns],
        2195: published[2195], 2196: published[2196] } : undefined,
      fcm_url: fcm ? `https://${at(CONTAINER_PORTS.fcm)}` : undefined,
      fcm_ports: fcm ? { 443: published[CONTAINER_PORTS.fcm] } : undefined,
    };
    // The HTTP/1.1 and FCM listeners start after the control plane, so /healthz alone does not say they listen, and
    // a request to the HTTP/1.1 port would be recorded: the container's ready file, written once every listener is
    // up, says they do.
    const fields = ['http1_url', ...(fcm ? ['fcm_url'] : [])];
    await this.waitReady(timeout, [
      { what: "the control plane's /healthz", probe: () => get(`${ready.control_url}/healthz`) },
      { what: `the container's ready file naming ${fields.join(' and ')}`, probe: () => this.readyNames(fields) },
    ]);
    try {
      ready.ca = await get(`${ready.control_url}/api/v1/ca.pem`);
    } catch (error) {
      throw await this.failure(`answered /healthz but not GET /api/v1/ca.pem (${error.message})`);
    }
    ready.ca_file = path.join(this.dir, 'ca.pem');
    fs.writeFileSync(ready.ca_file, ready.ca);
    // The engine's forwarder accepts a connection before the listener behind it is up, so only a verified handshake
    // says a TLS port serves (and that it chains to the CA read above).
    const ports = [[published[CONTAINER_PORTS.apns], undefined]];
    if (appleHosts) ports.push([published[443], 'api.push.apple.com']);
    if (fcm) ports.push([published[CONTAINER_PORTS.fcm], 'fcm.googleapis.com']);
    for (const [port, servername] of ports) await this.waitTLS(timeout, port, servername, ready.ca);
    return ready;
  }

  /** The container's ready file ($MOCKAPNS_READY_FILE) as text, read with the engine's exec. */
  async readyFile() {
    const read = await this.engineRun(['exec', this.name, 'sh', '-c', 'cat "$MOCKAPNS_READY_FILE"']);
    if (!read.ok) throw new Error(read.text);
    return read.stdout;
  }

  /** Resolves once the container's ready file names each of `fields`; rejects (not yet) otherwise. */
  async readyNames(fields) {
    const ready = JSON.parse(await this.readyFile());
    const missing = fields.filter((field) => !ready[field]);
    if (missing.length) throw new Error(`it names no ${missing.join(', ')} yet`);
  }

  /** The engine's arguments that mint a provider token with the image's mockapns (launch.json's
   * provider_token.container), with `keyFile` (TEAM:KEY:PATH in the image) when it is not the default key. */
  tokenArguments(keyFile) {
    return ['exec', this.name, 'mockapns', 'token', ...(keyFile ? ['--key-file', keyFile] : []), '--json'];
  }

  /** Polls a TLS handshake with `servername` on 127.0.0.1:`port`, trusting only `ca`, until it succeeds, while the
   * container runs and `timeout` ms have not passed; a certificate that does not verify fails at once. */
  async waitTLS(timeout, port, servername, ca) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const outcome = await handshake(port, servername, ca);
      if (outcome === true) return;
      if (outcome.verify) {
        throw await this.failure(`serves TLS on ${port} with a certificate that does not chain to its CA ` +
          `(/api/v1/ca.pem): ${outcome.verify}`, 'use an image built by `make image` from this repository');
      }
      const death = await this.diagnose();
      if (death) {
        death.message += ' It stopped before it was ready: check the flags in options.args.';
        throw death;
      }
      if (Date.now() >= deadline) {
        const error = await this.failure(`runs, but its port 127.0.0.1:${port}${servername ? ` (${servername})` : ''} ` +
          `did not complete a TLS handshake within ${timeout} ms (${outcome.error}), so it was removed`,
          'raise options.startTimeout on a slow machine');
        await this.stop();
        throw error;
      }
      await sleep(100);
    }
  }

  /** Copies the test credentials out of the image (the keys its mockapns trusts) and returns their folder. */
  async copyCredentials() {
    const dir = path.join(this.dir, 'certs');
    const copied = await this.engineRun(['cp', `${this.name}:${IMAGE_CERTS_DIR}`, dir]);
    if (!copied.ok) {
      throw await this.failure(`holds no test credentials at ${IMAGE_CERTS_DIR} (${copied.text})`,
        'use an image built by `make image` from this repository, or pass options.certsDir');
    }
    return dir;
  }

  /** Polls each of `waits` in turn ({ what, probe }: resolves once it is there) until it succeeds, while the container
   * runs and `timeout` ms have not passed. */
  async waitReady(timeout, waits) {
    const deadline = Date.now() + timeout;
    const pending = [...waits];
    while (pending.length) {
      const next = pending[0];
      let failure;
      try {
        await next.probe();
        pending.shift();
        continue;
      } catch (error) {
        failure = error; // not there yet
      }
      const death = await this.diagnose();
      if (death) {
        death.message += ' It stopped before it was ready: check the flags in options.args.';
        throw death;
      }
      if (Date.now() >= deadline) {
        const error = await this.failure(`runs, but ${next.what} did not answer within ${timeout} ms ` +
          `(${failure.code ?? failure.message}), so it was removed`, 'look at the container\'s output below, or raise ' +
          'options.startTimeout on a slow machine');
        await this.stop();
        throw error;
      }
      await sleep(100);
    }
  }

  /** Maps each container port to the host port the engine picked. */
  async publishedPorts() {
    const answer = await this.engineRun(['inspect', '--format', '{{json .NetworkSettings.Ports}}', this.name]);
    let bindings;
    try {
      if (!answer.ok) throw new Error(answer.text);
      bindings = JSON.parse(answer.stdout);
    } catch (error) {
      throw await this.failure(`started, but its published ports cannot be read (${error.message})`);
    }
    const ports = {};
    for (const [key, list] of Object.entries(bindings ?? {})) {
      if (list?.length) ports[Number.parseInt(key, 10)] = Number.parseInt(list[0].HostPort, 10);
    }
    return ports;
  }

  /** Throws the MockAPNsError of a container known to have stopped. */
  assertRunning() {
    if (this.death) throw this.death;
  }

  /** The MockAPNsError saying the container has stopped or gone (with its last output), or null while it runs. */
  async diagnose() {
    if (this.death) return this.death;
    const state = await this.engineRun(['inspect', '--format', '{{.State.Running}} {{.State.ExitCode}}', this.name]);
    if (!state.ok) {
      this.death = await this.failure(`is gone (removed by someone else?): ${state.text}`);
    } else if (!state.stdout.startsWith('true')) {
      this.death = await this.failure(`has stopped (exit code ${state.stdout.split(/\s+/).at(-1)})`,
        'start a new one with startMockAPNs()');
    }
    return this.death;
  }

  describe() {
    return `container ${this.name}`;
  }

  async outputText() {
    return ` Its last output:\n${await this.logs()}\n`;
  }

  /** A MockAPNsError naming the container, its image and engine, what happened, what to do and its last output. */
  async failure(what, remedy) {
    const text = `The mock's container ${this.name} (image ${this.image}, engine ${this.engine}) ${what}.` +
      `${remedy ? `\nWhat to do: ${remedy}.` : ''}\nThe container's last output:\n${await this.logs()}`;
    return new MockAPNsError(text, { container: this.name });
  }

  /** The container's last 20 lines of output (stdout and stderr as it wrote them), or why there are none. */
  async logs() {
    const file = path.join(this.dir, 'logs.txt');
    const out = fs.openSync(file, 'w');
    let code;
    try {
      const child = spawn(this.engine, ['logs', '--tail', '20', this.name], { stdio: ['ignore', out, out] });
      code = await new Promise((resolve) => { child.once('close', resolve); child.once('error', () => resolve(-1)); });
    } finally {
      fs.closeSync(out);
    }
    const text = clean(fs.readFileSync(file, 'utf8'));
    if (code !== 0) return `    (none: ${path.basename(this.engine)} logs: ${text.split('\n')[0]})`;
    return text ? text.replace(/^/gm, '    ') : '    (nothing)';
  }

  /** Stops the container (SIGTERM, then SIGKILL after `timeout` ms) and removes it with its anonymous /data volume;
   * resolves with how it exited. Safe to call more than once. */
  stop(timeout = 5000) {
    this.stopped ??= (async () => {
      await this.engineRun(['stop', '-t', String(Math.max(1, Math.ceil(timeout / 1000))), this.name]);
      const state = await this.engineRun(['inspect', '--format', '{{.State.ExitCode}}', this.name]);
      const removed = await this.engineRun(['rm', '-f', '-v', this.name]);
      if (!removed.ok && (await this.engineRun(['inspect', '--format', '{{.Id}}', this.name])).ok) {
        throw new MockAPNsError(`The container ${this.name} could not be removed (${removed.text}); remove it with ` +
          `\`${this.engine} rm -f -v ${this.name}\`.`);
      }
      fs.rmSync(this.dir, { recursive: true, force: true });
      this.forget();
      const code = Number.parseInt(state.stdout, 10);
      return { code: Number.isNaN(code) ? null : code, signal: null };
    })();
    return this.stopped;
  }

  /** Runs the engine; resolves with { ok, stdout, text } (text: its output without podman's noise, for errors). */
  engineRun(args, env = process.env) {
    return new Promise((resolve) => {
      execFile(this.engine, args, { env, timeout: ENGINE_TIMEOUT, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
        const output = clean(`${stdout}\n${stderr}`);
        resolve({ ok: !error, stdout: String(stdout).trim(),
          text: error ? `\`${path.basename(this.engine)} ${args.join(' ')}\` failed (${error.code ?? error.signal}): ${output}` : output });
      });
    });
  }
}

/**
 * `<engine> run …` as kits/spec/launch.json's container cases have it: --pull=never (a missing image fails at once),
 * no --rm (a container that dies keeps its output for the error; stop() removes it), the labels, the control token
 * and `env`'s values by name from the engine's environment (on no command line), HTTP/1.1 always, Apple's names and
 * the FCM port when asked, every port on a free loopback port, then `serve` and the test's own flags.
 */
export function runArguments({ name, image, appleHosts, fcm, env = {}, args = [] }) {
  const run = ['run', '-d', '--pull=never', '--name', name, '--label', `${CONTAINER_LABEL}=node`,
    '--label', `${OWNER_LABEL}=${process.pid}`, '-e', 'MOCKAPNS_CONTROL_TOKEN',
    '-e', 'MOCKAPNS_HTTP1_HOST=0.0.0.0', '-e', `MOCKAPNS_HTTP1_PORT=${CONTAINER_PORTS.http1}`];
  const ports = [CONTAINER_PORTS.apns, CONTAINER_PORTS.control, CONTAINER_PORTS.http1];
  if (appleHosts) {
    // Apple's ports inside the container, whatever the image's defaults, so the published ones are known.
    run.push('-e', 'MOCKAPNS_APPLE_HOSTS=1', '-e', 'MOCKAPNS_APPLE_HTTPS_PORT=443',
      '-e', 'MOCKAPNS_MANAGE_SANDBOX_PORT=2195', '-e', 'MOCKAPNS_MANAGE_PRODUCTION_PORT=2196');
    ports.push(...APPLE_PORTS);
  }
  if (fcm) {
    // Only the mock's own FCM port is published: it serves Google's three names too (its certificate carries them),
    // so intercept() routes them there. Google's 443 inside the container goes to a free port, where it cannot
    // collide with Apple's 443.
    run.push('-e', 'MOCKAPNS_FCM=1', '-e', `MOCKAPNS_FCM_PORT=${CONTAINER_PORTS.fcm}`, '-e', 'MOCKAPNS_FCM_HTTPS_PORT=0');
    ports.push(CONTAINER_PORTS.fcm);
  }
  for (const variable of Object.keys(env)) {
    if (variable !== 'MOCKAPNS_CONTROL_TOKEN') run.push('-e', variable);
  }
  for (const port of ports) run.push('-p', `127.0.0.1::${port}`);
  return [...run, image, 'serve', ...args];
}

/** One TLS handshake: true, { verify: why } when the certificate does not verify, or { error } when none happened. */
function handshake(port, servername, ca) {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca, ALPNProtocols: ['h2', 'http/1.1'] });
    socket.setTimeout(2000, () => socket.destroy(new Error('no handshake within 2000 ms')));
    socket.once('secureConnect', () => { socket.destroy(); resolve(true); });
    socket.once('error', (error) => {
      const verify = typeof error.code === 'string' && /CERT|SIGNATURE|VERIFY|ALTNAME/.test(error.code);
      resolve(verify ? { verify: `${error.code}: ${error.message}` } : { error: error.code ?? error.message });
    });
  });
}

/** Output without podman's noise lines, trimmed. */
function clean(text) {
  return text.split('\n').filter((line) => !ENGINE_NOISE.some((noise) => noise.test(line))).join('\n').trim();
}

/** The body of a 200 answer to GET `url`. */
function get(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: 2000 }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`GET ${url} answered ${response.statusCode}: ${text.slice(0, 200)}`));
      });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within 2000 ms`)));
    request.on('error', reject);
  });
}
