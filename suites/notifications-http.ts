/** Requests the notification checks share: thread listings and journaled subscription changes. */
import type { CheckContext } from '../src/suite.js';

export interface Thread { id: string; updated_at: string; unread: boolean; repository?: { full_name?: string } }
export interface Subscription { subscribed: boolean; ignored: boolean }

export async function threads(t: CheckContext, path: string): Promise<Thread[] | undefined> {
  const r = await t.request({ path });
  if (!t.expectStatus(r, [200], `GET ${path}`)) return undefined;
  const body = t.body<Thread[]>(r);
  return Array.isArray(body) ? body : (t.fail(`GET ${path} did not answer an array`), undefined);
}

/** Journals a thread's subscription as it is now, so it is put back at the end of the run. */
export async function keepSubscription(t: CheckContext, id: string): Promise<void> {
  const path = `/notifications/threads/${id}/subscription`;
  const r = await t.request({ path });
  const before = r.status === 200 ? t.body<Subscription>(r) : undefined;
  t.journal.record(`subscription of thread ${id}`, async () => {
    const back = before
      ? await t.client.send({ method: 'PUT', path, body: { ignored: before.ignored } })
      : await t.client.send({ method: 'DELETE', path });
    if (back.status >= 300) throw new Error(`restoring answered ${back.status}`);
  });
}
