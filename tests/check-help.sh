#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/check-help.sh SRCDIR BUILDDIR APP_ID
#
# The user guide (help/): every Mallard page valid and every link resolved
# (yelp-check), every message of each help/LANG/LANG.po translated, and
# `meson install` putting the English pages and the translated ones
# (merged by itstool) where help:APP_ID looks for them.
set -euo pipefail

src=$1
build=$2
app_id=$3
fail() { printf 'check-help: %s\n' "$*" >&2; exit 1; }

command -v yelp-check >/dev/null || fail "yelp-check is missing: install yelp-tools (build-aux/debian-packages.txt)"

cd "$src/help"
pages=(C/*.page)
[ ${#pages[@]} -ge 9 ] || fail "expected the guide's pages in help/C, found ${#pages[@]}"
yelp-check validate "${pages[@]}" || fail "a page in help/C is not valid Mallard"
out=$(yelp-check links "${pages[@]}")
[ -z "$out" ] || fail "broken links: $out"
out=$(yelp-check orphans "${pages[@]}")
[ -z "$out" ] || fail "pages no guide links to: $out"

mapfile -t langs < <(grep -vE '^\s*(#|$)' LINGUAS)
[ ${#langs[@]} -ge 2 ] || fail "help/LINGUAS lists ${#langs[@]} languages"
for lang in "${langs[@]}"; do
  stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$lang/$lang.po" 2>&1) ||
    fail "$lang/$lang.po: $stats"
  case $stats in
    *untranslated*|*fuzzy*) fail "$lang/$lang.po is not complete: $stats" ;;
  esac
done

destdir=$(mktemp -d)
trap 'rm -rf "$destdir"' EXIT
meson install -C "$build" --no-rebuild --quiet --tags doc --destdir "$destdir" >/dev/null ||
  fail "meson install --tags doc failed"
for lang in C "${langs[@]}"; do
  dir=$(find "$destdir" -type d -path "*/help/$lang/$app_id" | head -n 1)
  [ -n "$dir" ] || fail "nothing installed in share/help/$lang/$app_id"
  for page in "${pages[@]}"; do
    [ -f "$dir/${page#C/}" ] || fail "share/help/$lang/$app_id/${page#C/} is not installed"
  done
  [ -e "$dir/figures/plan.png" ] || fail "share/help/$lang/$app_id/figures/plan.png is not installed"
  yelp-check validate "$dir"/*.page || fail "an installed page in $lang is not valid Mallard"
done
# The translations were merged: a German title, a Chinese one.
grep -q 'Hilfe zu Quartermaster' "$(find "$destdir" -path "*/help/de/$app_id/index.page")" ||
  fail "the installed German index.page is not translated"
grep -q 'Quartermaster 帮助' "$(find "$destdir" -path "*/help/zh_CN/$app_id/index.page")" ||
  fail "the installed Chinese index.page is not translated"
echo "check-help: ${#pages[@]} pages valid, installed in C ${langs[*]}"
