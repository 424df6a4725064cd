// Small helpers the server kinds share: waiting, and cleaning up when the test process exits.

/** Cleanups for servers not yet stopped, run when the test process exits (a forgotten stop(), a failed test). */
const atExit = new Set();
let exitHookInstalled = false;

/**
 * Runs `cleanup` (synchronous) if the process exits before the returned function is called.
 * @param {() => void} cleanup
 * @returns {() => void} forgets the cleanup
 */
export function onExit(cleanup) {
  atExit.add(cleanup);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const each of atExit) {
        try {
          each();
        } catch {
          // the process is exiting; the next cleanup still runs
        }
      }
    });
  }
  return () => atExit.delete(cleanup);
}

/** `promise`'s value, or undefined once `ms` pass (the timer is cleared either way). */
export async function within(promise, ms) {
  let timer;
  try {
    return await Promise.race([promise, new Promise((resolve) => { timer = setTimeout(resolve, ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
