// What changed in a run against a base run (RunComparison, GET /api/v1/runs/{runId}/compare): new failures,
// fixed, still failing, flaky, new and removed tests, the largest duration changes. The base is the URL's
// `base` (a run id), else the newest finished run of `baseBranch` (default main), so the URL is shareable.
import { h, replaceChildren, route, seg, isolatedText } from '../dom.js';
import { api } from '../api.js';
import { count, dateTime, duration, fileLine, shortCommit, testTitle } from '../format.js';
import { emptyState, fact, heading, statusBadge } from '../ui.js';

/** The sections: [field of RunComparison, title, what an empty list means, whether rows show the message]. */
const SECTIONS = [
  ['newFailures', 'New failures', 'No test fails here that did not fail in the base.', true],
  ['fixed', 'Fixed', 'No test that failed in the base passes here.', false],
  ['stillFailing', 'Still failing', 'No test fails in both runs.', true],
  ['quarantined', 'Failed, quarantined', 'No quarantined test failed in this run.', true],
  ['flaky', 'Flaky (passed on retry)', 'No test passed after a failed attempt.', false],
  ['newTests', 'New tests', 'Every test of this run ran in the base too.', false],
  ['removedTests', 'Removed tests', 'Every test of the base ran here too.', false],
];

export async function renderCompare(context) {
  const { root, params: [runId], query, signal } = context;
  const base = query.get('base') || '';
  const baseBranch = query.get('baseBranch') || '';
  const comparison = await api.compare(runId, { base, baseBranch }, { signal });
  performance.mark('failscope:data', { detail: { view: 'compare' } });
  const { run } = comparison.run;
  const branchShown = baseBranch || 'main';
  document.title = 'Compare · ' + isolatedText(run.project) + (run.branch ? ' · ' + isolatedText(run.branch) : '') + ' · Failscope';

  const header = heading(
    [['Runs', route('/runs', { project: run.project })], [run.branch ? run.project + ' · ' + run.branch : run.project, route('/runs/' + seg(run.id))]],
    'Compare with ' + (base ? 'run ' + base : branchShown), statusBadge(comparison.run.status));

  const baseFacts = comparison.base
    ? [fact('Base run', h('a', { class: 'mono', href: route('/runs/' + seg(comparison.base.run.id)), text: comparison.base.run.id })),
      fact('Base branch', comparison.base.run.branch ? h('span', { class: 'branch', text: comparison.base.run.branch }) : '—'),
      fact('Base commit', h('span', { class: 'mono', title: comparison.base.run.commit || '', text: shortCommit(comparison.base.run.commit) })),
      fact('Base started', dateTime(comparison.base.run.startedAt))]
    : [fact('Base run', '—')];
  const summary = h('section', { class: 'card compare-summary' },
    h('dl', { class: 'facts' },
      fact('Run', h('a', { class: 'mono', href: route('/runs/' + seg(run.id)), text: run.id })),
      fact('Commit', h('span', { class: 'mono', title: run.commit || '', text: shortCommit(run.commit) })),
      baseFacts),
    baseForm(run.id, base, baseBranch),
    comparison.base && !base
      ? h('p', { class: 'small' }, h('a', { class: 'permalink', href: route('/runs/' + seg(run.id) + '/compare', { base: comparison.base.run.id }),
        text: 'Link to this comparison with this base run' }))
      : null);

  const nodes = [header, summary];
  if (!comparison.base) {
    nodes.push(emptyState('No base run',
      (base ? 'There is no run ' + base + '.' : 'No finished run of ' + branchShown + ' in ' + run.project + ' to compare with.')
      + ' Every failure counts as new.'));
  }
  for (const [field, title, empty, withMessage] of SECTIONS) {
    nodes.push(resultSection(field, title, comparison[field], empty, withMessage));
  }
  nodes.push(durationSection(comparison.durationChanges));
  replaceChildren(root, nodes);
}

/** Choose another base: a branch, or one run. Submitting changes the URL (and so the view). */
function baseForm(runId, base, baseBranch) {
  const branchInput = h('input', { type: 'text', value: baseBranch, placeholder: 'main', attrs: { 'aria-label': 'Base branch', name: 'baseBranch' } });
  const runInput = h('input', { type: 'text', value: base, placeholder: 'run id', attrs: { 'aria-label': 'Base run', name: 'base' } });
  return h('form', { class: 'compare-base', on: { submit: (event) => {
    event.preventDefault();
    const run = runInput.value.trim();
    location.hash = route('/runs/' + seg(runId) + '/compare', run ? { base: run } : { baseBranch: branchInput.value.trim() });
  } } },
  h('label', {}, 'Base branch ', branchInput), h('label', {}, 'or run ', runInput),
  h('button', { type: 'submit', class: 'button', text: 'Compare' }));
}

function sectionHead(title, n) {
  return h('div', { class: 'card-head' }, h('h2', {}, title, ' ', h('span', { class: 'badge subtle section-count', text: count(n) })));
}

function resultSection(field, title, list, empty, withMessage) {
  const card = h('section', { class: 'card compare-section', dataset: { section: field, count: String(list.length) } }, sectionHead(title, list.length));
  if (!list.length) {
    card.appendChild(h('p', { class: 'muted compare-empty', dataset: { state: 'empty' }, text: empty }));
    return card;
  }
  const heads = ['Test', 'Page', 'Call site', 'Device', withMessage ? 'Message' : 'Duration'];
  card.appendChild(h('div', { class: 'table-scroll' }, h('table', { class: 'table compact compare-table' },
    h('thead', {}, h('tr', {}, heads.map((t) => h('th', { text: t, scope: 'col' })))),
    h('tbody', {}, list.map((r) => h('tr', { dataset: { resultId: String(r.id) } },
      testCell(r),
      h('td', { class: 'page', text: r.page || '—' }),
      h('td', { class: 'mono small call-site', text: r.callSite ? fileLine(r.callSite) : '—' }),
      h('td', { class: 'muted', text: r.device || '—' }),
      withMessage ? h('td', { class: 'message', text: r.message || '—' }) : h('td', { class: 'num', text: duration(r.duration) })))))));
  return card;
}

function testCell(r) {
  return h('td', {}, h('a', { href: route('/results/' + seg(r.id)), text: testTitle(r) }),
    r.attempt > 1 ? h('span', { class: 'badge subtle', text: 'attempt ' + r.attempt }) : null,
    h('div', { class: 'muted small', text: r.suite }));
}

function durationSection(changes) {
  const card = h('section', { class: 'card compare-section', dataset: { section: 'durationChanges', count: String(changes.length) } },
    sectionHead('Largest duration changes', changes.length));
  if (!changes.length) {
    card.appendChild(h('p', { class: 'muted compare-empty', dataset: { state: 'empty' },
      text: 'No test that passed in both runs changed its duration by 0.1 s and 20 % or more.' }));
    return card;
  }
  card.appendChild(h('div', { class: 'table-scroll' }, h('table', { class: 'table compact compare-table' },
    h('thead', {}, h('tr', {}, ['Test', 'Page', 'Call site', 'Base', 'Now', 'Change'].map((t) => h('th', { text: t, scope: 'col' })))),
    h('tbody', {}, changes.map(({ result: r, baseDuration, duration: now }) => h('tr', { dataset: { resultId: String(r.id) } },
      testCell(r),
      h('td', { class: 'page', text: r.page || '—' }),
      h('td', { class: 'mono small call-site', text: r.callSite ? fileLine(r.callSite) : '—' }),
      h('td', { class: 'num', text: duration(baseDuration) }),
      h('td', { class: 'num', text: duration(now) }),
      h('td', { class: ['num', now > baseDuration ? 'slower' : 'faster'],
        text: (now > baseDuration ? '+' : '−') + duration(Math.abs(now - baseDuration)) + ' (' + (baseDuration > 0 ? Math.round((now / baseDuration - 1) * 100) + ' %' : 'new') + ')' })))))));
  return card;
}
