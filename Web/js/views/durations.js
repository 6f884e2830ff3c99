// Durations: a project's slowest tests or page actions (p50/p95), those that became slower (p50 of the newest 10
// against the 10 before), and the selected one's p50/p95 per day as a Chart.js line chart (DurationReport,
// DurationTrend, ActionDurationReport, ActionDurationTrend: shapes.js, docs/durations.md). Percentiles are the
// service's (nearest rank); the view never recomputes them. Tests and actions are one view: SUBJECTS holds
// what differs (the API, the JSON keys, the words).
import { h, replaceChildren, route } from '../dom.js';
import { api } from '../api.js';
import { count, dateTime, duration, qualifiedAction, testTitle } from '../format.js';
import { emptyState, heading, section } from '../ui.js';
import { DEFAULT_DAYS } from '../shapes.js';
import { baseOptions, chartBox, cssVar } from '../chart.js';

const SUBJECTS = {
  tests: {
    tab: 'Tests', noun: 'test', column: 'Test', key: 'test', countKey: 'results', countTitle: 'Results',
    source: 'passing results',
    empty: 'No passing result with a duration in this window',
    name: (test) => test.suite + ' · ' + testTitle(test),
    id: (test) => ({ test: test.id }),
    report: (filters, options) => api.durations(filters, options),
    selected: (query) => query.get('test') ? { test: query.get('test') } : null,
    trend: (selected, filters, options) => api.durationTrend(selected.test, filters, options),
  },
  actions: {
    tab: 'Page actions', noun: 'action', column: 'Action', key: 'action', countKey: 'steps', countTitle: 'Steps',
    source: 'timed page-action steps (failing tests and traced runs)',
    empty: 'No timed page-action step in this window (steps are timed in failing tests and traced runs)',
    name: (action) => qualifiedAction(action.page, action.action),
    id: (action) => ({ page: action.page, action: action.action }),
    report: (filters, options) => api.actionDurations(filters, options),
    selected: (query) => query.get('page') && query.get('action') ? { page: query.get('page'), action: query.get('action') } : null,
    trend: (selected, filters, options) => api.actionDurationTrend({ ...filters, ...selected }, options),
  },
};

export async function renderDurations({ root, query, signal }) {
  const filters = { project: query.get('project') || '', branch: query.get('branch') || '', days: query.get('days') || String(DEFAULT_DAYS) };
  const of = query.get('of') === 'actions' ? 'actions' : 'tests';
  const subject = SUBJECTS[of];
  const here = (extra) => route('/durations', { ...filters, ...(of === 'actions' ? { of } : {}), ...extra });
  const controls = h('form', { class: 'toolbar', on: { submit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    location.hash = route('/durations', { ...filters, ...(of === 'actions' ? { of } : {}), project: data.get('project'), branch: data.get('branch') });
  } } },
    h('label', { class: 'field' }, h('span', { text: 'Project' }), h('input', { name: 'project', value: filters.project, placeholder: 'project (required)' })),
    h('label', { class: 'field' }, h('span', { text: 'Branch' }), h('input', { name: 'branch', value: filters.branch, placeholder: 'all branches' })),
    h('button', { type: 'submit', class: 'button primary', text: 'Apply' }),
    h('div', { class: 'segmented', role: 'group', attrs: { 'aria-label': 'Durations of' } }, Object.entries(SUBJECTS).map(([key, s]) =>
      h('a', { class: ['segment', 'durations-of', key === of && 'active'], dataset: { of: key },
        href: route('/durations', { ...filters, ...(key === 'actions' ? { of: key } : {}) }), text: s.tab }))));
  document.title = 'Durations · Failscope';
  if (!filters.project) {
    replaceChildren(root, [heading([], 'Durations'), controls, emptyState('Choose a project', 'Durations are read per project.')]);
    return;
  }
  const report = await subject.report(filters, { signal });
  const nodes = [heading([], 'Durations', h('span', { class: 'muted', text: subject.source + ' since ' + dateTime(report.since) })), controls];
  const link = (value) => h('a', { href: here(subject.id(value)), text: subject.name(value) });
  const selected = subject.selected(query);
  if (selected) {
    nodes.push(trendChart(subject, await subject.trend(selected, filters, { signal })));
  }
  performance.mark('failscope:data', { detail: { view: 'durations' } });
  const rowData = (value) => of === 'tests' ? { test: value.id } : { page: value.page, action: value.action };
  nodes.push(section('Slowest ' + subject.tab.toLowerCase(), h('span', { class: 'muted small', text: 'by p95' }), report.slowest.length
    ? h('table', { class: 'table slowest-table' },
      h('thead', {}, h('tr', {}, [subject.column, 'p50', 'p95', subject.countTitle].map((t) => h('th', { text: t, scope: 'col' })))),
      h('tbody', {}, report.slowest.map((row) => h('tr', { dataset: rowData(row[subject.key]) },
        h('td', {}, link(row[subject.key])), h('td', { class: 'num', text: duration(row.p50) }),
        h('td', { class: 'num', text: duration(row.p95) }), h('td', { class: 'num', text: count(row[subject.countKey]) })))))
    : emptyState(subject.empty)));
  nodes.push(section('Slower than before', h('span', { class: 'muted small', text: 'p50 of the newest 10 against the 10 before' }),
    report.regressions.length
      ? h('table', { class: 'table regressions-table' },
        h('thead', {}, h('tr', {}, [subject.column, 'Before', 'Now'].map((t) => h('th', { text: t, scope: 'col' })))),
        h('tbody', {}, report.regressions.map((row) => h('tr', { dataset: rowData(row[subject.key]) },
          h('td', {}, link(row[subject.key])), h('td', { class: 'num', text: duration(row.previousP50) }),
          h('td', { class: 'num', text: duration(row.recentP50) })))))
      : h('p', { class: 'muted', text: 'No ' + subject.noun + ' became slower.' })));
  replaceChildren(root, nodes);
}

function trendChart(subject, trend) {
  return section('p50 and p95 per day', h('span', { class: 'muted small trend-subject', text: subject.name(trend[subject.key]) }), chartBox({
    label: 'Duration percentiles per day',
    height: 200,
    table: () => h('table', { class: 'table compact trend-table' },
      h('thead', {}, h('tr', {}, ['Day', 'p50', 'p95', subject.countTitle].map((t) => h('th', { text: t })))),
      h('tbody', {}, trend.days.map((d) => h('tr', {}, h('td', { text: dateTime(d.day) }), h('td', { class: 'num', text: duration(d.p50) }),
        h('td', { class: 'num', text: duration(d.p95) }), h('td', { class: 'num', text: count(d[subject.countKey]) }))))),
    config: () => {
      const options = baseOptions();
      options.scales.y.ticks.callback = (v) => v + ' s';
      return {
        type: 'line',
        data: {
          labels: trend.days.map((d) => dateTime(d.day)),
          datasets: [
            { label: 'p50 (s)', data: trend.days.map((d) => d.p50), borderColor: cssVar('--passed'), tension: 0.2 },
            { label: 'p95 (s)', data: trend.days.map((d) => d.p95), borderColor: cssVar('--failed'), tension: 0.2 },
          ],
        },
        options,
      };
    },
  }));
}
