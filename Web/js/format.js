// Formatting of numbers, durations, dates and statuses, in one place.

const numberFormat = new Intl.NumberFormat('en');
const dateTimeFormat = new Intl.DateTimeFormat('en', {
  year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
  hour12: false,
});
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

export const count = (n) => numberFormat.format(n || 0);

/** Seconds → `0.3 ms`, `850 ms`, `4.2 s`, `3 m 05 s`, `1 h 02 m`; `—` when unknown. */
export function duration(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return '—';
  if (seconds < 0.01) return (seconds * 1000).toFixed(1) + ' ms';
  if (seconds < 1) return Math.round(seconds * 1000) + ' ms';
  if (seconds < 60) return (seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)) + ' s';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes + ' m ' + String(Math.round(seconds % 60)).padStart(2, '0') + ' s';
  return Math.floor(minutes / 60) + ' h ' + String(minutes % 60).padStart(2, '0') + ' m';
}

export function dateTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : dateTimeFormat.format(date);
}

/** `3 minutes ago`, `yesterday`, ... */
export function relative(iso, now = Date.now()) {
  if (!iso) return '—';
  const seconds = (new Date(iso).getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return String(iso);
  const units = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return relativeFormat.format(Math.round(seconds), 'second');
}

/** Run duration in seconds from start/finish; null while open. */
export function runSeconds(run) {
  if (!run.finishedAt) return null;
  return (new Date(run.finishedAt) - new Date(run.startedAt)) / 1000;
}

export const shortCommit = (sha) => (sha ? String(sha).slice(0, 8) : '—');

export const percent = (fraction) => (fraction === null ? '—' : (fraction * 100).toFixed(fraction === 1 || fraction === 0 ? 0 : 1) + '%');

/** Pass rate of counts, skipped excluded; null when nothing ran. */
export function passRate(counts) {
  const ran = counts.total - counts.skipped;
  return ran > 0 ? (counts.passed + counts.expectedFailure) / ran : null;
}

export const STATUS_LABEL = {
  passed: 'Passed', failed: 'Failed', error: 'Error', skipped: 'Skipped', expected_failure: 'Expected failure',
  incomplete: 'Incomplete',
};

export const isFailing = (status) => status === 'failed' || status === 'error';

/** `LoginTests.swift:42` from a SourceLocation. */
export function fileLine(loc) {
  if (!loc) return null;
  const file = String(loc.file).split('/').pop();
  return file + ':' + loc.line;
}

/** `suite.name(arguments)` for headings. */
export function testTitle(result) {
  return result.name + (result.arguments ? ' (' + result.arguments + ')' : '');
}

/** `LoginPage.tapLogin()` from a page and an action that may already carry the page's name. */
export function qualifiedAction(page, action) {
  if (!action) return page || '';
  if (!page || action.startsWith(page + '.')) return action;
  return page + '.' + action;
}

/** `1 step`, `3 steps` (English plural with "s", or the given plural). */
export function plural(n, word, many) {
  return count(n) + ' ' + (n === 1 ? word : many || word + 's');
}
