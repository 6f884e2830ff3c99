// Pages: page objects ranked by flaky failures or by failures; a page opens its flaky and broken tests.
// Reads GET /api/v1/pages (FlakyPageSummary) and GET /api/v1/flaky (FlakyReport): shapes.js.
import { h, replaceChildren, route, seg, isolatedText } from '../dom.js';
import { api } from '../api.js';
import { count, dateTime, fileLine, percent, relative, shortCommit } from '../format.js';
import { emptyState, heading, section } from '../ui.js';
import { DEFAULT_DAYS } from '../shapes.js';
import { brokenEvidence, flakyEvidence, reasonChips } from '../flaky.js';
import { addCommand, commandDisclosure } from '../quarantine.js';

const DAYS = [7, 14, 30, 90];

function windowFilters(query) {
  return { project: query.get('project') || '', branch: query.get('branch') || '', days: query.get('days') || String(DEFAULT_DAYS) };
}

export async function renderPages({ root, query, signal }) {
  const filters = windowFilters(query);
  const list = await api.pages(filters, { signal });
  const pages = list.pages;
  document.title = 'Pages · Failscope';
  const sort = query.get('sort') === 'failures' ? 'failures' : 'flaky';

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
  if (!pages.length) {
    nodes.push(emptyState('No pages in this window', 'No results ran in the last ' + filters.days + ' days' +
      (filters.project || filters.branch ? ' for these filters' : '') + '.'));
    replaceChildren(root, nodes);
    return;
  }
  // The API ranks by flaky failures, then failures, then name; "by failures" re-sorts its answer.
  const ranked = sort === 'flaky' ? pages : pages.slice().sort((a, b) => b.failureCount - a.failureCount
    || b.flakyTestCount - a.flakyTestCount || a.page.localeCompare(b.page));
  const maxFailures = Math.max(1, ...pages.map((p) => p.failureCount));
  const maxFlaky = Math.max(1, ...pages.map((p) => p.flakyFailureCount));
  const total = (key) => pages.reduce((n, p) => n + p[key], 0);
  nodes.push(h('div', { class: 'stat-strip' },
    stat('Pages', count(pages.length)),
    stat('Pages with failures', count(pages.filter((p) => p.failureCount > 0).length), null),
    stat('Failing results', count(total('failureCount')), total('failureCount') ? 'poor' : 'good'),
    stat('Results', count(total('resultCount'))),
    stat('Flaky tests', count(total('flakyTestCount')), total('flakyTestCount') ? 'poor' : null)));

  const table = h('table', { class: 'table pages-table' },
    h('thead', {}, h('tr', {}, ['#', 'Page', 'Failures', 'Failing tests', 'Results', 'Failure rate', 'Flaky tests', 'Flaky failures', 'Devices', 'Last failure']
      .map((t) => h('th', { text: t, scope: 'col' })))),
    h('tbody', {}, ranked.map((p, index) => h('tr', { class: 'page-row', dataset: { page: p.page, suite: p.suite || '' } },
      h('td', { class: 'muted num', text: String(index + 1) }),
      h('td', { class: 'page-cell' }, h('a', { class: 'page-link mono', href: route('/pages/' + seg(p.page), { project: filters.project, branch: filters.branch, days: filters.days, suite: p.suite }), text: p.page }),
        p.suite ? h('div', { class: 'muted small', text: p.suite }) : null),
      h('td', {}, h('div', { class: 'bar-cell' }, meter(p.failureCount, maxFailures, 'failed'), h('span', { class: 'num', text: count(p.failureCount) }))),
      h('td', { class: 'num', text: count(p.failingTestCount) }),
      h('td', { class: 'num', text: count(p.resultCount) }),
      h('td', { class: 'num', text: p.resultCount ? percent(p.failureCount / p.resultCount) : '—' }),
      h('td', { class: ['num', p.flakyTestCount === 0 && 'muted'], text: count(p.flakyTestCount) }),
      h('td', {}, p.flakyFailureCount === 0 ? h('span', { class: 'muted num-zero', text: '0' })
        : h('div', { class: 'bar-cell' }, meter(p.flakyFailureCount, maxFlaky, 'flaky'), h('span', { class: 'num', text: count(p.flakyFailureCount) }))),
      h('td', { class: 'small devices-cell' }, p.devices.length ? p.devices.map((d) => h('span', { class: 'device-chip', text: (d.device || '(none)') + ' ' + count(d.failureCount) })) : h('span', { class: 'muted', text: '—' })),
      h('td', { class: 'nowrap', title: p.lastFailureAt ? dateTime(p.lastFailureAt) : '', text: p.lastFailureAt ? relative(p.lastFailureAt) : '—' })))));
  nodes.push(section('Ranked ' + (sort === 'flaky' ? 'by flaky failures' : 'by failures'), h('span', { class: 'muted small', text: 'open a page for its flaky tests' }),
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
  const filters = windowFilters(query);
  const suite = query.get('suite') || '';
  const [list, report] = await Promise.all([api.pages(filters, { signal }), api.flaky({ page, suite, ...filters }, { signal })]);
  document.title = isolatedText(page) + ' · Failscope';
  const facts = list.pages.find((p) => p.page === page && (!suite || p.suite === suite)) || null;
  const nodes = [heading([['Pages', route('/pages', filters)]], page, h('span', { class: 'muted', text: (suite ? suite + ' · ' : '') + 'last ' + filters.days + ' days' }))];
  if (facts) {
    nodes.push(h('div', { class: 'stat-strip' },
      stat('Failing results', count(facts.failureCount), facts.failureCount ? 'poor' : 'good'),
      stat('Failing tests', count(facts.failingTestCount)),
      stat('Results', count(facts.resultCount)),
      stat('Flaky tests', count(facts.flakyTestCount), facts.flakyTestCount ? 'poor' : null),
      stat('Flaky failures', count(facts.flakyFailureCount), facts.flakyFailureCount ? 'poor' : null),
      stat('Last failure', facts.lastFailureAt ? relative(facts.lastFailureAt) : '—')));
  } else {
    nodes.push(h('div', { class: 'notice', text: 'No results on this page in the last ' + filters.days + ' days.' }));
  }
  nodes.push(section('Flaky tests on this page',
    h('span', { class: 'muted small', text: count(report.flaky.length) + (report.flaky.length === 1 ? ' test' : ' tests') + ', most flaky failures first' }),
    report.flaky.length ? flakyTable(report.flaky, report.policy)
      : emptyState('No flaky tests on this page', 'No test both passed and failed on this page in the last ' + filters.days + ' days.')));
  nodes.push(section('Broken tests', h('span', { class: 'muted small', text: 'failing every recent result on their newest commit: kept apart from flaky' }),
    report.broken.length ? brokenTable(report.broken, report.policy) : h('p', { class: 'muted', text: 'None on this page.' })));
  replaceChildren(root, nodes);
}

function testCell(t) {
  return h('td', { class: 'test-cell' },
    h('a', { href: route('/tests/' + seg(t.testId)), class: 'test-name', text: t.name + (t.arguments ? ' (' + t.arguments + ')' : '') }),
    h('div', { class: 'muted small' }, h('span', { text: t.suite + ' · ' + t.project }), ' ',
      t.branch ? h('span', { class: 'branch', text: t.branch }) : null),
    commandDisclosure('Quarantine…', addCommand(t), 'quarantine-command'));
}

function newestCell(t) {
  const newest = t.newestFailure;
  if (!newest) return h('td', { class: 'muted', text: '—' });
  return h('td', {}, h('a', { href: route('/results/' + seg(newest.resultId)), class: 'newest-failure', title: 'Open the newest failure' },
    newest.screenshot ? h('img', { src: newest.screenshot, alt: '', loading: 'lazy', class: 'mini-thumb', width: 28, height: 56 }) : null,
    h('span', { text: relative(newest.ranAt) })));
}

/** Flaky tests as GET /api/v1/flaky lists them, with the evidence for each. */
function flakyTable(tests, policy) {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'table flaky-table' },
    h('thead', {}, h('tr', {}, ['Test', 'Why', 'Passed', 'Failed', 'Failed at', 'Devices', 'Flaky failures', 'Newest failure']
      .map((text) => h('th', { text, scope: 'col' })))),
    h('tbody', {}, tests.map((t) => h('tr', { class: 'flaky-row', dataset: { testId: t.testId } },
      testCell(t),
      h('td', { class: 'why-cell' }, reasonChips(t), h('ul', { class: 'evidence small' }, flakyEvidence(t, policy))),
      h('td', { class: 'num status-text-passed' }, h('b', { text: count(t.passCount) })),
      h('td', { class: 'num status-text-failed' }, h('b', { text: count(t.failCount) })),
      h('td', { class: 'mono small' }, t.callSites.length ? t.callSites.slice(0, 3).map((site) =>
        h('div', { title: site.file + ':' + site.line + ' on ' + site.page, text: fileLine(site) + ' ×' + count(site.totalFailureCount) }))
        .concat(t.callSites.length > 3 ? [h('div', { class: 'muted', text: '+' + (t.callSites.length - 3) + ' more' })] : []) : '—'),
      h('td', { class: 'small muted', text: t.devices.length ? t.devices.map((d) => (d.device || '(none)') + ' ×' + count(d.failureCount)).join(', ') : '—' }),
      h('td', { class: 'small', title: dateTime(t.firstFlakyFailureAt) + ' → ' + dateTime(t.lastFlakyFailureAt),
        text: relative(t.firstFlakyFailureAt) + ' → ' + relative(t.lastFlakyFailureAt) }),
      newestCell(t))))));
}

/** Broken tests: failing every recent result on their newest commit. */
function brokenTable(tests, policy) {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'table broken-table' },
    h('thead', {}, h('tr', {}, ['Test', 'Why', 'Commit', 'Failing results', 'Newest failure'].map((text) => h('th', { text, scope: 'col' })))),
    h('tbody', {}, tests.map((t) => h('tr', { class: 'broken-row', dataset: { testId: t.testId } },
      testCell(t),
      h('td', { class: 'why-cell' }, h('ul', { class: 'evidence small' }, brokenEvidence(t, policy))),
      h('td', { class: 'mono', title: t.commit, text: shortCommit(t.commit) }),
      h('td', { class: 'num', text: count(t.failCount) }),
      newestCell(t))))));
}
