// Shared pieces of every view: status badges, count bars, and the loading / empty / error states.
import { h } from './dom.js';
import { STATUS_LABEL, count, percent } from './format.js';
import { APIError, setReadToken } from './api.js';

export function statusBadge(status) {
  return h('span', { class: ['badge', 'status-' + status], text: STATUS_LABEL[status] || status });
}

export function statusDot(status, title) {
  return h('span', { class: ['dot', 'status-' + status], title: title || STATUS_LABEL[status] || status, role: 'img',
    attrs: { 'aria-label': STATUS_LABEL[status] || status } });
}

const SEGMENTS = [
  ['passed', 'passed'], ['failed', 'failed'], ['error', 'error'], ['skipped', 'skipped'],
  ['expectedFailure', 'expected_failure'],
];

/** A proportional bar of a run's counts (widths through CSSOM: the CSP forbids style attributes). */
export function countsBar(counts, { large = false } = {}) {
  const bar = h('div', { class: ['counts-bar', large && 'large'], role: 'img',
    attrs: { 'aria-label': SEGMENTS.map(([key, status]) => count(counts[key]) + ' ' + STATUS_LABEL[status]).join(', ') } });
  const total = counts.total || 0;
  for (const [key, status] of SEGMENTS) {
    if (!counts[key]) continue;
    const segment = h('span', { class: 'status-bg-' + status, title: count(counts[key]) + ' ' + STATUS_LABEL[status] });
    segment.style.width = (100 * counts[key] / total) + '%';
    bar.appendChild(segment);
  }
  if (!total) bar.classList.add('empty');
  return bar;
}

/** Small labelled numbers: `412 passed · 3 failed`. */
export function countPills(counts) {
  return h('span', { class: 'count-pills' },
    SEGMENTS.filter(([key]) => counts[key] > 0 || key === 'passed' || key === 'failed').map(([key, status]) =>
      h('span', { class: ['pill', 'status-text-' + status, !counts[key] && 'zero'], title: STATUS_LABEL[status] },
        h('b', { text: count(counts[key]) }), ' ', STATUS_LABEL[status].toLowerCase())));
}

export function passRateText(rate) {
  return h('span', { class: ['rate', rate === null ? '' : rate >= 0.95 ? 'good' : rate >= 0.8 ? 'fair' : 'poor'], text: percent(rate) });
}

export function loadingState(what) {
  return h('div', { class: 'state state-loading', role: 'status', dataset: { state: 'loading' } },
    h('span', { class: 'spinner', attrs: { 'aria-hidden': 'true' } }), 'Loading ' + what + '…');
}

export function emptyState(title, detail, ...extra) {
  return h('div', { class: 'state state-empty', dataset: { state: 'empty' } },
    h('div', { class: 'state-icon', attrs: { 'aria-hidden': 'true' }, text: '∅' }),
    h('h3', { text: title }), detail ? h('p', { text: detail }) : null, extra);
}

/** An error state; 401/403 offer a read-token field, everything offers a retry. */
export function errorState(error, retry) {
  const box = h('div', { class: 'state state-error', role: 'alert', dataset: { state: 'error' } },
    h('div', { class: 'state-icon', attrs: { 'aria-hidden': 'true' }, text: '!' }),
    h('h3', { text: error && error.status === 404 ? 'Not found' : 'Could not load this view' }),
    h('p', { text: error.message || String(error) }),
    error instanceof APIError && error.code ? h('p', { class: 'muted mono', text: 'code: ' + error.code }) : null);
  if (error instanceof APIError && (error.status === 401 || error.status === 403)) {
    const input = h('input', { type: 'password', placeholder: 'Read token', attrs: { 'aria-label': 'Read token', autocomplete: 'off' } });
    box.appendChild(h('form', { class: 'token-form', on: { submit: (event) => {
      event.preventDefault();
      setReadToken(input.value.trim());
      if (retry) retry();
    } } }, input, h('button', { type: 'submit', class: 'button primary', text: 'Use token' })));
  } else if (retry) {
    box.appendChild(h('button', { type: 'button', class: 'button', text: 'Try again', on: { click: retry } }));
  }
  return box;
}

/** A page heading with a breadcrumb trail: [[label, href], ..., label]. */
export function heading(crumbs, title, ...aside) {
  return h('header', { class: 'view-header' },
    h('nav', { class: 'crumbs', attrs: { 'aria-label': 'Breadcrumb' } },
      crumbs.map(([label, href]) => [h('a', { href, text: label }), h('span', { class: 'sep', text: '/' })])),
    h('div', { class: 'view-title' }, h('h1', { text: title }), aside));
}

/** A labelled fact for summary grids. */
export function fact(label, ...value) {
  return h('div', { class: 'fact' }, h('dt', { text: label }), h('dd', {}, value));
}

/** A section card with a title and optional aside. */
export function section(title, aside, ...body) {
  return h('section', { class: 'card' },
    h('div', { class: 'card-head' }, h('h2', { text: title }), aside), body);
}
