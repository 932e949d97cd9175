#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# help-html.sh OUTDIR HELPDIR LANG...: the Mallard user guide as HTML pages,
# one directory per language (OUTDIR/C, OUTDIR/de, ...), for the app to open
# in a web browser where no help viewer (Yelp) is installed. The translated
# pages are merged from HELPDIR/LANG/LANG.po by itstool, as gnome.yelp()
# merges the installed ones.
set -eu
out=$1
help=$2
shift 2
rm -rf "$out"
mkdir -p "$out/C"
yelp-build html -o "$out/C/" "$help/C/"*.page
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lang in "$@"; do
  mkdir -p "$tmp/$lang" "$out/$lang"
  msgfmt -o "$tmp/$lang.mo" "$help/$lang/$lang.po"
  cp "$help/C/legal.xml" "$tmp/$lang/"
  cp -r "$help/C/figures" "$tmp/$lang/"
  for page in "$help/C/"*.page; do
    itstool -m "$tmp/$lang.mo" -o "$tmp/$lang/" "$page"
  done
  yelp-build html -o "$out/$lang/" "$tmp/$lang/"*.page
done
