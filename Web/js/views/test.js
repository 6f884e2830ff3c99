import { h, replaceChildren } from '../dom.js';
import { emptyState } from '../ui.js';

export async function renderTest({ root }) {
  replaceChildren(root, emptyState('Coming soon', 'This view is not built yet.'));
}
