import { h, replaceChildren } from '../dom.js';
import { emptyState } from '../ui.js';

export async function renderPages({ root }) {
  replaceChildren(root, emptyState('Coming soon', 'This view is not built yet.'));
}
export async function renderPage({ root }) {
  replaceChildren(root, emptyState('Coming soon', 'This view is not built yet.'));
}
