#!/usr/bin/env python3
"""Checks that every #include of a project header goes down the layers of docs/architecture.md.

usage: python3 tests/architecture/check_layers.py [SOURCE_DIR]

Each folder may include its own headers and those of the folders listed for it; anything else
(an include running back up, or sideways between folders that do not depend on each other) is
printed as FILE:LINE and the exit status is 1.
"""
import pathlib
import re
import sys

# Folder -> the folders it may include besides itself; the same table as docs/architecture.md.
ALLOWED = {
    "core": set(),
    "simd": {"core"},
    "eval": {"core", "simd"},
    "search": {"core", "simd", "eval"},
    "cluster": {"core", "simd", "eval", "search"},
    "book": {"core"},
    "data": {"core", "simd", "eval", "search", "book"},
    "tune": {"core", "simd", "eval", "search", "book", "data"},
    "uci": {"core", "simd", "eval", "search", "cluster", "book"},
    "app": {"core", "simd", "eval", "search", "cluster", "book", "data", "tune", "uci"},
    "match": {"core", "book"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    bad, checked = [], 0
    for folder, allowed in ALLOWED.items():
        files = sorted(p for p in (root / folder).rglob("*") if p.suffix in (".h", ".cc", ".inc"))
        if not files:
            bad.append(f"{folder}/: no sources (the table names a folder that is gone)")
        for path in files:
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match or match.group(1) not in ALLOWED:
                    continue
                checked += 1
                target = match.group(1)
                if target != folder and target not in allowed:
                    bad.append(f"{path.relative_to(root)}:{number}: {folder}/ may not include {target}/")
    for line in bad:
        print(line)
    print(f"{checked} includes checked, {len(bad)} against the layers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
