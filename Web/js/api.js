// The read API client (the dashboard never writes): JSON only, errors as APIError with the service's {"error":{"code","message"}}.
// The shapes of its answers are documented in shapes.js.

const TOKEN_KEY = 'failscope.readToken';

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'APIError';
    this.status = status;
    this.code = code;
  }
}

export function readToken() {
  try { return localStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}

export function setReadToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token); else localStorage.removeItem(TOKEN_KEY);
  } catch { /* storage disabled: the token lasts for this page only */ }
}

/** GET `path` (absolute, same origin) and decode JSON; throws APIError or the fetch's AbortError. */
export async function getJSON(path, { signal } = {}) {
  const headers = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = 'Bearer ' + token;
  let response;
  const prefetched = window.__failscopePrefetch;
  try {
    if (prefetched && prefetched.path === path) {
      window.__failscopePrefetch = null;  // once: later visits fetch fresh data
      response = await prefetched.response;
    } else {
      response = await fetch(path, { headers, signal, credentials: 'same-origin' });
    }
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new APIError(0, 'network', 'The service did not answer (' + error.message + ').');
  }
  if (!response.ok) {
    let code = 'http_' + response.status;
    let message = response.status + ' ' + response.statusText;
    try {
      const body = await response.json();
      if (body && body.error) { code = body.error.code || code; message = body.error.message || message; }
    } catch { /* not JSON */ }
    throw new APIError(response.status, code, message);
  }
  return response.json();
}

/** GET a JSON artifact (`/artifacts/<sha>.json`); null when it is missing or not JSON. */
export async function getArtifactJSON(url, { signal } = {}) {
  try {
    const response = await fetch(url, { signal });
    if (!response.ok) return null;
    return await response.json();
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    return null;
  }
}

/**
 * The statuses of a run's failing results, as GET /api/v1/runs/{runId}?status= takes them: the run view
 * asks for these first and for the whole run only when the reader needs the other results
 * (prefetch.js starts the same request, spelled out there).
 */
export const FAILING_STATUSES = 'failed,error';

/**
 * The newest run details (one per status filter), kept for a few seconds so that going back from a
 * failure to a run of thousands of results is instant. Only a finished run's detail is taken from
 * them: a running run's changes as its results arrive.
 */
const RUN_CACHE_MS = 15000;
const runCache = new Map();  // status filter ('' for the whole run) → {id, at, detail}

async function runDetail(id, options = {}) {
  const now = Date.now();
  const status = options.status || '';
  const cached = runCache.get(status);
  if (cached && cached.id === id && now - cached.at < RUN_CACHE_MS && cached.detail.summary.run.finishedAt) {
    return cached.detail;
  }
  const detail = await getJSON('/api/v1/runs/' + encodeURIComponent(id) + queryString({ status }), options);
  runCache.set(status, { id, at: now, detail });
  return detail;
}

/**
 * A kept detail of run `id` with at least its failing results, or null: lets the failure view step
 * through a run's failures for free.
 */
export function cachedRun(id) {
  for (const cached of runCache.values()) {
    if (cached.id === id && Date.now() - cached.at < RUN_CACHE_MS * 20) return cached.detail;
  }
  return null;
}

export const api = {
  runs: (query, options) => getJSON('/api/v1/runs' + queryString(query), options),
  run: runDetail,
  compare: (runId, query, options) =>
    getJSON('/api/v1/runs/' + encodeURIComponent(runId) + '/compare' + queryString(query), options),
  result: (id, options) => getJSON('/api/v1/results/' + encodeURIComponent(id), options),
  history: (testId, query, options) =>
    getJSON('/api/v1/tests/' + encodeURIComponent(testId) + '/history' + queryString(query), options),
  pages: (query, options) => getJSON('/api/v1/pages' + queryString(query), options),
  flaky: (query, options) => getJSON('/api/v1/flaky' + queryString(query), options),
  quarantine: (query, options) => getJSON('/api/v1/quarantine' + queryString(query), options),
  errors: (query, options) => getJSON('/api/v1/errors' + queryString(query), options),
  runErrors: (runId, query, options) =>
    getJSON('/api/v1/runs/' + encodeURIComponent(runId) + '/errors' + queryString(query), options),
  durations: (query, options) => getJSON('/api/v1/durations' + queryString(query), options),
  durationTrend: (testId, query, options) =>
    getJSON('/api/v1/tests/' + encodeURIComponent(testId) + '/durations' + queryString(query), options),
  actionDurations: (query, options) => getJSON('/api/v1/durations/actions' + queryString(query), options),
  /** query: project, page, action, branch, days */
  actionDurationTrend: (query, options) => getJSON('/api/v1/durations/actions/trend' + queryString(query), options),
};

export function queryString(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? '?' + text : '';
}
