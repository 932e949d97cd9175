#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""check-flatpak.py SRCDIR: the flatpak manifest builds what meson asks for.

Every dependency() that meson requires (not `required: false`) is either in
the runtime (RUNTIME below: what org.gnome.Platform ships) or built by a
module of the manifest that says so in "x-pkg-config", before the app's own
module; every module's sources are pinned (an archive with its sha256, or a
git commit); and the sandbox may reach what the libraries need: the network
for libpq (a team server) and the Secret Service for libsecret (issue #35
item 9).
"""
import json
import re
import sys
from pathlib import Path

# pkg-config names org.gnome.Platform provides (GNOME runtime: GLib, GTK,
# libadwaita, json-glib, libsecret, pango, cairo; SQLite comes with the
# freedesktop base it builds on: https://gitlab.gnome.org/GNOME/gnome-build-meta
# elements/sdk.bst and the freedesktop-sdk components it includes).
RUNTIME = {
    "glib-2.0", "gio-2.0", "gobject-2.0", "json-glib-1.0", "sqlite3", "libsecret-1",
    "cairo", "pangocairo", "gtk4", "libadwaita-1",
}
# What each library needs of the sandbox.
NEEDS = {
    "libpq": "--share=network",
    "libsecret-1": "--talk-name=org.freedesktop.secrets",
}

src = Path(sys.argv[1])
manifest = json.loads((src / "flatpak" / "io.github.quartermaster.Quartermaster.json").read_text())
problems = []

required = {}
for build in sorted(src.glob("**/meson.build")):
    if any(part.startswith(("build", ".")) for part in build.relative_to(src).parts[:-1]):
        continue
    text = build.read_text()
    for m in re.finditer(r"\bdependency\(\s*'([^']+)'([^)]*)\)", text):
        if re.search(r"required\s*:\s*false", m.group(2)):
            continue
        required.setdefault(m.group(1), str(build.relative_to(src)))

modules = manifest["modules"]
app = [i for i, m in enumerate(modules) if m["name"] == "quartermaster"]
if len(app) != 1:
    problems.append("the manifest needs exactly one module named quartermaster")
app_at = app[0] if app else len(modules)
built = {}
for i, m in enumerate(modules):
    for name in m.get("x-pkg-config", []):
        built[name] = (i, m["name"])
    if m["name"] == "quartermaster":
        continue
    for s in m.get("sources", []):
        pinned = (s.get("type") in ("archive", "file") and re.fullmatch(r"[0-9a-f]{64}", s.get("sha256", ""))) or \
                 (s.get("type") == "git" and re.fullmatch(r"[0-9a-f]{40}", s.get("commit", "")))
        if not pinned:
            problems.append(f"module {m['name']}: source {s.get('url', s)} is not pinned (sha256 or git commit)")

for dep, where in sorted(required.items()):
    if dep in RUNTIME:
        continue
    if dep not in built:
        problems.append(f"{where} requires {dep}: neither the runtime nor a module of the manifest provides it")
    elif built[dep][0] > app_at:
        problems.append(f"{dep} is built by {built[dep][1]} after the app's module")
for dep, arg in NEEDS.items():
    if dep in required and arg not in manifest.get("finish-args", []):
        problems.append(f"{dep} is required but the sandbox lacks {arg}")

for p in problems:
    print(p)
print(f"check-flatpak: {len(required)} required dependencies, "
      f"{sum(1 for d in required if d in RUNTIME)} from the runtime, "
      f"{sum(1 for d in required if d in built)} built by modules; {len(problems)} problems")
sys.exit(1 if problems else 0)
