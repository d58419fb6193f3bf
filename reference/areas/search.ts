/**
 * Document 1, search: code, commits, issues and pull requests, labels, repositories over a
 * deterministic corpus (reference/areas/search/corpus.ts). The query language, validation,
 * scoping and paging live in search/engine.ts; record shapes in search/kinds.ts.
 */
import type { AreaModule } from '../area.js';
import type { Fault } from '../fault.js';
import { canRead, ssoBlocks } from '../access.js';
import { notFound, type HandlerContext } from '../http.js';
import { buildCorpus, type Corpus } from './search/corpus.js';
import { invalid, runSearch } from './search/engine.js';
import { codeKind, commitKind, issueKind, labelKind, repositoryKind } from './search/kinds.js';

export interface SearchState {
  readonly corpus: Corpus;
}

const visibleRepos = (ctx: HandlerContext) => new Set(ctx.state.world.liveRepos()
  .filter((r) => canRead(ctx.state.world, ctx.caller, r) && !ssoBlocks(ctx.state.world, ctx.caller, r.owner)).map((r) => r.id));

export const searchArea: AreaModule<SearchState> = {
  area: 'search',
  faults: [
    { id: 'search-missing-q-accepted', requirement: 'search.q-required', effect: 'A search without q answers 200 with every record.' },
    { id: 'search-422-wrong-message', requirement: 'search.validation-message', effect: "Search 422s say 'Unprocessable Entity', not 'Validation failed'." },
    { id: 'search-q-length-counts-qualifiers', requirement: 'search.q-length-256', effect: 'The 256-character limit counts the whole q, qualifiers included.' },
    { id: 'search-q-length-unchecked', requirement: 'search.q-length-256', effect: 'q of any keyword length is accepted.' },
    { id: 'search-operators-unlimited', requirement: 'search.max-operators', effect: 'Any number of AND/OR/NOT operators is accepted.' },
    { id: 'search-operators-five-refused', requirement: 'search.max-operators', effect: 'Exactly five operators is already refused (off by one).' },
    { id: 'search-inaccessible-leaks', requirement: 'search.inaccessible-resources-422', effect: 'repo:/user:/org: naming an unreadable resource answers 200 with its private results.' },
    { id: 'search-inaccessible-empty', requirement: 'search.inaccessible-resources-422', effect: 'repo:/user:/org: naming only inaccessible resources answers 200 with no results.' },
    { id: 'search-partial-access-refused', requirement: 'search.partial-access-filtered', effect: 'Naming some inaccessible resources among accessible ones answers 422.' },
    { id: 'search-app-user-without-is-accepted', requirement: 'search.app-user-issue-qualifier', effect: 'App user tokens may search issues without is:issue or is:pull-request.' },
    { id: 'search-code-qualifier-only-accepted', requirement: 'search.code-requires-term', effect: 'Code search accepts a q of qualifiers only.' },
    { id: 'search-code-other-branches', requirement: 'search.code-default-branch', effect: 'Code search also finds files on other branches.' },
    { id: 'search-code-large-files-indexed', requirement: 'search.code-file-size', effect: 'Code search also finds files of 384 KB and more.' },
    { id: 'search-commits-other-branches', requirement: 'search.commits-default-branch', effect: 'Commit search also finds commits on other branches.' },
    { id: 'search-labels-unknown-repository-422', requirement: 'errors.not-found', effect: 'Label search with a repository_id naming no repository answers 422 instead of 404.', endpoints: ['search.labels'] },
    { id: 'search-labels-without-repository-accepted', requirement: 'search.labels-repository-id', effect: 'Label search without repository_id searches every repository.' },
    { id: 'search-score-ascending', requirement: 'search.best-match-descending', effect: 'The default ordering is best match ascending.' },
    { id: 'search-per-page-uncapped', requirement: 'search.per-page-max-100', effect: 'per_page above 100 is honoured.' },
    { id: 'search-beyond-1000-reachable', requirement: 'search.reachable-1000', effect: 'Results past the first 1,000 are served.' },
    { id: 'search-total-count-capped', requirement: 'resource.search-envelope', effect: 'total_count stops at 1,000 instead of counting every match.' },
    { id: 'search-incomplete-results-string', requirement: 'resource.search-envelope', effect: 'incomplete_results is the string "false".' },
    { id: 'search-text-match-ignored', requirement: 'search.text-match-opt-in', effect: 'The text-match media type adds no text_matches.' },
    { id: 'search-text-match-off-by-one', requirement: 'search.text-match-indices', effect: 'Text-match indices are shifted one character right.' },
    ...(['code', 'commits', 'labels', 'repositories'] as const).flatMap((k): Fault[] => [
      { id: `search-${k}-score-ascending`, requirement: 'search.best-match-descending', effect: `${k} search orders best match ascending by default.` },
      { id: `search-${k}-anonymous-refused`, requirement: 'auth.anonymous-public-data', effect: `${k} search answers 401 to anonymous callers.` },
      { id: `search-${k}-text-match-ignored`, requirement: 'search.text-match-opt-in', effect: `The text-match media type adds no text_matches to ${k} search.` },
    ]),
    // Conditional-request faults of one endpoint are named after its catalogue id (reference/server.ts).
    ...(['code', 'commits', 'issues', 'labels'] as const).map((k): Fault => (
      { id: `search-${k}-if-none-match-ignored`, requirement: 'cond.etag-304', effect: `A matching If-None-Match on ${k} search is answered 200, never 304.`, endpoints: [`search.${k}`] })),
    { id: 'search-issues-anonymous-refused', requirement: 'auth.anonymous-public-data', effect: 'Issue search answers 401 to anonymous callers.', endpoints: ['search.issues'] },
    { id: 'search-text-match-fragment-uppercased', requirement: 'search.text-match-fields', effect: 'Text-match fragments are upper-cased, so they are no substring of the property value (indices still select the matches, case aside).' },
    { id: 'search-text-match-object-url-relative', requirement: 'search.text-match-fields', effect: 'Text-match object_url is a path without scheme and host, not a URL.' },
    { id: 'search-code-per-page-uncapped', requirement: 'search.per-page-max-100', effect: 'Code search honours per_page above 100.' },
    { id: 'search-commits-per-page-uncapped', requirement: 'search.per-page-max-100', effect: 'Commit search honours per_page above 100.' },
    { id: 'search-repositories-per-page-uncapped', requirement: 'search.per-page-max-100', effect: 'Repository search honours per_page above 100.' },
    { id: 'search-repositories-beyond-1000-reachable', requirement: 'search.reachable-1000', effect: 'Repository search serves results past the first 1,000.' },
    { id: 'search-commits-text-match-property', requirement: 'search.text-match-opt-in', effect: 'Commit text matches name the property `commit.message`, not `message`.' },
    { id: 'search-code-q-length-unchecked', requirement: 'search.q-length-256', effect: 'Code search accepts q of any keyword length.' },
    { id: 'search-issues-operators-unlimited', requirement: 'search.max-operators', effect: 'Issue search accepts any number of AND/OR/NOT operators (code search still refuses six).' },
    { id: 'search-code-operators-unlimited', requirement: 'search.max-operators', effect: 'Code search accepts any number of AND/OR/NOT operators.' },
    { id: 'search-code-422-wrong-message', requirement: 'search.validation-message', effect: "Code search 422s say 'Unprocessable Entity', not 'Validation failed'." },
    { id: 'search-user-unknown-accepted', requirement: 'search.inaccessible-resources-422', effect: 'user: naming an account that does not exist answers 200 with no results.' },
    { id: 'search-org-unknown-accepted', requirement: 'search.inaccessible-resources-422', effect: 'org: naming an organization that does not exist answers 200 with no results.' },
    { id: 'search-sso-results-included', requirement: 'auth.sso-partial-results', effect: 'Results of organizations the token is not SSO-authorized for are included.' },
    { id: 'search-sso-no-partial-header', requirement: 'auth.sso-partial-results', effect: 'Omitting an SSO organization\'s results sends no partial-results header.' },
  ],
  createState: (init) => {
    // Built at the first search, not at the start: it is most of a start's work, and most references
    // a test starts are never searched. The world it reads does not change, so it is the same corpus.
    let corpus: Corpus | undefined;
    return { get corpus() { return (corpus ??= buildCorpus(init)); } };
  },
  handlers: {
    'search.code': (ctx) => runSearch(ctx, codeKind, ctx.state.search.corpus.code),
    'search.commits': (ctx) => runSearch(ctx, commitKind, ctx.state.search.corpus.commits),
    'search.issues': (ctx) => runSearch(ctx, issueKind, ctx.state.search.corpus.issues),
    'search.repositories': (ctx) => runSearch(ctx, repositoryKind, [...ctx.state.world.liveRepos(), ...ctx.state.search.corpus.searchRepos]),
    'search.labels': (ctx) => {
      const labels = ctx.state.search.corpus.labels;
      const raw = ctx.query.get('repository_id');
      if (raw === null || raw === '') {
        if (ctx.fault('search-labels-without-repository-accepted')) {
          const visible = visibleRepos(ctx);
          return runSearch(ctx, labelKind, labels.filter((l) => visible.has(l.repoId)));
        }
        return invalid(ctx, [{ resource: 'Search', field: 'repository_id', code: 'missing', message: 'repository_id is missing' }]);
      }
      const id = Number(raw);
      if (!Number.isInteger(id)) {
        return invalid(ctx, [{ resource: 'Search', field: 'repository_id', code: 'invalid', message: 'repository_id must be an integer' }]);
      }
      // A repository the caller may not see does not exist for them.
      if (!visibleRepos(ctx).has(id)) {
        if (!ctx.state.world.repoById(id) && ctx.fault('search-labels-unknown-repository-422')) {
          return invalid(ctx, [{ resource: 'Search', field: 'repository_id', code: 'invalid', message: 'repository_id names no repository' }]);
        }
        return notFound();
      }
      return runSearch(ctx, labelKind, labels.filter((l) => l.repoId === id));
    },
  },
};
