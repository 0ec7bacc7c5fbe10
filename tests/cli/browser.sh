# tests/cli/browser.sh - sourced by the tests that look at pages in a real
# browser: makes sure Debian's chromium and playwright-core (from npm, into
# BUILD/npm, driving /usr/bin/chromium) are there, installing what is
# missing.  Sets BROWSER_OK=1 and NODE_PATH, or BROWSER_OK=0 and
# BROWSER_WHY when nothing can be installed (the caller prints SKIP).
BROWSER_OK=0
BROWSER_WHY=
browser_ready() {
  if ! command -v chromium >/dev/null; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        $sudo apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1
    command -v chromium >/dev/null || { BROWSER_WHY="chromium is not installed and apt-get could not install it"; return 1; }
  fi
  if ! command -v node >/dev/null; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        $sudo apt-get install -y -qq --no-install-recommends nodejs npm; } >/dev/null 2>&1
    command -v node >/dev/null || { BROWSER_WHY="node is not installed and apt-get could not install it"; return 1; }
  fi
  local dir="$ROOT/${BUILD:-build}/npm"
  if [ ! -f "$dir/node_modules/playwright-core/package.json" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1) ||
      { BROWSER_WHY="npm could not install playwright-core"; return 1; }
  fi
  export NODE_PATH="$dir/node_modules"
  BROWSER_OK=1
}
# browser_record PAGE.html RECORD.json [SCREENSHOT.png]
browser_record() {
  node "$ROOT/tests/cli/browser_check.js" "$@"
}
