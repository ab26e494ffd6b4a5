(() => {
const text = c => c.innerText.trim();
const value = s => {
  const n = parseFloat(s.replace('\u2212', '-'));
  return s !== '' && /^[-+\u2212]?[0-9.]/.test(s) && !isNaN(n) ? n : s.toLowerCase();
};
for (const t of document.querySelectorAll('table.sortable')) {
  const heads = [...t.tHead.rows[0].cells];
  heads.forEach((th, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'sort';
    b.textContent = th.textContent;
    th.textContent = '';
    th.appendChild(b);
    b.addEventListener('click', () => {
      const up = th.getAttribute('aria-sort') !== 'ascending';
      heads.forEach(h => h.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      const body = t.tBodies[0];
      const rows = [...body.rows].map(r => [value(text(r.cells[i])), r]);
      rows.sort(([a], [b]) => {
        const c = typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0)
          : typeof a === 'number' ? -1 : 1;
        return up ? c : -c;
      });
      rows.forEach(([, r]) => body.appendChild(r));
    });
  });
}
const find = document.getElementById('find');
if (find) {
  find.hidden = false;
  const input = find.querySelector('input');
  const pages = new Map([...find.querySelectorAll('option')].map(o => [o.value, o.dataset.href]));
  input.addEventListener('input', () => {
    const q = input.value.trim().toLowerCase();
    if (pages.has(input.value)) { location.href = pages.get(input.value); return; }
    for (const r of document.querySelectorAll('table.sortable tbody tr')) {
      const name = r.querySelector('td.k');
      r.hidden = q !== '' && name !== null && !text(name).toLowerCase().includes(q);
    }
  });
}
})();
