#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the software-centre screenshots in data/screenshots/: builds
# Quartermaster, then renders the main window under Xvfb on the example
# plans (tests/make-screenshots.c): the Plans page, a plan, the Compare
# page, the Catalog page and the Quotes page, 1200×800, light style; and
# team.png, the Plans page on a team server (a private PostgreSQL 15
# cluster, as the tests start one).
#
#   build-aux/screenshots.sh [BUILDDIR]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/_build-screenshots}
out=$src/data/screenshots

[ -f "$build/build.ninja" ] || meson setup "$build" "$src"
ninja -C "$build"

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# As the UI tests run: settings in memory from the build's compiled schema,
# cairo rendering, no accessibility bus, a throw-away home.
env LC_ALL=C.UTF-8 LANGUAGE= GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" \
    GSK_RENDERER=cairo GTK_A11Y=none HOME="$home" XDG_CONFIG_HOME="$home/config" \
    XDG_DATA_HOME="$home/data" XDG_CACHE_HOME="$home/cache" QM_SOURCE_DIR="$src" \
    xvfb-run -a -s "-screen 0 1400x1000x24" "$build/tests/make-screenshots" "$out"
