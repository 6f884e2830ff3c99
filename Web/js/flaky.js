// Why the service calls a test flaky or broken, in words, from the evidence GET /api/v1/flaky gives
// (shapes.js: FlakyTest, BrokenTest, FlakyPolicy; the rules are docs/flaky.md). Nothing is recounted here.
import { h, route, seg } from './dom.js';
import { count, percent, plural, shortCommit } from './format.js';

export const REASON_LABEL = { contradiction: 'pass and fail on one commit', flip_rate: 'flip rate' };

/** Reason chips: `pass and fail on one commit`, `flip rate`. */
export function reasonChips(test) {
  return test.reasons.map((reason) => h('span', { class: 'reason-chip', dataset: { reason }, text: REASON_LABEL[reason] || reason }));
}

/** One line per reason of a flaky test, with its evidence. */
export function flakyEvidence(test, policy) {
  const lines = [];
  if (test.reasons.includes('contradiction')) {
    const shown = test.contradictingCommits;
    lines.push(h('li', { dataset: { reason: 'contradiction' } }, 'Passed and failed on the same commit: ',
      shown.map((c, index) => [index ? ', ' : '', h('code', { title: c.commit, text: shortCommit(c.commit) }),
        ' (' + count(c.passes) + ' passed, ' + count(c.fails) + ' failed)']),
      test.contradictingCommitCount > shown.length ? ' and ' + count(test.contradictingCommitCount - shown.length) + ' more' : '',
      '.'));
  }
  if (test.reasons.includes('flip_rate')) {
    lines.push(h('li', { dataset: { reason: 'flip_rate' } },
      'Flip rate ' + percent(test.flipRate) + ': ' + plural(test.flips, 'change') + ' between pass and fail over its newest '
      + plural(test.sampleCount, 'result') + ' (flaky from ' + percent(policy.flipRateThreshold) + ', with at least '
      + plural(policy.minimumResults, 'result') + ').'));
  }
  return lines;
}

/** Why a broken test is broken. */
export function brokenEvidence(test, policy) {
  return h('li', { dataset: { reason: 'broken' } }, 'Every result on its newest commit ',
    h('code', { title: test.commit, text: shortCommit(test.commit) }), ' failed: ' + plural(test.failCount, 'result') + ', and '
    + count(policy.brokenMinimum) + ' are enough to call a test broken. A broken test is never counted as flaky.');
}

/** Where a flaky test's failures happened: links to those pages' flaky tests. */
export function flakyPages(test) {
  if (!test.pages.length) return null;
  return h('li', { dataset: { reason: 'pages' } }, 'Its failures in the window were on ',
    test.pages.map((p, index) => [index ? ', ' : '',
      h('a', { class: 'mono', href: route('/pages/' + seg(p.page), { suite: p.suite, branch: test.branch }), text: p.page }),
      ' ×' + count(p.failureCount)]), '.');
}
