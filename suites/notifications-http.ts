/** Requests the notification checks share: thread listings and journaled subscription changes. */
import { lookAgain } from '../core/look-again.js';
import type { CheckContext } from '../core/suite.js';

export interface Thread { id: string; updated_at: string; unread: boolean; repository?: { full_name?: string } }
export interface Subscription { subscribed: boolean; ignored: boolean }

export async function threads(t: CheckContext, path: string): Promise<Thread[] | undefined> {
  const r = await t.request({ path });
  if (!t.expectStatus(r, [200], `GET ${path}`)) return undefined;
  const body = t.body<Thread[]>(r);
  return Array.isArray(body) ? body : (t.fail(`GET ${path} did not answer an array`), undefined);
}

/** How long a marking answered 202 is looked at again before it is judged: as long as the five looks a second apart it had before. */
const MARKED_WITHIN_MS = 4000;

/** The threads at `path` once `marked` holds of them: a 202 marking finishes in the background, so they are looked at again (core/look-again.ts), within MARKED_WITHIN_MS. */
export function threadsOnceMarked(t: CheckContext, path: string, marked: (seen: Thread[]) => boolean): Promise<Thread[]> {
  return lookAgain((ms) => t.sleep(ms), async () => (await threads(t, path)) ?? [], marked, MARKED_WITHIN_MS);
}

/** Journals a thread's subscription as it is now, so it is put back at the end of the run. */
/**
 * The first thread's subscription, set to ignored (restored at the end of the run): the starting
 * point of the checks that move a subscription away from ignored. Skips when there is no thread.
 */
export async function ignoreFirstThread(t: CheckContext): Promise<string> {
  const id = (await threads(t, '/notifications?all=true&per_page=1'))?.[0]?.id;
  if (!id) return t.skip('missing-resource', 'no notification thread');
  await keepSubscription(t, id);
  const path = `/notifications/threads/${id}/subscription`;
  await t.request({ method: 'PUT', path, body: { ignored: true } });
  return path;
}

export async function keepSubscription(t: CheckContext, id: string): Promise<void> {
  const path = `/notifications/threads/${id}/subscription`;
  const r = await t.request({ path });
  const before = r.status === 200 ? t.body<Subscription>(r) : undefined;
  t.journal.record(`subscription of thread ${id}`, [before ? { method: 'PUT', path, body: { ignored: before.ignored } } : { method: 'DELETE', path }]);
}
