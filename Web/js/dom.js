// DOM building without HTML parsing: every string becomes a text node or an attribute value.
// Test-controlled text (names, messages, identifiers, branch names) must only go through here.

/**
 * Creates an element.
 * props: { class, text, title, href, id, role, type, value, placeholder, hidden, dataset: {},
 *          attrs: {name: value}, on: {event: handler} }
 * children: strings (inserted as text), nodes, arrays of those; null/undefined/false are skipped.
 * `style` is never set as an attribute (the CSP forbids inline styles); use CSSOM (`el.style.x`).
 */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      switch (key) {
        case 'class': element.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value; break;
        case 'text': element.replaceChildren(textNode(value)); break;
        case 'dataset': Object.assign(element.dataset, value); break;
        case 'on': for (const [event, handler] of Object.entries(value)) element.addEventListener(event, handler); break;
        case 'attrs': for (const [name, v] of Object.entries(value)) if (v !== null && v !== undefined) element.setAttribute(name, String(v)); break;
        case 'href': {
          const url = safeHref(value);
          if (url !== null) element.setAttribute('href', url);
          break;
        }
        case 'style': throw new Error('inline style attributes are not allowed; use CSS classes');
        default:
          if (key in element && typeof value !== 'string') element[key] = value;
          else element.setAttribute(key, value === true ? '' : String(value));
      }
    }
  }
  append(element, children);
  return element;
}

/** Appends children (text, nodes, nested arrays) to `parent`. */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(textNode(child));
  }
  return parent;
}

/**
 * Characters that are invisible or reorder their neighbours: controls (C0 but tab and line feed, DEL, C1),
 * format characters (bidi embeddings, overrides and isolates U+202A-202E and U+2066-2069, zero-width
 * U+200B-200D, marks U+200E/200F and U+061C, U+2060-2064, U+FEFF, soft hyphen, tag characters), line and
 * paragraph separators, and the blank Hangul fillers and combining grapheme joiner. The CLI's terminal
 * escaping (`failscope runs`, `flaky`) shows the same set.
 */
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Cf}\u2028\u2029\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0]/u;
const INVISIBLE_GLOBAL = new RegExp(INVISIBLE.source, 'gu');
/** Text that needs no isolation: printable ASCII, tabs and line feeds (it cannot reorder its neighbours). */
const PLAIN = /^[\t\n\u0020-\u007E]*$/;

/**
 * A node showing `value` as text. Printable ASCII is a plain text node. Anything else is an isolated
 * `<bdi>` (so right-to-left text or a bidi control cannot reorder the fields around it), in which every
 * invisible or reordering character (see INVISIBLE) is shown as a `U+202E`-style badge instead of acting.
 */
export function textNode(value) {
  const text = String(value);
  if (PLAIN.test(text)) return document.createTextNode(text);
  const isolated = document.createElement('bdi');
  let last = 0;
  for (const match of text.matchAll(INVISIBLE_GLOBAL)) {
    if (match.index > last) isolated.appendChild(document.createTextNode(text.slice(last, match.index)));
    isolated.appendChild(codePointBadge(match[0].codePointAt(0)));
    last = match.index + match[0].length;
  }
  if (last < text.length) isolated.appendChild(document.createTextNode(text.slice(last)));
  return isolated;
}

/** `U+200B` in a badge, for a character that would otherwise be invisible. */
function codePointBadge(codePoint) {
  const name = 'U+' + codePoint.toString(16).toUpperCase().padStart(4, '0');
  const badge = document.createElement('span');
  badge.className = 'code-point';
  badge.title = 'Invisible character ' + name;
  badge.textContent = name;
  return badge;
}

/**
 * `value` for places that take plain text only (the document title): each invisible or reordering character
 * spelled `<U+202E>`, and text that is not plain ASCII wrapped in U+2068/U+2069 (first-strong isolate), the
 * plain-text form of `<bdi>`.
 */
export function isolatedText(value) {
  const text = String(value);
  if (PLAIN.test(text)) return text;
  const spelled = text.replace(INVISIBLE_GLOBAL,
    (c) => '<U+' + c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + '>');
  return '\u2068' + spelled + '\u2069';
}

/** Whether `value` holds a character that `textNode` shows as a badge. */
export const hasInvisible = (value) => INVISIBLE.test(String(value));

/** Removes every child of `element`, then appends `children`. */
export function replaceChildren(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/**
 * A URL that is safe in an `href`: in-app hash routes (`#/...`), same-origin absolute paths, or absolute
 * http(s) URLs. Anything else (`javascript:`, `data:`, relative paths, ...) gives null, and no link is made.
 *
 * A same-origin path must not be one a browser reads as protocol-relative (`//host/x`): browsers turn `\`
 * into `/` in http(s) URLs and drop tabs and line breaks anywhere, so `/\evil.example/x` and `/<TAB>/evil`
 * both go off-site. Such a path is refused if it holds a `\`, a `//`, or any control or space character, and
 * is checked once more by resolving it against this page's origin.
 */
export function safeHref(value) {
  const text = String(value);
  if (/[\u0000-\u0020\u007F]/.test(text)) {
    // Controls and spaces: a browser strips or trims them, so the link would not go where it reads.
    return null;
  }
  if (text.startsWith('#/')) return text;
  if (text.startsWith('/')) {
    if (text.includes('\\') || text.includes('//')) return null;
    try {
      return new URL(text, location.href).origin === location.origin ? text : null;
    } catch {
      return null;
    }
  }
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** `#/runs/abc` style route for a path and query object (empty values dropped). */
export function route(path, query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return '#' + path + (text ? '?' + text : '');
}

/** Encodes one path segment of a route. */
export const seg = (text) => encodeURIComponent(String(text));

/** Calls `fn` at most once per `ms`, with the last arguments. */
export function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
