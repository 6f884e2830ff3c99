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
        case 'text': element.textContent = String(value); break;
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
    else parent.appendChild(document.createTextNode(String(child)));
  }
  return parent;
}

/** Removes every child of `element`, then appends `children`. */
export function replaceChildren(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/**
 * A URL that is safe in an `href`: in-app hash routes, same-origin absolute paths, or http(s) URLs.
 * Anything else (`javascript:`, `data:`, ...) gives null, and no link is made.
 */
export function safeHref(value) {
  const text = String(value);
  if (text.startsWith('#/') || (text.startsWith('/') && !text.startsWith('//'))) return text;
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
