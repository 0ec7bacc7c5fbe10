#!/usr/bin/env python3
"""tests/cli/browser_cli.py PAGE.html OUT.json [SCREENSHOT.png] - the fallback
of browser_check.js when playwright-core cannot be installed: Debian's
chromium on its command line.  --dump-dom gives the rendered DOM (the numbers
with their data-* attributes), --enable-logging the console (every message
is logged as INFO:CONSOLE; the page's Content-Security-Policy turns any
attempted request into such a message, so "no console message" also means
"no request"), --screenshot the picture.  Writes the record format of
browser_check.js ('requests' stays empty: seen only through the console)."""
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync']


def chromium(args):
    with tempfile.TemporaryDirectory() as prof:
        return subprocess.run([os.environ.get('CHROMIUM', 'chromium')] + FLAGS +
                              ['--user-data-dir=' + prof] + args,
                              capture_output=True, text=True, timeout=120)


class Numbers(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.numbers, self.stack, self.svgs, self.sections = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.svgs += tag == 'svg'
        self.sections += tag == 'section'
        if 'data-src' in a:
            self.stack.append({'src': a['data-src'], 'v': a.get('data-v'), 'den': a.get('data-den'),
                               'fmt': a.get('data-fmt'), 'text': '', 'visible': True})

    def handle_data(self, data):
        if self.stack:
            self.stack[-1]['text'] += data

    def handle_endtag(self, tag):
        if tag == 'span' and self.stack:
            self.numbers.append(self.stack.pop())


page, out = sys.argv[1], sys.argv[2]
url = 'file://' + os.path.abspath(page)
r = chromium(['--enable-logging=stderr', '--v=0', '--dump-dom', url])
if r.returncode != 0:
    sys.exit(f'chromium --dump-dom exited {r.returncode}: {r.stderr[-500:]}')
p = Numbers()
p.feed(r.stdout)
console = [{'type': 'console', 'text': m} for m in re.findall(r':CONSOLE[^\]]*\] (.*)', r.stderr)]
rec = {'console': console, 'page_errors': [], 'requests': [], 'failed': [],
       'numbers': p.numbers, 'svgs': p.svgs, 'sections': p.sections}
if len(sys.argv) > 3:
    chromium(['--screenshot=' + os.path.abspath(sys.argv[3]), '--window-size=1280,2000', url])
json.dump(rec, open(out, 'w'))
