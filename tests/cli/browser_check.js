// tests/cli/browser_check.js PAGE.html OUT.json [SCREENSHOT.png] - open a page
// in Debian's chromium (headless, through playwright-core) and record what a
// person's browser would do with it: console messages, page errors, every
// request other than the page itself, and each number the page shows with
// its data-src / data-v / data-fmt attributes (cli/report.c), read from the
// rendered DOM.  Exits 0 when the page loaded; the test judges the record.
const { launch } = require('./chromium.js');
const path = require('path');

(async () => {
  const [page_path, out_path, shot] = process.argv.slice(2);
  const url = 'file://' + path.resolve(page_path);
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1280, height: 2000 } });
  const rec = { console: [], page_errors: [], requests: [], failed: [] };
  page.on('console', (m) => rec.console.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => rec.page_errors.push(String(e)));
  page.on('request', (r) => { if (r.url() !== url) rec.requests.push(r.url()); });
  page.on('requestfailed', (r) => rec.failed.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  rec.title = await page.title();
  rec.numbers = await page.$$eval('[data-src]', (els) => els.map((e) => ({
    src: e.getAttribute('data-src'), v: e.getAttribute('data-v'), den: e.getAttribute('data-den'),
    fmt: e.getAttribute('data-fmt'), text: e.textContent,
    visible: e.getBoundingClientRect().width > 0 })));
  rec.svgs = await page.$$eval('svg', (els) => els.filter((e) =>
    e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().height > 0).length);
  rec.sections = await page.$$eval('section', (els) => els.length);
  if (shot) await page.screenshot({ path: shot, fullPage: false });
  await browser.close();
  require('fs').writeFileSync(out_path, JSON.stringify(rec));
})().catch((e) => { console.error(String(e)); process.exit(3); });
