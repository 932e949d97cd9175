#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks the translations in po/:
#  - every language in LINGUAS has a .po, and every .po is in LINGUAS;
#  - msgfmt --check --check-format passes (formats, plural forms, header);
#  - no message is untranslated or fuzzy;
#  - every msgid of a template freshly extracted from the sources (the same
#    xgettext call as meson's quartermaster-pot target, glib preset) is in
#    each .po, so a new string cannot land untranslated.
# usage: check-po.sh SOURCE_DIR [WORK_DIR]
set -eu
top=$(cd "${1:-$(dirname "$0")/..}" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
export LC_ALL=C.UTF-8 LANGUAGE=
status=0
langs=$(sed -e 's/#.*//' "$top/po/LINGUAS" | tr -s ' \t' '\n\n' | sed '/^$/d')

if [ -z "$langs" ]; then
  echo "po/LINGUAS: no languages"
  exit 1
fi
for f in "$top"/po/*.po; do
  l=$(basename "$f" .po)
  grep -qxF "$l" <<<"$langs" || { echo "po/$l.po: not listed in po/LINGUAS"; status=1; }
done

# The glib preset of meson's i18n module, plus what its gettext helper adds.
pot="$work/quartermaster.pot"
(cd "$top" && xgettext --package-name=quartermaster -f po/POTFILES.in -D "$top" -k_ -o "$pot" \
  --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
  --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
  --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format)
n=$(grep -c '^msgid ' "$pot" || true)
# A template with a handful of strings means the extraction itself broke
# (for example the .ui or .desktop rules went missing).
if [ "$n" -lt 100 ]; then
  echo "xgettext extracted only $n messages into $pot"
  status=1
fi

for l in $langs; do
  po="$top/po/$l.po"
  if [ ! -f "$po" ]; then
    echo "po/LINGUAS lists $l, but po/$l.po does not exist"
    status=1
    continue
  fi
  if ! msgfmt --check --check-format --check-accelerators=_ -o /dev/null "$po"; then
    echo "po/$l.po: msgfmt --check failed"
    status=1
  fi
  stats=$(msgfmt --statistics -o /dev/null "$po" 2>&1)
  echo "po/$l.po: $stats"
  if grep -qE 'fuzzy|untranslated' <<<"$stats"; then
    msgattrib --only-fuzzy --no-obsolete "$po" | grep -A1 '^msgid ' | head -40 || true
    msgattrib --untranslated --no-obsolete "$po" | grep -A1 '^msgid ' | head -40 || true
    echo "po/$l.po: has fuzzy or untranslated messages"
    status=1
  fi
  # Every message of the fresh template must be there (and translated).
  if ! msgcmp "$po" "$pot" 2>"$work/msgcmp-$l.log"; then
    grep -v '^msgcmp: found' "$work/msgcmp-$l.log" | head -40
    echo "po/$l.po: out of date with the sources; run"
    echo "  meson compile -C BUILD quartermaster-pot && msgmerge --update po/$l.po po/quartermaster.pot"
    status=1
  fi
done
exit $status
