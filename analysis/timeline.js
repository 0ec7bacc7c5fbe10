// analysis/timeline.js - the script of the offline timeline page
// (analysis/html_timeline.c embeds it; written for vtasim, no library).
// It draws the page's data (the JSON in #tl-data: per track the slices as
// start, duration, name, info row; the counters; the token flows) on one
// canvas: a time ruler, a row per track (layers of a network, fetch, load,
// compute, store), a row per counter, flow arrows from push to pop.  The
// view is a window [t0, t1) of cycles: wheel or w/s zoom about the pointer,
// drag or a/d pan, from the whole run down to a few cycles.  Work per frame
// is bounded by the canvas width, not by the trace: slices narrower than a
// pixel are drawn as one pixel column each and the rest of the column is
// skipped by binary search.  window.vtl exposes the view and what was drawn
// (the tests read it).
'use strict';
(function () {
  const D = JSON.parse(document.getElementById('tl-data').textContent);
  const NI = D.info_keys.length;
  const KEY = {};
  D.info_keys.forEach(function (k, i) { KEY[k] = i; });
  const QUEUES = ['l2g', 'g2l', 'g2s', 's2g'];
  const QCOL = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd'];
  const LABEL_W = 150, RULER_H = 24;
  const cv = document.getElementById('cv'), tip = document.getElementById('tip');
  const det = document.getElementById('details');
  const ctx = cv.getContext('2d');

  // ---- the data in typed arrays -------------------------------------------------
  function lowerBound(a, v, lo, hi) { // first index with a[i] >= v
    lo = lo || 0; hi = hi === undefined ? a.length : hi;
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; }
    return lo;
  }
  function upperBound(a, v) { // first index with a[i] > v
    let lo = 0, hi = a.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] <= v) lo = m + 1; else hi = m; }
    return lo;
  }
  const tracks = D.tracks.map(function (t) {
    const n = t.s.length / 4;
    const tr = { tid: t.tid, name: t.name, n: n, text: t.text, ts: new Float64Array(n),
      du: new Float64Array(n), nm: new Int32Array(n), inf: new Int32Array(n),
      endMax: new Float64Array(n) };
    let m = 0;
    for (let i = 0; i < n; i++) {
      tr.ts[i] = t.s[4 * i]; tr.du[i] = t.s[4 * i + 1];
      tr.nm[i] = t.s[4 * i + 2]; tr.inf[i] = t.s[4 * i + 3];
      m = Math.max(m, tr.ts[i] + tr.du[i]); tr.endMax[i] = m;
    }
    return tr;
  });
  const byTid = {};
  tracks.forEach(function (t) { byTid[t.tid] = t; });
  const counters = D.counters.map(function (c) {
    let max = 0;
    for (let i = 0; i < c.v.length; i++) max = Math.max(max, c.v[i]);
    return { name: c.name, t: Float64Array.from(c.t), v: Float64Array.from(c.v), max: max };
  });
  const nf = D.flows.length / 5;
  const flows = { q: new Int32Array(nf), st: new Int32Array(nf), s: new Float64Array(nf),
    ft: new Int32Array(nf), f: new Float64Array(nf), maxLen: 0 };
  {
    const ord = [];
    for (let i = 0; i < nf; i++) ord.push(i);
    ord.sort(function (a, b) { return D.flows[5 * a + 2] - D.flows[5 * b + 2]; });
    ord.forEach(function (k, i) {
      flows.q[i] = D.flows[5 * k]; flows.st[i] = D.flows[5 * k + 1]; flows.s[i] = D.flows[5 * k + 2];
      flows.ft[i] = D.flows[5 * k + 3]; flows.f[i] = D.flows[5 * k + 4];
      flows.maxLen = Math.max(flows.maxLen, flows.f[i] - flows.s[i]);
    });
  }
  const END = Math.max(D.end, 1);

  // colours by slice name
  function nameColour(n) {
    if (n.indexOf('wait ') === 0) return '#d5d9e0';
    const tab = [['LOAD INP', '#4e79a7'], ['LOAD WGT', '#76b7b2'], ['LOAD UOP', '#9c755f'],
      ['LOAD ACC', '#59a14f'], ['LOAD', '#4e79a7'], ['GEMM', '#f28e2b'], ['ALU', '#e15759'],
      ['STORE', '#b07aa1'], ['FINISH', '#7f7f7f'], ['NOP', '#bab0ac'],
      ['read instructions', '#8cd17d'], ['dispatch', '#a0cbe8']];
    for (let i = 0; i < tab.length; i++) if (n.indexOf(tab[i][0]) === 0) return tab[i][1];
    return '#9aa3b5';
  }
  const colours = D.names.map(nameColour);

  // ---- layout: rows ------------------------------------------------------------------
  const rows = [];
  let y = RULER_H;
  const order = tracks.slice().sort(function (a, b) {
    const ka = a.name === 'layers' ? -1 : a.tid, kb = b.name === 'layers' ? -1 : b.tid;
    return ka - kb;
  });
  order.forEach(function (t) {
    const h = t.name === 'layers' ? 22 : 30;
    rows.push({ kind: 'slices', tr: t, y: y, h: h, label: t.name });
    y += h;
  });
  y += 6;
  function cgroup(n) { return n.indexOf('tokens') === 0 ? 0 : n.indexOf('queue') === 0 ? 1 : 2; }
  const CORDER = ['tokens l2g', 'tokens g2l', 'tokens g2s', 'tokens s2g', 'queue load', 'queue compute',
    'queue store', 'rd fetch beats', 'rd uop beats', 'rd inp beats', 'rd wgt beats', 'rd acc beats',
    'wr out beats'];
  function crank(c) { const k = CORDER.indexOf(c.name); return k < 0 ? CORDER.length + cgroup(c.name) : k; }
  counters.slice().sort(function (a, b) { return crank(a) - crank(b); })
    .forEach(function (c) {
      rows.push({ kind: 'counter', c: c, y: y, h: 22, label: c.name });
      y += 22;
    });
  const HEIGHT = y + 6;
  const rowOfTid = {};
  rows.forEach(function (r) { if (r.kind === 'slices') rowOfTid[r.tr.tid] = r; });
  const layers = tracks.filter(function (t) { return t.name === 'layers'; })[0];

  // ---- the view -------------------------------------------------------------------
  let t0 = 0, t1 = END, width = 800, sel = null, hover = null, pending = false;
  const drawn = {};
  const MIN_SPAN = 8;
  function plotW() { return Math.max(width - LABEL_W, 10); }
  function X(t) { return LABEL_W + (t - t0) * plotW() / (t1 - t0); }
  function T(x) { return t0 + (x - LABEL_W) * (t1 - t0) / plotW(); }
  function setView(a, b) {
    let span = Math.max(b - a, MIN_SPAN);
    const maxSpan = END * 1.05 + MIN_SPAN;
    if (span > maxSpan) span = maxSpan;
    const mid = (a + b) / 2;
    a = mid - span / 2;
    if (a < -END * 0.025) a = -END * 0.025;
    if (a + span > END * 1.025 + MIN_SPAN) a = END * 1.025 + MIN_SPAN - span;
    t0 = a; t1 = a + span;
    document.getElementById('from').value = Math.round(t0 < 0 ? 0 : t0);
    document.getElementById('to').value = Math.round(t1);
    redraw();
  }
  function zoom(f, at) { setView(at - (at - t0) * f, at + (t1 - at) * f); }
  function pan(dt) { setView(t0 + dt, t1 + dt); }
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; draw(); });
  }

  // ---- drawing ----------------------------------------------------------------------
  function fmt(v) { return Math.round(v).toLocaleString('en-US'); }
  function niceStep(raw) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    const m = raw / p;
    return Math.max(1, (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p);
  }
  function drawRuler() {
    const step = niceStep((t1 - t0) / (plotW() / 110));
    ctx.fillStyle = '#f4f6fa';
    ctx.fillRect(0, 0, width, RULER_H);
    ctx.font = '11px system-ui,sans-serif';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#1d2330';
    ctx.fillText('cycle', 8, RULER_H / 2);
    for (let t = Math.ceil(Math.max(t0, 0) / step) * step; t <= t1; t += step) {
      const x = Math.round(X(t)) + 0.5;
      ctx.strokeStyle = '#e3e7ee';
      ctx.beginPath(); ctx.moveTo(x, RULER_H); ctx.lineTo(x, HEIGHT); ctx.stroke();
      ctx.strokeStyle = '#5b6475';
      ctx.beginPath(); ctx.moveTo(x, RULER_H - 6); ctx.lineTo(x, RULER_H); ctx.stroke();
      if (x + 3 + ctx.measureText(fmt(t)).width < width) ctx.fillText(fmt(t), x + 3, RULER_H / 2 - 2);
    }
    // the end of the run
    const xe = X(END);
    if (xe >= LABEL_W && xe <= width) {
      ctx.strokeStyle = '#1d2330';
      ctx.beginPath(); ctx.moveTo(xe + 0.5, RULER_H); ctx.lineTo(xe + 0.5, HEIGHT); ctx.stroke();
    }
  }
  function drawSlices(r) {
    const tr = r.tr, y0 = r.y + 3, h = r.h - 6, sc = plotW() / (t1 - t0), list = [];
    let i = lowerBound(tr.endMax, t0 + 1e-9);
    ctx.font = '11px system-ui,sans-serif';
    ctx.textBaseline = 'middle';
    while (i < tr.n && tr.ts[i] < t1) {
      const a = tr.ts[i], b = a + tr.du[i];
      const x0 = LABEL_W + (a - t0) * sc, x1 = LABEL_W + (b - t0) * sc;
      list.push(i);
      ctx.fillStyle = colours[tr.nm[i]];
      if (x1 - x0 < 2) { // narrower than two pixels: one column, skip the rest of it
        const col = Math.floor(Math.max(x0, LABEL_W));
        ctx.fillRect(col, y0, 1, h);
        i = Math.max(i + 1, lowerBound(tr.ts, t0 + (col + 1 - LABEL_W) / sc, i + 1));
        continue;
      }
      const xa = Math.max(x0, LABEL_W), xb = Math.min(x1, width);
      ctx.fillRect(xa, y0, xb - xa, h);
      if (x1 - x0 > 4) {
        ctx.strokeStyle = 'rgba(255,255,255,0.9)';
        ctx.strokeRect(xa + 0.5, y0 + 0.5, xb - xa - 1, h - 1);
      }
      if (xb - xa > 36) {
        const inf = tr.inf[i];
        let label = D.names[tr.nm[i]];
        if (inf >= 0) label += ' #' + D.info[inf * NI + KEY.index];
        ctx.save();
        ctx.beginPath(); ctx.rect(xa + 2, y0, xb - xa - 4, h); ctx.clip();
        ctx.fillStyle = label.indexOf('wait ') === 0 ? '#3a4150' : '#fff';
        ctx.fillText(label, xa + 4, y0 + h / 2);
        ctx.restore();
      }
      i++;
    }
    drawn[tr.tid] = list;
  }
  function drawCounter(r) {
    const c = r.c, base = r.y + r.h - 3, hh = r.h - 6, n = c.t.length;
    const max = Math.max(c.max, 1);
    ctx.fillStyle = cgroup(c.name) === 0 ? '#c45b5b' : cgroup(c.name) === 1 ? '#5b7fc4' : '#5ba37a';
    let runX = -1, runV = 0;
    function flush(xEnd) {
      if (runX >= 0 && runV > 0) {
        const hv = Math.max(1, runV / max * hh);
        ctx.fillRect(runX, base - hv, xEnd - runX, hv);
      }
    }
    for (let px = LABEL_W; px < width; px++) {
      const ta = T(px), tb = T(px + 1);
      if (tb <= 0 || ta >= END) { flush(px); runX = -1; continue; }
      let k = upperBound(c.t, ta) - 1;
      let v = k >= 0 ? c.v[k] : 0;
      for (k++; k < n && c.t[k] < tb; k++) v = Math.max(v, c.v[k]);
      if (runX < 0 || v !== runV) { flush(px); runX = px; runV = v; }
    }
    flush(width);
  }
  function flowEnds(i) {
    const rs = rowOfTid[flows.st[i]], rf = rowOfTid[flows.ft[i]];
    if (!rs || !rf) return null;
    return [X(flows.s[i]), rs.y + rs.h / 2, X(flows.f[i]), rf.y + rf.h / 2];
  }
  function drawFlow(i, strong) {
    const e = flowEnds(i);
    if (!e) return;
    const col = QCOL[flows.q[i]];
    ctx.strokeStyle = col;
    ctx.fillStyle = col;
    ctx.lineWidth = strong ? 2 : 1;
    const my = (e[1] + e[3]) / 2;
    ctx.beginPath(); ctx.moveTo(e[0], e[1]);
    ctx.bezierCurveTo(e[0], my, e[2], my, e[2], e[3]); ctx.stroke();
    const d = e[3] > e[1] ? -1 : 1;
    ctx.beginPath(); ctx.moveTo(e[2], e[3]); ctx.lineTo(e[2] - 4, e[3] + 7 * d);
    ctx.lineTo(e[2] + 4, e[3] + 7 * d); ctx.closePath(); ctx.fill();
    ctx.lineWidth = 1;
  }
  function flowsInView() {
    const out = [];
    let i = lowerBound(flows.s, t0 - flows.maxLen);
    for (; i < nf && flows.s[i] <= t1; i++) if (flows.f[i] >= t0) out.push(i);
    return out;
  }
  function draw() {
    const dpr = window.devicePixelRatio || 1;
    width = Math.max(cv.parentElement.clientWidth, 300);
    if (cv.width !== Math.round(width * dpr) || cv.height !== Math.round(HEIGHT * dpr)) {
      cv.width = Math.round(width * dpr); cv.height = Math.round(HEIGHT * dpr);
      cv.style.width = width + 'px'; cv.style.height = HEIGHT + 'px';
    }
    const tA = performance.now();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);
    drawRuler();
    rows.forEach(function (r, k) {
      if (k % 2 === 0) { ctx.fillStyle = '#fafbfd'; ctx.fillRect(LABEL_W, r.y, width, r.h); }
    });
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL_W, RULER_H, width - LABEL_W, HEIGHT - RULER_H); ctx.clip();
    if (layers) { // layer boundaries across every row
      ctx.strokeStyle = '#9aa3b5';
      ctx.setLineDash([3, 3]);
      let i = lowerBound(layers.endMax, t0 + 1e-9);
      for (; i < layers.n && layers.ts[i] <= t1; i++) {
        const x = Math.round(X(layers.ts[i])) + 0.5;
        ctx.beginPath(); ctx.moveTo(x, RULER_H); ctx.lineTo(x, HEIGHT); ctx.stroke();
      }
      ctx.setLineDash([]);
    }
    rows.forEach(function (r) { if (r.kind === 'slices') drawSlices(r); else drawCounter(r); });
    const fv = flowsInView();
    vtl.flowsDrawn = fv.length <= 400 ? fv.length : 0;
    if (fv.length <= 400) fv.forEach(function (i) { drawFlow(i, false); });
    if (sel) selFlows().forEach(function (i) { drawFlow(i, true); });
    if (sel) {
      const r = rowOfTid[sel.tid], tr = byTid[sel.tid];
      const xa = X(tr.ts[sel.i]), xb = X(tr.ts[sel.i] + tr.du[sel.i]);
      ctx.strokeStyle = '#000'; ctx.lineWidth = 2;
      ctx.strokeRect(xa, r.y + 2, Math.max(xb - xa, 2), r.h - 4);
      ctx.lineWidth = 1;
    }
    ctx.restore();
    // labels
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, RULER_H, LABEL_W, HEIGHT - RULER_H);
    ctx.font = '12px system-ui,sans-serif';
    ctx.textBaseline = 'middle';
    rows.forEach(function (r) {
      ctx.fillStyle = '#1d2330';
      let label = r.label;
      if (r.kind === 'counter') label += ' (max ' + fmt(r.c.max) + ')';
      ctx.fillText(label, 8, r.y + r.h / 2, LABEL_W - 12);
      ctx.strokeStyle = '#eceff4';
      ctx.beginPath(); ctx.moveTo(0, r.y + r.h - 0.5); ctx.lineTo(width, r.y + r.h - 0.5); ctx.stroke();
    });
    ctx.strokeStyle = '#c4cad6';
    ctx.beginPath(); ctx.moveTo(LABEL_W - 0.5, 0); ctx.lineTo(LABEL_W - 0.5, HEIGHT); ctx.stroke();
    vtl.lastDrawMs = performance.now() - tA;
    vtl.frames++;
  }

  // ---- picking and details -----------------------------------------------------------
  function rowAt(py) {
    for (let k = 0; k < rows.length; k++) if (py >= rows[k].y && py < rows[k].y + rows[k].h) return rows[k];
    return null;
  }
  function sliceAt(px, py) {
    const r = rowAt(py);
    if (!r || r.kind !== 'slices' || px < LABEL_W) return null;
    const tr = r.tr, t = T(px), tol = 3 * (t1 - t0) / plotW();
    let best = -1, bestD = Infinity;
    let i = Math.max(upperBound(tr.ts, t) - 1, 0);
    // slices may nest: look back while ends can still reach t
    for (let k = i; k >= 0 && tr.endMax[k] + tol >= t && i - k < 64; k--) {
      const a = tr.ts[k], b = a + tr.du[k];
      const d = t < a ? a - t : t >= b ? t - b : -tr.du[k]; // inside: the innermost wins
      if (d <= tol && d < bestD) { best = k; bestD = d; }
    }
    if (i + 1 < tr.n && tr.ts[i + 1] - t <= tol && tr.ts[i + 1] - t < bestD) best = i + 1;
    return best >= 0 ? { tid: tr.tid, i: best } : null;
  }
  function sliceObj(tid, i) {
    const tr = byTid[tid], o = { track: tr.name, name: D.names[tr.nm[i]], ts: tr.ts[i],
      dur: tr.du[i], text: tr.text[i] };
    const inf = tr.inf[i];
    if (inf >= 0) D.info_keys.forEach(function (k, j) { o[k] = D.info[inf * NI + j]; });
    return o;
  }
  function selFlows() {
    if (!sel) return [];
    const tr = byTid[sel.tid], a = tr.ts[sel.i], b = a + tr.du[sel.i], out = [];
    let i = lowerBound(flows.s, a - flows.maxLen);
    for (; i < nf && flows.s[i] < b; i++) {
      if (flows.ft[i] === sel.tid && flows.f[i] === a) out.push(i);             // popped here
      else if (flows.st[i] === sel.tid && flows.s[i] >= a && flows.s[i] < b) out.push(i); // pushed
    }
    return out;
  }
  function findSlice(tid, t) { // the instruction slice of track tid covering cycle t
    const tr = byTid[tid];
    if (!tr) return -1;
    for (let k = upperBound(tr.ts, t) - 1; k >= 0 && tr.endMax[k] > t; k--)
      if (tr.ts[k] + tr.du[k] > t && tr.inf[k] >= 0) return k;
    return -1;
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c];
    });
  }
  function row(label, key, v) {
    return '<tr><th>' + esc(label) + '</th><td data-k="' + key + '">' + esc(v) + '</td></tr>';
  }
  function showDetails() {
    if (!sel) { det.innerHTML = ''; return; }
    const o = sliceObj(sel.tid, sel.i);
    let h = '<table><tr><th>slice</th><td><b data-k="name">' + esc(o.name) + '</b> on <span data-k="track">' +
      esc(o.track) + '</span></td></tr>';
    if (o.index !== undefined) {
      h += '<tr><th>disassembly</th><td><code data-k="disasm">' + esc(o.text) + '</code></td></tr>';
      h += row('run, instruction', 'index', o.run + ', #' + o.index +
        (o.merged > 1 ? ' (merged ' + o.merged + ' STOREs: #' + o.index + '..#' + o.last_index + ')' : ''));
      h += row('queued', 'queued', o.queued) + row('start', 'start', o.start) + row('done', 'done', o.done);
      h += row('cycles (busy + stalls + token waits)', 'cycles', o.cycles) + row('busy', 'busy', o.busy) +
        row('memory stall', 'mem_stall', o.mem_stall);
      QUEUES.forEach(function (q) { h += row('token wait ' + q, 'dep_' + q, o['dep_' + q]); });
    } else {
      h += '<tr><th>arguments</th><td><code data-k="text">' + esc(o.text) + '</code></td></tr>';
    }
    h += row('timeline cycles', 'span', fmt(o.ts) + ' to ' + fmt(o.ts + o.dur) + ' (' + fmt(o.dur) + ')');
    const fl = selFlows();
    fl.forEach(function (i) {
      const q = QUEUES[flows.q[i]];
      const popped = flows.ft[i] === sel.tid && flows.f[i] === o.ts;
      const otid = popped ? flows.st[i] : flows.ft[i], ot = popped ? flows.s[i] : flows.f[i];
      const k = findSlice(otid, ot);
      let who = byTid[otid] ? byTid[otid].name : '?';
      if (k >= 0) who = '<a data-tid="' + otid + '" data-i="' + k + '">' + esc(D.names[byTid[otid].nm[k]]) +
        ' #' + D.info[byTid[otid].inf[k] * NI + KEY.index] + '</a> on ' + esc(who);
      h += '<tr><th>' + (popped ? 'token popped' : 'token pushed') + '</th><td data-k="flow">' + q + ': ' +
        (popped ? 'pushed at cycle ' + fmt(flows.s[i]) + ' by ' : 'popped at cycle ' + fmt(flows.f[i]) + ' by ') +
        who + '</td></tr>';
    });
    det.innerHTML = h + '</table>';
    det.className = '';
  }
  det.addEventListener('click', function (ev) {
    const a = ev.target.closest('a[data-tid]');
    if (!a) return;
    select(+a.getAttribute('data-tid'), +a.getAttribute('data-i'), true);
  });
  function select(tid, i, reveal) {
    sel = tid === null ? null : { tid: tid, i: i };
    if (sel && reveal) {
      const tr = byTid[tid], a = tr.ts[i], b = a + tr.du[i];
      if (a < t0 || b > t1) setView(a - (t1 - t0) / 2 + (b - a) / 2, b + (t1 - t0) / 2 - (b - a) / 2);
    }
    showDetails();
    redraw();
  }
  function tooltip(px, py) {
    const s = sliceAt(px, py);
    const r = rowAt(py);
    let txt = '';
    if (s) {
      const o = sliceObj(s.tid, s.i);
      txt = o.name + (o.index !== undefined ? ' #' + o.index : '') + '\n' + o.text;
      if (o.index !== undefined) {
        txt += '\nqueued ' + o.queued + '  start ' + o.start + '  done ' + o.done + '  (' + o.cycles + ' cycles)';
        txt += '\nbusy ' + o.busy + '  mem stall ' + o.mem_stall;
        QUEUES.forEach(function (q) { if (o['dep_' + q]) txt += '  wait ' + q + ' ' + o['dep_' + q]; });
      } else {
        txt += '\ncycles ' + fmt(o.ts) + ' to ' + fmt(o.ts + o.dur);
      }
    } else if (r && r.kind === 'counter' && px >= LABEL_W) {
      const t = Math.floor(T(px)), k = upperBound(r.c.t, t) - 1;
      txt = r.c.name + ' at cycle ' + fmt(t) + ': ' + (k >= 0 ? r.c.v[k] : 0);
    }
    hover = txt;
    if (!txt) { tip.style.display = 'none'; return; }
    tip.textContent = txt;
    tip.style.display = 'block';
    const w = tip.offsetWidth;
    tip.style.left = Math.min(px + 14, width - w - 4) + 'px';
    tip.style.top = (py + 16) + 'px';
  }

  // ---- input -----------------------------------------------------------------------
  let drag = null;
  function pos(ev) { const b = cv.getBoundingClientRect(); return [ev.clientX - b.left, ev.clientY - b.top]; }
  cv.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    const p = pos(ev);
    if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
      pan((ev.deltaX || ev.deltaY) * (t1 - t0) / plotW());
    } else {
      zoom(Math.exp(Math.max(-3, Math.min(3, ev.deltaY * 0.002))), p[0] < LABEL_W ? (t0 + t1) / 2 : T(p[0]));
    }
  }, { passive: false });
  cv.addEventListener('mousedown', function (ev) {
    const p = pos(ev);
    drag = { x: p[0], y: p[1], t0: t0, t1: t1, moved: false };
  });
  window.addEventListener('mousemove', function (ev) {
    const p = pos(ev);
    if (drag) {
      if (Math.abs(p[0] - drag.x) > 3) drag.moved = true;
      if (drag.moved) {
        const dt = (p[0] - drag.x) * (drag.t1 - drag.t0) / plotW();
        setView(drag.t0 - dt, drag.t1 - dt);
      }
      tip.style.display = 'none';
    } else if (ev.target === cv) {
      tooltip(p[0], p[1]);
    } else {
      tip.style.display = 'none';
    }
  });
  window.addEventListener('mouseup', function (ev) {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.moved) return;
    const p = pos(ev);
    const s = sliceAt(p[0], p[1]);
    select(s ? s.tid : null, s ? s.i : 0, false);
  });
  cv.addEventListener('dblclick', function (ev) {
    const s = sliceAt(pos(ev)[0], pos(ev)[1]);
    if (!s) return;
    const tr = byTid[s.tid], a = tr.ts[s.i], b = a + tr.du[s.i], m = (b - a) * 0.1 + 2;
    setView(a - m, b + m);
  });
  window.addEventListener('keydown', function (ev) {
    if (ev.target.tagName === 'INPUT') { if (ev.key === 'Enter') go(); return; }
    const mid = (t0 + t1) / 2, k = ev.key.toLowerCase();
    if (k === 'w' || k === '+' || k === '=') zoom(0.7, mid);
    else if (k === 's' || k === '-') zoom(1 / 0.7, mid);
    else if (k === 'a') pan(-(t1 - t0) * 0.15);
    else if (k === 'd') pan((t1 - t0) * 0.15);
    else if (k === '0') setView(0, END);
    else if (k === 'escape') select(null, 0, false);
  });
  function go() {
    const a = Number(document.getElementById('from').value), b = Number(document.getElementById('to').value);
    if (Number.isFinite(a) && Number.isFinite(b) && b > a) setView(a, b);
  }
  document.getElementById('go').addEventListener('click', go);
  document.getElementById('fit').addEventListener('click', function () { setView(0, END); });
  document.getElementById('zin').addEventListener('click', function () { zoom(0.5, (t0 + t1) / 2); });
  document.getElementById('zout').addEventListener('click', function () { zoom(2, (t0 + t1) / 2); });
  window.addEventListener('resize', redraw);

  let ninsn = 0;
  tracks.forEach(function (t) { for (let i = 0; i < t.n; i++) if (t.inf[i] >= 0) ninsn += D.info[t.inf[i] * NI + KEY.merged]; });
  // END is the end of the last slice: the last cycle drawn is END - 1 (a
  // run's finish pulse included)
  document.getElementById('summary').textContent = D.program + ': cycles 0 to ' + fmt(END - 1) + ' (' +
    (END * D.cycle_ps / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3 }) + ' \u00b5s at ' + D.clock_mhz +
    ' MHz), ' + fmt(ninsn) + ' instructions' + (layers ? ', ' + layers.n + ' layers' : '');

  const vtl = window.vtl = {
    data: D, rows: rows, drawn: drawn, frames: 0, lastDrawMs: 0, flowsDrawn: 0,
    view: function () { return [t0, t1]; },
    setView: setView,
    x: X,
    row: function (tid) { const r = rowOfTid[tid]; return r ? { y: r.y, h: r.h } : null; },
    count: function (tid) { return byTid[tid] ? byTid[tid].n : 0; },
    slice: sliceObj,
    selected: function () { return sel ? { tid: sel.tid, i: sel.i } : null; },
    select: function (tid, i) { select(tid, i, true); },
    hover: function () { return hover; },
  };
  setView(0, END);
})();
