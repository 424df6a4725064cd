// Type declarations for the mockapns test kit, written from the JSDoc of src/*.js (the kit has no build step);
// test/types.test.js checks that every export and member of the running module is declared here, and back.

/** Options of startMockAPNs(). */
export interface MockAPNsOptions {
  /** The mockapns binary; default `$MOCKAPNS_BIN`, else `mockapns` on PATH. */
  bin?: string;
  /** Run the mock from this container image (e.g. 'mockapns:latest') with podman or docker instead of a binary;
   * default `$MOCKAPNS_IMAGE` unless `bin` is given. */
  image?: string;
  /** The container engine (podman, docker or a path); default `$MOCKAPNS_CONTAINER_ENGINE`, else podman or docker on
   * PATH (with both, the one that answers, podman first). */
  engine?: string;
  /** Also serve Apple's own host names under a private CA, so `intercept()` can route them to the mock. */
  appleHosts?: boolean;
  /** Also serve Firebase Cloud Messaging under Google's names and at `fcmURL` (`mockapns serve --fcm`), with a
   * service account the mock trusts; `intercept()` then routes Google's names too. */
  fcm?: boolean;
  /** The test credentials folder (keys.json, AuthKey_*.p8); in container mode, default the image's own. */
  certsDir?: string;
  /** Which key of keys.json token() signs with; default the first for both environments and all topics. */
  keyId?: string;
  /** Ignored: the mock always serves plain HTTP/1.1 APNs requests at `http1URL` (kept so callers that set it work). */
  http1?: boolean;
  /** More `mockapns serve` flags, e.g. ['--environment', 'production']. */
  args?: string[];
  /** More environment for the server (it gets the test's without MOCKAPNS_*; a container gets only these). */
  env?: Record<string, string>;
  /** Ms to wait for the server to be ready (default 20000; 60000 for a container). */
  startTimeout?: number;
  /** Ms stop() waits after SIGTERM before SIGKILL (default 5000). */
  stopTimeout?: number;
  /** Ms a control API request may take (default 10000). */
  requestTimeout?: number;
}

/** Filters of notifications() and expect(), as the control API takes them. */
export interface NotificationFilter {
  token?: string;
  topic?: string;
  push_type?: string;
  pushType?: string;
  status?: number;
  reason?: string;
  /** Records numbered above this one. */
  since?: number;
  /** The newest n. */
  limit?: number;
}

/** expect()'s filter: a NotificationFilter (but `limit`), payload conditions, how many must match and how long to
 * keep asking; the mock checks it (GET /api/v1/expect). */
export interface ExpectFilter extends Omit<NotificationFilter, 'limit'> {
  /** Payload conditions: 'PATH=VALUE' strings (`aps.badge=3` matches 3 numerically), or { PATH: VALUE }. */
  where?: string[] | Record<string, unknown>;
  /** 0 or unset: at least one; n: exactly n. */
  count?: number;
  /** At least n. */
  atLeast?: number;
  /** No record may match. */
  none?: boolean;
  /** Ms to keep asking before failing (default 0). */
  timeout?: number;
}

/** One recorded request, as GET /api/v1/notifications returns it (docs/records.md has every field). */
export interface RecordedNotification {
  seq: number;
  received_at: string;
  method: string;
  path: string;
  device_token: string | null;
  headers: [string, string][];
  payload?: unknown;
  payload_base64?: string;
  payload_bytes: number;
  auth: { kind: 'token' | 'certificate' | 'none'; team_id?: string; key_id?: string; issued_at?: number; topics?: string[] };
  response: { status: number; reason?: string | null; apns_id?: string | null; timestamp?: number | null; [field: string]: unknown };
  faults: string[];
  [field: string]: unknown;
}

/** What setDevice() takes: a state name, an object (a state and/or changes of the virtual device), or null. */
export type DeviceState = 'unregistered' | 'expired' | 'otherEnvironment' | DeviceUpdate | null;

/** An object for setDevice(): how APNs answers the device, and/or changes of the virtual device. */
export interface DeviceUpdate {
  state?: 'unregistered' | 'expired' | 'otherEnvironment' | 'topics' | 'rateLimited';
  topics?: string[];
  max?: number;
  window_seconds?: number;
  timestamp?: number;
  online?: boolean;
  offline_until?: Date | number;
  offlineUntil?: Date | number;
  app_state?: 'foreground' | 'background' | 'notRunning' | 'forceQuit';
  appState?: 'foreground' | 'background' | 'notRunning' | 'forceQuit';
  settings?: Record<string, unknown>;
  push_to_start_tokens?: string[];
  pushToStartTokens?: string[];
  at?: Date | number;
}

/** One notification a device shows. */
export interface ShownNotification {
  apns_id: string;
  title: string | null;
  body: string | null;
  thread_id: string | null;
  collapse_id: string | null;
  topic: string | null;
  time: number;
  [field: string]: unknown;
}

/** What a virtual device shows at one instant (device()). */
export interface DeviceScreen {
  at: number;
  token: string;
  online: boolean;
  app_state: string;
  badge: number;
  notifications: ShownNotification[];
  stored: { apns_id: string; topic: string; push_type: string; time: number; deliverable_until: number; limited_by: string }[];
  live_activities: Record<string, unknown>[];
  [field: string]: unknown;
}

/** One thing that happened to one push on a device (timeline()). */
export interface TimelineEntry {
  apns_id: string;
  time: number;
  outcome: 'delivered' | 'stored' | 'replaced' | 'dropped' | 'throttled' | 'tapped';
  rule: string;
  explanation: string;
  [field: string]: unknown;
}

/** A fault-plan rule for addFault(). */
export interface FaultRule {
  name?: string;
  match?: { token?: string; topic?: string; push_type?: string };
  count?: number;
  action: { type: 'status' | 'delay' | 'stall' | 'drop' | 'goaway'; status?: number; reason?: string; ms?: number };
}

/** What registerFCM() takes: the app instance to register. */
export interface FCMApp {
  /** Default mockapns-test. */
  project?: string;
  /** Default 'ios'. */
  platform?: 'ios' | 'android' | 'web';
  /** The app's bundle id or package name; default com.example.app. */
  bundleId?: string;
  bundle_id?: string;
  /** iOS: the APNs device token behind the registration; default one the mock makes. */
  apnsToken?: string;
  apns_token?: string;
}

/** An app instance registered with the mock's FCM (POST /api/v1/fcm/registrations). */
export interface FCMRegistration {
  /** The registration token, what the sender sends to. */
  token: string;
  fid: string;
  platform: 'ios' | 'android' | 'web';
  project: string;
  bundle_id: string;
  /** iOS: the APNs device token of its virtual iPhone. */
  apns_token?: string;
  topics: string[];
  [field: string]: unknown;
}

/** Filters of fcmMessages(), as the control API takes them. */
export interface FCMFilter {
  project?: string;
  /** The whole projects/P/messages/ID, or its last part. */
  name?: string;
  token?: string;
  topic?: string;
  /** As written, e.g. "'news' in topics". */
  condition?: string;
  status?: number;
  /** true: only dry runs; false: only real sends. */
  validateOnly?: boolean;
  validate_only?: boolean;
  /** The newest n. */
  limit?: number;
}

/** expectFCM()'s filter: what each record must have, how many must match and how long to keep asking. */
export interface ExpectFCMFilter {
  project?: string;
  name?: string;
  token?: string;
  topic?: string;
  condition?: string;
  status?: number;
  validateOnly?: boolean;
  validate_only?: boolean;
  /** 0 or unset: at least one; n: exactly n. */
  count?: number;
  /** Ms to keep asking before failing (default 0). */
  timeout?: number;
}

/** One FCM request the mock answered, as GET /api/v1/fcm/messages returns it (docs/fcm.md). */
export interface RecordedFCMMessage {
  seq: number;
  /** projects/P/messages/ID as answered; null when refused or a dry run. */
  name: string | null;
  project: string;
  received_at_ms: number;
  /** h2 or http/1.1. */
  transport: string;
  validate_only: boolean;
  token?: string;
  topic?: string;
  condition?: string;
  fid?: string;
  status: number;
  /** The message as the sender wrote it. */
  message: Record<string, unknown> | null;
  /** The answer's body as the sender got it. */
  answer: unknown;
  /** The fault rules (`fcm_error`) that fired for it, by name. */
  faults?: string[];
  /** The apns-ids of the APNs pushes it became. */
  apns_ids: string[];
  deliveries: { token: string; platform: string; apns_token?: string; apns_id?: string; apns_status?: number; apns_reason?: string }[];
  [field: string]: unknown;
}

/** What intercept() returns: restore() ends it (so does disposing of it: `using _ = mock.intercept()`). */
export interface Interception {
  restore(): void;
  [Symbol.dispose](): void;
}

/** A running mock, from startMockAPNs(). */
export interface MockAPNs {
  /** Where HTTP/2 senders connect, e.g. `https://127.0.0.1:40123`. */
  readonly url: string;
  /** The control API, e.g. `http://127.0.0.1:40124`. */
  readonly controlURL: string;
  /** Where HTTP/1.1 senders connect, e.g. `http://127.0.0.1:40125`. */
  readonly http1URL: string;
  /** The CA certificate (PEM) that signed the mock's TLS certificate. */
  readonly ca: string;
  /** The test credentials folder token()'s key came from. */
  readonly certsDir: string;
  /** The team ID (`iss`) of token()'s key. */
  readonly teamId: string;
  /** The key ID (`kid`) of token()'s key. */
  readonly keyId: string;
  /** With `options.appleHosts`: Apple's ports (443, 2197, 2195, 2196) → where the mock listens for each. */
  readonly applePorts: Readonly<Record<number, number>> | undefined;
  /** With `options.fcm`: the mock's own FCM port, e.g. `https://127.0.0.1:40127` (trust `fcmCA`). */
  readonly fcmURL: string | undefined;
  /** With `options.fcm`: Google's port (443) → where the mock serves Google's names. */
  readonly fcmPorts: Readonly<Record<number, number>> | undefined;
  /** With `options.fcm`: a service-account key file (project mockapns-test) the mock trusts, on this machine. */
  readonly fcmServiceAccount: string | undefined;
  /** With `options.fcm`: the CA certificate (PEM) of the FCM ports. */
  readonly fcmCA: string | undefined;
  /** With `options.fcm`: the same CA as a file. */
  readonly fcmCAFile: string | undefined;
  /** The image the mock runs from in container mode. */
  readonly image: string | undefined;
  /** The container's name in container mode. */
  readonly container: string | undefined;
  /** The server's process id in binary mode. */
  readonly pid: number | undefined;
  /** The server's ChildProcess in binary mode (unref()'d). */
  readonly child: import('node:child_process').ChildProcess | undefined;
  /** A provider token for `authorization: bearer …`, minted by the mock's own binary; the same one for 30 minutes. */
  token(): string;
  /** The recorded pushes matching `filter`, oldest first. */
  notifications(filter?: NotificationFilter): Promise<RecordedNotification[]>;
  /** Resolves with the matches, or rejects with an AssertionError carrying the mock's report (the closest records). */
  expect(filter?: ExpectFilter): Promise<RecordedNotification[]>;
  /** How APNs answers `deviceToken`, and/or changes of the virtual device; null forgets the device. */
  setDevice(deviceToken: string, state: DeviceState): Promise<Record<string, unknown>>;
  /** Records one change of the virtual device, e.g. 'tap' with { apns_id }. */
  changeDevice(deviceToken: string, change: string, fields?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** What the device shows at `at` (default now on the mock's clock). */
  device(deviceToken: string, options?: { at?: Date | number }): Promise<DeviceScreen>;
  /** What happened to each of its pushes until `until`, oldest first. */
  timeline(deviceToken: string, options?: { until?: Date | number }): Promise<TimelineEntry[]>;
  /** Resolves with the newest shown notification with this title and body, or rejects with an AssertionError. */
  expectShown(deviceToken: string, wanted?: { title?: string; body?: string; at?: Date | number }): Promise<ShownNotification>;
  /** Adds a fault rule; resolves with its id. */
  addFault(rule: FaultRule): Promise<string>;
  /** Forgets records, faults, device states and changes (and FCM records); resolves with how many of each were removed. */
  clear(): Promise<{ notifications: number; faults: number; devices: number; fcmMessages?: number }>;
  /** Writes a new service-account key file for `project` (default mockapns-test) the mock trusts; resolves with its path. */
  newFCMServiceAccount(project?: string, file?: string): Promise<string>;
  /** Registers an app instance with the mock's FCM; resolves with its registration token and APNs token. */
  registerFCM(app?: FCMApp): Promise<FCMRegistration>;
  /** The recorded FCM requests matching `filter`, oldest first. */
  fcmMessages(filter?: FCMFilter): Promise<RecordedFCMMessage[]>;
  /** Resolves with the matching FCM records, or rejects with an AssertionError carrying the mock's report
   * (GET /api/v1/fcm/expect): what was wanted, the matches and the closest misses. */
  expectFCM(filter?: ExpectFCMFilter): Promise<RecordedFCMMessage[]>;
  /** The APNs pushes an FCM record (or message name) became, in the order of its apns_ids. */
  apnsPushesOf(message: RecordedFCMMessage | string): Promise<RecordedNotification[]>;
  /** Routes Apple's APNs host names (with `options.fcm`, Google's FCM names too) in this process to the mock until
   * restore(); needs `options.appleHosts` or `options.fcm`. */
  intercept(): Interception;
  /** Ends this mock's intercept(), if it is in force. */
  restore(): void;
  /** Stops the server (a container is removed); resolves with how it exited. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
  /** What `await using mock = await startMockAPNs()` calls: stop(). */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a mock APNs on free ports and waits until it is ready. */
export declare function startMockAPNs(options?: MockAPNsOptions): Promise<MockAPNs>;

/** What the kit throws when the mock cannot be found, started, reached or asked; the message says what to do. */
export declare class MockAPNsError extends Error {
  constructor(message: string, details?: { stderr?: string; status?: number; container?: string; cause?: unknown });
  /** The server's stderr, when it exited. */
  stderr?: string;
  /** The control API's status, when it answered an error. */
  status?: number;
  /** The container's name, in container mode. */
  container?: string;
}

/** One readable line for a record, e.g. `#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200)`. */
export declare function summary(record: RecordedNotification): string;

/** One readable line for an FCM record, e.g. `#3 FCM message to token cJ3sX0aB…Qw9zPk, project mockapns-test: accepted (200), 1 APNs push`. */
export declare function fcmSummary(record: RecordedFCMMessage): string;

/** Apple's APNs host names and the ports APNs serves each on. */
export declare const APPLE_HOSTS: Readonly<Record<string, readonly number[]>>;

/** Google's names a Firebase sender calls (FCM, OAuth, IID), each on 443. */
export declare const GOOGLE_HOSTS: Readonly<Record<string, readonly number[]>>;
