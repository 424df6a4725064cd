// Binary mode: `mockapns serve` as a child process of the test.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { MockAPNsError } from './errors.js';
import { onExit, sleep, within } from './util.js';

/** How much of the server's stderr an error quotes. */
const STDERR_KEPT = 8 * 1024;
/** How long the exit hook waits after SIGTERM before SIGKILL, in ms. */
const EXIT_GRACE = 1000;

/** One `mockapns serve` process in its own temporary folder: its exit, its stderr (a file, which outlives the test
 * process, where a pipe would break the server's last write), and stopping it. */
export class ServerProcess {
  constructor(bin, args, env, dir) {
    this.bin = bin;
    this.dir = dir;
    this.stderrFile = `${dir}/stderr.log`;
    this.exit = null;
    const stderr = fs.openSync(this.stderrFile, 'w');
    try {
      this.child = spawn(bin, args, { stdio: ['ignore', 'ignore', stderr], env });
    } finally {
      fs.closeSync(stderr);
    }
    this.pid = this.child.pid;
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve(this.exit ??= { code, signal }));
      this.child.once('error', (error) => resolve(this.exit ??= { code: null, signal: null, error }));
    });
    // A forgotten stop() must not keep the test process alive: the exit hook stops the server then.
    this.child.unref();
    this.forget = onExit(() => {
      if (!this.exit) {
        this.child.kill('SIGTERM');
        // SIGTERM lets serve flush its recording. One that reaches it right after its ready file, before its handler
        // is in place, is lost: so SIGKILL after a grace of EXIT_GRACE ms, on every system.
        if (!goneWithin(this.pid, EXIT_GRACE)) this.child.kill('SIGKILL');
      }
      fs.rmSync(this.dir, { recursive: true, force: true });
    });
  }

  /** The ready file's JSON, once the server wrote it; rejects when the server exits first or `timeout` ms pass. */
  async waitReady(file, timeout) {
    const deadline = Date.now() + timeout;
    for (;;) {
      if (this.exit) {
        throw new MockAPNsError(`mockapns serve (${this.bin}) ${this.exitText()} before it was ready.` +
          `${this.stderrText()} Check the flags in options.args and that the binary runs on its own.`,
        { stderr: this.stderr(), cause: this.exit.error });
      }
      try {
        return JSON.parse(await fsp.readFile(file, 'utf8'));
      } catch (error) {
        if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
      }
      if (Date.now() >= deadline) {
        throw new MockAPNsError(`mockapns serve (pid ${this.pid}) did not write its ready file within ${timeout} ms.` +
          `${this.stderrText()} Raise options.startTimeout on a slow machine.`, { stderr: this.stderr() });
      }
      await sleep(20);
    }
  }

  /** Throws a MockAPNsError when the server is known to have exited: how, and its stderr. */
  assertRunning() {
    if (!this.exit) return;
    throw new MockAPNsError(`The mock server (pid ${this.pid}) is no longer running: it ${this.exitText()}.` +
      `${this.stderrText()} Start a new one with startMockAPNs().`, { stderr: this.stderr() });
  }

  /** After a control request failed: the MockAPNsError saying the server has gone, or null while it runs. */
  async diagnose() {
    await within(this.exited, 1000);
    try {
      this.assertRunning();
      return null;
    } catch (error) {
      return error;
    }
  }

  /** What the server is, for messages. */
  describe() {
    return `pid ${this.pid}`;
  }

  /** Its last output, for messages. */
  async outputText() {
    return this.stderrText();
  }

  /** SIGTERM, then SIGKILL after `timeout` ms; removes the folder; resolves with how it exited. */
  async stop(timeout) {
    if (!this.exit) {
      this.child.kill('SIGTERM');
      if (!(await within(this.exited, timeout))) {
        this.child.kill('SIGKILL');
        await within(this.exited, timeout);
      }
    }
    await fsp.rm(this.dir, { recursive: true, force: true });
    this.forget();
    const exit = this.exit ?? { code: null, signal: 'SIGKILL' };
    return { code: exit.code, signal: exit.signal };
  }

  exitText() {
    const { code, signal, error } = this.exit;
    if (error) return `could not be run (${error.message})`;
    return signal ? `was killed by ${signal}` : `exited with code ${code}`;
  }

  /** The last STDERR_KEPT bytes the server wrote to stderr. */
  stderr() {
    try {
      const text = fs.readFileSync(this.stderrFile);
      return text.subarray(Math.max(0, text.length - STDERR_KEPT)).toString('utf8');
    } catch {
      return '';
    }
  }

  stderrText() {
    const text = this.stderr().trim();
    return text ? ` Its stderr:\n${text}\n` : ' It wrote nothing to stderr.';
  }
}

/** Whether process `pid` (a child of this process) exits within `ms`, waiting synchronously, as an exit hook must.
 * It has exited once it is gone or a zombie (nobody reaps it while this process runs, so it stays one). */
function goneWithin(pid, ms) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ms;
  for (;;) {
    if (exited(pid)) return true;
    if (Date.now() >= deadline) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
}

/** Whether process `pid` is gone or a zombie: its state from /proc on Linux, else from `ps` (macOS has no /proc);
 * false while it runs, or when neither can say. */
function exited(pid) {
  if (fs.existsSync('/proc/self')) {
    try {
      return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === 'ESRCH';
  }
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 });
    return state.trim().startsWith('Z');
  } catch {
    return false;
  }
}
