import { el } from './page.js';

// lineDiff shows the lines removed and added between two texts: the
// common head and tail are cut, the middle is matched by longest common
// subsequence when it is small enough.
export function lineDiff(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  const xm = x.slice(p, x.length - s);
  const ym = y.slice(p, y.length - s);
  const ops = [];
  if (xm.length * ym.length <= 4e6) {
    const n = xm.length;
    const m = ym.length;
    const L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = xm[i] === ym[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && xm[i] === ym[j]) { ops.push([' ', xm[i], p + i + 1, p + j + 1]); i++; j++; } else if (j < m && (i === n || L[i][j + 1] >= L[i + 1][j])) { ops.push(['+', ym[j], 0, p + j + 1]); j++; } else { ops.push(['-', xm[i], p + i + 1, 0]); i++; }
    }
  } else {
    xm.forEach((l, i) => ops.push(['-', l, p + i + 1, 0]));
    ym.forEach((l, j) => ops.push(['+', l, 0, p + j + 1]));
  }
  const changed = ops.filter((o) => o[0] !== ' ');
  if (!changed.length) return el('p', { class: 'hint' }, 'The two files have the same lines.');
  const shown = ops.filter((o, i) => o[0] !== ' ' || (ops[i - 1] && ops[i - 1][0] !== ' ') || (ops[i + 1] && ops[i + 1][0] !== ' ')).slice(0, 1000);
  return el('div', null, el('h3', null, `Lines: ${changed.filter((o) => o[0] === '-').length} removed, ${changed.filter((o) => o[0] === '+').length} added`),
    el('pre', { class: 'linediff' }, shown.map((o) => el('span', { class: o[0] === '+' ? 'add' : o[0] === '-' ? 'del' : 'ctx' },
      `${o[0]} ${String(o[2] || '').padStart(5)} ${String(o[3] || '').padStart(5)}  ${o[1]}\n`))));
}
