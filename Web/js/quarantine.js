// The quarantine in the dashboard (README.md "Quarantine"): the "failed, quarantined" badge, and the CLI
// commands that change it. The dashboard reads with the read token only and never holds a token that may
// write, so adding and lifting is a command to copy and run where an upload or admin token is (a terminal, CI).
import { h } from './dom.js';

/** Days an entry made from the dashboard lasts unless edited in the command. */
const DEFAULT_DAYS = 14;

/** The badge of a failure that was quarantined when it ran: kept and shown apart, forgiven by CI. */
export function quarantinedBadge() {
  return h('span', { class: 'badge status-quarantined', text: 'failed, quarantined',
    title: 'A quarantine entry applied to this test when it ran: its failure is kept but does not fail CI (--quarantine obey).' });
}

/** `word` as one POSIX shell word: single-quoted, a `'` inside as `'\''` (as the CLI's exports write it). */
export function shellWord(word) {
  return "'" + String(word).replace(/'/g, "'\\''") + "'";
}

/** `YYYY-MM-DD` (UTC) `days` days from now. */
export function dayFromNow(days) {
  return new Date(Date.now() + days * 86400000).toISOString().slice(0, 10);
}

/** `failscope quarantine add …` for a test: `{project, suite, name, arguments?}`. */
export function addCommand(test) {
  const words = ['failscope', 'quarantine', 'add', '--project', shellWord(test.project), '--suite', shellWord(test.suite),
    '--name', shellWord(test.name)];
  if (test.arguments) words.push('--arguments', shellWord(test.arguments));
  words.push('--owner', shellWord('OWNER'), '--reason', shellWord('REASON'), '--expires', dayFromNow(DEFAULT_DAYS));
  return words.join(' ');
}

/** `failscope quarantine edit --id N …` with the entry's owner, reason and expiry to change. */
export function editCommand(entry) {
  return 'failscope quarantine edit --id ' + entry.id + ' --owner ' + shellWord(entry.owner) + ' --reason '
    + shellWord(entry.reason) + ' --expires ' + entry.expires + ' --why ' + shellWord('WHY');
}

/** `failscope quarantine remove --id N --reason …`. */
export function liftCommand(entry) {
  return 'failscope quarantine remove --id ' + entry.id + ' --reason ' + shellWord('REASON');
}

/**
 * A disclosure button (`label`) that shows `command` to copy, with what it needs. The command is text:
 * test-controlled names in it are shell-quoted and inserted as a text node.
 */
export function commandDisclosure(label, command, className) {
  const code = h('code', { class: 'command-text', text: command });
  const copy = h('button', { type: 'button', class: 'button small', text: 'Copy', on: { click: async () => {
    try {
      await navigator.clipboard.writeText(command);
      copy.textContent = 'Copied';
    } catch {
      const selection = window.getSelection();
      selection.selectAllChildren(code);  // clipboard refused (no secure context): selected for Ctrl+C
      copy.textContent = 'Selected';
    }
  } } });
  return h('details', { class: ['command', className] },
    h('summary', { class: 'button small subtle', text: label }),
    h('div', { class: 'command-box' },
      h('p', { class: 'muted small', text: 'The dashboard only reads. Run this with an upload or admin token '
        + '(FAILSCOPE_URL, FAILSCOPE_TOKEN), then reload:' }),
      h('pre', {}, code), copy));
}
