// tests/cli/timeline_check.js PAGE.html TRACE.json SHOT_PREFIX - open a page
// of `vtasim timeline` in Debian's chromium (headless, through
// playwright-core) at a 1,400 x 900 viewport and check it as a person would
// use it, against the trace file it was drawn from (read here with
// JSON.parse, independently of the page's own reading):
//   - it loads with no console message, no page error, no request;
//   - every slice of the file is on the page with the same track, start,
//     duration, name and, for an instruction, the same figures and
//     disassembly (the page's window.vtl API);
//   - "cycles A to B" of a 100-cycle window shows exactly the slices of the
//     file that overlap it on each track (what the canvas drew);
//   - hovering an instruction shows its disassembly and cycles; dragging
//     pans by the distance dragged; the mouse wheel zooms about the pointer;
//   - a click on an instruction's slice (a real mouse click at its pixels)
//     shows its disassembly, cycles, stalls and token waits in the details;
//   - drawing the whole run takes less than a frame budget.
// Prints PASS/FAIL lines; screenshots SHOT_PREFIX-full.png, -zoom.png.
const { launch } = require('./chromium.js');
const fs = require('fs');
const path = require('path');

const [pagePath, tracePath, shot] = process.argv.slice(2);
let fails = 0;
function check(ok, name, detail) {
  console.log((ok ? 'PASS ' : 'FAIL ') + name);
  if (!ok) { fails++; if (detail) console.log('  ' + String(detail).slice(0, 600)); }
}

(async () => {
  const trace = JSON.parse(fs.readFileSync(tracePath, 'utf8'));
  const byTid = {};
  for (const e of trace.traceEvents) if (e.ph === 'X') (byTid[e.tid] = byTid[e.tid] || []).push(e);
  const url = 'file://' + path.resolve(pagePath);
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const consoleMsgs = [], errors = [], requests = [];
  page.on('console', (m) => consoleMsgs.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.vtl && window.vtl.frames > 0, null, { timeout: 30000 });
  const loadMs = Date.now() - t0;
  const name = path.basename(pagePath);
  console.log(`  ${name}: loaded and drawn in ${loadMs} ms`);

  // every slice, as the file has it
  const bad = await page.evaluate((tracks) => {
    const out = [];
    for (const tid of Object.keys(tracks)) {
      const want = tracks[tid];
      if (window.vtl.count(+tid) !== want.length) {
        out.push(`track ${tid}: ${window.vtl.count(+tid)} slices on the page, ${want.length} in the file`);
        continue;
      }
      want.forEach((e, i) => {
        const s = window.vtl.slice(+tid, i);
        const diffs = [];
        if (s.ts !== e.ts || s.dur !== e.dur || s.name !== e.name) diffs.push(`ts/dur/name ${s.ts}/${s.dur}/${s.name}`);
        if (e.args && e.args.disasm !== undefined) {
          for (const k of ['run', 'index', 'queued', 'start', 'done', 'cycles', 'busy', 'mem_stall',
            'dep_l2g', 'dep_g2l', 'dep_g2s', 'dep_s2g'])
            if (s[k] !== e.args[k]) diffs.push(`${k} ${s[k]} != ${e.args[k]}`);
          if (s.text !== e.args.disasm) diffs.push('disasm');
          if ((e.args.merged || 1) !== s.merged) diffs.push('merged');
        }
        if (diffs.length && out.length < 5) out.push(`track ${tid} slice ${i} (${e.name} at ${e.ts}): ${diffs.join(', ')}`);
      });
    }
    return out;
  }, byTid);
  const nslices = Object.values(byTid).reduce((a, l) => a + l.length, 0);
  check(!bad.length, `${name}: all ${nslices} slices equal the trace file's (start, duration, name, figures, disassembly)`, bad.join('\n  '));
  await page.screenshot({ path: shot + '-full.png' });

  // drawing the whole run: time per frame
  const ms = await page.evaluate(async () => {
    const v = window.vtl, times = [], e = v.data.end;
    for (const [a, b] of [[0, e], [e * 0.25, e * 0.5], [0, e], [e * 0.4, e * 0.41]]) {
      const f = v.frames;
      v.setView(a, b);
      await new Promise((r) => { const w = () => (v.frames > f ? r() : requestAnimationFrame(w)); w(); });
      times.push(v.lastDrawMs);
    }
    v.setView(0, e);
    return times;
  });
  console.log(`  ${name}: frame times ${ms.map((x) => x.toFixed(1)).join(', ')} ms`);
  check(Math.max(...ms) < 250, `${name}: a frame of the whole run draws in under 250 ms (${Math.max(...ms).toFixed(1)} ms)`);

  // a 100-cycle window in the middle of the compute track, typed in
  const comp = byTid[3] || [];
  const ins = comp.filter((e) => e.args && e.args.disasm !== undefined);
  const pick = ins[Math.floor(ins.length / 2)];
  const A = Math.max(0, pick.ts - 30), B = A + 100;
  await page.fill('#from', String(A));
  await page.fill('#to', String(B));
  const f0 = await page.evaluate(() => window.vtl.frames);
  await page.click('#go');
  await page.waitForFunction((f) => window.vtl.frames > f, f0);
  const got = await page.evaluate(() => ({ view: window.vtl.view(), drawn: window.vtl.drawn }));
  check(Math.abs(got.view[0] - A) < 1e-6 && Math.abs(got.view[1] - B) < 1e-6,
    `${name}: the view is cycles ${A} to ${B}`, JSON.stringify(got.view));
  const wrong = [];
  for (const tid of Object.keys(byTid)) {
    const want = [];
    byTid[tid].forEach((e, i) => { if (e.ts < B && e.ts + e.dur > A) want.push(i); });
    const have = (got.drawn[tid] || []).slice().sort((a, b) => a - b);
    if (JSON.stringify(want) !== JSON.stringify(have)) wrong.push(`track ${tid}: drew ${have} want ${want}`);
  }
  check(!wrong.length, `${name}: a 100-cycle window (${A}..${B}) shows exactly the file's slices overlapping it on every track`, wrong.join('; '));

  // a real click on the middle of the picked instruction's visible part
  const mid = (Math.max(pick.ts, A) + Math.min(pick.ts + pick.dur, B)) / 2;
  const box = await page.evaluate((t) => {
    const r = window.vtl.row(3), c = document.getElementById('cv').getBoundingClientRect();
    return { x: c.left + window.vtl.x(t), y: c.top + r.y + r.h / 2 };
  }, mid);
  await page.mouse.click(box.x, box.y);
  await page.waitForFunction(() => document.querySelector('#details [data-k="disasm"]'));
  const det = await page.$$eval('#details [data-k]', (els) => {
    const o = {};
    els.forEach((e) => { if (!(e.getAttribute('data-k') in o)) o[e.getAttribute('data-k')] = e.textContent; });
    o.flows = els.filter((e) => e.getAttribute('data-k') === 'flow').map((e) => e.textContent);
    return o;
  });
  const a = pick.args, dd = [];
  if (det.disasm !== a.disasm) dd.push('disasm ' + det.disasm);
  if (det.index !== `${a.run}, #${a.index}` + (a.merged > 1 ? ` (merged ${a.merged} STOREs: #${a.index}..#${a.last_index})` : ''))
    dd.push('index ' + det.index);
  for (const k of ['queued', 'start', 'done', 'cycles', 'busy', 'mem_stall', 'dep_l2g', 'dep_g2l', 'dep_g2s', 'dep_s2g'])
    if (det[k] !== String(a[k])) dd.push(`${k} ${det[k]} != ${a[k]}`);
  // the token pops this instruction made, from the file's flow events
  const fl = {};
  for (const e of trace.traceEvents) if (e.ph === 's' || e.ph === 'f') (fl[e.id] = fl[e.id] || {})[e.ph] = e;
  const pops = Object.values(fl).filter((p) => p.f && p.f.tid === 3 && p.f.ts === pick.ts).length;
  const shownPops = det.flows.filter((t) => / pushed at cycle /.test(t)).length;
  if (pops !== shownPops) dd.push(`token pops shown ${shownPops}, in the file ${pops}`);
  check(!dd.length, `${name}: a click on ${pick.name} #${a.index} shows its disassembly, queued/start/done, busy, stalls and ${pops} token pop(s)`, dd.join('; '));
  await page.screenshot({ path: shot + '-zoom.png' });

  // hovering shows the instruction's disassembly and cycles
  await page.mouse.move(box.x + 1, box.y);
  await page.waitForFunction(() => document.getElementById('tip').style.display === 'block');
  const tipText = await page.$eval('#tip', (t) => t.textContent);
  check(tipText.includes(a.disasm) && tipText.includes(`start ${a.start}`) && tipText.includes(`done ${a.done}`),
    `${name}: hovering ${pick.name} #${a.index} shows its disassembly and start/done cycles`, tipText);

  // dragging pans by the distance dragged, the span unchanged
  const v0 = await page.evaluate(() => window.vtl.view());
  await page.mouse.move(box.x, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x - 125, box.y + 200, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(100);
  const v1 = await page.evaluate(() => window.vtl.view());
  const want = 125 * (v0[1] - v0[0]) / (1400 - 150);
  check(Math.abs((v1[0] - v0[0]) - want) < 1e-6 * want + 1e-9 && Math.abs((v1[1] - v1[0]) - (v0[1] - v0[0])) < 1e-6,
    `${name}: dragging 125 px left pans ${want.toFixed(1)} cycles later, the span kept`, JSON.stringify([v0, v1]));
  await page.evaluate((v) => window.vtl.setView(v[0], v[1]), v0);
  await page.waitForTimeout(100);

  // the wheel zooms about the pointer
  const before = await page.evaluate(() => window.vtl.view());
  const px = box.x, c = await page.evaluate(() => document.getElementById('cv').getBoundingClientRect().left);
  const tAt = (v) => v[0] + (px - c - 150) * (v[1] - v[0]) / (1400 - 150);
  await page.mouse.move(px, box.y);
  const f1 = await page.evaluate(() => window.vtl.frames);
  await page.mouse.wheel(0, 300);
  await page.waitForFunction((f) => window.vtl.frames > f, f1);
  const after = await page.evaluate(() => window.vtl.view());
  check(after[1] - after[0] > (before[1] - before[0]) * 1.5 && Math.abs(tAt(after) - tAt(before)) < (after[1] - after[0]) / 1250 * 2,
    `${name}: the wheel zooms out about the pointer (${(before[1] - before[0]).toFixed(0)} -> ${(after[1] - after[0]).toFixed(0)} cycles)`,
    JSON.stringify([before, after]));

  check(!consoleMsgs.length && !errors.length, `${name}: no console message, no page error in chromium`,
    consoleMsgs.concat(errors).join('\n  '));
  check(!requests.length, `${name}: no request besides the page itself`, requests.join('\n  '));
  await browser.close();
  process.exit(fails ? 1 : 0);
})().catch((e) => { console.log('FAIL ' + path.basename(pagePath) + ': ' + String(e)); process.exit(3); });
