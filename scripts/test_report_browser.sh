#!/usr/bin/env bash
# Renders an HTML report in headless Chromium and checks that it displays: a screenshot
# is taken and the DOM the browser built must hold the report's charts (<svg> elements
# with their lines and bars) and no parser or script error.
#
# Usage: scripts/test_report_browser.sh [--expect TEXT]... REPORT.html [SCREENSHOT.png]
# Each --expect TEXT must appear in the DOM the browser built (a section heading, say
# '<h2>Energy</h2>' for a run report, or a chart's class).
# Exit: 0 when it renders, 77 (skip) when Chromium is not installed, 1 on failure.
set -uo pipefail

expects=()
while [ $# -gt 0 ] && [ "$1" = "--expect" ]; do
  [ $# -ge 2 ] || { echo "usage: $0 [--expect TEXT]... REPORT.html [SCREENSHOT.png]" >&2; exit 1; }
  expects+=("$2")
  shift 2
done
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 [--expect TEXT]... REPORT.html [SCREENSHOT.png]" >&2
  exit 1
fi
report=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [ -z "$browser" ]; then
  echo "skip: chromium is not installed"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
screenshot=${2:-$work/report.png}

# run_browser PROFILE_DIR ARGS...: a headless browser that reaches no network service.
run_browser() {
  local profile=$1; shift
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@"
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The report's own count of charts: the DOM must have as many.
expected_svgs=$(grep -o '<svg' "$report" | wc -l)
[ "$expected_svgs" -gt 0 ] || fail "$report has no <svg>"

run_browser "$work/dom-profile" --dump-dom "file://$report" >"$work/dom.html" 2>"$work/dom.err" ||
  fail "the browser could not load the report: $(tail -5 "$work/dom.err")"
dom_svgs=$(grep -o '<svg' "$work/dom.html" | wc -l)
[ "$dom_svgs" -eq "$expected_svgs" ] ||
  fail "the DOM has $dom_svgs <svg> elements, the report $expected_svgs"
grep -q '<polyline' "$work/dom.html" || fail "the DOM has no chart line (<polyline>)"
grep -q '<rect' "$work/dom.html" || fail "the DOM has no bar (<rect>)"
for text in "${expects[@]}"; do
  grep -qF -- "$text" "$work/dom.html" || fail "the DOM has no $text"
done
grep -q '<parsererror' "$work/dom.html" && fail "the browser reported a parser error"
grep -qi '<script' "$work/dom.html" && fail "the DOM holds a <script>"

run_browser "$work/shot-profile" --screenshot="$screenshot" --window-size=1400,2400 \
  "file://$report" >"$work/shot.out" 2>"$work/shot.err" ||
  fail "the screenshot failed: $(tail -5 "$work/shot.err")"
[ -s "$screenshot" ] || fail "no screenshot was written"
[ "$(head -c 8 "$screenshot" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "the screenshot is not a PNG"

echo "ok: $report renders ($dom_svgs charts; screenshot $screenshot)"
exit 0
