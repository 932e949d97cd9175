#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/check-citations.py SRCDIR
# tests/check-citations.py --self-test
#
# Every note a comment, test or document cites by file name (<NOTE>.md) must
# be one a reader can open: a file in the tree (docs/<NOTE>.md, or a path
# relative to the citing file), part of a URL, or a path in a public
# repository named just before it ("NVIDIA/nccl-tests doc/PERFORMANCE.md").
# Notes kept outside the repository are refused.
import os
import re
import sys

SCANNED = ('src', 'tests', 'docs')
CITATION = re.compile(r'[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b')
# "owner/repo" then the path, with backticks, quotes or the word "docs"
# (as in "huggingface/transformers docs model_memory_anatomy.md") between.
REPOSITORY = re.compile(r'\b([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)[\s`\'"]+(?:docs\s+)?[`\'"]?$')
SELF = os.path.realpath(__file__)
OUTSIDE = re.compile(r'\bshared/(?:design|reference|seeds)\b|/' + 'work/')
# A Markdown link's text, when the link goes to a URL.
LINK_TO_URL = re.compile(r'[`*]*\]\(https?://')


def in_tree(root, citing_dir, path):
    for base in (root, citing_dir):
        full = os.path.realpath(os.path.join(base, path))
        if full.startswith(root + os.sep) and os.path.isfile(full):
            return True
    return False


def is_url(line, start, end):
    word_start = max(line.rfind(c, 0, start) for c in ' \t(<[') + 1
    return '://' in line[word_start:end] or LINK_TO_URL.match(line, end) is not None


def public_repository(root, line, start):
    m = REPOSITORY.search(line[:start])
    return m is not None and not os.path.exists(os.path.join(root, m.group(1)))


def problems(root):
    for top in SCANNED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if os.path.realpath(path) == SELF:
                    continue  # its self-test's examples are meant to fail
                try:
                    with open(path, encoding='utf-8') as f:
                        lines = f.readlines()
                except (UnicodeDecodeError, OSError):
                    continue  # images, PDFs: nothing to cite from
                rel = os.path.relpath(path, root)
                for number, line in enumerate(lines, 1):
                    where = f'{rel}:{number}'
                    for m in OUTSIDE.finditer(line):
                        yield f'{where}: "{m.group(0)}" is outside the tree; cite the copy under docs/'
                    for m in CITATION.finditer(line):
                        cited = m.group(0)
                        if is_url(line, m.start(), m.end()) or public_repository(root, line, m.start()):
                            continue
                        if not in_tree(root, dirpath, cited):
                            yield (f'{where}: "{cited}" is not a file in the tree (cite docs/<NOTE>.md), '
                                   'a URL, or a path after its public repository (owner/repo path/<NOTE>.md)')


def self_test():
    """The checker on a small tree: refuses what a reader cannot open."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.realpath(tmp)
        for d in ('docs', 'src/core', 'tests'):
            os.makedirs(os.path.join(root, d))
        with open(os.path.join(root, 'docs', 'notes.md'), 'w') as f:
            f.write('See [rules](rules.md) and [GTK](https://example.org/GTK.md).\n')
        with open(os.path.join(root, 'docs', 'rules.md'), 'w') as f:
            f.write('# Rules\n')
        good = ('/* docs/notes.md, "Ids"; NVIDIA/nccl-tests doc/PERFORMANCE.md;\n'
                ' * https://github.com/jax-ml/scaling-book/blob/main/inference.md;\n'
                ' * huggingface/transformers docs model_memory_anatomy.md */\n')
        with open(os.path.join(root, 'src', 'core', 'good.c'), 'w') as f:
            f.write(good)
        assert list(problems(root)) == [], list(problems(root))
        bad = {
            'src/core/a.c': '/* the rules (plan-format.md). */\n',
            'src/core/b.c': '/* ../' + 'shared/design/cli.md */\n',
            'tests/c.c': '/* (scaling-book inference.md) */\n',
            'tests/d.c': '/* src/core docs/missing.md */\n',
        }
        for name, text in bad.items():
            with open(os.path.join(root, name), 'w') as f:
                f.write(text)
        found = list(problems(root))
        for name in bad:
            assert any(p.startswith(name + ':1:') for p in found), (name, found)
    print('check-citations: self-test passed')


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--self-test':
        self_test()
        return
    if len(sys.argv) != 2:
        sys.exit('usage: check-citations.py SRCDIR | --self-test')
    root = os.path.realpath(sys.argv[1])
    found = list(problems(root))
    for p in found:
        print(p)
    if found:
        print(f'check-citations: {len(found)} citations a reader cannot open', file=sys.stderr)
        sys.exit(1)
    print('check-citations: every cited note resolves')


if __name__ == '__main__':
    main()
