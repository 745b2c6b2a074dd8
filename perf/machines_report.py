#!/usr/bin/env python3
"""Compares machines from VBlitz's JSON results (`vblitz bench|speedtest|sweep --json FILE`,
schema docs/result.schema.json): reads every *.json under the directories given (one or more per
machine), prints a Markdown table, and writes an SVG chart of nodes per second per thread,
one bar per machine, test, SIMD target and kernel setting (medians where a setting ran
several times).

usage: python3 perf/machines_report.py DIR [DIR ...] [--svg machines.svg]
"""
import argparse
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels_report  # noqa: E402  (write_svg)


def rows_of(doc):
    """(machine, test, eval, threads, target, kernels, nodes/s per thread) for one result."""
    m, s = doc["machine"], doc["settings"]
    machine = f"{m['cpu_model']} ({m['hardware_threads']}T)"
    if doc["kind"] == "sweep":
        w = doc["sweep"]
        for r in w["runs"]:
            target = r["simd_target"] if r["kernels"] != "scalar" else "-"
            test = f"bench {w['depth']}" if w["test"] == "bench" else f"speedtest {w['seconds']}s"
            yield machine, test, s["eval_mode"], w["threads"], target, r["kernels"], \
                r["median_nodes_per_second"] / w["threads"]
    else:
        figures = doc[doc["kind"]]
        test = f"bench {figures['depth']}" if doc["kind"] == "bench" else f"speedtest {figures['seconds']}s"
        yield machine, test, s["eval_mode"], s["threads"], s["active_target"], s["kernels"], \
            figures["nodes_per_second"] / s["threads"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--svg", default="machines.svg")
    args = parser.parse_args()
    groups = {}
    for d in args.dirs:
        for path in sorted(glob.glob(os.path.join(d, "**", "*.json"), recursive=True)):
            with open(path) as f:
                doc = json.load(f)
            if not isinstance(doc, dict) or doc.get("schema") not in ("vblitz-result/1", "vblitz-result/2"):
                continue
            for row in rows_of(doc):
                groups.setdefault(row[:6], []).append(row[6])
    if not groups:
        sys.exit("no vblitz-result files found")
    table = sorted(((key, statistics.median(v), len(v)) for key, v in groups.items()), key=lambda r: r[0])
    print("| machine | test | eval | threads | SIMD target | kernels | nodes/s per thread (median) | results |")
    print("|---|---|---|---|---|---|---|---|")
    for key, value, count in table:
        print("| " + " | ".join(str(k) for k in key) + f" | {value:.0f} | {count} |")

    left, width, bar = 420, 360, 16
    top = max(v for _, v, _ in table)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" '
           f'height="{40 + len(table) * (bar + 5)}" font-family="sans-serif" font-size="11">',
           '<text x="4" y="16" font-size="13">nodes per second per thread, by machine, test and SIMD target</text>']
    colors = {"scalar": "#7f7f7f", "vector": "#1f77b4", "all-vector": "#ff7f0e"}
    for i, (key, value, _) in enumerate(table):
        y = 28 + i * (bar + 5)
        w = value / top * width
        label = f"{key[0][:34]} · {key[1]} {key[2]} {key[3]}T · {key[4]} · {key[5]}"
        out.append(f'<text x="4" y="{y + 12}">{label}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colors.get(key[5], "#2ca02c")}"/>')
        out.append(f'<text x="{left + w + 4:.1f}" y="{y + 12}">{value / 1e6:.2f} M</text>')
    kernels_report.write_svg(out, args.svg)
    print(f"\nchart: {args.svg}")


if __name__ == "__main__":
    main()
