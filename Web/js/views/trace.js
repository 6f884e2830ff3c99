// The action trace of a failing result (docs/trace.md): a timeline of the test's page-object steps; the
// selected step's element tree drawn as a wireframe (SVG, from the tree, no image per step) with its target
// outlined, its call site and duration; the final step with the real screenshot; and "What changed": the
// failing step's tree against the same step of the newest passing result of the same test.
// Every test-controlled string goes in as text (textContent), never as markup.
import { h, replaceChildren, route, seg } from '../dom.js';
import { getArtifactJSON } from '../api.js';
import { duration, fileLine, plural, qualifiedAction } from '../format.js';
import { emptyState, section } from '../ui.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The path of an element_tree artifact (ArtifactLink.url in shapes.js). */
const treeURL = (sha) => '/artifacts/' + sha + '.json';

/** An element tree frame (`[[x, y], [width, height]]`, shapes.js) as {x, y, width, height}. */
export function rectOf(frame) {
  return { x: frame[0][0], y: frame[0][1], width: frame[1][0], height: frame[1][1] };
}

/** Whether two rectangles are the same to half a point. */
export function sameRect(a, b) {
  return !!a && !!b && ['x', 'y', 'width', 'height'].every((k) => Math.abs(a[k] - b[k]) < 0.5);
}

/** The index of the step the first failure happened in: the last one with its call site and action, else the last. */
export function failingStepIndex(trail, failure) {
  if (!failure || !trail.length) return -1;
  for (let i = trail.length - 1; i >= 0; i--) {
    const step = trail[i];
    const sameSite = failure.callSite && step.callSite && step.callSite.line === failure.callSite.line && step.callSite.file === failure.callSite.file;
    const sameAction = !failure.action || qualifiedAction(step.page, step.action) === qualifiedAction(failure.page, failure.action);
    if (sameSite && sameAction) return i;
  }
  return trail.length - 1;
}

/** Whether the result's trail carries a trace (at least one step with an element tree). */
export function hasTrace(trail) {
  return trail.some((step) => step.elementTree);
}

const stepKey = (step) => [step.page, step.action || '', step.callSite ? step.callSite.file + ':' + step.callSite.line : ''].join('\u001f');

/**
 * The step of `other` that is "the same step" as trail[index]: the same page, action and call site, the same
 * occurrence of it (the 2nd tap at that line matches the 2nd); else the step at the same position on the same page.
 */
export function matchingStep(trail, index, other) {
  const key = stepKey(trail[index]);
  const occurrence = trail.slice(0, index).filter((s) => stepKey(s) === key).length;
  const candidates = other.filter((s) => stepKey(s) === key);
  if (candidates.length) return candidates[Math.min(occurrence, candidates.length - 1)];
  const same = other[index];
  return same && same.page === trail[index].page ? same : null;
}

/** Elements of a tree with a key that names them across two trees: the identifier, else type and position. */
function keyedElements(tree) {
  const out = new Map();
  const walk = (element, path) => {
    const key = element.identifier ? 'id:' + element.identifier : 'path:' + path;
    if (!out.has(key)) out.set(key, element);
    const seen = new Map();
    for (const child of element.children || []) {
      const n = seen.get(child.elementType) || 0;
      seen.set(child.elementType, n + 1);
      walk(child, path + '/' + child.elementType + '[' + n + ']');
    }
  };
  walk(tree.root, tree.root.elementType);
  return out;
}

const COMPARED = [['label', 'label'], ['value', 'value'], ['isEnabled', 'enabled'], ['isHittable', 'hittable']];

/**
 * What changed between a passing tree and a failing one: elements that vanished, appeared, or changed label,
 * value, enabled or hittable. Elements are matched by identifier, else by their type path from the root.
 * Returns {vanished: Element[], appeared: Element[], changed: {element, before, changes: [name, before, after][]}[]}.
 */
export function diffTrees(passing, failing) {
  const before = keyedElements(passing);
  const after = keyedElements(failing);
  const vanished = [];
  const appeared = [];
  const changed = [];
  for (const [key, element] of before) if (!after.has(key)) vanished.push(element);
  for (const [key, element] of after) {
    const old = before.get(key);
    if (!old) { appeared.push(element); continue; }
    const changes = [];
    for (const [field, name] of COMPARED) {
      const a = old[field] ?? null;
      const b = element[field] ?? null;
      if (a !== b) changes.push([name, a, b]);
    }
    if (changes.length) changed.push({ element, before: old, changes });
  }
  return { vanished, appeared, changed };
}

/** One element as a line of text: `Button 'login.submit' “Log In”`. */
export function describeElement(element) {
  const type = element.elementType ? element.elementType.charAt(0).toUpperCase() + element.elementType.slice(1) : 'Element';
  return type + (element.identifier ? ' \'' + element.identifier + '\'' : '') + (element.label ? ' “' + element.label + '”' : '');
}

const showValue = (value) => value === null ? 'none' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : '“' + value + '”';

/**
 * A wireframe of `tree` in an SVG: one outlined box per element with its label, the target outlined, and the
 * diff's elements marked (changed, appeared; vanished ones drawn dashed from the passing tree).
 */
export function wireframe(tree, target, marks) {
  const device = tree.device || {};
  const width = device.width || 393;
  const height = device.height || 852;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  svg.setAttribute('class', 'wireframe');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Wireframe of the screen drawn from its element tree');
  const rect = (r, cls) => {
    const node = document.createElementNS(SVG, 'rect');
    node.setAttribute('x', r.x); node.setAttribute('y', r.y);
    node.setAttribute('width', Math.max(0, r.width)); node.setAttribute('height', Math.max(0, r.height));
    node.setAttribute('class', cls);
    return node;
  };
  const background = rect({ x: 0, y: 0, width, height }, 'wire-screen');
  svg.appendChild(background);
  const changedSet = new Set(marks ? marks.changed.map((c) => c.element) : []);
  const appearedSet = new Set(marks ? marks.appeared : []);
  const walk = (element) => {
    const r = rectOf(element.frame);
    if (r.width > 0 && r.height > 0 && element !== tree.root) {
      const cls = ['wire-element', 'wire-' + (element.elementType || 'other'), changedSet.has(element) && 'wire-changed',
        appearedSet.has(element) && 'wire-appeared', element.isHittable === false && 'wire-not-hittable'].filter(Boolean).join(' ');
      const box = rect(r, cls);
      const title = document.createElementNS(SVG, 'title');
      title.textContent = describeElement(element);
      box.appendChild(title);
      svg.appendChild(box);
      const text = element.label || element.value || element.placeholderValue;
      if (text && r.height >= 10) {
        const label = document.createElementNS(SVG, 'text');
        label.setAttribute('x', r.x + 4);
        label.setAttribute('y', r.y + Math.min(r.height - 3, 14));
        label.setAttribute('class', 'wire-label');
        label.textContent = text.length > 40 ? text.slice(0, 39) + '…' : text;
        svg.appendChild(label);
      }
    }
    for (const child of element.children || []) walk(child);
  };
  walk(tree.root);
  for (const element of marks ? marks.vanished : []) {
    const r = rectOf(element.frame);
    if (r.width > 0 && r.height > 0) svg.appendChild(rect(r, 'wire-vanished'));
  }
  if (target) svg.appendChild(rect(target, 'wire-target'));
  const hover = rect({ x: 0, y: 0, width: 0, height: 0 }, 'wire-hover');
  hover.setAttribute('visibility', 'hidden');
  svg.appendChild(hover);
  return {
    element: svg,
    showHover(r) {
      if (!r) { hover.setAttribute('visibility', 'hidden'); return; }
      hover.setAttribute('x', r.x); hover.setAttribute('y', r.y);
      hover.setAttribute('width', r.width); hover.setAttribute('height', r.height);
      hover.setAttribute('visibility', 'visible');
    },
  };
}

/**
 * The trace section: timeline and the selected step's view. `options`: `failure` (the first failure),
 * `passingTrace` (ResultDetail.passingTrace), `finalScreen()` (the real screenshot's stage for the final step,
 * or null), `treePanel(tree, stage, frame)` (the element tree list of result.js), `signal`.
 */
export function traceSection(trail, options) {
  const { failure, passingTrace, finalScreen, treePanel, signal } = options;
  const failing = failingStepIndex(trail, failure);
  const trees = new Map();  // sha → Promise<tree|null>
  const load = (sha) => {
    if (!sha) return Promise.resolve(null);
    if (!trees.has(sha)) trees.set(sha, getArtifactJSON(treeURL(sha), { signal }));
    return trees.get(sha);
  };
  const items = trail.map((step, index) => h('li', {},
    h('button', { type: 'button', class: ['timeline-step', index === failing && 'is-failing', !step.action && 'is-enter'],
      dataset: { step: String(index) }, attrs: { 'aria-pressed': 'false' }, on: { click: () => select(index) } },
    h('span', { class: 'timeline-index', text: String(index + 1) }),
    h('span', { class: 'trail-page', text: step.page }),
    step.action ? h('code', { class: 'trail-action', text: step.action }) : h('span', { class: 'muted small', text: 'entered' }),
    h('span', { class: 'timeline-duration muted small', text: step.duration != null ? duration(step.duration) : '' }),
    step.elementTree ? null : h('span', { class: 'muted small', text: 'no tree' }),
    index === failing ? h('span', { class: 'badge status-failed', text: 'failed here' }) : null)));
  const timeline = h('ol', { class: 'trace-timeline', attrs: { 'aria-label': 'Steps of the test' } }, items);
  const view = h('div', { class: 'trace-step' });
  let selected = -1;
  let generation = 0;
  const select = async (index) => {
    selected = index;
    const mine = ++generation;
    items.forEach((item, i) => {
      const button = item.firstChild;
      button.classList.toggle('is-selected', i === index);
      button.setAttribute('aria-pressed', String(i === index));
    });
    const step = trail[index];
    view.dataset.step = String(index);
    view.dataset.state = 'loading';
    replaceChildren(view, h('p', { class: 'muted', text: 'Loading the element tree…' }));
    const passingStep = index === failing && passingTrace ? matchingStep(trail, index, passingTrace.trail) : null;
    let tree, passingTree;
    try {
      [tree, passingTree] = await Promise.all([load(step.elementTree), load(passingStep && passingStep.elementTree)]);
    } catch (error) {
      if (error.name === 'AbortError') return;  // the reader left the view
      throw error;
    }
    if (mine !== generation || signal.aborted) return;
    replaceChildren(view, stepView(step, index, tree, passingTree, passingStep));
    view.dataset.state = 'ready';
  };

  const stepView = (step, index, tree, passingTree, passingStep) => {
    const facts = h('dl', { class: 'facts' },
      h('div', { class: 'fact' }, h('dt', { text: 'Step' }), h('dd', { text: (index + 1) + ' of ' + trail.length })),
      h('div', { class: 'fact' }, h('dt', { text: 'Action' }),
        h('dd', {}, h('code', { class: 'action step-action', text: step.action ? qualifiedAction(step.page, step.action) : step.page + ' (entered)' }))),
      h('div', { class: 'fact' }, h('dt', { text: 'Call site' }),
        h('dd', {}, step.callSite ? h('code', { class: 'callsite step-callsite', title: step.callSite.file + ':' + step.callSite.line, text: fileLine(step.callSite) }) : '—')),
      h('div', { class: 'fact' }, h('dt', { text: 'Duration' }), h('dd', { class: 'step-duration', text: step.duration != null ? duration(step.duration) : '—' })));
    const isFinal = index === failing;
    const screen = isFinal && finalScreen ? finalScreen() : null;
    let diff = null;
    if (isFinal && tree) diff = passingTree ? diffTrees(passingTree, tree) : null;
    const parts = [facts];
    const panes = h('div', { class: 'trace-panes' });
    if (screen) {
      panes.appendChild(h('div', { class: 'trace-screen' }, h('h3', { text: 'The real screen at the failure' }), screen.element));
    }
    if (tree && tree.root) {
      const frame = step.target || null;
      const wire = wireframe(tree, frame, diff);
      panes.appendChild(h('div', { class: 'trace-wire' }, h('h3', { text: 'Wireframe from the element tree' }), wire.element));
      panes.appendChild(treePanel(tree, wire, frame));
    } else {
      panes.appendChild(emptyState('No element tree for this step', step.elementTree
        ? 'The tree has not been uploaded yet.' : 'The reporter kept trees for the newest steps only, or this result has no trace.'));
    }
    parts.push(panes);
    if (isFinal) parts.push(whatChanged(diff, passingTrace, passingStep, passingTree));
    return parts;
  };

  const body = [h('div', { class: 'trace-layout' }, timeline, view)];
  const card = section('Action trace', h('span', { class: 'muted small', text: plural(trail.length, 'step') + ' · select a step' }), ...body);
  card.classList.add('trace');
  select(failing >= 0 ? failing : trail.length - 1);
  return card;
}

/** The "What changed" list: the failing step against the same step of the newest passing trace. */
function whatChanged(diff, passingTrace, passingStep, passingTree) {
  const head = h('h3', { text: 'What changed since it passed' });
  if (!passingTrace) {
    return h('div', { class: 'what-changed', dataset: { state: 'no-passing' } }, head,
      h('p', { class: 'muted', text: 'No passing result of this test has a trace to compare with. Passing tests write no trace unless they are a retry of a failed attempt or FAILSCOPE_TRACE=always is set (docs/trace.md).' }));
  }
  const from = h('p', { class: 'muted small' }, 'Against ',
    h('a', { href: route('/results/' + seg(passingTrace.resultId)), text: 'the passing result' }),
    ' in run ' + passingTrace.runId + (passingTrace.device ? ' on ' + passingTrace.device : '') + '.');
  if (!passingStep || !passingTree) {
    return h('div', { class: 'what-changed', dataset: { state: 'no-step' } }, head, from,
      h('p', { class: 'muted', text: passingStep ? 'The passing step\'s element tree is not available.' : 'The passing result has no matching step.' }));
  }
  const total = diff.vanished.length + diff.appeared.length + diff.changed.length;
  const list = h('ul', { class: 'changes' },
    diff.vanished.map((e) => h('li', { class: 'change change-vanished', dataset: { change: 'vanished' } },
      h('span', { class: 'badge change-badge', text: 'vanished' }), h('span', { text: describeElement(e) }))),
    diff.appeared.map((e) => h('li', { class: 'change change-appeared', dataset: { change: 'appeared' } },
      h('span', { class: 'badge change-badge', text: 'appeared' }), h('span', { text: describeElement(e) }))),
    diff.changed.map((c) => h('li', { class: 'change change-changed', dataset: { change: 'changed' } },
      h('span', { class: 'badge change-badge', text: 'changed' }), h('span', { text: describeElement(c.before) }),
      h('span', { class: 'muted', text: c.changes.map(([name, a, b]) => name + ' ' + showValue(a) + ' → ' + showValue(b)).join(', ') }))));
  return h('div', { class: 'what-changed', dataset: { state: total ? 'changes' : 'same' } }, head, from,
    total ? list : h('p', { class: 'muted', text: 'The element tree is the same as when the test passed.' }));
}

/**
 * "Download with outline": the screenshot as captured with the failing element's outline drawn on it, made
 * in the browser (canvas → PNG); the stored artifact is not changed. `frame` in points, `scale` pixels a point.
 */
export function outlineDownload(artifact, frame, scale, fileName) {
  const button = h('button', { type: 'button', class: 'button small download-outline', text: 'Download with outline' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const image = new Image();
      image.src = artifact.url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const line = Math.max(2, Math.round(scale * 1.5));
      context.strokeStyle = 'rgb(255, 45, 85)';
      context.lineWidth = line;
      context.strokeRect(frame.x * scale + line / 2, frame.y * scale + line / 2, frame.width * scale - line, frame.height * scale - line);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      const link = h('a', { attrs: { download: fileName } });
      link.href = URL.createObjectURL(blob);  // a blob: URL of our own bytes (safeHref takes http(s) and paths only)
      button.dataset.size = String(blob.size);
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
