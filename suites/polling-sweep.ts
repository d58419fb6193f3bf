/**
 * One sweep of conditional requests over the polled endpoints, one check per (rule, endpoint) so the
 * coverage matrix credits each pair. A conditional request must wait out X-Poll-Interval after the
 * read whose validator it sends back: the polling checks read for themselves and are started together
 * (`polls`), so the run waits out the interval once for all of them, not once per endpoint.
 */
import { CATALOGUE, endpointById, type Area } from '../spec/catalogue.js';
import type { Reply } from '../core/client.js';
import type { CheckContext, CheckSpec } from '../core/suite.js';
import { login, TIMELINES } from './event-timelines.js';
import { CONDITION, judgeNotModified, type Validator } from './not-modified.js';
import { status, usedGrowth } from './rate-limit.js';
import { REQUESTS } from './requests.js';

type Needs = NonNullable<CheckSpec['needs']>;

/** An endpoint polled with a validator: events send ETag ("Polling uses ETag and If-None-Match"), notifications Last-Modified. */
interface Polled {
  /** Catalogue endpoint id: the suffix of each check id of the sweep. */
  endpoint: string;
  needs: Needs;
  path(t: CheckContext): Promise<string>;
  validator: Validator;
}

/** The catalogue area of the polled endpoint: what a write must not change while its check waits. */
const area = (polled: Polled): Area => endpointById(polled.endpoint).area;

const LISTED = '/notifications?all=true&per_page=5';

/** The caller's first notification thread listed (the listing is the run's earlier reply where there is one). */
async function firstThread(t: CheckContext): Promise<string> {
  const listed = await t.request({ path: LISTED, reuse: true });
  const id = Array.isArray(listed.json) ? (listed.json as { id?: string }[])[0]?.id : undefined;
  return id ? `/notifications/threads/${id}` : t.skip('missing-resource', `GET ${LISTED} answered ${listed.status} with no thread`);
}

/**
 * The subscription of one of the first five threads listed that answers 200 now (another check may
 * have deleted the first thread's until the end of the run), read afresh: the read the sweep sends back.
 */
async function readableSubscription(t: CheckContext): Promise<string> {
  const listed = await t.request({ path: LISTED, reuse: true });
  for (const { id } of Array.isArray(listed.json) ? (listed.json as { id: string }[]) : []) {
    const path = `/notifications/threads/${id}/subscription`;
    if ((await t.request({ path })).status === 200) return path;
  }
  return t.skip('missing-resource', `no thread of GET ${LISTED} (answered ${listed.status}) has a subscription to read`);
}

const NOTIFICATION_READS: Polled[] = [
  { endpoint: 'notifications.list', needs: { tokens: ['classic'] }, path: async () => '/notifications', validator: 'last-modified' },
  { endpoint: 'notifications.thread', needs: { tokens: ['classic'] }, path: firstThread, validator: 'last-modified' },
  { endpoint: 'notifications.subscription', needs: { tokens: ['classic'] }, path: readableSubscription, validator: 'last-modified' },
  {
    endpoint: 'notifications.repo-list', needs: { tokens: ['classic'], resources: ['public_repo'] },
    path: async (t) => `/repos/${t.resources.public_repo}/notifications`, validator: 'last-modified',
  },
];

const POLLED: Polled[] = [
  ...TIMELINES.map((tl): Polled => ({ endpoint: `events.${tl.name}`, needs: tl.needs, path: async (t) => tl.path(t, login(t)), validator: 'etag' })),
  ...NOTIFICATION_READS,
];

const usable = (t: CheckContext, needs: Needs) => (needs.resources ?? []).every((r) => t.resources[r] !== undefined);

/**
 * "Polling: responses carry `Last-Modified`": every notification read, read afresh, so the sweep's
 * conditional requests send back validators of the state as it is now.
 */
export const VALIDATOR_READS: CheckSpec = {
  id: 'conditional.last-modified-every-read', title: 'Every notification read (listings, a thread, its subscription) carries Last-Modified',
  requirement: 'cond.last-modified-304', needs: { tokens: ['classic'] },
  async run(t) {
    for (const read of NOTIFICATION_READS.filter((r) => usable(t, r.needs))) {
      const path = await read.path(t);
      // The subscription was just read afresh to find one that answers.
      const r = await t.request({ path, reuse: read.endpoint === 'notifications.subscription' });
      if (!t.expectStatus(r, [200], `GET ${path}`)) continue;
      if (!r.headers['last-modified']) t.fail(`GET ${path}: no Last-Modified header`);
    }
  },
};

/** The read of the sweep's endpoint, afresh (the check may run before the run's writes or after), and its conditional request. */
async function poll(t: CheckContext, polled: Polled, between?: () => Promise<void>): Promise<{ path: string; sent: string; read: Reply; again: Reply }> {
  const path = await polled.path(t);
  const read = await t.request({ path });
  if (read.status !== 200) return t.skip('inconclusive', `GET ${path} answered ${read.status}: no validator to send back`);
  const sent = read.headers[polled.validator];
  if (!sent) return t.skip('inconclusive', `GET ${path} answered without ${polled.validator === 'etag' ? 'an ETag' : 'Last-Modified'}: no conditional request can be made`);
  const conditional = { path, headers: { [CONDITION[polled.validator]]: sent }, poll: true };
  // Other checks may run during the wait: what `between` reads is read after it.
  await t.untilPollable(conditional);
  await between?.();
  const again = await t.request(conditional);
  return { path, sent, read, again };
}

/** "304 answers to conditional requests do not consume the rate limit", on each polled endpoint: core.used read (free) around the 304. */
const notCounted = (polled: Polled): CheckSpec => ({
  id: `rate-limit.304-not-counted.${polled.endpoint}`, title: `A 304 from ${polled.endpoint} leaves core usage unchanged`, requirement: 'ratelimit.304-not-counted',
  needs: { ...polled.needs, rateLimiting: true }, polls: area(polled),
  async run(t) {
    let before: Awaited<ReturnType<typeof status>>;
    const { path, sent, again } = await poll(t, polled, async () => {
      before = await status(t);
    });
    const after = await status(t);
    if (again.status !== 304) return t.skip('inconclusive', `GET ${path} with ${CONDITION[polled.validator]}: ${sent} answered ${again.status}, not 304: no 304 to count`);
    const grown = usedGrowth(t, before, after, 'core');
    if (grown !== undefined && grown !== 0) t.fail(`core.used grew by ${grown} across a 304 from GET ${path}`);
  },
});

/** "send it back unchanged in `If-Modified-Since`; with no news the answer is 304", on the single thread and its subscription. */
const lastModified304 = (polled: Polled): CheckSpec => ({
  id: `conditional.last-modified-304.${polled.endpoint}`, title: `${polled.endpoint} answers 304 to its Last-Modified sent back unchanged in If-Modified-Since`,
  requirement: 'cond.last-modified-304', needs: polled.needs, polls: area(polled),
  async run(t) {
    const { path, read, again } = await poll(t, polled);
    judgeNotModified(t, path, 'last-modified', read, again);
  },
});

const alertsPath = (t: CheckContext) => `/repos/${t.resources.public_repo}/code-scanning/alerts`;

/** The profile's first alert, else the first listed. */
async function firstAlert(t: CheckContext): Promise<string> {
  const known = t.resources.alert_numbers?.[0];
  if (known !== undefined) return `${alertsPath(t)}/${known}`;
  const listed = await t.request({ path: `${alertsPath(t)}?per_page=1`, reuse: true });
  const first = Array.isArray(listed.json) ? (listed.json[0] as { number?: number } | undefined)?.number : undefined;
  return first === undefined ? t.skip('missing-resource', `no alert of ${t.resources.public_repo} to read (the listing answered ${listed.status})`) : `${alertsPath(t)}/${first}`;
}

const ALERT_READS: { endpoint: string; path(t: CheckContext): Promise<string> }[] = [
  { endpoint: 'code-scanning.repo-alerts', path: async (t) => alertsPath(t) },
  { endpoint: 'code-scanning.alert', path: firstAlert },
];

/**
 * A read sent back with whichever validator it carries, judged by judgeNotModified. Where the spec
 * does not state that the endpoint sends one, an answer with neither shows nothing.
 */
async function ownValidatorNotModified(t: CheckContext, path: string, reuse: boolean): Promise<void> {
  const first = await t.request({ path, reuse });
  if (first.status !== 200) return t.skip('inconclusive', `GET ${path} answered ${first.status}: nothing to read again`);
  const validator: Validator | undefined = first.headers.etag ? 'etag' : first.headers['last-modified'] ? 'last-modified' : undefined;
  if (!validator) return t.skip('inconclusive', `GET ${path} carries neither ETag nor Last-Modified (the spec does not state one here): no conditional request to make`);
  const again = await t.request({ path, headers: { [CONDITION[validator]]: first.headers[validator]! }, poll: true });
  judgeNotModified(t, path, validator, first, again);
}

/** "304 | not modified (alert reads)", read afresh: the run's writes changed alerts earlier (they are put back only at its end). */
const alertNotModified = (read: (typeof ALERT_READS)[number]): CheckSpec => ({
  id: `alerts.not-modified-304.${read.endpoint}`, title: `${read.endpoint} answers 304 to a conditional request when nothing changed`,
  requirement: 'alerts.not-modified-304', needs: { tokens: ['classic'], resources: ['public_repo'] },
  run: async (t) => ownValidatorNotModified(t, await read.path(t), false),
});

/**
 * "304 | Not modified (conditional request, nothing changed)" on the searches whose rows list 304.
 * The read is the search the schema check already made (`reuse`), so only the conditional request
 * is sent, and a 304 consumes no search ("304 answers to conditional requests do not consume the rate limit").
 */
const searchNotModified = (endpoint: string): CheckSpec => ({
  id: `conditional.search-304.${endpoint}`, title: `${endpoint} answers 304 to a conditional request when nothing changed`,
  requirement: 'cond.etag-304', needs: { tokens: ['classic'], resources: REQUESTS[endpoint]!.needs },
  run: async (t) => ownValidatorNotModified(t, await REQUESTS[endpoint]!.path(t), true),
});

export const pollingSweep = (): CheckSpec[] => [
  ...NOTIFICATION_READS.filter((p) => p.endpoint === 'notifications.thread' || p.endpoint === 'notifications.subscription').map(lastModified304),
  ...POLLED.map(notCounted),
  ...ALERT_READS.map(alertNotModified),
  ...CATALOGUE.filter((e) => e.area === 'search' && e.statuses?.includes(304)).map((e) => searchNotModified(e.id)),
];
