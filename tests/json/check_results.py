#!/usr/bin/env python3
"""Checks the JSON results of `vblitz bench`, `speedtest` and `sweep` (--json FILE) against
docs/result.schema.json with a JSON Schema validator, and their figures against the text the
same run printed. Also checks that the schema rejects a document with a field missing or
renamed, and the command-line errors (exit status 2 for bad arguments, 1 for an unwritable file).

usage: check_results.py VBLITZ SCHEMA
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

BINARY, SCHEMA_PATH = sys.argv[1], sys.argv[2]
SCHEMA = json.load(open(SCHEMA_PATH))
jsonschema.Draft7Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def run(args, out_dir, name):
    path = os.path.join(out_dir, name)
    done = subprocess.run([BINARY] + args + ["--json", path], capture_output=True, text=True, timeout=600)
    check(done.returncode == 0, f"{args}: exit status {done.returncode}: {done.stderr}")
    doc = json.load(open(path))
    errors = [e.message for e in VALIDATOR.iter_errors(doc)]
    check(not errors, f"{args}: schema errors {errors}")
    return doc, done.stdout


def printed(text, label):
    return int(re.search(re.escape(label) + r":\s*(\d+)", text).group(1))


def rejected(doc, what):
    check(list(VALIDATOR.iter_errors(doc)), f"the schema accepts a document with {what}")


with tempfile.TemporaryDirectory() as out_dir:
    bench, text = run(["--kernels", "scalar", "bench", "5"], out_dir, "bench.json")
    check(bench["kind"] == "bench", "bench kind")
    check(bench["bench"]["nodes"] == printed(text, "Nodes searched"), "bench nodes equal the printed count")
    check(bench["bench"]["depth"] == 5 and bench["bench"]["complete"], "bench depth and completeness")
    check(bench["settings"]["kernels"] == "scalar", "bench settings name the kernels in force")
    check(bench["settings"]["threads"] == 1, "bench threads")
    check(bench["machine"]["simd_targets"], "machine targets")
    topo = bench["machine"]["topology"]
    check(1 <= topo["packages"] <= topo["cores"] <= topo["hardware_threads"], "topology counts nest")

    speed, text = run(["--eval-mode", "network", "speedtest", "1", "4", "2"], out_dir, "speedtest.json")
    check(f"Topology: {topo['packages']} package" in text, "speedtest prints the topology")
    s = speed["speedtest"]
    check(s["nodes"] == printed(text, "Nodes searched"), "speedtest nodes equal the printed count")
    check(s["positions"] == printed(text, "Positions searched") and s["games"] == 4, "speedtest positions")
    check(speed["settings"]["eval_mode"] == "network" and speed["settings"]["network"], "speedtest network")
    check(speed["settings"]["hash_mb"] == 4 and s["seconds"] == 2, "speedtest settings")

    sweep, text = run(["sweep", "--depth", "4", "--rounds", "2"], out_dir, "sweep.json")
    runs = sweep["sweep"]["runs"]
    check(len(runs) == 1 + 2 * len(sweep["machine"]["simd_targets"]), "a sweep row per kernel setting and target")
    check(runs[0]["kernels"] == "scalar" and runs[0]["ratio_to_scalar"] == 1.0, "the first row is the reference")
    check(all(len(r["nodes"]) == 2 for r in runs), "a figure per round")
    check(sweep["sweep"]["signatures_match"] and len({n for r in runs for n in r["nodes"]}) == 1,
          "one bench signature in every sweep run")

    missing = copy.deepcopy(bench)
    del missing["bench"]["nodes"]
    rejected(missing, "bench.nodes missing")
    renamed = copy.deepcopy(speed)
    renamed["speedtest"]["nps"] = renamed["speedtest"].pop("nodes_per_second")
    rejected(renamed, "speedtest.nodes_per_second renamed")
    wrong_kind = copy.deepcopy(sweep)
    wrong_kind["kind"] = "bench"
    rejected(wrong_kind, "kind bench without a bench object")

    for args in (["bench", "0"], ["speedtest", "1", "0"], ["sweep", "--rounds"], ["bench", "--json"]):
        done = subprocess.run([BINARY] + args, capture_output=True, text=True, timeout=60)
        check(done.returncode == 2 and done.stderr and not done.stdout, f"{args}: usage error, exit 2")
    done = subprocess.run([BINARY, "bench", "1", "--json", os.path.join(out_dir, "no", "such", "dir.json")],
                          capture_output=True, text=True, timeout=60)
    check(done.returncode == 1 and "cannot write" in done.stderr, "an unwritable --json file: exit 1")

print("json results:", "FAILED" if failures else "passed")
sys.exit(1 if failures else 0)
