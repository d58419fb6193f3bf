/** Conditional requests and polling: ETag / If-None-Match on events, Last-Modified / If-Modified-Since on notifications, X-Poll-Interval. */
import type { Suite } from '../core/suite.js';
import { ETAG_304_EVERY_TIMELINE } from './event-timelines.js';
import { judgeNotModified } from './not-modified.js';
import { pollingSweep, VALIDATOR_READS } from './polling-sweep.js';

export const conditionalSuite: Suite = {
  name: 'conditional',
  description: 'Polling as the spec describes it: quoted ETags, Last-Modified, 304s and X-Poll-Interval.',
  checks: () => [
    {
      id: 'conditional.events-etag-quoted', title: 'Event timelines send a quoted ETag', requirement: 'cond.etag-quoted', needs: { tokens: ['classic'], resources: ['public_repo'] },
      async run(t) {
        const r = await t.request({ path: `/repos/${t.resources.public_repo}/events` });
        if (!t.expectStatus(r, [200])) return;
        const etag = r.headers.etag;
        if (!etag) t.fail('no ETag header');
        else if (!/^(W\/)?"[^"]*"$/.test(etag)) t.fail(`ETag ${etag} is not a quoted value`);
      },
    },
    {
      id: 'conditional.events-304', title: 'Sending the ETag back in If-None-Match with nothing new answers 304', requirement: 'cond.etag-304',
      needs: { tokens: ['classic'], resources: ['public_repo'] }, polls: 'events',
      async run(t) {
        const path = `/repos/${t.resources.public_repo}/events`;
        const r = await t.request({ path });
        if (!r.headers.etag) return t.skip('inconclusive', 'no ETag to send back');
        // The same conditional request sent by another check of this polling round is its answer (`reuse`): no second interval.
        const again = await t.request({ path, headers: { 'if-none-match': r.headers.etag }, poll: true, reuse: true });
        if (again.status === 304 && again.text.length) t.fail('the 304 carries a body');
        judgeNotModified(t, path, 'etag', r, again);
      },
    },
    {
      id: 'conditional.notifications-304', title: 'Notifications send Last-Modified; sending it back unchanged in If-Modified-Since answers 304',
      requirement: 'cond.last-modified-304', needs: { tokens: ['classic'] }, polls: 'notifications',
      async run(t) {
        const r = await t.request({ path: '/notifications' });
        if (!t.expectStatus(r, [200])) return;
        const lm = r.headers['last-modified'];
        if (!lm) return t.fail('no Last-Modified header');
        const again = await t.request({ path: '/notifications', headers: { 'if-modified-since': lm }, poll: true, reuse: true });
        judgeNotModified(t, '/notifications', 'last-modified', r, again);
      },
    },
    {
      id: 'conditional.poll-interval', title: 'Polled listings (events, notifications) carry X-Poll-Interval', requirement: 'poll.interval-header', needs: { tokens: ['classic'] },
      async run(t) {
        const unseen: string[] = [];
        for (const path of ['/events', '/notifications']) {
          const r = await t.request({ path });
          if (r.status !== 200) {
            unseen.push(`GET ${path} answered ${r.status}`);
            continue;
          }
          const v = r.headers['x-poll-interval'];
          if (v === undefined) t.fail(`GET ${path}: no X-Poll-Interval`);
          else if (!/^\d+$/.test(v)) t.fail(`GET ${path}: X-Poll-Interval "${v}" is not a number of seconds`);
        }
        if (unseen.length === 2) t.skip('inconclusive', `no listing to look at: ${unseen.join(', ')}`);
      },
    },
    VALIDATOR_READS,
    ETAG_304_EVERY_TIMELINE,
    ...pollingSweep(),
    {
      id: 'conditional.rate-limit-304', title: 'GET /rate_limit answers 304 to its own ETag while nothing changed (304 is listed; calling it counts nothing)',
      requirement: 'cond.etag-304', needs: { tokens: ['classic'] },
      async run(t) {
        const r = await t.request({ path: '/rate_limit' });
        if (r.status !== 200 || !r.headers.etag) return t.skip('inconclusive', `GET /rate_limit answered ${r.status}${r.status === 200 ? ' without an ETag' : ''}`);
        const again = await t.request({ path: '/rate_limit', headers: { 'if-none-match': r.headers.etag } });
        if (again.status === 304) return;
        // Requests made elsewhere with the same credentials change the counts, and so the ETag.
        if (again.status === 200 && again.headers.etag !== r.headers.etag) return t.skip('inconclusive', 'the rate-limit status changed between the two requests');
        t.fail(`GET /rate_limit with If-None-Match: ${r.headers.etag}: expected 304 (nothing changed), got ${again.status}`);
      },
    },
  ],
};
