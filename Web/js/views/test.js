// A test's history: whether it is flaky or broken right now and why (the service's verdict), status
// timeline, durations chart, the page of each failure, results across runs.
import { h, replaceChildren, route, seg, isolatedText } from '../dom.js';
import { api } from '../api.js';
import { STATUS_LABEL, count, dateTime, duration, isFailing, fileLine, percent, relative, shortCommit } from '../format.js';
import { emptyState, errorState, heading, loadingState, section, statusBadge } from '../ui.js';
import { baseOptions, chartBox, cssVar } from '../chart.js';
import { NO_PAGE } from '../shapes.js';
import { brokenEvidence, flakyEvidence, flakyPages, reasonChips } from '../flaky.js';
import { quarantinedBadge } from '../quarantine.js';

const PAGE_SIZE = 100;

export async function renderTest({ root, params: [testId], signal }) {
  const history = await api.history(testId, { limit: PAGE_SIZE }, { signal });
  const test = history.test;
  const entries = history.entries.slice();
  let cursor = history.nextCursor;

  const title = test.name + (test.arguments ? ' (' + test.arguments + ')' : '');
  document.title = isolatedText(title) + ' · history · Failscope';
  const header = heading([['Runs', route('/runs', { project: test.project })]], title,
    h('span', { class: 'muted', text: test.suite + ' · ' + test.project }));
  const body = h('div', { class: 'history-body' });
  const verdictBox = h('div', { class: 'verdict-box' });
  replaceChildren(root, header, verdictBox, body);
  showVerdict(verdictBox, test, signal);

  const draw = () => {
    if (!entries.length) {
      replaceChildren(body, emptyState('No results for this test yet'));
      return;
    }
    replaceChildren(body, summary(entries), timeline(entries), durationChart(entries), failurePages(entries), historyTable(entries, more));
  };
  const more = h('div', { class: 'more-row' });
  const renderMore = () => {
    replaceChildren(more, cursor
      ? h('button', { type: 'button', class: 'button', text: 'Load older results', on: { click: async (event) => {
        event.target.disabled = true;
        try {
          const next = await api.history(testId, { limit: PAGE_SIZE, cursor }, { signal });
          entries.push(...next.entries);
          cursor = next.nextCursor;
          draw();
          renderMore();
        } catch (error) {
          if (error.name !== 'AbortError') replaceChildren(more, errorState(error, renderMore));
        }
      } } })
      : h('span', { class: 'muted small', text: count(entries.length) + ' results, all shown' }));
  };
  renderMore();
  draw();
}

function summary(entries) {
  const outcomes = entries.filter((e) => e.result.status !== 'skipped');
  const passes = outcomes.filter((e) => !isFailing(e.result.status)).length;
  const failures = outcomes.length - passes;
  const durations = entries.map((e) => e.result.duration).filter((d) => typeof d === 'number');
  const median = durations.length ? durations.slice().sort((a, b) => a - b)[Math.floor(durations.length / 2)] : null;
  const lastFailure = entries.find((e) => isFailing(e.result.status));
  return h('div', { class: 'stat-strip' },
    stat('Results', count(entries.length)),
    stat('Pass rate', percent(outcomes.length ? passes / outcomes.length : null), outcomes.length && passes === outcomes.length ? 'good' : failures ? 'poor' : null),
    stat('Failures', count(failures), failures ? 'poor' : 'good'),
    stat('Median duration', duration(median)),
    stat('Last failure', lastFailure ? relative(lastFailure.ranAt) : 'never', null, lastFailure ? dateTime(lastFailure.ranAt) : ''));
}

/**
 * The service's verdict on this test right now (GET /api/v1/flaky over its project, docs/flaky.md):
 * flaky or broken on which branch and why, or neither. Loaded beside the history; its failure is
 * shown in place and does not hide the history.
 */
async function showVerdict(box, test, signal) {
  replaceChildren(box, loadingState('the flaky analysis'));
  let report;
  try {
    report = await api.flaky({ project: test.project }, { signal });
  } catch (error) {
    if (error.name === 'AbortError') return;
    replaceChildren(box, errorState(error, () => showVerdict(box, test, signal)));
    return;
  }
  const flaky = report.flaky.filter((t) => t.testId === test.id);
  const broken = report.broken.filter((t) => t.testId === test.id);
  const policy = report.policy;
  const verdict = broken.length ? 'broken' : flaky.length ? 'flaky' : 'stable';
  const branchChip = (branch) => (branch ? h('span', { class: 'branch', text: branch }) : h('span', { class: 'muted', text: 'no branch' }));
  const items = [
    ...broken.map((t) => h('div', { class: 'verdict-item', dataset: { verdict: 'broken', branch: t.branch } },
      h('div', { class: 'verdict-line' }, h('span', { class: 'badge status-failed', text: 'Broken' }), ' on ', branchChip(t.branch)),
      h('ul', { class: 'evidence' }, brokenEvidence(t, policy)))),
    ...flaky.map((t) => h('div', { class: 'verdict-item', dataset: { verdict: 'flaky', branch: t.branch } },
      h('div', { class: 'verdict-line' }, h('span', { class: 'badge badge-flaky', text: 'Flaky' }), ' on ', branchChip(t.branch), ' ', reasonChips(t),
        h('span', { class: 'muted small', text: count(t.passCount) + ' passed, ' + count(t.failCount) + ' failed in the window' })),
      h('ul', { class: 'evidence' }, flakyEvidence(t, policy), flakyPages(t)))),
  ];
  const rules = 'Flaky: a pass and a fail on one commit, or a flip rate of at least ' + percent(policy.flipRateThreshold)
    + ' over its newest ' + count(policy.recentResults) + ' results on a branch (with at least ' + count(policy.minimumResults)
    + ' of them); one whose newest ' + count(policy.recoveryPasses) + ' results passed has recovered. Broken: every result on its newest'
    + ' commit failed, at least ' + count(policy.brokenMinimum) + ' of them.';
  replaceChildren(box, h('section', { class: ['card', 'verdict', 'verdict-' + verdict], dataset: { verdict } },
    h('div', { class: 'card-head' },
      h('h2', { text: verdict === 'broken' ? (flaky.length ? 'Broken, and flaky on another branch' : 'Broken right now')
        : verdict === 'flaky' ? 'Flaky right now' : 'Neither flaky nor broken' }),
      h('span', { class: 'muted small', text: 'the last ' + report.days + ' days, by the service\'s rules' })),
    items.length ? items : h('p', { class: 'verdict-none', text: 'No branch of this test is flaky or broken in the last ' + report.days + ' days.' }),
    h('p', { class: 'muted small rules', text: rules })));
}

function stat(label, value, tone, title) {
  return h('div', { class: 'stat', title: title || undefined }, h('div', { class: ['stat-value', tone], text: value }), h('div', { class: 'stat-label', text: label }));
}

function timeline(entries) {
  const ordered = entries.slice().reverse();
  return section('Status timeline', h('span', { class: 'muted small', text: 'oldest → newest; each square is one result' }),
    h('div', { class: 'timeline', role: 'list' }, ordered.map((e) => h('a', {
      class: ['tick', 'status-bg-' + e.result.status], role: 'listitem', href: route('/results/' + seg(e.result.id)),
      dataset: { status: e.result.status },
      title: STATUS_LABEL[e.result.status] + ' · ' + dateTime(e.ranAt) + (e.branch ? ' · ' + e.branch : '') + (e.commit ? ' @ ' + shortCommit(e.commit) : '')
        + (e.result.attempt > 1 ? ' · attempt ' + e.result.attempt : '') + (e.result.page && isFailing(e.result.status) ? ' · on ' + e.result.page : ''),
      attrs: { 'aria-label': STATUS_LABEL[e.result.status] + ' on ' + dateTime(e.ranAt) } }))),
    h('div', { class: 'legend-row' }, ['passed', 'failed', 'error', 'skipped', 'expected_failure'].map((s) =>
      h('span', { class: 'legend-item' }, h('span', { class: ['dot', 'status-' + s] }), STATUS_LABEL[s]))));
}

function durationChart(entries) {
  const ordered = entries.slice().reverse();
  const colors = { passed: cssVar('--passed'), failed: cssVar('--failed'), error: cssVar('--error'), skipped: cssVar('--skipped'),
    expected_failure: cssVar('--expected') };
  return section('Duration', h('span', { class: 'muted small', text: 'seconds per result, oldest → newest' }), chartBox({
    label: 'Duration of each result, oldest to newest',
    height: 180,
    table: () => h('table', { class: 'table compact' },
      h('thead', {}, h('tr', {}, ['Ran at', 'Status', 'Duration'].map((t) => h('th', { text: t })))),
      h('tbody', {}, ordered.map((e) => h('tr', {}, h('td', { text: dateTime(e.ranAt) }), h('td', {}, statusBadge(e.result.status)),
        h('td', { class: 'num', text: duration(e.result.duration) }))))),
    config: () => {
      const options = baseOptions();
      options.scales.y.ticks.callback = (v) => v + ' s';
      options.plugins.tooltip.callbacks = {
        title: (items) => dateTime(ordered[items[0].dataIndex].ranAt),
        label: (item) => STATUS_LABEL[ordered[item.dataIndex].result.status] + ': ' + duration(ordered[item.dataIndex].result.duration),
      };
      options.onClick = (event, elements) => {
        if (elements.length) location.hash = route('/results/' + seg(ordered[elements[0].index].result.id));
      };
      return {
        type: 'bar',
        data: {
          labels: ordered.map((e) => dateTime(e.ranAt)),
          datasets: [{ label: 'Duration (s)', data: ordered.map((e) => e.result.duration ?? null),
            backgroundColor: ordered.map((e) => colors[e.result.status] || colors.skipped), borderRadius: 3, maxBarThickness: 22 }],
        },
        options,
      };
    },
  }));
}

function failurePages(entries) {
  const pages = new Map();
  for (const e of entries) {
    if (!isFailing(e.result.status)) continue;
    const key = e.result.page || NO_PAGE;
    const item = pages.get(key) || { count: 0, sites: new Map(), last: e };
    item.count++;
    const site = e.result.callSite ? fileLine(e.result.callSite) : '—';
    item.sites.set(site, (item.sites.get(site) || 0) + 1);
    pages.set(key, item);
  }
  if (!pages.size) {
    return section('Failures by page', null, h('p', { class: 'muted', text: 'No failures in these results.' }));
  }
  return section('Failures by page', h('span', { class: 'muted small', text: 'where this test failed' }),
    h('table', { class: 'table compact' },
      h('thead', {}, h('tr', {}, ['Page', 'Failures', 'Call sites', 'Latest'].map((t) => h('th', { text: t })))),
      h('tbody', {}, [...pages].sort((a, b) => b[1].count - a[1].count).map(([page, item]) => h('tr', { class: 'failure-page-row', dataset: { page } },
        h('td', {}, page === NO_PAGE ? page : h('a', { class: 'mono', href: route('/pages/' + seg(page)), text: page })),
        h('td', { class: 'num', text: count(item.count) }),
        h('td', { class: 'mono small', text: [...item.sites].map(([site, n]) => site + (n > 1 ? ' ×' + n : '')).join(', ') }),
        h('td', {}, h('a', { href: route('/results/' + seg(item.last.result.id)), text: relative(item.last.ranAt) })))))));
}

function historyTable(entries, more) {
  return section('Results', h('span', { class: 'muted small', text: 'newest first' }),
    h('div', { class: 'table-scroll' }, h('table', { class: 'table history-table' },
      h('thead', {}, h('tr', {}, ['Ran at', 'Status', 'Branch', 'Commit', 'Device', 'Duration', 'Page', 'Call site', 'Message', ''].map((t) => h('th', { text: t, scope: 'col' })))),
      h('tbody', {}, entries.map((e) => {
        const r = e.result;
        return h('tr', { class: 'history-row', dataset: { resultId: String(r.id), status: r.status } },
          h('td', { title: dateTime(e.ranAt) }, h('a', { href: route('/results/' + seg(r.id)), text: dateTime(e.ranAt) })),
          h('td', {}, statusBadge(r.status), r.quarantined && isFailing(r.status) ? quarantinedBadge() : null,
            r.attempt > 1 ? h('span', { class: 'badge subtle', text: '#' + r.attempt }) : null),
          h('td', {}, e.branch ? h('span', { class: 'branch', text: e.branch }) : '—'),
          h('td', { class: 'mono', title: e.commit || '', text: shortCommit(e.commit) }),
          h('td', { class: 'muted', text: r.device || '—' }),
          h('td', { class: 'num', text: duration(r.duration) }),
          h('td', { class: 'mono small', text: isFailing(r.status) ? (r.page || '—') : '' }),
          h('td', { class: 'mono small', text: isFailing(r.status) && r.callSite ? fileLine(r.callSite) : '' }),
          h('td', { class: 'message-cell', title: r.message || '', text: r.message || '' }),
          h('td', {}, h('a', { href: route('/runs/' + seg(r.runId)), class: 'small', text: 'run' })));
      })))), more);
}
