// What the kit says when there is no binary, when the server will not start, dies, or was stopped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MockAPNsError, startMockAPNs } from 'mockapns';
import { engine, kitContainers, onlyIn, suiteMode } from './support.js';

/** Runs `body` with process.env changed by `changes` (undefined removes a variable), then puts it back. */
async function withEnvironment(changes, body) {
  const saved = Object.fromEntries(Object.keys(changes).map((name) => [name, process.env[name]]));
  const apply = (values) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(changes);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

describe('finding the binary', () => {
  it('names the missing file and how to point at one', async () => {
    const missing = path.join(os.tmpdir(), 'no-such-dir', 'mockapns');
    await assert.rejects(startMockAPNs({ bin: missing }), (error) => {
      assert.ok(error instanceof MockAPNsError);
      assert.equal(error.message, `The mockapns binary options.bin=${missing} does not exist. ` +
        'Build it (swift build --product mockapns) and point options.bin or MOCKAPNS_BIN at it.');
      return true;
    });
  });

  it('says where it looked when neither MOCKAPNS_BIN nor PATH has one, and that the image is the other way', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mockapns-empty-'));
    try {
      await withEnvironment({ MOCKAPNS_BIN: undefined, MOCKAPNS_IMAGE: undefined, PATH: empty }, () => assert.rejects(startMockAPNs(), {
        name: 'MockAPNsError',
        message: /^No mockapns binary: options\.bin and MOCKAPNS_BIN are not set and no "mockapns" is on PATH \(1 folder searched\)\. .*set MOCKAPNS_BIN.*set MOCKAPNS_IMAGE=mockapns:latest .*neither podman nor docker is on PATH\)\.$/,
      }));
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });

  it('with an image and no engine, says both ways out', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mockapns-empty-'));
    try {
      await withEnvironment({ MOCKAPNS_IMAGE: 'mockapns:latest', MOCKAPNS_CONTAINER_ENGINE: undefined, PATH: empty },
        () => assert.rejects(startMockAPNs(), {
          name: 'MockAPNsError',
          message: 'The mock should run from the image mockapns:latest (options.image or MOCKAPNS_IMAGE), but neither podman ' +
            'nor docker is on PATH. Either install one (or set MOCKAPNS_CONTAINER_ENGINE to its path), or run the mockapns ' +
            'binary instead: unset MOCKAPNS_IMAGE and set MOCKAPNS_BIN to it (or put it on PATH).',
        }));
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });

  it('refuses a binary and an image at once', async () => {
    await assert.rejects(startMockAPNs({ bin: '/usr/bin/true', image: 'mockapns:latest' }),
      { name: 'MockAPNsError', message: /was given both bin and image: pass one/ });
  });

  it('refuses a certsDir without keys.json', async () => {
    await assert.rejects(startMockAPNs({ certsDir: os.tmpdir() }),
      { name: 'MockAPNsError', message: `options.certsDir=${os.tmpdir()} holds no keys.json: point it at the repository's certs/ folder.` });
  });
});

describe('a server that stops', () => {
  it('that exits before it is ready rejects with its stderr', onlyIn('binary', 'test/container.test.js has the container\'s version'), async () => {
    await assert.rejects(startMockAPNs({ args: ['--environment', 'staging'] }), (error) => {
      assert.ok(error instanceof MockAPNsError);
      assert.match(error.message, /^mockapns serve \(.*\) exited with code \d+ before it was ready\. Its stderr:\n/);
      assert.match(error.message, /--environment must be development or production/);
      assert.match(error.stderr, /staging/);
      return true;
    });
  });

  it('that dies makes the next call say so, with how it ended', onlyIn('binary', 'test/container.test.js has the container\'s version'), async () => {
    const mock = await startMockAPNs();
    try {
      assert.deepEqual(await mock.notifications(), []);
      mock.child.ref();   // the kit unrefs it so a forgotten stop() cannot hold the test process; waiting on it needs a ref
      const exited = once(mock.child, 'exit');
      mock.child.kill('SIGKILL');
      await exited;
      await assert.rejects(mock.notifications(), {
        name: 'MockAPNsError',
        message: new RegExp(`^The mock server \\(pid ${mock.pid}\\) is no longer running: it was killed by SIGKILL\\. ` +
          '.*Start a new one with startMockAPNs\\(\\)\\.$', 's'),
      });
      await assert.rejects(mock.expect({ topic: 'com.example.app' }), /is no longer running/);
    } finally {
      assert.deepEqual(await mock.stop(), { code: null, signal: 'SIGKILL' });
    }
  });

  it('stops with SIGTERM, exiting 0, and refuses calls afterwards', async () => {
    const mock = await startMockAPNs();
    assert.deepEqual(await mock.stop(), { code: 0, signal: null });
    assert.deepEqual(await mock.stop(), { code: 0, signal: null });
    await assert.rejects(mock.clear(), { name: 'MockAPNsError', message: /this mock was stopped; start a new one/ });
  });

  it('is stopped (its container removed) when the test process exits without stop()', async () => {
    const script = "import { startMockAPNs } from 'mockapns'; const m = await startMockAPNs(); " +
      'console.log(JSON.stringify({ pid: m.pid, container: m.container, owner: process.pid })); process.exit(0);';
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script],
      { cwd: new URL('.', import.meta.url), encoding: 'utf8' });
    const { pid, container, owner } = JSON.parse(out);
    if (suiteMode === 'container') {
      const left = execFileSync(engine(), ['ps', '-a', '-q', '--filter', `label=io.mockapns.pid=${owner}`], { encoding: 'utf8' });
      assert.equal(left.trim(), '', `${container} outlived the process that started it`);
    } else {
      const deadline = Date.now() + 5000;
      // Exited once it is gone, or on Linux a zombie (its new parent reaps it when it gets to it).
      const alive = () => {
        if (fs.existsSync('/proc/self')) {
          try { return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
        }
        try { process.kill(pid, 0); return true; } catch { return false; }
      };
      while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(alive(), false, `the server (pid ${pid}) outlived the process that started it`);
    }
  });

  it('stops when disposed: `await using mock = await startMockAPNs()`', async () => {
    const mock = await startMockAPNs();
    await mock[Symbol.asyncDispose]();
    await assert.rejects(mock.clear(), { name: 'MockAPNsError', message: /this mock was stopped/ });
    if (suiteMode === 'container') assert.ok(!kitContainers().includes(mock.container), `${mock.container} is still there`);
    else assert.notEqual(mock.child.exitCode, null, 'the server still runs');
  });

  const AsyncFunction = (async () => {}).constructor;
  let usingSyntax = null;
  try {
    usingSyntax = new AsyncFunction('start', 'await using mock = await start(); return mock;');
  } catch {
    // this Node parses no `await using`
  }
  it('stops at the end of an `await using` block', usingSyntax ? {} : { skip: `Node ${process.version} cannot parse \`await using\` (Node 24 can); the test above calls the same Symbol.asyncDispose` }, async () => {
    const mock = await usingSyntax(() => startMockAPNs());
    await assert.rejects(mock.clear(), { name: 'MockAPNsError', message: /this mock was stopped/ });
  });
});
