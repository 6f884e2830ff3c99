// One run: summary, failures grouped by page then call site (with test, action, message and a
// screenshot thumbnail), the other results collapsed; status filter and free-text search in the URL.
// Large runs stay smooth: the view asks for the run's failing results first and draws them, and loads
// the whole run only when the reader needs the other results (opens a collapsed list, filters on
// another status, searches); failure cards and collapsed rows are rendered a page at a time.
import { h, replaceChildren, route, seg, safeHref, debounce, textNode, isolatedText } from '../dom.js';
import { api, FAILING_STATUSES } from '../api.js';
import { STATUS_LABEL, count, dateTime, duration, fileLine, isFailing, passRate, plural, qualifiedAction, runSeconds, shortCommit, testTitle } from '../format.js';
import { countsBar, emptyState, fact, heading, passRateText, statusBadge, statusDot } from '../ui.js';
import { NO_PAGE } from '../shapes.js';
import { quarantinedBadge } from '../quarantine.js';
import { loadRunErrors, runErrorsCard } from './run-errors.js';

const FAILURE_PAGE = 60;
const ROW_PAGE = 200;

/** Status filters: [URL value, label, which results, how many of the run's counts (the service's)]. */
const FILTERS = [
  ['', 'All', () => true, (c) => c.total],
  ['failing', 'Failing', (s) => s === 'failed' || s === 'error', (c) => c.failed + c.error],
  ['failed', 'Failed', (s) => s === 'failed', (c) => c.failed],
  ['error', 'Error', (s) => s === 'error', (c) => c.error],
  ['passed', 'Passed', (s) => s === 'passed', (c) => c.passed],
  ['skipped', 'Skipped', (s) => s === 'skipped', (c) => c.skipped],
  ['expected_failure', 'Expected failure', (s) => s === 'expected_failure', (c) => c.expectedFailure],
];

/** How often a run that has not finished is asked for again, in milliseconds. */
const LIVE_REFRESH_MS = 3000;

export async function renderRun(context) {
  const { root, params: [runId], query, signal, replaceQuery } = context;
  // The errors card is asked for alongside and drawn with the view, so it never moves the page once drawn
  // (going back restores the reader's scroll position).
  const errors = loadRunErrors(runId, signal);
  const detail = await api.run(runId, { signal, status: FAILING_STATUSES });
  performance.mark('failscope:data', { detail: { view: 'run' } });
  const { run, status, counts } = detail.summary;
  document.title = isolatedText(run.project) + (run.branch ? ' · ' + isolatedText(run.branch) : '') + ' · Failscope';

  const failingOnly = flatten(detail);
  const state = { status: query.get('status') || '', q: query.get('q') || '', failureBudget: FAILURE_PAGE,
    entries: failingOnly.entries, pageCounts: failingOnly.pageCounts, counts, all: null, loading: null };
  if (!FILTERS.some(([key]) => key === state.status)) state.status = '';
  /** Every result of the run, fetched once, when first needed; resolves to state.entries. */
  state.loadAll = () => {
    if (state.all) return Promise.resolve(state.all);
    if (!state.loading) {
      state.loading = api.run(runId, { signal }).then((whole) => {
        const flat = flatten(whole);
        state.all = flat.entries;
        state.entries = flat.entries;
        state.pageCounts = flat.pageCounts;
        return state.all;
      });
      state.loading.catch(() => { state.loading = null; });  // asked again next time
    }
    return state.loading;
  };

  const ci = run.ciBuildURL && safeHref(run.ciBuildURL);
  const header = heading([['Runs', route('/runs', { project: run.project })]],
    run.project + (run.branch ? ' · ' + run.branch : ''), statusBadge(status),
    status === 'failed' && detail.summary.statusWithQuarantine === 'passed'
      ? h('span', { class: 'badge status-quarantined run-forgiven', text: 'passes with quarantine',
        title: 'Every failing test was quarantined when it ran: `failscope test --quarantine obey` exits 0.' }) : null,
    h('a', { class: 'button compare-link', href: route('/runs/' + seg(run.id) + '/compare'), text: 'Compare with main' }));
  const summary = h('section', { class: 'card run-summary' },
    h('dl', { class: 'facts' },
      fact('Run', h('span', { class: 'mono', text: run.id })),
      fact('Branch', run.branch ? h('span', { class: 'branch', text: run.branch }) : '—'),
      fact('Commit', h('span', { class: 'mono', title: run.commit || '', text: shortCommit(run.commit) })),
      fact('Device', (run.device || '—') + (run.osVersion ? ' · ' + run.osVersion : '')),
      fact('Started', dateTime(run.startedAt)),
      fact('Duration', run.finishedAt ? duration(runSeconds(run)) : h('span', { class: 'live', text: 'running · updates as results arrive' })),
      fact('Source', run.source + (run.ciJob ? ' · ' + run.ciJob : '')),
      fact('CI build', ci ? h('a', { href: ci, text: run.ciProvider || 'open build', attrs: { rel: 'noopener noreferrer', target: '_blank' } }) : '—')),
    h('div', { class: 'summary-counts' },
      h('div', { class: 'big-numbers' },
        bigNumber(counts.total, 'results'),
        bigNumber(counts.failingTests, 'failing tests', counts.failingTests ? 'poor' : 'good'),
        counts.quarantinedFailingTests ? bigNumber(counts.quarantinedFailingTests, 'of them quarantined', 'quarantined') : null,
        bigNumber(counts.failed, 'failed', counts.failed ? 'failed' : null),
        bigNumber(counts.error, 'errors', counts.error ? 'error' : null),
        bigNumber(counts.skipped, 'skipped'),
        h('div', { class: 'big-number' }, passRateText(passRate(counts)), h('span', { text: 'pass rate' }))),
      countsBar(counts, { large: true })));

  const chips = h('div', { class: 'chips', role: 'group', attrs: { 'aria-label': 'Filter by status' } });
  const search = h('input', { type: 'search', class: 'search', value: state.q, placeholder: 'Search test, message, page, file…',
    attrs: { 'aria-label': 'Search results' } });
  const matchInfo = h('span', { class: 'muted small match-info' });
  const toolbar = h('div', { class: 'toolbar sticky' }, chips, search, matchInfo);
  const body = h('div', { class: 'run-body' });

  const chipCounts = FILTERS.map(([, , , of]) => of(counts));
  const renderChips = () => {
    replaceChildren(chips, FILTERS.map(([key, label], index) => (key && !chipCounts[index] && key !== state.status) ? null :
      h('button', { type: 'button', class: ['chip', key && 'chip-' + key, state.status === key && 'active'],
        attrs: { 'aria-pressed': String(state.status === key) },
        on: { click: () => { state.status = key; state.failureBudget = FAILURE_PAGE; update(); } } },
      label, h('span', { class: 'chip-count', text: count(chipCounts[index]) }))));
  };

  const update = () => {
    replaceQuery({ status: state.status, q: state.q });
    renderChips();
    renderBody(body, state, matchInfo, update);
  };
  search.addEventListener('input', debounce(() => { state.q = search.value.trim(); state.failureBudget = FAILURE_PAGE; update(); }, 150));
  search.addEventListener('keydown', (event) => { if (event.key === 'Escape') { search.value = ''; state.q = ''; update(); } });

  replaceChildren(root, header, summary, runErrorsCard(await errors), toolbar, body);
  if (!run.finishedAt) followLiveRun(context, detail.summary, state);
  if (!counts.total) {
    replaceChildren(body, emptyState('No results in this run yet', run.finishedAt ? 'The run finished without any results.' : 'Results appear as the run uploads them.'));
    renderChips();
    return;
  }
  update();
}

/**
 * A run still going on: asks for it again every LIVE_REFRESH_MS and, when its counts or status
 * changed, draws the view again where the reader was (filters, search, scroll), without a reload.
 * Stops when the reader leaves the view (its signal aborts) or the run has finished.
 */
function followLiveRun(context, shown, state) {
  const { signal } = context;
  const same = (a, b) => a.status === b.status && a.run.finishedAt === b.run.finishedAt
    && JSON.stringify(a.counts) === JSON.stringify(b.counts);
  const timer = setTimeout(async () => {
    let detail;
    try {
      detail = await api.run(context.params[0], { signal, status: FAILING_STATUSES });  // the summary is what is compared
    } catch {
      if (!signal.aborted) followLiveRun(context, shown, state);  // try again later
      return;
    }
    if (signal.aborted) return;
    if (same(detail.summary, shown)) { followLiveRun(context, shown, state); return; }
    const y = window.scrollY;
    await renderRun({ ...context, query: new URLSearchParams({ status: state.status, q: state.q }) });
    window.scrollTo(0, y);
  }, LIVE_REFRESH_MS);
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
}

function bigNumber(value, label, tone) {
  return h('div', { class: ['big-number', tone && 'tone-' + tone] }, h('b', { text: count(value) }), h('span', { text: label }));
}

/** A run detail's results flattened once: each entry keeps its page and call site, and a lazily built search text. */
function flatten(detail) {
  const entries = [];
  const pageCounts = new Map();  // the service's counts of each page group
  for (const group of detail.pages) {
    pageCounts.set(group.page || NO_PAGE, group.counts);
    for (const site of group.callSites) {
      for (const result of site.results) entries.push({ result, page: group.page, callSite: site.callSite, text: null });
    }
  }
  return { entries, pageCounts };
}

function searchText(entry) {
  if (entry.text === null) {
    const r = entry.result;
    entry.text = [r.name, r.suite, r.arguments, r.message, entry.page, r.device, r.action,
      entry.callSite && fileLine(entry.callSite), r.status].filter(Boolean).join('\n').toLowerCase();
  }
  return entry.text;
}

/** Whether the status filter and search can be answered from the failing results alone. */
function failingSuffice(state) {
  return !state.q && ['', 'failing', 'failed', 'error'].includes(state.status);
}

function renderBody(body, state, matchInfo, update) {
  if (!state.all && !failingSuffice(state)) {
    matchInfo.textContent = '';
    replaceChildren(body, h('p', { class: 'muted loading-all', text: 'Loading all ' + count(state.counts.total) + ' results…' }));
    state.loadAll().then(() => { if (body.isConnected) update(); },
      (error) => { if (body.isConnected) replaceChildren(body, emptyState('Could not load the results', error.message)); });
    return;
  }
  const entries = state.entries;
  const statusPredicate = FILTERS.find(([key]) => key === state.status)[2];
  const terms = state.q.toLowerCase().split(/\s+/).filter(Boolean);
  const visible = entries.filter((e) => statusPredicate(e.result.status) && terms.every((t) => searchText(e).includes(t)));
  matchInfo.textContent = (terms.length || state.status) ? count(visible.length) + ' of ' + count(state.counts.total) + ' results' : '';
  const failing = visible.filter((e) => isFailing(e.result.status));
  const others = visible.filter((e) => !isFailing(e.result.status));
  const nodes = [];
  if (!visible.length) {
    nodes.push(emptyState('Nothing matches', 'No result matches this status and search.',
      h('button', { type: 'button', class: 'button', text: 'Clear filters', on: { click: () => { state.status = ''; state.q = '';
        const input = document.querySelector('.toolbar .search'); if (input) input.value = ''; update(); } } })));
  }
  if (failing.length) nodes.push(failureGroups(failing, state, update));
  else if (visible.length && (state.status === '' || state.status === 'failing')) {
    nodes.push(h('section', { class: 'card all-passed' }, h('h2', { text: 'No failures' }),
      h('p', { class: 'muted', text: terms.length ? 'No failing result matches the search.' : 'Every test in this run passed or was skipped.' })));
  }
  for (const status of ['passed', 'expected_failure', 'skipped']) {
    // Until the whole run is loaded (no search, a failing or no status filter) a list is its count and loads when opened.
    const list = state.all ? others.filter((e) => e.result.status === status) : null;
    const total = list ? list.length : (state.status === '' ? FILTERS.find(([key]) => key === status)[3](state.counts) : 0);
    if (total) {
      const rows = list ? () => Promise.resolve(list)
        : () => state.loadAll().then((all) => all.filter((e) => e.result.status === status));
      nodes.push(collapsedResults(status, total, rows, state.status === status || (terms.length > 0 && failing.length === 0)));
    }
  }
  replaceChildren(body, nodes);
}

/** Failures by page, then by call site; the first `state.failureBudget` cards are rendered. */
function failureGroups(failing, state, update) {
  const pages = new Map();
  for (const e of failing) {
    const pageKey = e.page || NO_PAGE;
    if (!pages.has(pageKey)) pages.set(pageKey, new Map());
    const sites = pages.get(pageKey);
    const siteKey = e.callSite ? e.callSite.file + ':' + e.callSite.line : '';
    if (!sites.has(siteKey)) sites.set(siteKey, { callSite: e.callSite, entries: [] });
    sites.get(siteKey).entries.push(e);
  }
  const container = h('section', { class: 'failures', attrs: { 'aria-label': 'Failures' } },
    h('div', { class: 'section-title' }, h('h2', { text: 'Failures' }),
      h('span', { class: 'muted', text: plural(failing.length, 'failing result') + ' on ' + plural(pages.size, 'page') })));
  let budget = state.failureBudget;
  const lazy = actionLoader();
  for (const [pageName, sites] of pages) {
    if (budget <= 0) break;
    const shown = [...sites.values()].reduce((n, s) => n + s.entries.length, 0);
    const counts = state.pageCounts.get(pageName);
    const failingHere = counts.failed + counts.error;
    const pageBlock = h('article', { class: 'page-group', dataset: { page: pageName } },
      h('header', { class: 'page-group-head' },
        h('span', { class: 'page-icon', attrs: { 'aria-hidden': 'true' }, text: '▤' }),
        h('h3', { class: 'page-name', text: pageName }),
        counts.failed ? h('span', { class: 'badge status-failed', dataset: { count: 'failed' }, text: count(counts.failed) + ' failed' }) : null,
        counts.error ? h('span', { class: 'badge status-error', dataset: { count: 'error' }, text: plural(counts.error, 'error') }) : null,
        shown < failingHere ? h('span', { class: 'muted small', text: count(shown) + ' of ' + count(failingHere) + ' match the filter' }) : null,
        pageName !== NO_PAGE ? h('a', { class: 'small', href: route('/pages/' + seg(pageName)), text: 'flaky tests on this page →' }) : null));
    for (const [, site] of sites) {
      if (budget <= 0) break;
      const cards = h('div', { class: 'failure-cards' });
      const siteBlock = h('div', { class: 'callsite-group' },
        h('div', { class: 'callsite-head' },
          site.callSite ? h('code', { class: 'callsite', title: site.callSite.file + ':' + site.callSite.line, text: fileLine(site.callSite) })
            : h('span', { class: 'callsite-none', title: 'No page object step recorded where the test called it; each failure shows its failure location',
              text: 'call site unknown' }),
          h('span', { class: 'muted small', text: plural(site.entries.length, 'failure') })),
        cards);
      for (const e of site.entries) {
        if (budget-- <= 0) break;
        cards.appendChild(failureCard(e, lazy));
      }
      pageBlock.appendChild(siteBlock);
    }
    container.appendChild(pageBlock);
  }
  if (failing.length > state.failureBudget) {
    const rest = failing.length - state.failureBudget;
    container.appendChild(h('div', { class: 'more-row' }, h('button', { type: 'button', class: 'button', text:
      'Show ' + count(Math.min(rest, FAILURE_PAGE)) + ' more of ' + count(rest) + ' remaining failures',
    on: { click: () => { state.failureBudget += FAILURE_PAGE; update(); } } })));
  }
  return container;
}

function failureCard(entry, lazy) {
  const r = entry.result;
  const href = route('/results/' + seg(r.id));
  const action = h('code', { class: 'action', text: qualifiedAction(entry.page, r.action) });
  // Without a call site (a unit test, an imported result), the failure location says where it failed.
  const failureLocation = entry.callSite ? null : h('code', { class: 'location', title: 'failure location' });
  const thumb = r.screenshot
    ? h('a', { href, class: 'thumb', attrs: { 'aria-label': 'Screenshot of ' + r.name } },
      h('img', { src: '/artifacts/' + r.screenshot + '.png', alt: '', loading: 'lazy', decoding: 'async', width: 56, height: 121 }))
    : h('a', { href, class: ['thumb', 'thumb-none', !entry.page && 'thumb-short'], title: 'No screenshot was captured', attrs: { 'aria-label': 'No screenshot of ' + r.name } },
      h('span', { text: 'no' }), h('span', { text: 'screen' }));
  const card = h('div', { class: 'failure-card', dataset: { resultId: String(r.id), status: r.status } },
    thumb,
    h('div', { class: 'failure-main' },
      h('div', { class: 'failure-title' },
        statusDot(r.status),
        h('a', { href, class: 'test-name', text: testTitle(r) }),
        r.quarantined ? quarantinedBadge() : null,
        r.attempt > 1 ? h('span', { class: 'badge subtle', text: 'attempt ' + r.attempt }) : null),
      h('div', { class: 'failure-meta' },
        h('span', { class: 'suite', text: r.suite }),
        action,
        failureLocation ? h('span', { class: 'failure-location', hidden: true }, h('span', { class: 'muted', text: 'failure location ' }), failureLocation) : null,
        r.device ? h('span', { class: 'muted', text: r.device }) : null,
        h('span', { class: 'muted', text: duration(r.duration) })),
      r.message ? h('pre', { class: 'message', text: r.message }) : h('p', { class: 'muted small', text: 'No failure message.' })),
    h('div', { class: 'failure-links' },
      h('a', { href, class: 'button small', text: 'Open failure' }),
      h('a', { href: route('/tests/' + seg(r.testId)), class: 'button small subtle', text: 'History' })));
  if ((!r.action && entry.page) || failureLocation) lazy.observe(card, r.id, entry.page ? action : null, entry.page, failureLocation);
  return card;
}

/**
 * Fills in each visible card's action (`LoginPage.tapLogin()`) and, where the call site is unknown,
 * its failure location (`MathTests.swift:42`) from its result detail, a few requests at a time, only
 * for cards that scroll into view (the run listing carries neither).
 */
function actionLoader() {
  const queue = [];
  let running = 0;
  const pump = () => {
    while (running < 4 && queue.length) {
      const { id, node, page, locationNode } = queue.shift();
      running++;
      api.result(id).then((detail) => {
        const failure = detail.failures[0];
        if (!failure) return;
        if (node && failure.action) node.replaceChildren(textNode(qualifiedAction(failure.page || page, failure.action)));
        if (locationNode && failure.location) {
          locationNode.title = 'failure location ' + failure.location.file + ':' + failure.location.line;
          locationNode.replaceChildren(textNode(fileLine(failure.location)));
          locationNode.parentNode.hidden = false;
        }
      }).catch(() => { /* the action is a nicety; the card stays as it is */ }).finally(() => { running--; pump(); });
    }
  };
  const targets = new WeakMap();
  const observer = 'IntersectionObserver' in window ? new IntersectionObserver((items) => {
    for (const item of items) {
      if (!item.isIntersecting) continue;
      observer.unobserve(item.target);
      const target = targets.get(item.target);
      if (target) { queue.push(target); pump(); }
    }
  }, { rootMargin: '200px' }) : null;
  return {
    observe(card, id, node, page, locationNode) {
      if (!observer) return;
      targets.set(card, { id, node, page, locationNode });
      observer.observe(card);
    },
  };
}

/**
 * Passed / skipped / expected failures: a collapsed table of `total` results, rendered a page at a time
 * when opened; `rows()` resolves to the results (fetched when the run is not loaded whole yet).
 */
function collapsedResults(status, total, rows, open) {
  const tbody = h('tbody');
  let shown = 0;
  let list = null;
  const more = h('div', { class: 'more-row' });
  const load = () => {
    if (list) { showMore(); return; }
    replaceChildren(more, h('span', { class: 'muted small', text: 'Loading…' }));
    rows().then((loaded) => { list = loaded; showMore(); },
      (error) => replaceChildren(more, h('span', { class: 'muted small', text: 'Could not load the results: ' + error.message })));
  };
  const showMore = () => {
    const fragment = document.createDocumentFragment();
    for (const e of list.slice(shown, shown + ROW_PAGE)) fragment.appendChild(resultRow(e));
    shown = Math.min(list.length, shown + ROW_PAGE);
    tbody.appendChild(fragment);
    replaceChildren(more, shown < list.length
      ? h('button', { type: 'button', class: 'button', text: 'Show ' + count(Math.min(ROW_PAGE, list.length - shown)) + ' more (' + count(list.length - shown) + ' left)', on: { click: showMore } })
      : h('span', { class: 'muted small', text: 'All ' + count(list.length) + ' shown' }));
  };
  const details = h('details', { class: ['card', 'collapsed-results', 'status-border-' + status], dataset: { status } },
    h('summary', {}, statusDot(status), h('span', { class: 'summary-title', text: STATUS_LABEL[status] }),
      h('span', { class: 'badge subtle', text: count(total) })),
    h('div', { class: 'table-scroll' }, h('table', { class: 'table compact' },
      h('thead', {}, h('tr', {}, ['Test', 'Suite', 'Page', 'Call site', 'Device', 'Duration'].map((t) => h('th', { text: t, scope: 'col' })))),
      tbody)),
    more);
  details.addEventListener('toggle', () => { if (details.open && shown === 0) load(); });
  if (open) { details.open = true; load(); }
  return details;
}

function resultRow(e) {
  const r = e.result;
  return h('tr', { dataset: { resultId: String(r.id) } },
    h('td', {}, h('a', { href: route('/results/' + seg(r.id)), text: testTitle(r) }),
      r.quarantined && isFailing(r.status) ? quarantinedBadge() : null,
      r.attempt > 1 ? h('span', { class: 'badge subtle', text: 'attempt ' + r.attempt }) : null),
    h('td', { class: 'muted', text: r.suite }),
    h('td', { text: e.page || '—' }),
    h('td', { class: 'mono small', text: e.callSite ? fileLine(e.callSite) : '—' }),
    h('td', { class: 'muted', text: r.device || '—' }),
    h('td', { class: 'num', text: duration(r.duration) }));
}
