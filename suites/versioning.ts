/** Versioning: both listed API versions and both media types, probed on public events; what the spec leaves open is only observed. */
import { API_VERSIONS } from '../spec/vocabulary.js';
import { PUBLIC_PROBE } from '../core/preflight.js';
import type { Suite } from '../core/suite.js';

export const versioningSuite: Suite = {
  name: 'versioning',
  description: 'The version header with both listed versions, the recommended and the older media type.',
  checks: () => [
    {
      id: 'versioning.listed-versions', title: 'Both listed API versions are accepted', requirement: 'versioning.listed-versions', needs: { anonymous: true },
      async run(t) {
        for (const v of API_VERSIONS) t.expectStatus(await t.request({ path: PUBLIC_PROBE, headers: { [t.names.apiVersionHeader]: v } }), [200], `${t.names.apiVersionHeader}: ${v}`);
      },
    },
    {
      id: 'versioning.media-types', title: 'The recommended and the older media type are both accepted', requirement: 'versioning.media-types', needs: { anonymous: true },
      async run(t) {
        for (const accept of [t.names.mediaType, t.names.mediaTypeV3]) t.expectStatus(await t.request({ path: PUBLIC_PROBE, headers: { accept } }), [200], `accept: ${accept}`);
      },
    },
    {
      id: 'versioning.omitted-or-unknown', title: 'Behaviour without a version header, or with an unlisted one (observed only)', requirement: 'versioning.unshown-behaviour',
      observes: true, needs: { anonymous: true },
      async run(t) {
        const none = await t.request({ path: PUBLIC_PROBE });
        t.info(`without ${t.names.apiVersionHeader}: ${none.status}${none.headers[t.names.apiVersionSelectedHeader.toLowerCase()] ? `, served ${none.headers[t.names.apiVersionSelectedHeader.toLowerCase()]}` : ''}`);
        const odd = await t.request({ path: PUBLIC_PROBE, headers: { [t.names.apiVersionHeader]: '1999-01-01' } });
        t.info(`with ${t.names.apiVersionHeader}: 1999-01-01: ${odd.status}`);
      },
    },
  ],
};
