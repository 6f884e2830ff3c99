// One result: the failure screenshot with the failing element outlined from its recorded frame (and a
// download of it with the outline burnt in), the element tree beside it (search; hovering a node outlines
// its element), failure location and call site, the action trace (trace.js) or else the page trail, and
// the last passing screenshot of the same page when there is one.
import { h, replaceChildren, route, seg, debounce, isolatedText } from '../dom.js';
import { api, cachedRun, getArtifactJSON } from '../api.js';
import { STATUS_LABEL, dateTime, duration, fileLine, isFailing, plural, qualifiedAction, shortCommit, testTitle } from '../format.js';
import { emptyState, fact, heading, section, statusBadge } from '../ui.js';
import { isReporterRun } from '../shapes.js';
import { quarantinedBadge } from '../quarantine.js';
import { failingStepIndex, hasTrace, outlineDownload, rectOf, sameRect, traceSection } from './trace.js';

/** How an imported run's results came in, for "no screenshot" explanations. */
const IMPORTED_FROM = { junit: 'JUnit XML', xcresult: 'an .xcresult bundle', event_stream: 'a swift test event stream' };

/** Screen sizes in points of the simulated devices, for screenshots whose element tree is missing. */
const KNOWN_DEVICES = {
  'iPhone SE (3rd generation)': { width: 375, height: 667 },
  'iPhone 15': { width: 393, height: 852 },
  'iPhone 15 Pro Max': { width: 430, height: 932 },
  'iPad (10th generation)': { width: 820, height: 1180 },
};

export async function renderResult({ root, params: [resultId], signal }) {
  const detail = await api.result(resultId, { signal });
  const { result, run: runSummary } = detail;
  const run = runSummary.run;
  document.title = isolatedText(result.name) + ' · Failscope';
  const screenshot = detail.artifacts.find((a) => a.kind === 'screenshot');
  const treeArtifact = detail.artifacts.find((a) => a.kind === 'element_tree' && a.available);
  const tree = treeArtifact ? await getArtifactJSON(treeArtifact.url, { signal }) : null;
  const failures = detail.failures;
  const first = failures[0] || null;

  const header = heading(
    [['Runs', route('/runs', { project: run.project })],
      [run.project + (run.branch ? ' · ' + run.branch : '') + ' · ' + shortCommit(run.commit), route('/runs/' + seg(run.id))]],
    testTitle(result), statusBadge(result.status),
    result.quarantined && isFailing(result.status) ? quarantinedBadge() : null,
    result.attempt > 1 ? h('span', { class: 'badge subtle', text: 'attempt ' + result.attempt }) : null);
  const stepper = failureStepper(run.id, result.id);
  const meta = h('div', { class: 'result-meta' },
    h('span', { class: 'suite', text: result.suite }),
    result.device || run.device ? h('span', { text: result.device || run.device }) : null,
    h('span', { text: duration(result.duration) }),
    h('span', { title: result.startedAt || '', text: dateTime(result.startedAt || run.startedAt) }),
    h('a', { href: route('/tests/' + seg(result.testId)), class: 'button small', text: 'Test history' }),
    h('a', { href: route('/runs/' + seg(run.id)), class: 'button small subtle', text: 'Back to run' }),
    stepper);

  const nodes = [header, meta];
  if (failures.length) nodes.push(failureSummary(failures));
  else if (result.status === 'skipped') nodes.push(section('Skipped', null, h('p', { text: detail.skipReason || 'No reason given.' })));
  else nodes.push(section(STATUS_LABEL[result.status] || result.status, null,
    h('p', { class: 'muted', text: 'This result has no failures; screenshots are only captured when a test fails.' })));

  const device = deviceOf(tree, result.device || run.device, screenshot);
  const frame = detail.elementFrame || (first && first.elementFrame) || null;
  const inspector = h('div', { class: 'inspector' });
  if (screenshot && screenshot.available) {
    const stage = screenStage(screenshot, device, frame);
    const download = frame && screenshot.width
      ? outlineDownload(screenshot, frame, screenshot.width / device.width, 'failscope-result-' + result.id + '-outlined.png') : null;
    inspector.appendChild(section('Screen at the failure', download, stage.element, stage.legend));
    inspector.appendChild(treePanel(tree, stage, frame));
    if (detail.lastPassingScreenshot) {
      inspector.classList.add('has-passing');
      inspector.appendChild(lastPassing(detail.lastPassingScreenshot, first ? first.page : result.page));
    }
  } else if (screenshot) {
    inspector.appendChild(emptyState('Screenshot not uploaded yet', 'The result references a screenshot the service has not received.'));
  } else if (failures.length) {
    inspector.appendChild(noScreenshot(run, first, detail.trail));
  }
  if (inspector.childNodes.length) nodes.push(inspector);
  if (hasTrace(detail.trail)) {
    nodes.push(traceSection(detail.trail, {
      failure: first, passingTrace: detail.passingTrace || null, signal, treePanel,
      finalScreen: screenshot && screenshot.available ? () => {
        const stage = screenStage(screenshot, device, frame);
        stage.element.querySelector('img').removeAttribute('id');  // #screenshot is the inspector's
        return stage;
      } : null,
    }));
  } else {
    nodes.push(trailSection(detail.trail, first));
  }
  if (detail.systemOut || detail.systemErr) {
    nodes.push(section('Output', null,
      detail.systemOut ? h('details', { class: 'output' }, h('summary', { text: 'Standard output' }), h('pre', { text: detail.systemOut })) : null,
      detail.systemErr ? h('details', { class: 'output' }, h('summary', { text: 'Standard error' }), h('pre', { text: detail.systemErr })) : null));
  }
  replaceChildren(root, nodes);
}

/** Why a failure has no screenshot: imported results carry none; a reporter test without a page has no screen. */
function noScreenshot(run, failure, trail) {
  const reason = !isReporterRun(run)
    ? 'Results imported from ' + (IMPORTED_FROM[run.source] || run.source) + ' carry no screenshots.'
    : !failure.page && !trail.length
      ? 'This test drives no page object (a unit test, say), so there is no screen to capture.'
      : 'The reporter sent no screenshot for this failure: no screen capture is set up for this test.';
  const state = emptyState('No screenshot', reason);
  state.classList.add('state-compact');
  state.dataset.noScreenshot = isReporterRun(run) ? 'reporter' : 'imported';
  return state;
}

function failureSummary(failures) {
  return h('section', { class: 'card failure-summary' }, failures.map((failure, index) => h('div', { class: 'failure-item' },
    failures.length > 1 ? h('div', { class: 'muted small', text: 'Failure ' + (index + 1) + ' of ' + failures.length + (index === 0 ? ' (first: the screenshot was taken here)' : '') }) : null,
    h('pre', { class: ['message', 'message-full', failure.isError && 'is-error'], text: failure.message }),
    h('dl', { class: 'facts' },
      fact('Failure location', failure.location
        ? h('code', { class: 'location', title: failure.location.file + ':' + failure.location.line, text: fileLine(failure.location) }) : '—'),
      failure.page || failure.callSite || failure.action ? [
        fact('Call site', failure.callSite
          ? h('code', { class: 'callsite', title: failure.callSite.file + ':' + failure.callSite.line, text: fileLine(failure.callSite) }) : '—'),
        fact('Page', failure.page ? h('a', { href: route('/pages/' + seg(failure.page)), class: 'mono', text: failure.page }) : '—'),
        wide(fact('Action', failure.action ? h('code', { class: 'action', text: qualifiedAction(failure.page, failure.action) }) : '—')),
      ] : fact('Page', h('span', { class: 'muted', text: 'none: not in a page object step' })),
      fact('Kind', failure.isError ? 'error (thrown)' : 'assertion failure')))));
}

/**
 * "‹ previous · 3 of 12 failures · next ›" through the run's failures in the run view's order, when
 * the run's detail is at hand (the user came from the run); nothing otherwise.
 */
function failureStepper(runId, resultId) {
  const detail = cachedRun(runId);
  if (!detail) return null;
  const failing = [];
  for (const group of detail.pages) {
    for (const site of group.callSites) {
      for (const r of site.results) if (r.status === 'failed' || r.status === 'error') failing.push(r.id);
    }
  }
  const index = failing.indexOf(resultId);
  if (index < 0 || failing.length < 2) return null;
  const link = (offset, label) => {
    const target = failing[index + offset];
    return target === undefined ? h('span', { class: 'muted', text: label })
      : h('a', { href: route('/results/' + seg(target)), class: 'step-link', dataset: { step: offset < 0 ? 'previous' : 'next' }, text: label });
  };
  return h('span', { class: 'stepper' }, link(-1, '‹ previous'),
    h('span', { class: 'muted', text: (index + 1) + ' of ' + failing.length + ' failures' }), link(1, 'next ›'));
}

function wide(element) {
  element.classList.add('wide');
  return element;
}

/** Device size in points: from the element tree, else the known simulated devices, else scale 3. */
function deviceOf(tree, name, screenshot) {
  if (tree && tree.device && tree.device.width > 0) {
    return { name: tree.device.name, width: tree.device.width, height: tree.device.height, scale: tree.device.scale, source: 'tree' };
  }
  const known = KNOWN_DEVICES[name];
  if (known) {
    // Points from the device's width; the height follows the screenshot's aspect when it is known.
    const scale = screenshot && screenshot.width ? screenshot.width / known.width : 3;
    const height = screenshot && screenshot.height ? screenshot.height / scale : known.height;
    return { name, width: known.width, height, scale, source: 'name' };
  }
  const scale = 3;
  const width = screenshot && screenshot.width ? screenshot.width / scale : 393;
  const height = screenshot && screenshot.height ? screenshot.height / scale : 852;
  return { name: name || 'unknown', width, height, scale, source: 'assumed' };
}

/**
 * The screenshot with outline boxes placed in percent of the device's point size, so they stay on
 * the element at any displayed size: pixels = points × scale, and scale = natural width / points.
 */
function screenStage(artifact, device, frame) {
  const image = h('img', { id: 'screenshot', src: artifact.url, alt: 'Screen at the failure', decoding: 'async',
    width: artifact.width || undefined, height: artifact.height || undefined });
  const stage = h('div', { class: 'stage', dataset: { deviceWidth: String(device.width), deviceHeight: String(device.height) } }, image);
  const place = (box, rect) => {
    box.style.left = (100 * rect.x / device.width) + '%';
    box.style.top = (100 * rect.y / device.height) + '%';
    box.style.width = (100 * rect.width / device.width) + '%';
    box.style.height = (100 * rect.height / device.height) + '%';
  };
  let target = null;
  if (frame) {
    target = h('div', { class: 'outline outline-target', title: 'The element the failing action targeted' });
    place(target, frame);
    stage.appendChild(target);
  }
  const hover = h('div', { class: 'outline outline-hover', hidden: true });
  stage.appendChild(hover);
  const legend = h('p', { class: 'muted small legend' },
    device.name + ' · ' + device.width + '×' + device.height + ' pt @' + round(device.scale) + 'x' + (device.source === 'assumed' ? ' (scale assumed)' : ''),
    frame ? [' · ', h('span', { class: 'legend-target' }), ' failing element {' + [frame.x, frame.y, frame.width, frame.height].map(round).join(', ') + '} pt'] : ' · no element frame recorded');
  image.addEventListener('load', () => {
    stage.dataset.naturalWidth = String(image.naturalWidth);
    stage.dataset.scale = String(image.naturalWidth / device.width);
    stage.dataset.loaded = 'true';
  });
  image.addEventListener('error', () => { stage.dataset.loaded = 'error'; stage.classList.add('broken'); });
  return {
    element: h('div', { class: 'stage-wrap' }, stage),
    legend,
    showHover(rect) {
      if (!rect) { hover.hidden = true; return; }
      place(hover, rect);
      hover.hidden = false;
    },
    target,
  };
}

const round = (n) => Math.round(n * 100) / 100;

/** The element tree: search by identifier, label or type; hovering (or focusing) a node outlines it. */
function treePanel(tree, stage, frame) {
  if (!tree || !tree.root) {
    return section('Element tree', null, emptyState('No element tree', 'The reporter did not upload an element tree for this failure.'));
  }
  const rows = [];
  const walk = (element, depth, parent) => {
    const rect = rectOf(element.frame);
    const isTarget = sameRect(rect, frame);
    const row = { element, depth, rect, parent, isTarget, text: [element.elementType, element.identifier, element.label, element.value, element.placeholderValue].filter(Boolean).join(' ').toLowerCase() };
    rows.push(row);
    for (const child of element.children) walk(child, depth + 1, row);
  };
  walk(tree.root, 0, null);

  const list = h('ul', { class: 'tree', role: 'tree' });
  for (const row of rows) {
    const e = row.element;
    const item = h('li', { class: ['tree-node', row.isTarget && 'is-target', e.isHittable === false && 'not-hittable'], role: 'treeitem', tabIndex: 0,
      dataset: { identifier: e.identifier || '', type: e.elementType || '' },
      title: row.rect ? 'frame {' + [row.rect.x, row.rect.y, row.rect.width, row.rect.height].map(round).join(', ') + '} pt' : '' },
      h('span', { class: 'node-type', text: typeName(e.elementType) }),
      e.identifier ? h('span', { class: 'node-id', text: e.identifier }) : null,
      e.label ? h('span', { class: 'node-label', text: '“' + e.label + '”' }) : null,
      e.value ? h('span', { class: 'node-value', text: '= ' + e.value }) : null,
      e.isEnabled === false ? h('span', { class: 'node-flag', text: 'disabled' }) : null,
      e.hasFocus ? h('span', { class: 'node-flag', text: 'focused' }) : null,
      row.isTarget ? h('span', { class: 'badge status-failed', text: 'failing element' }) : null);
    item.style.paddingLeft = (8 + row.depth * 14) + 'px';
    const show = () => stage.showHover(row.rect);
    const hide = () => stage.showHover(null);
    item.addEventListener('mouseenter', show);
    item.addEventListener('focus', show);
    item.addEventListener('mouseleave', hide);
    item.addEventListener('blur', hide);
    row.item = item;
    list.appendChild(item);
  }
  const info = h('span', { class: 'muted small', text: plural(rows.length, 'element') });
  const search = h('input', { type: 'search', class: 'search tree-search', placeholder: 'Identifier, label or type…', attrs: { 'aria-label': 'Search the element tree' } });
  const filter = () => {
    const terms = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const keep = new Set();
    let matches = 0;
    for (const row of rows) {
      const match = terms.length > 0 && terms.every((t) => row.text.includes(t));
      row.item.classList.toggle('is-match', match);
      if (match || !terms.length) {
        matches += match ? 1 : 0;
        for (let r = row; r && !keep.has(r); r = r.parent) keep.add(r);
      }
    }
    for (const row of rows) row.item.hidden = !keep.has(row);
    info.textContent = terms.length ? matches + ' of ' + plural(rows.length, 'element') + ' match' : plural(rows.length, 'element');
  };
  search.addEventListener('input', debounce(filter, 80));
  search.addEventListener('search', filter);
  search.addEventListener('keydown', (event) => { if (event.key === 'Escape') { search.value = ''; filter(); } });
  return h('section', { class: 'card tree-panel' },
    h('div', { class: 'card-head' }, h('h2', { text: 'Element tree' }), info),
    search, h('div', { class: 'tree-scroll' }, list));
}

function typeName(type) {
  if (!type) return 'Element';
  return type.charAt(0).toUpperCase() + type.slice(1);
}

function lastPassing(passing, page) {
  return h('section', { class: 'card last-passing' },
    h('div', { class: 'card-head' }, h('h2', { text: 'Last passing' + (page ? ' on ' + page : '') }),
      h('a', { href: route('/results/' + seg(passing.resultId)), class: 'small', text: 'open that result' })),
    h('a', { href: route('/results/' + seg(passing.resultId)), class: 'passing-shot' },
      h('img', { src: passing.artifact.url, alt: 'Last passing screenshot of the same page', loading: 'lazy', decoding: 'async',
        width: passing.artifact.width || undefined, height: passing.artifact.height || undefined })),
    h('p', { class: 'muted small', text: 'From run ' + passing.runId }));
}

function trailSection(trail, failure) {
  if (!trail.length) return section('Page trail', null, h('p', { class: 'muted', text: 'No page objects were recorded for this test.' }));
  const failing = failingStepIndex(trail, failure);
  return section('Page trail', h('span', { class: 'muted small', text: plural(trail.length, 'step') + ', in order' }),
    h('ol', { class: 'trail' }, trail.map((step, index) => h('li', { class: ['trail-step', index === failing && 'is-failing', !step.action && 'is-enter'] },
      h('span', { class: 'trail-page', text: step.page }),
      step.action ? h('code', { class: 'trail-action', text: step.action }) : h('span', { class: 'muted small', text: 'entered' }),
      step.callSite ? h('code', { class: 'trail-site', title: step.callSite.file + ':' + step.callSite.line, text: fileLine(step.callSite) }) : null,
      index === failing ? h('span', { class: 'badge status-failed', text: 'failed here' }) : null))));
}
