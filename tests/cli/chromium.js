// tests/cli/chromium.js - Debian's chromium (or $CHROMIUM), headless through
// playwright-core, with everything that would reach the network off: the one
// launch the page tests share (browser_check.js, timeline_check.js,
// report_layout.js).
const { chromium } = require('playwright-core');

module.exports.launch = () => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
