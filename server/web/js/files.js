import { el, setStatus, cap } from './page.js';

// Files out: a download, the clipboard, and the CSV and Markdown of a table.

// save offers text as a file called name.
export function save(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// copyText puts text on the clipboard: with the Clipboard API where the
// page may use it (https, localhost), else through a hidden textarea.
export async function copyText(text, what) {
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      await navigator.clipboard.writeText(text);
    } else {
      const ta = el('textarea', { class: 'visually-hidden', readonly: true });
      ta.value = text;
      document.body.append(ta);
      ta.select();
      const ok = document.execCommand('copy');
      ta.remove();
      if (!ok) throw new Error('the browser refused');
    }
    setStatus(`${cap(what)} copied.`);
  } catch (e) {
    setStatus(`${cap(what)} cannot be copied here (${e.message}); use the download.`, true);
  }
}

export function csvField(s) {
  // A field a spreadsheet would read as a formula is quoted and prefixed.
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function toCSV(head, rows) {
  return [head, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export function mdCell(s) {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/([`*_<>\[\]])/g, '\\$1');
}

export function toMarkdown(head, rows) {
  const line = (r) => '| ' + r.map(mdCell).join(' | ') + ' |';
  return [line(head), '|' + head.map(() => '---|').join(''), ...rows.map(line)].join('\n') + '\n';
}
