#!/usr/bin/env bash
# Renders a report page to a PNG with headless Chromium, to look at a report without a browser.
#   scripts/screenshot-report.sh Reports/<scenario>/<variant>/report.html out.png [width] [height]
# Installs Debian's chromium when it is missing (needs root, as in CI containers).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 <report.html> <out.png> [width=1400] [height=1000]" >&2
    exit 2
fi
page=$1
out=$2
width=${3:-1400}
height=${4:-1000}

if [ ! -f "$page" ]; then
    echo "screenshot-report: no such file: $page" >&2
    exit 2
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "screenshot-report: installing chromium (Debian package)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    browser=$(command -v chromium)
fi

abs_page=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
abs_out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

# A throwaway profile keeps runs independent; --hide-scrollbars keeps the picture clean.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
    --screenshot="$abs_out" --window-size="$width,$height" "file://$abs_page" >/dev/null 2>&1 || true

if [ ! -s "$abs_out" ]; then
    echo "screenshot-report: chromium wrote no screenshot to $abs_out" >&2
    exit 1
fi
echo "$abs_out"
