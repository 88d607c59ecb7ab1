#!/usr/bin/env python3
"""Checks every relative link and image in the repository's markdown files: the file exists and, for #anchors, a
heading with that GitHub slug does. Prints each broken link and exits 1 when there is one."""
import os, re, subprocess, sys

root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
files = [f for f in subprocess.run(["git", "ls-files", "*.md"], cwd=root, capture_output=True, text=True, check=True).stdout.split() ]
files += [f for f in subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "*.md"], cwd=root, capture_output=True, text=True).stdout.split()]

def slugs(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        text = re.sub(r"[^\w\- ]", "", text)
        out.add(text.replace(" ", "-"))
    return out

bad = 0
for f in files:
    full = os.path.join(root, f)
    text, fence, lines = open(full, encoding="utf-8").read(), False, []
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if not fence:
            lines.append(re.sub(r"`[^`]*`", "", line))
    for target in re.findall(r"\]\(([^)\s]+)\)", "\n".join(lines)):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(full), path)) if path else full
        if not os.path.exists(dest):
            print(f"{f}: {target}: no such file"); bad += 1
        elif anchor and dest.endswith(".md") and anchor not in slugs(dest):
            print(f"{f}: {target}: no such heading"); bad += 1
print(f"{len(files)} files checked, {bad} broken links")
sys.exit(1 if bad else 0)
