// tests/cli/report_layout.js EXPECT.json - open pages of `vtasim report` and
// `vtasim sweep` in Debian's chromium (playwright-core) at the viewport
// widths EXPECT lists and check their layout as a reader sees it.  EXPECT
// (written by the test from the JSON the pages came from, not from the
// pages) is a list of {page, widths, checks, shot, ...}; checks:
//   fit      the page is no wider than the window (no horizontal scrolling)
//   sol      every speed-of-light bar is at least 100 px long and its fill
//            is the JSON's share of it
//   roof     the roofline is drawn whole: inside the window and its column,
//            at least 300 px wide
//   labels   no two roofline labels overlap; `groups` (lists of layer
//            numbers on one spot) each make exactly one label
//   minimap  the minimap's last tick reads `cycles` (the run's count)
//   runs     the run list shows `runs` rows with these cycles
//   sweep    y-axis ticks are round (1, 2 or 5 times a power of ten, k/M
//            suffixes) and the workloads' headings come in `order`
//   link     the section links `link` (the timeline page), which exists
//   netstats a network's statistics table (`stats`: [name, cycles, seven
//            statistics] per layer and the total), host operators (`host`)
//            and the two lowerings side by side (`compare`), read from the DOM
// Prints PASS/FAIL lines; a screenshot per page and width (SHOT-W.png).
const { launch } = require('./chromium.js');
const fs = require('fs');
const path = require('path');

let fails = 0;
function check(ok, name, detail) {
  console.log((ok ? 'PASS ' : 'FAIL ') + name);
  if (!ok) { fails++; if (detail) console.log('  ' + String(detail).slice(0, 600)); }
}
function parseTick(t) {
  const m = /^([0-9.]+)([kMG]?)$/.exec(t.trim());
  if (!m) return NaN;
  return parseFloat(m[1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[2]];
}
function isRound(v) {
  if (v === 0) return true;
  const p = Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
  const m = Math.round(v / p * 1000) / 1000;
  return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].includes(m) && Number.isInteger(Math.round(v));
}

(async () => {
  const expect = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const browser = await launch();
  for (const ex of expect) {
    for (const W of ex.widths) {
      const page = await browser.newPage({ viewport: { width: W, height: 900 } });
      const msgs = [];
      page.on('console', (m) => msgs.push(m.text()));
      page.on('pageerror', (e) => msgs.push(String(e)));
      await page.goto('file://' + path.resolve(ex.page), { waitUntil: 'load' });
      const tag = `${path.basename(ex.page)} at ${W} px`;
      const c = ex.checks;
      if (c.includes('fit')) {
        const sw = await page.evaluate(() => document.documentElement.scrollWidth);
        check(sw <= W, `${tag}: fits the window (page ${sw} px wide)`);
      }
      if (c.includes('sol')) {
        const bars = await page.$$eval('.sol .row', (rows) => rows.map((r) => {
          const t = r.querySelector('.track'), f = r.querySelector('.fill'), v = r.querySelector('[data-v]');
          return { label: r.firstElementChild.textContent, track: t.getBoundingClientRect().width,
            fill: f.getBoundingClientRect().width, v: v ? +v.getAttribute('data-v') : NaN,
            right: t.getBoundingClientRect().right };
        }));
        const bad = bars.filter((b) => !(b.track >= 100) || b.right > W ||
          Math.abs(b.fill - Math.min(1, b.v) * b.track) > 2);
        check(bars.length >= 4 && !bad.length, `${tag}: ${bars.length} speed-of-light bars visible, each >= 100 px, fill = share`,
          JSON.stringify(bad.length ? bad : bars));
      }
      if (c.includes('roof')) {
        const r = await page.$$eval('svg.roof', (s) => s.map((e) => {
          const b = e.getBoundingClientRect(), p = e.parentElement.getBoundingClientRect();
          return { left: b.left, right: b.right, width: b.width, pright: p.right, pleft: p.left };
        }));
        const bad = r.filter((x) => x.width < 300 || x.right > W || x.right > x.pright + 0.5 || x.left < x.pleft - 0.5);
        check(r.length >= 1 && !bad.length, `${tag}: the roofline drawn whole (${r.map((x) => Math.round(x.width)).join(', ')} px wide, inside its column and the window)`,
          JSON.stringify(r));
      }
      if (c.includes('labels')) {
        const ls = await page.$$eval('svg.roof text.rlabel', (ts) => ts.map((t) => {
          const b = t.getBoundingClientRect();
          return { text: t.textContent, x0: b.left, x1: b.right, y0: b.top, y1: b.bottom };
        }));
        const over = [];
        for (let i = 0; i < ls.length; i++)
          for (let j = i + 1; j < ls.length; j++) {
            const a = ls[i], b = ls[j];
            if (a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5) over.push(a.text + ' / ' + b.text);
          }
        check(ls.length && !over.length, `${tag}: ${ls.length} roofline labels, none overlapping another`, over.join('; '));
        if (ex.groups) {
          const sets = ls.map((l) => l.text.split(' ').filter((x) => x));
          const bad = ex.groups.filter((g) => !sets.some((s) => g.every((n) => s.includes(String(n)))));
          const all = [].concat(...sets);
          const dup = all.filter((x, i) => all.indexOf(x) !== i);
          check(!bad.length && !dup.length && all.length === ex.npoints,
            `${tag}: identical layers share one label (${ex.groups.map((g) => g.join(' ')).join(', ')}), every layer named once`,
            JSON.stringify({ bad, dup, n: all.length, labels: sets }));
        }
      }
      if (c.includes('minimap')) {
        const last = await page.$$eval('svg[aria-label="timeline minimap"] text', (ts) => ts.map((t) => t.textContent).pop());
        const want = ex.cycles.toLocaleString('en-US') + ' cycles';
        check(last === want, `${tag}: the minimap's axis ends at the run's ${want}`, last);
      }
      if (c.includes('runs')) {
        const got = await page.$$eval('table.runs [data-src$=".cycles"]', (es) => es.map((e) => +e.getAttribute('data-v')));
        check(JSON.stringify(got) === JSON.stringify(ex.runs), `${tag}: the run list shows ${ex.runs.length} runs with their cycles`,
          JSON.stringify(got));
      }
      if (c.includes('sweep')) {
        // per plot: 0, s, 2s, ... with s one of 1, 2, 5 times a power of ten
        const plots = await page.$$eval('svg', (ss) => ss.map((s) => [...s.querySelectorAll('text.ytick')].map((t) => t.textContent)).filter((t) => t.length));
        const bad = plots.filter((ticks) => {
          const v = ticks.map(parseTick).sort((a, b) => a - b), s = v[1] - v[0];
          return v[0] !== 0 || !isRound(s) || ![1, 2, 5].includes(Math.round(s / Math.pow(10, Math.floor(Math.log10(s) + 1e-9)))) ||
            v.some((x, i) => Math.abs(x - i * s) > 1e-6 * s);
        });
        check(plots.length && !bad.length, `${tag}: the y axes of ${plots.length} plots tick at 0 and multiples of 1, 2 or 5 x 10^k`,
          JSON.stringify(bad));
        const heads = await page.$$eval('h2', (hs) => hs.map((h) => h.textContent));
        const order = heads.filter((h) => ex.order.includes(h));
        check(JSON.stringify(order) === JSON.stringify(ex.order), `${tag}: workloads in natural order (${ex.order.join(', ')})`, JSON.stringify(heads));
      }
      if (c.includes('link')) {
        const href = await page.$eval('p.tl-link a', (a) => a.getAttribute('href')).catch(() => null);
        check(href === ex.link && fs.existsSync(path.join(path.dirname(ex.page), href || '')),
          `${tag}: links its interactive timeline ${ex.link}`, href);
      }
      if (c.includes('netstats')) {
        // the rendered tables' cells, each number as shown (digits and sign) and its data-v
        const grab = (sel) => page.$$eval(sel + ' tr', (rows) => rows.slice(1).map((r) =>
          [...r.children].map((td) => {
            const v = td.querySelector('[data-v]');
            const b = td.getBoundingClientRect();
            return { text: td.textContent.trim(), v: v ? +v.getAttribute('data-v') : null,
              shown: td.textContent.replace(/\u2212/g, '-').replace(/[^0-9-]/g, ''), w: b.width,
              right: b.right };
          }))).catch(() => []);
        const num = (cell) => cell.v !== null && String(Math.round(cell.v)) === cell.shown ? cell.v : NaN;
        const st = await grab('table.stats');
        const got = st.map((r) => [r[1].text, ...r.slice(2).map(num)]);
        const cut = st.flat().filter((x) => !(x.w > 0) || x.right > W);
        check(JSON.stringify(got) === JSON.stringify(ex.stats) && !cut.length,
          `${tag}: statistics table: per layer and in total the cycles and seven statistics of the JSON (${st.length} rows x ${st.length ? st[0].length : 0} columns, every cell inside the window)`,
          JSON.stringify(got.slice(0, 3)) + ' vs ' + JSON.stringify(ex.stats.slice(0, 3)));
        const hs = await grab('table.host');
        const hgot = hs.map((r) => [r[0].text, r[1].text, r[2].text, r[3].text]);
        check(JSON.stringify(hgot) === JSON.stringify(ex.host),
          `${tag}: host operators table: ${hgot.map((h) => h[0] + ' ' + h[2]).join(', ')}`, JSON.stringify(hgot));
        const cs = await grab('table.compare');
        const cgot = cs.map((r) => [r[0].text, num(r[1]), num(r[2]), num(r[3])]);
        check(JSON.stringify(cgot) === JSON.stringify(ex.compare),
          `${tag}: lowerings side by side: ${cgot.length} rows (cycles and seven statistics, this, the other, difference)`,
          JSON.stringify(cgot) + ' vs ' + JSON.stringify(ex.compare));
      }
      check(!msgs.length, `${tag}: no console message`, msgs.join('; '));
      if (ex.shot) await page.screenshot({ path: `${ex.shot}-${W}.png`, fullPage: true });
      await page.close();
    }
  }
  await browser.close();
  process.exit(fails ? 1 : 0);
})().catch((e) => { console.log('FAIL report_layout.js: ' + String(e)); process.exit(3); });
