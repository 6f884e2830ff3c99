// A run's failures read as problems (RunErrors, GET /api/v1/runs/{runId}/errors: shapes.js, docs/errors.md):
// its new errors, and failures grouped by identical signature and identical screenshot, with each failure's
// verdict (docs/flaky.md). The run view asks for it with the run and draws this card at its top.
import { h, replaceChildren, route, seg } from '../dom.js';
import { api } from '../api.js';
import { count, testTitle } from '../format.js';

/** Lists longer than this start folded: the card stays short above the failures (which load as they scroll into view). */
const FOLD_AFTER = 1;

/** How a verdict reads. */
export const VERDICT_LABEL = { likely_flaky: 'likely flaky', regression: 'regression', new: 'new', known: 'known' };

/** Run `runId`'s errors (RunErrors), or the Error that kept them from loading; an abort still throws. */
export function loadRunErrors(runId, signal) {
  return api.runErrors(runId, {}, { signal }).catch((error) => {
    if (error.name === 'AbortError') throw error;
    return error;
  });
}

/** The card of `errors` (what `loadRunErrors` gave); empty (hidden) when the run has no failure. */
export function runErrorsCard(errors) {
  const card = h('section', { class: 'card run-errors', hidden: true, dataset: { state: 'ready' } });
  if (errors instanceof Error) {
    card.dataset.state = 'error';
    card.hidden = false;
    replaceChildren(card, h('p', { class: 'muted', text: 'Errors could not be loaded: ' + errors.message }));
  } else if (errors.failures.length) {
    card.hidden = false;
    replaceChildren(card, content(errors));
  }
  return card;
}

function content(errors) {
  const signatures = new Map(errors.signatures.map((s) => [s.id, s]));
  const byId = new Map(errors.failures.map((f) => [f.result.id, f]));
  const verdicts = new Map();
  for (const failure of errors.failures) verdicts.set(failure.verdict, (verdicts.get(failure.verdict) || 0) + 1);
  const nodes = [h('div', { class: 'card-head' }, h('h2', { text: 'Errors' }),
    h('div', { class: 'verdict-counts' }, Object.keys(VERDICT_LABEL).filter((v) => verdicts.has(v)).map((v) =>
      h('span', { class: ['badge', 'verdict-' + v], dataset: { verdict: v }, text: count(verdicts.get(v)) + ' ' + VERDICT_LABEL[v] }))))];
  // Folded when long, so the card stays a few lines tall above the failures it summarizes.
  nodes.push(h('details', { class: 'run-errors-part', open: errors.newErrors.length <= FOLD_AFTER },
    h('summary', {}, h('h3', { text: 'New errors (' + count(errors.newErrors.length) + ')' })),
    errors.newErrors.length
      ? h('ul', { class: 'new-errors' }, errors.newErrors.map((id) => signatureItem(signatures.get(id),
        errors.failures.filter((f) => f.signatureId === id))))
      : h('p', { class: 'muted', text: 'No new error: every error here was seen before on this branch.' })));
  const groups = [...errors.bySignature.map((g) => ['signature', g]), ...errors.byScreenshot.map((g) => ['screenshot', g])];
  if (groups.length) {
    nodes.push(h('details', { class: 'run-errors-part', open: groups.length <= FOLD_AFTER },
      h('summary', {}, h('h3', { text: 'Failures that are one problem (' + count(groups.length) + ')' })),
      h('ul', { class: 'failure-groups' }, groups.map(([kind, group]) => {
        const members = group.resultIds.map((id) => byId.get(id)).filter(Boolean);
        const title = kind === 'signature'
          ? (signatures.get(group.key) || { message: group.key }).message
          : 'The same screenshot';
        return h('li', { class: 'failure-group', dataset: { kind, key: group.key } },
          kind === 'screenshot' ? h('img', { class: 'thumb', alt: 'Shared screenshot', loading: 'lazy', src: '/artifacts/' + group.key + '.png' }) : null,
          h('div', {}, h('div', { class: 'error-message', text: title }),
            h('div', { class: 'muted small', text: count(members.length) + ' failing results' }),
            h('ul', { class: 'group-members' }, members.map((f) => memberItem(f)))));
      }))));
  }
  return nodes;
}

function signatureItem(signature, failures) {
  return h('li', { class: 'new-error', dataset: { signature: signature.id } },
    h('div', { class: 'error-message', text: signature.message }),
    h('div', { class: 'muted small mono', text: signature.location || 'no location' }),
    h('ul', { class: 'group-members' }, failures.map((f) => memberItem(f))));
}

function memberItem(failure) {
  return h('li', {}, h('a', { href: route('/results/' + seg(String(failure.result.id))), text: testTitle(failure.result) }),
    ' ', h('span', { class: ['badge', 'verdict-' + failure.verdict], dataset: { verdict: failure.verdict }, text: VERDICT_LABEL[failure.verdict] }));
}
