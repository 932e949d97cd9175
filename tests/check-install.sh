#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check-install.sh BUILDDIR APP_ID: `meson install` into a DESTDIR gives an
# app that finds its files where the build looks for them (config.h's
# LOCALEDIR, SCHEMADIR, PKGDATADIR; help under datadir/help): both
# programs, the translations, a schema that compiles, the help in every
# language, the desktop file, metainfo and MIME type; and the installed
# CLI runs an installed example (issue #35 item 9).
set -euo pipefail
build=$1
app=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
def () { sed -n "s/^#define $1 \"\\(.*\\)\"$/\\1/p" "$build/config.h"; }
localedir=$(def LOCALEDIR)
schemadir=$(def SCHEMADIR)
pkgdatadir=$(def PKGDATADIR)
datadir=${schemadir%/glib-2.0/schemas}
prefix=${datadir%/share}
fail=0
need () {
  if [ ! -s "$dest$1" ]; then
    echo "missing after install: $1"
    fail=1
  fi
}

need "$prefix/bin/quartermaster"
need "$prefix/bin/quartermaster-cli"
for lang in de zh_CN; do
  need "$localedir/$lang/LC_MESSAGES/quartermaster.mo"
  if [ -s "$dest$localedir/$lang/LC_MESSAGES/quartermaster.mo" ] &&
     ! msgunfmt "$dest$localedir/$lang/LC_MESSAGES/quartermaster.mo" >/dev/null; then
    echo "not a message catalog: $localedir/$lang/LC_MESSAGES/quartermaster.mo"
    fail=1
  fi
  need "$datadir/help/$lang/$app/index.page"
  # The HTML guide F1 opens in a browser where no help viewer is installed.
  need "$datadir/quartermaster/help-html/$lang/index.html"
done
need "$datadir/help/C/$app/index.page"
need "$datadir/quartermaster/help-html/C/index.html"
need "$schemadir/$app.gschema.xml"
if ! glib-compile-schemas --strict --targetdir "$dest" "$dest$schemadir"; then
  echo "the installed schema does not compile"
  fail=1
fi
need "$datadir/applications/$app.desktop"
need "$datadir/metainfo/$app.metainfo.xml"
need "$datadir/mime/packages/$app.xml"
need "$pkgdatadir/examples/7b-pretrain-30-day-deadline.qmplan"
out=$("$dest$prefix/bin/quartermaster-cli" estimate "$dest$pkgdatadir/examples/7b-pretrain-30-day-deadline.qmplan" || true)
if ! grep -q "Likely range" <<<"$out"; then
  echo "the installed quartermaster-cli does not estimate the installed example"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "check-install: installed into a DESTDIR under $prefix: complete"
exit "$fail"
