#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a file with translatable strings is missing from po/POTFILES.in,
# or when POTFILES.in names a file that does not exist.
set -eu
top=${1:-$(dirname "$0")/..}
cd "$top"
status=0
listed=$(grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort -u)

found=$( { grep -rlE '(^|[^A-Za-z0-9_])N?_ ?\(' --include='*.c' src || true;
           grep -rl 'translatable="yes"' --include='*.ui' ui || true;
           ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml 2>/dev/null || true; } | sort -u)

for f in $found; do
  if ! grep -qxF "$f" <<<"$listed"; then
    echo "po/POTFILES.in: missing $f (it has translatable strings)"
    status=1
  fi
done
for f in $listed; do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in: lists $f, which does not exist"
    status=1
  fi
done
exit $status
