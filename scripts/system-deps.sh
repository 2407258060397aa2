#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium for the browser tests, CJK fonts for
# screenshots, PostgreSQL for the second database run, gettext for translations.
# Installs only what is missing; needs root (CI and the dev machines run as root).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -d /usr/share/fonts/opentype/noto ] || need+=(fonts-noto-cjk)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
