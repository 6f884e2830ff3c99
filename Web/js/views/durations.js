// Durations: a project's slowest tests (p50/p95), the tests that became slower (p50 of the newest 10 against the
// 10 before), and the selected test's p50/p95 per day as a Chart.js line chart (DurationReport, DurationTrend:
// shapes.js, docs/durations.md). Percentiles are the service's (nearest rank); the view never recomputes them.
import { h, replaceChildren, route } from '../dom.js';
import { api } from '../api.js';
import { count, dateTime, duration, testTitle } from '../format.js';
import { emptyState, heading, section } from '../ui.js';
import { DEFAULT_DAYS } from '../shapes.js';
import { baseOptions, chartBox, cssVar } from '../chart.js';

export async function renderDurations({ root, query, signal }) {
  const filters = { project: query.get('project') || '', branch: query.get('branch') || '', days: query.get('days') || String(DEFAULT_DAYS) };
  const selected = query.get('test') || '';
  const controls = h('form', { class: 'toolbar', on: { submit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    location.hash = route('/durations', { ...filters, project: data.get('project'), branch: data.get('branch') });
  } } },
    h('label', { class: 'field' }, h('span', { text: 'Project' }), h('input', { name: 'project', value: filters.project, placeholder: 'project (required)' })),
    h('label', { class: 'field' }, h('span', { text: 'Branch' }), h('input', { name: 'branch', value: filters.branch, placeholder: 'all branches' })),
    h('button', { type: 'submit', class: 'button primary', text: 'Apply' }));
  document.title = 'Durations · Failscope';
  if (!filters.project) {
    replaceChildren(root, [heading([], 'Durations'), controls, emptyState('Choose a project', 'Durations are read per project.')]);
    return;
  }
  const report = await api.durations(filters, { signal });
  const nodes = [heading([], 'Durations', h('span', { class: 'muted', text: 'passing results since ' + dateTime(report.since) })), controls];
  const testLink = (test) => h('a', { href: route('/durations', { ...filters, test: test.id }), text: test.suite + ' · ' + testTitle(test) });
  if (selected) {
    const trend = await api.durationTrend(selected, filters, { signal });
    nodes.push(trendChart(trend));
  }
  performance.mark('failscope:data', { detail: { view: 'durations' } });
  nodes.push(section('Slowest tests', h('span', { class: 'muted small', text: 'by p95' }), report.slowest.length
    ? h('table', { class: 'table slowest-table' },
      h('thead', {}, h('tr', {}, ['Test', 'p50', 'p95', 'Results'].map((t) => h('th', { text: t, scope: 'col' })))),
      h('tbody', {}, report.slowest.map((row) => h('tr', { dataset: { test: row.test.id } },
        h('td', {}, testLink(row.test)), h('td', { class: 'num', text: duration(row.p50) }),
        h('td', { class: 'num', text: duration(row.p95) }), h('td', { class: 'num', text: count(row.results) })))))
    : emptyState('No passing result with a duration in this window')));
  nodes.push(section('Slower than before', h('span', { class: 'muted small', text: 'p50 of the newest 10 against the 10 before' }),
    report.regressions.length
      ? h('table', { class: 'table regressions-table' },
        h('thead', {}, h('tr', {}, ['Test', 'Before', 'Now'].map((t) => h('th', { text: t, scope: 'col' })))),
        h('tbody', {}, report.regressions.map((row) => h('tr', { dataset: { test: row.test.id } },
          h('td', {}, testLink(row.test)), h('td', { class: 'num', text: duration(row.previousP50) }),
          h('td', { class: 'num', text: duration(row.recentP50) })))))
      : h('p', { class: 'muted', text: 'No test became slower.' })));
  replaceChildren(root, nodes);
}

function trendChart(trend) {
  return section('p50 and p95 per day', h('span', { class: 'muted small', text: trend.test.suite + ' · ' + testTitle(trend.test) }), chartBox({
    label: 'Duration percentiles per day',
    height: 200,
    table: () => h('table', { class: 'table compact trend-table' },
      h('thead', {}, h('tr', {}, ['Day', 'p50', 'p95', 'Results'].map((t) => h('th', { text: t })))),
      h('tbody', {}, trend.days.map((d) => h('tr', {}, h('td', { text: dateTime(d.day) }), h('td', { class: 'num', text: duration(d.p50) }),
        h('td', { class: 'num', text: duration(d.p95) }), h('td', { class: 'num', text: count(d.results) }))))),
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
