// Pages: page objects ranked by failures and by flaky tests; a page opens its flaky tests.
// The flaky numbers come from the flaky-tests API (issue 7); until the server has it, the view
// says "no data yet" instead of guessing. Fields are read tolerantly so the view lights up when
// the API lands: pages[].flakyTestCount / flakyFailureCount / devices, GET /api/v1/flaky?page=.
import { h, replaceChildren, route, seg, isolatedText } from '../dom.js';
import { api, apiPaths } from '../api.js';
import { count, dateTime, fileLine, percent, relative, shortCommit } from '../format.js';
import { emptyState, heading, section } from '../ui.js';

const DAYS = [7, 14, 30, 90];

const first = (object, ...keys) => {
  for (const key of keys) if (object && object[key] !== undefined && object[key] !== null) return object[key];
  return null;
};

/** Reads one page summary, with the flaky fields when the server sends them. */
function pageFacts(p) {
  return {
    page: p.page ?? '(no page)',
    suite: first(p, 'suite'),
    results: first(p, 'resultCount'),
    failures: first(p, 'failureCount') ?? 0,
    failingTests: first(p, 'failingTestCount'),
    lastFailureAt: first(p, 'lastFailureAt', 'lastSeenAt', 'lastSeen'),
    lastFlakyFailureAt: first(p, 'lastFlakyFailureAt'),
    flakyTests: first(p, 'flakyTestCount', 'flakyTests'),
    flakyFailures: first(p, 'flakyFailureCount', 'flakyFailures', 'score'),
    devices: deviceBreakdown(first(p, 'devices', 'deviceBreakdown')),
  };
}

/** `[{device, count}]` from an array of objects or a `{device: count}` map. */
function deviceBreakdown(value) {
  if (!value) return [];
  if (Array.isArray(value)) {
    return value.map((d) => ({ device: first(d, 'device', 'name') ?? 'unknown', count: first(d, 'flakyFailureCount', 'failureCount', 'count') ?? 0 }));
  }
  return Object.entries(value).map(([device, n]) => ({ device, count: typeof n === 'number' ? n : first(n, 'flakyFailureCount', 'count') ?? 0 }));
}

export async function renderPages({ root, query, signal }) {
  const filters = { project: query.get('project') || '', branch: query.get('branch') || '', days: query.get('days') || '14' };
  const [list, paths] = await Promise.all([api.pages(filters, { signal }), apiPaths()]);
  const pages = (list.pages || []).map(pageFacts);
  document.title = 'Pages · Failscope';
  const hasFlaky = pages.some((p) => p.flakyTests !== null) || paths.has('/api/v1/flaky');
  const sort = ['flaky', 'failures'].includes(query.get('sort')) ? query.get('sort') : hasFlaky ? 'flaky' : 'failures';

  const apply = (next) => { location.hash = route('/pages', { ...filters, sort, ...next }); };
  const controls = h('form', { class: 'toolbar', on: { submit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    apply({ project: data.get('project'), branch: data.get('branch') });
  } } },
    h('label', { class: 'field' }, h('span', { text: 'Project' }), h('input', { name: 'project', value: filters.project, placeholder: 'all projects' })),
    h('label', { class: 'field' }, h('span', { text: 'Branch' }), h('input', { name: 'branch', value: filters.branch, placeholder: 'all branches' })),
    h('button', { type: 'submit', class: 'button primary', text: 'Apply' }),
    h('div', { class: 'segmented', role: 'group', attrs: { 'aria-label': 'Window' } }, DAYS.map((d) =>
      h('a', { class: ['segment', String(d) === filters.days && 'active'], href: route('/pages', { ...filters, sort, days: d }), text: d + ' days' }))),
    h('div', { class: 'segmented', role: 'group', attrs: { 'aria-label': 'Rank by' } },
      h('a', { class: ['segment', sort === 'failures' && 'active'], href: route('/pages', { ...filters, sort: 'failures' }), text: 'By failures' }),
      h('a', { class: ['segment', sort === 'flaky' && 'active'], href: route('/pages', { ...filters, sort: 'flaky' }), text: 'By flaky tests' })));

  const nodes = [heading([], 'Pages', h('span', { class: 'muted', text: 'page objects where tests fail, since ' + dateTime(list.since) })), controls];
  if (!hasFlaky) {
    nodes.push(h('div', { class: 'notice', dataset: { flaky: 'unavailable' } },
      h('b', { text: 'Flaky tests: no data yet. ' }),
      'This server does not report flaky tests yet (GET /api/v1/flaky). Pages are ranked by failures; flaky columns fill in when it does.'));
  }
  if (!pages.length) {
    nodes.push(emptyState('No pages in this window', 'No results with a page object ran in the last ' + filters.days + ' days' +
      (filters.project || filters.branch ? ' for these filters' : '') + '.'));
    replaceChildren(root, nodes);
    return;
  }
  const ranked = pages.slice().sort(sort === 'flaky' && hasFlaky
    ? (a, b) => (b.flakyFailures ?? 0) - (a.flakyFailures ?? 0) || (b.flakyTests ?? 0) - (a.flakyTests ?? 0) || b.failures - a.failures
    : (a, b) => b.failures - a.failures || (b.flakyTests ?? 0) - (a.flakyTests ?? 0) || a.page.localeCompare(b.page));
  const maxFailures = Math.max(1, ...pages.map((p) => p.failures));
  const maxFlaky = Math.max(1, ...pages.map((p) => p.flakyFailures ?? 0));
  const totals = pages.reduce((t, p) => ({ failures: t.failures + p.failures, results: t.results + (p.results || 0), flaky: t.flaky + (p.flakyTests || 0) }), { failures: 0, results: 0, flaky: 0 });
  nodes.push(h('div', { class: 'stat-strip' },
    stat('Pages', count(pages.length)),
    stat('Pages with failures', count(pages.filter((p) => p.failures > 0).length), null),
    stat('Failing results', count(totals.failures), totals.failures ? 'poor' : 'good'),
    stat('Results', count(totals.results)),
    stat('Flaky tests', hasFlaky ? count(totals.flaky) : 'no data yet', hasFlaky && totals.flaky ? 'poor' : null)));

  const table = h('table', { class: 'table pages-table' },
    h('thead', {}, h('tr', {}, ['#', 'Page', 'Failures', 'Failing tests', 'Results', 'Failure rate', 'Flaky tests', 'Flaky failures', 'Devices', 'Last failure']
      .map((t) => h('th', { text: t, scope: 'col' })))),
    h('tbody', {}, ranked.map((p, index) => h('tr', { class: 'page-row', dataset: { page: p.page } },
      h('td', { class: 'muted num', text: String(index + 1) }),
      h('td', {}, h('a', { class: 'page-link mono', href: route('/pages/' + seg(p.page), { project: filters.project, branch: filters.branch, days: filters.days, suite: p.suite }), text: p.page }),
        p.suite ? h('div', { class: 'muted small', text: p.suite }) : null),
      h('td', {}, h('div', { class: 'bar-cell' }, meter(p.failures, maxFailures, 'failed'), h('span', { class: 'num', text: count(p.failures) }))),
      h('td', { class: 'num', text: p.failingTests === null ? '—' : count(p.failingTests) }),
      h('td', { class: 'num', text: p.results === null ? '—' : count(p.results) }),
      h('td', { class: 'num', text: p.results ? percent(p.failures / p.results) : '—' }),
      h('td', { class: ['num', p.flakyTests === 0 && 'muted'] }, p.flakyTests === null ? h('span', { class: 'muted small', text: 'no data yet' }) : count(p.flakyTests)),
      h('td', {}, p.flakyFailures === null ? h('span', { class: 'muted small', text: '—' })
        : p.flakyFailures === 0 ? h('span', { class: 'muted num-zero', text: '0' })
        : h('div', { class: 'bar-cell' }, meter(p.flakyFailures, maxFlaky, 'flaky'), h('span', { class: 'num', text: count(p.flakyFailures) }))),
      h('td', { class: 'small' }, p.devices.length ? p.devices.map((d) => h('span', { class: 'device-chip', text: (d.device || '(none)') + ' ' + count(d.count) })) : h('span', { class: 'muted', text: '—' })),
      h('td', { class: 'nowrap', title: p.lastFailureAt ? dateTime(p.lastFailureAt) : '', text: p.lastFailureAt ? relative(p.lastFailureAt) : '—' })))));
  nodes.push(section('Ranked ' + (sort === 'flaky' && hasFlaky ? 'by flaky failures' : 'by failures'), h('span', { class: 'muted small', text: 'open a page for its flaky tests' }),
    h('div', { class: 'table-scroll' }, table)));
  replaceChildren(root, nodes);
}

function meter(value, max, tone) {
  const bar = h('span', { class: ['meter', 'meter-' + tone] }, h('span'));
  bar.firstChild.style.width = (100 * value / max) + '%';
  return bar;
}

function stat(label, value, tone) {
  return h('div', { class: 'stat' }, h('div', { class: ['stat-value', tone], text: value }), h('div', { class: 'stat-label', text: label }));
}

export async function renderPage({ root, params: [page], query, signal }) {
  const filters = { project: query.get('project') || '', branch: query.get('branch') || '', days: query.get('days') || '14' };
  const [list, paths] = await Promise.all([api.pages(filters, { signal }), apiPaths()]);
  const suite = query.get('suite') || null;
  document.title = isolatedText(page) + ' · Failscope';
  const facts = (list.pages || []).map(pageFacts).find((p) => p.page === page && (!suite || p.suite === suite)) || null;
  const nodes = [heading([['Pages', route('/pages', filters)]], page, h('span', { class: 'muted', text: (suite ? suite + ' · ' : '') + 'last ' + filters.days + ' days' }))];
  if (facts) {
    nodes.push(h('div', { class: 'stat-strip' },
      stat('Failing results', count(facts.failures), facts.failures ? 'poor' : 'good'),
      stat('Failing tests', facts.failingTests === null ? '—' : count(facts.failingTests)),
      stat('Results', facts.results === null ? '—' : count(facts.results)),
      stat('Flaky tests', facts.flakyTests === null ? 'no data yet' : count(facts.flakyTests), facts.flakyTests ? 'poor' : null),
      stat('Flaky failures', facts.flakyFailures === null ? '—' : count(facts.flakyFailures), facts.flakyFailures ? 'poor' : null),
      stat('Last failure', facts.lastFailureAt ? relative(facts.lastFailureAt) : '—')));
  } else {
    nodes.push(h('div', { class: 'notice', text: 'No results on this page in the last ' + filters.days + ' days.' }));
  }
  if (!paths.has('/api/v1/flaky')) {
    nodes.push(section('Flaky tests on this page', null, h('div', { dataset: { flaky: 'unavailable' } },
      emptyState('No data yet', 'This server does not report flaky tests yet (GET /api/v1/flaky). They appear here when it does.'))));
    replaceChildren(root, nodes);
    return;
  }
  const flaky = await api.flaky({ page, suite: query.get('suite') || '', ...filters }, { signal });
  const flakyTests = first(flaky, 'flaky', 'tests', 'flakyTests') || [];
  const broken = first(flaky, 'broken', 'brokenTests') || [];
  nodes.push(h('div', { dataset: { flaky: 'available' } }, section('Flaky tests on this page',
    h('span', { class: 'muted small', text: count(flakyTests.length) + (flakyTests.length === 1 ? ' test' : ' tests') + ', most flaky failures first' }),
    flakyTests.length ? flakyTable(flakyTests) : emptyState('No flaky tests on this page', 'No test both passed and failed on this page in the last ' + filters.days + ' days.'))));
  nodes.push(section('Broken tests', h('span', { class: 'muted small', text: 'failing every recent result on their newest commit: kept apart from flaky' }),
    broken.length ? brokenTable(broken) : h('p', { class: 'muted', text: 'None on this page.' })));
  replaceChildren(root, nodes);
}

/** An artifact path from the API (`/artifacts/<sha>.png`) or a bare SHA-256. */
function screenshotURL(value) {
  if (!value) return null;
  return String(value).startsWith('/') ? value : '/artifacts/' + value + '.png';
}

function testCell(t) {
  const testId = first(t, 'testId', 'id') || first(t.test, 'id');
  const name = (first(t, 'name') || first(t.test, 'name') || '(unnamed)') + (t.arguments ? ' (' + t.arguments + ')' : '');
  return h('td', { class: 'test-cell' }, testId ? h('a', { href: route('/tests/' + seg(testId)), class: 'test-name', text: name }) : name,
    h('div', { class: 'muted small', text: [first(t, 'suite'), first(t, 'project')].filter(Boolean).join(' · ') }));
}

function newestCell(t) {
  const newest = first(t, 'newestFailure', 'latestFailure');
  const resultId = first(newest, 'resultId', 'id');
  if (resultId === null) return h('td', { class: 'muted', text: '—' });
  const shot = screenshotURL(first(newest, 'screenshot', 'screenshotURL', 'url'));
  return h('td', {}, h('a', { href: route('/results/' + seg(resultId)), class: 'newest-failure', title: 'Open the newest failure' },
    shot ? h('img', { src: shot, alt: '', loading: 'lazy', class: 'mini-thumb', width: 28, height: 56 }) : null,
    h('span', { text: first(newest, 'ranAt') ? relative(newest.ranAt) : 'open' })));
}

const REASONS = { contradiction: 'pass and fail on one commit', flip_rate: 'flip rate' };

/** Flaky tests as GET /api/v1/flaky lists them (issue 7: FlakyTest). */
function flakyTable(tests) {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'table flaky-table' },
    h('thead', {}, h('tr', {}, ['Test', 'Branch', 'Why', 'Flip rate', 'Passed', 'Failed', 'Contradicting commits', 'Failed at', 'Devices', 'First → last flaky failure', 'Newest failure']
      .map((text) => h('th', { text, scope: 'col' })))),
    h('tbody', {}, tests.map((t) => {
      const commits = first(t, 'contradictingCommits') || [];
      const commitCount = first(t, 'contradictingCommitCount') ?? commits.length;
      const flip = first(t, 'flipRate');
      const sites = (first(t, 'callSites') || []).map((site) => (typeof site === 'string' ? site : fileLine(site)));
      const devices = deviceBreakdown(first(t, 'devices'));
      return h('tr', { class: 'flaky-row', dataset: { testId: first(t, 'testId') || '' } },
        testCell(t),
        h('td', {}, first(t, 'branch') ? h('span', { class: 'branch', text: t.branch }) : '—'),
        h('td', {}, (first(t, 'reasons') || []).map((reason) => h('span', { class: 'reason-chip', text: REASONS[reason] || reason }))),
        h('td', { class: 'num', title: first(t, 'flips') !== null ? t.flips + ' flips over ' + (t.sampleCount ?? '?') + ' results' : '',
          text: flip === null ? '—' : percent(flip) }),
        h('td', { class: 'num status-text-passed' }, h('b', { text: count(first(t, 'passCount')) })),
        h('td', { class: 'num status-text-failed' }, h('b', { text: count(first(t, 'failCount')) })),
        h('td', { class: 'mono small', title: commits.map((c) => (c.commit || c) + (c.passes !== undefined ? ': ' + c.passes + ' passed, ' + c.fails + ' failed' : '')).join('\n') },
          commits.length ? commits.slice(0, 3).map((c) => shortCommit(typeof c === 'string' ? c : c.commit)).join(', ') + (commitCount > 3 ? ' +' + (commitCount - 3) : '') : '—'),
        h('td', { class: 'mono small', text: sites.slice(0, 3).join(', ') + (sites.length > 3 ? ' +' + (sites.length - 3) : '') || '—' }),
        h('td', { class: 'small muted', text: devices.length ? devices.map((d) => (d.device || '(none)') + ' ×' + count(d.count)).join(', ') : '—' }),
        h('td', { class: 'small nowrap', text: relative(first(t, 'firstFlakyFailureAt', 'firstFlakyAt')) + ' → ' + relative(first(t, 'lastFlakyFailureAt', 'lastFlakyAt')) }),
        newestCell(t));
    }))));
}

/** Broken tests (issue 7: BrokenTest): failing every recent result on their newest commit. */
function brokenTable(tests) {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'table broken-table' },
    h('thead', {}, h('tr', {}, ['Test', 'Branch', 'Commit', 'Failing results', 'Newest failure'].map((text) => h('th', { text, scope: 'col' })))),
    h('tbody', {}, tests.map((t) => h('tr', { class: 'broken-row', dataset: { testId: first(t, 'testId') || '' } },
      testCell(t),
      h('td', {}, first(t, 'branch') ? h('span', { class: 'branch', text: t.branch }) : '—'),
      h('td', { class: 'mono', title: first(t, 'commit') || '', text: shortCommit(first(t, 'commit')) }),
      h('td', { class: 'num', text: count(first(t, 'failCount', 'failureCount')) }),
      newestCell(t))))));
}
