# tests/cli/browser.sh - sourced by the tests that look at pages in a real
# browser: makes sure Debian's chromium and playwright-core (from npm, into
# BUILD/npm, driving /usr/bin/chromium) are there, installing what is
# missing.  Sets BROWSER_OK=1 and NODE_PATH (BROWSER_MODE=playwright), or,
# when npm cannot deliver playwright-core, BROWSER_MODE=cli: chromium's own
# command line (browser_cli.py).  BROWSER_OK=0 and BROWSER_WHY when chromium
# itself cannot be installed (the caller prints SKIP).
BROWSER_OK=0
BROWSER_WHY=
BROWSER_MODE=
browser_ready() {
  if ! command -v chromium >/dev/null; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        $sudo apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1
    command -v chromium >/dev/null || { BROWSER_WHY="chromium is not installed and apt-get could not install it"; return 1; }
  fi
  BROWSER_OK=1
  BROWSER_MODE=cli
  if ! command -v npm >/dev/null; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        $sudo apt-get install -y -qq --no-install-recommends nodejs npm; } >/dev/null 2>&1
    command -v npm >/dev/null || return 0
  fi
  local dir="$ROOT/${BUILD:-build}/npm"
  if [ ! -f "$dir/node_modules/playwright-core/package.json" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1) || return 0
  fi
  export NODE_PATH="$dir/node_modules"
  BROWSER_MODE=playwright
}
# browser_record PAGE.html RECORD.json [SCREENSHOT.png]
browser_record() {
  if [ "$BROWSER_MODE" = playwright ]; then node "$ROOT/tests/cli/browser_check.js" "$@"
  else python3 "$ROOT/tests/cli/browser_cli.py" "$@"; fi
}
