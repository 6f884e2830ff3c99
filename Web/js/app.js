// Failscope dashboard: hash routes, one view module each. Views read only the JSON API.
//   #/runs?project=&branch=&status=   runs, newest first, with the pass-rate trend
//   #/runs/{runId}?status=&q=          one run: failures by page, then call site
//   #/runs/{runId}/compare?base=&baseBranch=  what changed in a run against a base run
//   #/results/{resultId}               one result: screenshot, outlined element, element tree, trail
//   #/tests/{testId}                   a test's history
//   #/pages?days=  #/pages/{page}      pages ranked by failures and flaky tests; a page's flaky tests
//   #/quarantine?project=&state=       quarantined tests, their audit logs, the commands that lift them
//   #/errors?project=&branch=&days=    unique errors ranked by affected tests and runs
//   #/durations?project=&branch=&days=&of=actions  slowest tests or page actions, duration regressions, a p50/p95 trend
import { replaceChildren } from './dom.js';
import { errorState, loadingState } from './ui.js';
import { renderRuns } from './views/runs.js';
import { renderRun } from './views/run.js';
import { renderCompare } from './views/compare.js';
import { renderResult } from './views/result.js';
import { renderTest } from './views/test.js';
import { renderPages, renderPage } from './views/pages.js';
import { renderQuarantine } from './views/quarantine.js';
import { renderErrors } from './views/errors.js';
import { renderDurations } from './views/durations.js';

const ROUTES = [
  [/^\/?$/, 'runs', renderRuns],
  [/^\/runs\/?$/, 'runs', renderRuns],
  [/^\/runs\/([^/]+)\/?$/, 'run', renderRun],
  [/^\/runs\/([^/]+)\/compare\/?$/, 'compare', renderCompare],
  [/^\/results\/([^/]+)\/?$/, 'result', renderResult],
  [/^\/tests\/([^/]+)\/?$/, 'test', renderTest],
  [/^\/pages\/?$/, 'pages', renderPages],
  [/^\/pages\/([^/]+)\/?$/, 'page', renderPage],
  [/^\/quarantine\/?$/, 'quarantine', renderQuarantine],
  [/^\/errors\/?$/, 'errors', renderErrors],
  [/^\/durations\/?$/, 'durations', renderDurations],
];

const root = document.getElementById('view');
let current = null;
/** Scroll positions by URL, restored when a view is shown again (back and forward). */
const scrollPositions = new Map();
let shownHash = location.hash;
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

function parseHash() {
  const hash = location.hash.replace(/^#/, '') || '/runs';
  const [path, queryText] = hash.split('?');
  return { path, query: new URLSearchParams(queryText || '') };
}

async function show() {
  if (current) current.abort();
  const controller = new AbortController();
  current = controller;
  const { path, query } = parseHash();
  let match = null;
  let entry = null;
  for (const candidate of ROUTES) {
    match = candidate[0].exec(path);
    if (match) { entry = candidate; break; }
  }
  // A malformed escape in the fragment (`#/runs/%E0%A4%A`) cannot name anything: the not-found view.
  let params = [];
  try {
    params = match ? match.slice(1).map((part) => decodeURIComponent(part)) : [];
  } catch {
    entry = null;
  }
  const [, name, render] = entry || [null, 'notfound', null];
  document.body.dataset.view = name;
  for (const link of document.querySelectorAll('[data-nav]')) {
    const active = link.dataset.nav === name || (link.dataset.nav === 'runs' && ['run', 'compare', 'result', 'test'].includes(name))
      || (link.dataset.nav === 'pages' && name === 'page');
    link.classList.toggle('active', active);
    if (active) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  root.dataset.state = 'loading';
  root.dataset.view = name;
  replaceChildren(root, loadingState('the view'));
  const context = {
    root,
    params,
    query,
    signal: controller.signal,
    /** Rewrites the URL's query without re-rendering (filters a view applies itself). */
    replaceQuery(next) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(next)) if (value) params.set(key, value);
      const text = params.toString();
      history.replaceState(null, '', '#' + path + (text ? '?' + text : ''));
      shownHash = location.hash;
    },
  };
  try {
    if (!render) throw Object.assign(new Error('There is no view at this address.'), { status: 404 });
    await render(context);
    if (controller.signal.aborted) return;
    root.dataset.state = 'ready';
    performance.mark('failscope:rendered', { detail: { view: name } });
    const saved = scrollPositions.get(location.hash);
    window.scrollTo(0, saved || 0);
  } catch (error) {
    if (controller.signal.aborted || error.name === 'AbortError') return;
    replaceChildren(root, errorState(error, show));
    root.dataset.state = 'error';
    performance.mark('failscope:rendered', { detail: { view: name, error: true } });
  }
}

// "/" focuses the view's search field, as on GitHub and in Allure.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const search = root.querySelector('input[type=search]');
  if (search) { event.preventDefault(); search.focus(); }
});

window.addEventListener('hashchange', () => {
  scrollPositions.set(shownHash, window.scrollY);
  shownHash = location.hash;
  window.scrollTo(0, 0);
  show();
});
show();
