// Runs: newest first, filters (project, branch, status), pass-rate trend, cursor pagination.
import { h, replaceChildren, route, seg, safeHref } from '../dom.js';
import { api } from '../api.js';
import { count, dateTime, duration, passRate, relative, runSeconds, shortCommit, percent } from '../format.js';
import { countsBar, countPills, emptyState, heading, passRateText, section, statusBadge, errorState } from '../ui.js';
import { baseOptions, chartBox, cssVar } from '../chart.js';

const PAGE_SIZE = 50;

export async function renderRuns({ root, query, signal }) {
  const filters = {
    project: query.get('project') || '',
    branch: query.get('branch') || '',
    status: query.get('status') || '',
  };
  const limit = Math.min(200, Math.max(1, parseInt(query.get('limit'), 10) || PAGE_SIZE));
  if (limit !== PAGE_SIZE) filters.limit = String(limit);
  const list = await api.runs({ ...filters, limit }, { signal });
  document.title = 'Runs · Failscope';
  const runs = list.runs.slice();

  const apply = (next) => { location.hash = route('/runs', { ...filters, ...next }); };
  const projects = new Set(runs.map((r) => r.run.project));
  const branches = new Set(runs.map((r) => r.run.branch).filter(Boolean));
  if (filters.project) projects.add(filters.project);

  const filterBar = h('form', { class: 'toolbar', on: { submit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    apply({ project: data.get('project'), branch: data.get('branch'), status: data.get('status') });
  } } },
    h('label', { class: 'field' }, h('span', { text: 'Project' }),
      h('input', { name: 'project', value: filters.project, placeholder: 'all projects', attrs: { list: 'projects-list', autocomplete: 'off' } }),
      h('datalist', { id: 'projects-list' }, [...projects].sort().map((p) => h('option', { value: p })))),
    h('label', { class: 'field' }, h('span', { text: 'Branch' }),
      h('input', { name: 'branch', value: filters.branch, placeholder: 'all branches', attrs: { list: 'branches-list', autocomplete: 'off' } }),
      h('datalist', { id: 'branches-list' }, [...branches].sort().map((b) => h('option', { value: b })))),
    h('label', { class: 'field' }, h('span', { text: 'Status' }),
      selectOf('status', filters.status, [['', 'Any'], ['failed', 'Failed'], ['passed', 'Passed'], ['incomplete', 'Incomplete']],
        (value) => apply({ status: value }))),
    h('button', { type: 'submit', class: 'button primary', text: 'Apply' }),
    (filters.project || filters.branch || filters.status)
      ? h('a', { class: 'button subtle', href: '#/runs', text: 'Clear filters' }) : null);

  const active = Object.entries(filters).filter(([k, v]) => v && k !== 'limit').map(([k, v]) => k + ': ' + v).join(', ');
  const nodes = [heading([], 'Runs', h('span', { class: 'muted', text: active ? 'filtered by ' + active : 'newest first' })), filterBar];

  if (!runs.length) {
    nodes.push(emptyState(active ? 'No runs match these filters' : 'No runs yet',
      active ? 'Try another project, branch or status.'
        : 'Point a test run at this service: FAILSCOPE_URL=' + location.origin + ' FAILSCOPE_TOKEN=<upload token> swift test'));
    replaceChildren(root, nodes);
    return;
  }

  nodes.push(summaryStrip(runs));
  nodes.push(section('Pass rate', h('span', { class: 'muted small', text: 'last ' + runs.length + ' runs shown, oldest → newest' }),
    trendChart(runs)));

  const tbody = h('tbody');
  const table = h('table', { class: 'table runs-table' },
    h('thead', {}, h('tr', {},
      ['Status', 'Run', 'Branch', 'Commit', 'Device', 'Started', 'Duration', 'Results', 'Pass rate', 'CI']
        .map((label) => h('th', { text: label, scope: 'col' })))),
    tbody);
  appendRows(tbody, runs);

  const more = h('div', { class: 'more-row' });
  let cursor = list.nextCursor;
  const renderMore = () => {
    replaceChildren(more);
    if (!cursor) {
      more.appendChild(h('span', { class: 'muted small', text: count(runs.length) + ' runs, all shown' }));
      return;
    }
    more.appendChild(h('button', { type: 'button', class: 'button', text: 'Load older runs', on: { click: async (event) => {
      event.target.disabled = true;
      event.target.textContent = 'Loading…';
      try {
        const next = await api.runs({ ...filters, limit, cursor }, { signal });
        runs.push(...next.runs);
        appendRows(tbody, next.runs);
        cursor = next.nextCursor;
        renderMore();
      } catch (error) {
        if (error.name !== 'AbortError') replaceChildren(more, errorState(error, renderMore));
      }
    } } }));
  };
  renderMore();
  nodes.push(section('Runs', h('span', { class: 'muted small', text: count(runs.length) + (cursor ? '+' : '') + ' runs' }),
    h('div', { class: 'table-scroll' }, table), more));
  replaceChildren(root, nodes);
}

function selectOf(name, value, options, onChange) {
  const select = h('select', { name, on: { change: (event) => onChange(event.target.value) } },
    options.map(([v, label]) => h('option', { value: v, text: label })));
  select.value = value;
  return select;
}

function appendRows(tbody, runs) {
  const fragment = document.createDocumentFragment();
  for (const summary of runs) fragment.appendChild(runRow(summary));
  tbody.appendChild(fragment);
}

function runRow({ run, status, counts }) {
  const link = route('/runs/' + seg(run.id));
  const ci = run.ciBuildURL && safeHref(run.ciBuildURL);
  return h('tr', { class: 'run-row', dataset: { runId: run.id } },
    h('td', {}, statusBadge(status), counts.quarantinedFailingTests
      ? h('div', { class: 'small status-text-quarantined', text: counts.quarantinedFailingTests + ' quarantined' }) : null),
    h('td', { class: 'run-cell' },
      h('a', { href: link, class: 'run-link', text: run.project }),
      h('div', { class: 'muted small mono', text: run.id })),
    h('td', {}, run.branch ? h('span', { class: 'branch', text: run.branch }) : h('span', { class: 'muted', text: '—' })),
    h('td', { class: 'mono', title: run.commit || '', text: shortCommit(run.commit) }),
    h('td', {}, run.device || '—', run.osVersion ? h('div', { class: 'muted small', text: run.osVersion }) : null),
    h('td', { class: 'nowrap', title: dateTime(run.startedAt) }, relative(run.startedAt)),
    h('td', { class: 'num' }, run.finishedAt ? duration(runSeconds(run)) : h('span', { class: 'muted', text: 'running' })),
    h('td', { class: 'results-cell' }, countsBar(counts), countPills(counts)),
    h('td', { class: 'num' }, passRateText(passRate(counts))),
    h('td', {}, ci ? h('a', { href: ci, text: run.ciProvider || 'build', attrs: { rel: 'noopener noreferrer', target: '_blank' } })
      : h('span', { class: 'muted', text: '—' })));
}

function summaryStrip(runs) {
  const finished = runs.filter((r) => r.status !== 'incomplete');
  const failed = runs.filter((r) => r.status === 'failed').length;
  const totals = runs.reduce((acc, r) => {
    acc.passed += r.counts.passed + r.counts.expectedFailure; acc.ran += r.counts.total - r.counts.skipped; return acc;
  }, { passed: 0, ran: 0 });
  const latest = runs[0];
  return h('div', { class: 'stat-strip' },
    stat('Runs shown', count(runs.length)),
    stat('Failed runs', count(failed), failed ? 'poor' : 'good'),
    stat('Incomplete', count(runs.length - finished.length)),
    stat('Pass rate (all results)', percent(totals.ran ? totals.passed / totals.ran : null)),
    stat('Latest', relative(latest.run.startedAt), null, dateTime(latest.run.startedAt)));
}

function stat(label, value, tone, title) {
  return h('div', { class: 'stat', title }, h('div', { class: ['stat-value', tone], text: value }), h('div', { class: 'stat-label', text: label }));
}

function trendChart(runs) {
  const ordered = runs.slice(0, 50).reverse();
  const labels = ordered.map((r) => (r.run.branch ? r.run.branch + ' ' : '') + shortCommit(r.run.commit));
  const rates = ordered.map((r) => { const rate = passRate(r.counts); return rate === null ? null : Math.round(rate * 1000) / 10; });
  return chartBox({
    label: 'Pass rate of the recent runs, oldest to newest',
    height: 200,
    table: () => h('table', { class: 'table compact' },
      h('thead', {}, h('tr', {}, ['Run', 'Started', 'Pass rate', 'Failed', 'Total'].map((t) => h('th', { text: t })))),
      h('tbody', {}, ordered.map((r) => h('tr', {},
        h('td', {}, h('a', { href: route('/runs/' + seg(r.run.id)), text: r.run.id })),
        h('td', { text: dateTime(r.run.startedAt) }),
        h('td', { class: 'num', text: percent(passRate(r.counts)) }),
        h('td', { class: 'num', text: count(r.counts.failed + r.counts.error) }),
        h('td', { class: 'num', text: count(r.counts.total) }))))),
    config: () => {
      const options = baseOptions();
      options.scales.y.max = 100;
      options.scales.y.ticks.callback = (v) => v + '%';
      options.plugins.tooltip.callbacks = {
        title: (items) => { const r = ordered[items[0].dataIndex]; return r.run.project + ' · ' + dateTime(r.run.startedAt); },
        afterBody: (items) => { const c = ordered[items[0].dataIndex].counts; return (c.failed + c.error) + ' failing of ' + c.total; },
      };
      options.onClick = (event, elements) => {
        if (elements.length) location.hash = route('/runs/' + seg(ordered[elements[0].index].run.id));
      };
      const green = cssVar('--passed') || '#1a7f37';
      const red = cssVar('--failed') || '#cf222e';
      return {
        type: 'line',
        data: { labels, datasets: [{
          label: 'Pass rate', data: rates, borderColor: green, backgroundColor: green + '22', fill: true, tension: 0.25,
          pointRadius: 4, pointHoverRadius: 6,
          pointBackgroundColor: ordered.map((r) => (r.status === 'failed' ? red : green)),
          pointBorderColor: ordered.map((r) => (r.status === 'failed' ? red : green)),
        }] },
        options,
      };
    },
  });
}
