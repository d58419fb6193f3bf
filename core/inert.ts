/**
 * Text from the target, made inert for where a report writes it: a terminal obeys escape sequences
 * (colours, OSC 8 links, OSC 52 clipboard writes), and Markdown turns punctuation into links, images,
 * HTML, headings, table cells and code. Every writer passes target text through one of these.
 */

/**
 * C0 controls (ESC starts every CSI and OSC sequence), DEL, C1 controls, and the bidi overrides and
 * isolates that reorder what is shown. The tab stays; a line break does not, so one value stays one line.
 */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character shown as its `\u001b` escape: drawn by a terminal, never obeyed. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What GFM would turn into a link without any syntax: a URL, a www. host, an e-mail address. */
const AUTOLINK = /(\S*(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S*|[^\s@]+@[^\s@]+\.[^\s@]+)/i;

/**
 * The text as literal Markdown (control characters shown as in `terminalText`): every ASCII
 * punctuation mark backslash-escaped, and what would autolink put in a code span, where nothing links.
 */
export function markdownText(text: string): string {
  return terminalText(text).trimStart().split(AUTOLINK).map((part, i) => (i % 2 ? codeSpan(part) : part.replace(/[!-/:-@[-`{-~]/g, '\\$&'))).join('');
}

/** A code span holding `text` literally: fenced by more backticks than any run inside it. */
function codeSpan(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
