#!/usr/bin/env bash
# scripts/rtl_widths.sh [FILE.v...] - the width rule of rtl/ (run by `make lint`):
# every width in the RTL comes from a named parameter, ultimately from the
# package that `vtasim config --verilog` generates from the C sources
# (build/rtl/vta_params.vh: WORD_W, QWORD_W, LOOP_W, INSN_*_W ...), so that
# no width is typed twice.  Flagged, outside comments:
#
#   +: N / -: N      a part-select of a literal width      -> [LSB +: NAME_W]
#   [N:...] N >= 1   a range or slice with a literal bound  -> [NAME_W-1:0]
#   N'b N'd N'h N'o  a sized literal of N >= 2 bits        -> a localparam of a
#                    named width ([W-1:0] ONE = 1), {W{1'b0}}, ~|x, |x
#   {N{..}} {(N-..)  a replication whose count starts with a literal N >= 2
#                    (zero/sign extension to a typed width) -> {(WORD_W-W){1'b0}}
#
# Allowed: 1-bit literals (1'b0, 1'b1), ascending array bounds [0:DEPTH-1],
# numbers that are not widths (loop bounds, shift amounts, values of
# localparams and unsized constants, the 8 bits of a byte in BYTES*8), and
# anything in comments or strings.  Exits 1 and
# lists file:line: rule for every violation; 0 when there is none.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$root"/rtl/*.v
awk '
  FNR == 1 { inblk = 0 }
  {
    line = $0
    # strip block comments (possibly spanning lines) and line comments
    out = ""
    while (length(line) > 0) {
      if (inblk) {
        e = index(line, "*/"); if (!e) { line = ""; break }
        line = substr(line, e + 2); inblk = 0
      } else {
        b = index(line, "/*"); c = index(line, "//")
        if (c && (!b || c < b)) { out = out substr(line, 1, c - 1); line = ""; break }
        if (b) { out = out substr(line, 1, b - 1); line = substr(line, b + 2); inblk = 1 }
        else { out = out line; line = "" }
      }
    }
    s = out
    gsub(/"[^"]*"/, "\"\"", s)   # strings ($display texts)
    if (match(s, /[+-]:[ \t]*[0-9]+/)) {
      printf "%s:%d: literal part-select width \"%s\": use [LSB +: NAME_W]\n", FILENAME, FNR, substr(s, RSTART, RLENGTH); bad = 1
    }
    t = s
    while (match(t, /\[[ \t]*[0-9]+[ \t]*:/)) {
      m = substr(t, RSTART, RLENGTH); n = m; gsub(/[^0-9]/, "", n)
      if (n + 0 >= 1) { printf "%s:%d: literal range bound \"%s\": use [NAME_W-1:0]\n", FILENAME, FNR, m; bad = 1 }
      t = substr(t, RSTART + RLENGTH)
    }
    t = s
    while (match(t, /(^|[^A-Za-z0-9_])[0-9]+[ \t]*'\''[sS]?[bBdDhHoO]/)) {
      m = substr(t, RSTART, RLENGTH); n = m; sub(/'\''.*/, "", n); gsub(/[^0-9]/, "", n)
      if (n + 0 >= 2) { printf "%s:%d: sized literal of literal width \"%s\": use a localparam of a named width\n", FILENAME, FNR, m; bad = 1 }
      t = substr(t, RSTART + RLENGTH)
    }
    t = s
    while (match(t, /\{[ \t]*\(?[ \t]*[0-9]+[ \t]*[-+*{]/)) {
      m = substr(t, RSTART, RLENGTH); n = m; gsub(/[^0-9]/, "", n)
      if (n + 0 >= 2) { printf "%s:%d: replication of literal width \"%s\": use a named width\n", FILENAME, FNR, m; bad = 1 }
      t = substr(t, RSTART + RLENGTH)
    }
  }
  END { exit bad }
' "$@"
