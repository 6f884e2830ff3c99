// Unique errors: a project's failure signatures ranked by affected tests and runs, with first and last seen,
// pages and devices (ErrorList, GET /api/v1/errors: shapes.js, docs/errors.md). Test text goes in as text only.
import { h, replaceChildren, route, seg } from '../dom.js';
import { api } from '../api.js';
import { count, dateTime, shortCommit } from '../format.js';
import { emptyState, heading } from '../ui.js';
import { DEFAULT_DAYS } from '../shapes.js';

const DAYS = [7, 14, 30, 90];

export async function renderErrors({ root, query, signal }) {
  const filters = { project: query.get('project') || '', branch: query.get('branch') || '', days: query.get('days') || String(DEFAULT_DAYS) };
  const controls = h('form', { class: 'toolbar', on: { submit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    location.hash = route('/errors', { ...filters, project: data.get('project'), branch: data.get('branch') });
  } } },
    h('label', { class: 'field' }, h('span', { text: 'Project' }), h('input', { name: 'project', value: filters.project, placeholder: 'project (required)' })),
    h('label', { class: 'field' }, h('span', { text: 'Branch' }), h('input', { name: 'branch', value: filters.branch, placeholder: 'all branches' })),
    h('button', { type: 'submit', class: 'button primary', text: 'Apply' }),
    h('div', { class: 'segmented', role: 'group', attrs: { 'aria-label': 'Window' } }, DAYS.map((d) =>
      h('a', { class: ['segment', String(d) === filters.days && 'active'], href: route('/errors', { ...filters, days: d }), text: d + ' days' }))));
  document.title = 'Errors · Failscope';
  if (!filters.project) {
    replaceChildren(root, [heading([], 'Errors'), controls, emptyState('Choose a project', 'Unique errors are counted per project.')]);
    return;
  }
  const list = await api.errors(filters, { signal });
  performance.mark('failscope:data', { detail: { view: 'errors' } });
  const nodes = [heading([], 'Errors', h('span', { class: 'muted', text: 'unique errors since ' + dateTime(list.since) })), controls];
  if (!list.errors.length) {
    nodes.push(emptyState('No errors in this window', 'No failed or errored result of ' + filters.project + ' in the last ' + filters.days + ' days.'));
    replaceChildren(root, nodes);
    return;
  }
  const sighting = (seen) => h('span', {},
    h('a', { class: 'mono', href: route('/runs/' + seg(seen.runId)), text: seen.runId }), ' · ',
    h('span', { class: 'mono', title: seen.commit || '', text: shortCommit(seen.commit) }), ' · ', dateTime(seen.at));
  nodes.push(h('table', { class: 'table errors-table' },
    h('thead', {}, h('tr', {}, ['Error', 'Tests', 'Runs', 'Failures', 'First seen', 'Last seen', 'Pages', 'Devices']
      .map((t) => h('th', { text: t, scope: 'col' })))),
    h('tbody', {}, list.errors.map((error) => h('tr', { dataset: { signature: error.signature.id } },
      h('td', {}, h('div', { class: 'error-message', text: error.signature.message }),
        h('div', { class: 'muted small mono', text: error.signature.location || 'no location' })),
      h('td', { class: 'num', text: count(error.tests) }),
      h('td', { class: 'num', text: count(error.runs) }),
      h('td', { class: 'num', text: count(error.failures) }),
      h('td', {}, sighting(error.firstSeen)),
      h('td', {}, sighting(error.lastSeen)),
      h('td', { text: error.pages.join(', ') || '—' }),
      h('td', { text: error.devices.join(', ') || '—' }))))));
  replaceChildren(root, nodes);
}
