/** What the kit throws when the mock cannot be found, started, reached or asked: the message says what to do. */
export class MockAPNsError extends Error {
  /**
   * @param {string} message
   * @param {{ stderr?: string, status?: number, container?: string, cause?: unknown }} [details] the server's stderr
   *   when it exited, the control API's status when it answered an error, the container's name in container mode
   */
  constructor(message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'MockAPNsError';
    if (details.stderr !== undefined) this.stderr = details.stderr;
    if (details.status !== undefined) this.status = details.status;
    if (details.container !== undefined) this.container = details.container;
  }
}
