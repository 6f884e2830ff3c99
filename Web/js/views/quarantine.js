// #/quarantine?project=&state=active|all — quarantined tests (GET /api/v1/quarantine): owner, reason, expiry,
// the audit log of each entry, and the commands that edit and lift it (the dashboard only reads).
import { api } from '../api.js';
import { h, replaceChildren, route } from '../dom.js';
import { dateTime } from '../format.js';
import { emptyState, heading, section } from '../ui.js';
import { commandDisclosure, editCommand, liftCommand } from '../quarantine.js';

const STATE_LABEL = { active: 'active', expired: 'expired', lifted: 'lifted' };

export async function renderQuarantine({ root, query, signal }) {
  const filters = { project: query.get('project') || '', state: query.get('state') === 'all' ? 'all' : 'active' };
  const list = await api.quarantine(filters, { signal });
  document.title = 'Quarantine · Failscope';
  const apply = (next) => {
    const merged = { ...filters, ...next };
    location.hash = route('/quarantine', { project: merged.project, state: merged.state === 'all' ? 'all' : '' });
  };

  const filterBar = h('form', { class: 'toolbar', on: { submit: (event) => {
    event.preventDefault();
    apply({ project: new FormData(event.target).get('project') });
  } } },
    h('label', { class: 'field' }, h('span', { text: 'Project' }),
      h('input', { name: 'project', value: filters.project, placeholder: 'all projects', attrs: { autocomplete: 'off' } })),
    h('label', { class: 'field' }, h('span', { text: 'Show' }),
      h('select', { name: 'state', on: { change: (event) => apply({ state: event.target.value }) } },
        [['active', 'Applying now'], ['all', 'Also expired and lifted']].map(([value, label]) =>
          h('option', { value, text: label, selected: value === filters.state })))),
    h('button', { type: 'submit', class: 'button primary', text: 'Apply' }));

  const nodes = [heading([['Runs', '#/runs']], 'Quarantine',
    h('span', { class: 'muted', text: 'failures of these tests are kept and shown apart; `failscope test --quarantine obey` forgives them' })),
  filterBar];
  if (!list.entries.length) {
    nodes.push(emptyState(filters.state === 'all' ? 'Nothing was ever quarantined here' : 'No test is quarantined now',
      'Quarantine a flaky test from its row on a page (Pages), or run: failscope quarantine add --project P --suite S '
        + '--name N --owner O --reason R --expires YYYY-MM-DD'));
    replaceChildren(root, nodes);
    return;
  }
  nodes.push(section('Entries', h('span', { class: 'muted small', text: list.entries.length + (list.entries.length === 1 ? ' entry' : ' entries') + ', newest first' }),
    h('div', { class: 'table-scroll' }, h('table', { class: 'table quarantine-table' },
      h('thead', {}, h('tr', {}, ['Test', 'Owner', 'Reason', 'Until', 'State', 'Changes', ''].map((text) => h('th', { text, scope: 'col' })))),
      h('tbody', {}, list.entries.map(entryRow))))));
  replaceChildren(root, nodes);
}

function entryRow(entry) {
  const narrowing = [entry.arguments && 'arguments ' + entry.arguments, entry.page && 'page ' + entry.page,
    entry.device && 'device ' + entry.device].filter(Boolean).join(' · ');
  return h('tr', { class: 'quarantine-row', dataset: { entryId: String(entry.id), state: entry.state } },
    h('td', { class: 'test-cell' },
      h('span', { class: 'test-name', text: entry.name }),
      h('div', { class: 'muted small', text: entry.suite + ' · ' + entry.project }),
      narrowing ? h('div', { class: 'small', text: 'only ' + narrowing }) : null),
    h('td', { class: 'owner', text: entry.owner }),
    h('td', { class: 'reason', text: entry.reason }),
    h('td', { class: 'nowrap', title: 'ends ' + dateTime(entry.endsAt), text: entry.expires }),
    h('td', {}, h('span', { class: ['badge', 'quarantine-' + entry.state], text: STATE_LABEL[entry.state] || entry.state })),
    h('td', { class: 'small' }, h('details', { class: 'audit-log' },
      h('summary', { text: entry.changes.length + (entry.changes.length === 1 ? ' change' : ' changes') }),
      h('ol', {}, entry.changes.map((change) => h('li', {},
        h('b', { text: change.action }), ' ', h('span', { class: 'muted', text: dateTime(change.at) }), ' by ',
        h('span', { class: 'actor', text: (change.actor || 'someone') + ' (' + change.role + ' token)' }), ': ',
        h('span', { class: 'why', text: change.why })))))),
    h('td', { class: 'entry-commands' }, entry.state === 'active'
      ? [commandDisclosure('Edit…', editCommand(entry), 'edit-command'), commandDisclosure('Lift…', liftCommand(entry), 'lift-command')]
      : null));
}
