#!/usr/bin/env python3
"""Every network in the repository keeps the record of the data it learned from (ctest
`network_recipes`).

A network in eval/networks/ (the default) or eval/candidates/ is trained from self-play data
that lives outside the repository and has been lost with machines before. So each one has
eval/recipes/NAME/ with:
  - recipe.sh: the commands that train it again (executable; it names the network's file);
  - GENERATION.sha256 for each generation it learned from (recipe.sh's `generations=(...)` line
    names them), in `sha256sum` form (a 64-digit sum, two spaces, a shard's file name), one line
    a shard, no shard twice;
  - GENERATION.run: the generator's run file for that generation (its settings).
The data may be gone; these files say which shards, bit for bit, a network needs.

usage: check_recipes.py REPOSITORY_ROOT
"""
import os
import re
import sys

LINE = re.compile(r"^[0-9a-f]{64}  [^/\s]+$")


def problems_of(root, network):
    name = os.path.splitext(os.path.basename(network))[0]
    folder = os.path.join(root, "eval", "recipes", name)
    where = os.path.relpath(folder, root)
    if not os.path.isdir(folder):
        return [f"{name}: no {where}/ (its recipe and the sha256 sums of its data)"]
    found = []
    script = os.path.join(folder, "recipe.sh")
    if not os.path.isfile(script) or not os.access(script, os.X_OK):
        return [f"{name}: no executable {where}/recipe.sh"]
    text = open(script).read()
    if os.path.basename(network) not in text:
        found.append(f"{name}: {where}/recipe.sh does not name {os.path.basename(network)}")
    declared = re.search(r"^generations=\(([^)]*)\)$", text, re.M)
    if not declared:
        return found + [f"{name}: {where}/recipe.sh has no `generations=(...)` line"]
    sums = sorted(f for f in os.listdir(folder) if f.endswith(".sha256"))
    if not sums:
        found.append(f"{name}: no GENERATION.sha256 in {where}/")
    for generation in declared.group(1).split():
        if generation + ".sha256" not in sums:
            found.append(f"{name}: recipe.sh reads {generation}, and {where}/{generation}.sha256 is missing")
    for f in sums:
        generation = f[: -len(".sha256")]
        lines = open(os.path.join(folder, f)).read().splitlines()
        if not lines:
            found.append(f"{name}: {where}/{f} is empty")
        bad = [i + 1 for i, line in enumerate(lines) if not LINE.match(line)]
        if bad:
            found.append(f"{name}: {where}/{f} line {bad[0]} is not `SUM  FILE`")
        files = [line.split("  ", 1)[-1] for line in lines]
        if len(set(files)) != len(files):
            found.append(f"{name}: {where}/{f} names a shard twice")
        if generation not in declared.group(1).split():
            found.append(f"{name}: {where}/recipe.sh does not read {generation}")
        if not os.path.isfile(os.path.join(folder, generation + ".run")):
            found.append(f"{name}: no {where}/{generation}.run (the generator's settings)")
    return found


def main():
    root = sys.argv[1]
    networks = []
    for sub in ("networks", "candidates"):
        d = os.path.join(root, "eval", sub)
        networks += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".nnue")]
    problems = [p for n in networks for p in problems_of(root, n)]
    for p in problems:
        print(p)
    print(f"recipes: {len(networks)} networks, {'every one recorded' if not problems else 'FAIL'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
