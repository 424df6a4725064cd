// Container mode's own machinery: the control token, and what the kit says (and leaves behind) when the image is
// missing, the engine does not answer, or the container stops. The rest of the suite runs in this mode too when
// MOCKAPNS_IMAGE is set.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MockAPNsError, startMockAPNs } from 'mockapns';
import { findEngine } from '../src/container.js';
import { deviceToken, engine, leavesNoContainer, onlyIn, push } from './support.js';

/** The status of GET `url` without a token. */
function statusOf(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (response) => { response.resume(); resolve(response.statusCode); }).on('error', reject);
  });
}

describe('container mode', onlyIn('container', 'it needs a container engine and MOCKAPNS_IMAGE'), () => {
  it('makes a control token, sends it, and the image refuses calls without it', async () => {
    const mock = await startMockAPNs();
    try {
      assert.deepEqual([mock.image, mock.pid, mock.child], [process.env.MOCKAPNS_IMAGE, undefined, undefined]);
      assert.match(mock.container, /^mockapns-node-[0-9a-f]{12}$/);
      assert.equal(await statusOf(`${mock.controlURL}/api/v1/notifications`), 401);
      const token = deviceToken(40);
      assert.equal((await push(mock, { token })).status, 200);
      await mock.expect({ token, count: 1 });
    } finally {
      await mock.stop();
    }
  });

  it('names the image and the engine when the image does not exist, and leaves no container', async () => {
    const image = 'localhost/mockapns:no-such-tag';
    await leavesNoContainer(() => assert.rejects(startMockAPNs({ image }), (error) => {
      assert.ok(error instanceof MockAPNsError);
      for (const part of [`(image ${image}, engine ${engine()}) could not be started`, '`make image` builds mockapns:latest',
        "The container's last output:"]) {
        assert.ok(error.message.includes(part), `${JSON.stringify(error.message)} should include ${JSON.stringify(part)}`);
      }
      return true;
    }));
  });

  it('says so when the engine does not answer, and leaves no container', async () => {
    // The real engine's client pointed at a socket nobody serves: what a stopped Docker daemon or podman machine is.
    const real = engine();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mockapns-engine-'));
    const dead = path.join(dir, 'engine.sock');
    const wrapper = path.join(dir, path.basename(real));
    const flags = path.basename(real) === 'docker' ? `-H unix://${dead}` : `--remote --url unix://${dead}`;
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${real}' ${flags} "$@"\n`, { mode: 0o755 });
    try {
      await leavesNoContainer(() => assert.rejects(startMockAPNs({ engine: wrapper }), (error) => {
        assert.ok(error instanceof MockAPNsError);
        for (const part of [`(image ${process.env.MOCKAPNS_IMAGE}, engine ${wrapper}) could not be started`, dead,
          'check that the engine works']) {
          assert.ok(error.message.includes(part), `${JSON.stringify(error.message)} should include ${JSON.stringify(part)}`);
        }
        return true;
      }));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects with the container\'s output when it stops before it is ready', async () => {
    await leavesNoContainer(() => assert.rejects(startMockAPNs({ args: ['--environment', 'staging'] }), (error) => {
      assert.ok(error instanceof MockAPNsError);
      assert.match(error.message, new RegExp(`^The mock's container mockapns-node-\\w+ \\(image ${process.env.MOCKAPNS_IMAGE}, ` +
        'engine .*\\) has stopped \\(exit code [1-9]\\d*\\)\\.'));
      assert.match(error.message, /The container's last output:\n.*staging/s);
      assert.match(error.message, /It stopped before it was ready: check the flags in options\.args\.$/);
      return true;
    }));
  });

  it('says a container that died mid-test has stopped, with its last output, and stop() removes it', async () => {
    await leavesNoContainer(async () => {
      const mock = await startMockAPNs();
      try {
        assert.deepEqual(await mock.notifications(), []);
        execFileSync(engine(), ['kill', mock.container], { stdio: 'ignore' });
        await assert.rejects(mock.notifications(), (error) => {
          assert.ok(error instanceof MockAPNsError);
          assert.equal(error.container, mock.container);
          assert.match(error.message, new RegExp(`^The mock's container ${mock.container} \\(image ${mock.image}, engine .*\\) ` +
            'has stopped \\(exit code \\d+\\)\\.\nWhat to do: start a new one with startMockAPNs\\(\\)\\.\n' +
            "The container's last output:\n    \\S"));
          return true;
        });
        await assert.rejects(mock.expect({ topic: 'com.example.app' }), /has stopped/);
      } finally {
        await mock.stop();
      }
    });
  });
});

describe('the engine picked', () => {
  it('is the one that answers when podman and docker are both on PATH, podman first', () => {
    // Exit status of each fake engine's `info`: podman's machine stopped while Docker Desktop runs, both up, both down.
    for (const { podman, docker, want } of [{ podman: 1, docker: 0, want: 'docker' }, { podman: 0, docker: 0, want: 'podman' },
      { podman: 1, docker: 1, want: 'podman' }]) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mockapns-engines-'));
      try {
        for (const [name, status] of [['podman', podman], ['docker', docker]]) {
          fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n[ "$1" = info ] && exit ${status}\nexit 0\n`, { mode: 0o755 });
        }
        assert.equal(findEngine(undefined, 'mockapns:latest', { PATH: dir }), path.join(dir, want),
          `podman info exits ${podman}, docker info ${docker}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
