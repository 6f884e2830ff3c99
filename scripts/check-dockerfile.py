#!/usr/bin/env python3
"""Checks the Dockerfile without Docker: every COPY source (outside --from stages) exists in the
checkout, and the runtime stage installs the libraries a built binary needs directly (its ELF
NEEDED entries, when the binary is given as argument)."""
import os
import re
import subprocess
import sys

root = os.path.join(os.path.dirname(__file__), "..")
text = open(os.path.join(root, "Dockerfile")).read()
problems = []
for line in text.splitlines():
    match = re.match(r"\s*COPY\s+(?!--from)(.+)$", line)
    if not match:
        continue
    parts = match.group(1).split()
    for source in parts[:-1]:
        if not os.path.exists(os.path.join(root, source)):
            problems.append(f"COPY source missing: {source}")
ignored = open(os.path.join(root, ".dockerignore")).read().split() if os.path.exists(os.path.join(root, ".dockerignore")) else []
for source in ("Package.swift", "Sources", "Web", "Migrations"):
    if source in ignored:
        problems.append(f"{source} is in .dockerignore but the build needs it")
if len(sys.argv) > 1:
    # Map each shared library the binary loads to the Debian package that ships it here.
    runtime = text.split("FROM debian:bookworm-slim", 1)[-1]
    # Direct dependencies only (the ELF NEEDED entries); apt brings their own dependencies.
    output = subprocess.run(["readelf", "-d", sys.argv[1]], capture_output=True, text=True).stdout
    for library in re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", output):
        if library.startswith(("libc.so", "libm.so", "libpthread", "libdl", "librt", "ld-linux", "libgcc_s", "linux-vdso")):
            continue
        owner = subprocess.run(["dpkg", "-S", library], capture_output=True, text=True).stdout.split(":")[0]
        package = re.sub(r"-dev$", "", owner.strip())
        if package and package not in runtime and not package.startswith(("libc6", "libgcc")):
            problems.append(f"{sys.argv[1]} loads {library} from {package}, not installed in the runtime stage")
for problem in problems:
    print("Dockerfile: " + problem, file=sys.stderr)
print(f"Dockerfile check: {'ok' if not problems else str(len(problems)) + ' problem(s)'}", file=sys.stderr)
sys.exit(1 if problems else 0)
