#!/usr/bin/env python3
"""Writes docs/kernels.md and docs/kernels.svg: every SIMD kernel's scalar twin against each
compiled Highway target (Google Benchmark, ns per operation, medians), and whole-engine perft
speed for each Kernels setting and SIMD target, all measured in this one run.

usage: python3 perf/kernels_report.py [--build build/release] [--runs 5] [--bench-depth 12] [--json FILE]
  --json FILE  reuse a benchmark JSON written earlier by vblitz_kernels --benchmark_out
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        name = re.search(r"model name\s*:\s*(.*)", text).group(1).strip()
        flags = set(re.search(r"flags\s*:\s*(.*)", text).group(1).split())
        simd = [f for f in ("sse4_2", "avx2", "bmi2", "avx512f", "avx512vbmi2", "avx512_vpopcntdq") if f in flags]
        return f"{name} ({', '.join(simd)}), {os.cpu_count()} cores"
    except (OSError, AttributeError):
        return platform.processor() or "unknown CPU"


def commit():
    """The checkout's commit, so the signatures this page quotes are labelled with it."""
    done = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=7", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def compiler(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            cxx = re.search(r"CMAKE_CXX_COMPILER:\w+=(.*)", f.read()).group(1)
        return run([cxx, "--version"]).splitlines()[0]
    except (OSError, AttributeError, subprocess.CalledProcessError):
        return "unknown compiler"


def highway_version():
    try:
        # One line per installed architecture (amd64, arm64 for the cross build): the first one.
        return "Highway " + run(["dpkg-query", "-W", "-f=${Version}\\n", "libhwy-dev"]).split()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "Highway (version unknown)"


def kernel_results(build, json_path):
    if not json_path:
        json_path = os.path.join(build, "kernels.json")
        subprocess.run([os.path.join(build, "perf", "vblitz_kernels"), "--benchmark_min_time=0.2",
                        "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true",
                        f"--benchmark_out={json_path}", "--benchmark_out_format=json"],
                       check=True, stdout=subprocess.DEVNULL)
    with open(json_path) as f:
        data = json.load(f)
    table = {}  # (kernel, case) -> {impl: ns}
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") != "median":
            continue
        kernel, case, impl = b["run_name"].split("/")
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        table.setdefault((kernel, case), {})[impl] = b["real_time"] * scale
    return table, data.get("context", {}).get("simd_targets", "")


def perft_rates(build, runs, settings):
    """Median perft 6 (start position) Mnps per (kernels, target) setting, runs interleaved."""
    binary = os.path.join(build, "vblitz")
    rates = {s: [] for s in settings}
    for _ in range(runs):
        for kernels, target in settings:
            out = run([binary, "--kernels", kernels, "--simd-target", target, "perft", "6"])
            rates[(kernels, target)].append(int(re.search(r"Nodes/second: (\d+)", out).group(1)) / 1e6)
    return {s: statistics.median(v) for s, v in rates.items()}


def bench_rates(build, runs, settings, depth):
    """Median `bench` nodes/second and the node count per (kernels, target, layout), interleaved."""
    binary = os.path.join(build, "vblitz")
    rates, nodes = {s: [] for s in settings}, {}
    for _ in range(runs):
        for kernels, target, layout in settings:
            commands = (f"setoption name Kernels value {kernels}\nsetoption name SimdTarget value {target}\n"
                        f"setoption name TTLayout value {layout}\nbench {depth}\n")  # no quit: it would stop bench
            out = subprocess.run([binary], input=commands, check=True, capture_output=True, text=True).stdout
            rates[(kernels, target, layout)].append(int(re.search(r"Nodes/second: (\d+)", out).group(1)))
            nodes[(kernels, target, layout)] = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    return {s: statistics.median(v) for s, v in rates.items()}, nodes


def write_svg(elements, path):
    """Closes the list of SVG elements (opened by an <svg> element) and writes it to path."""
    with open(path, "w") as f:
        f.write("\n".join(elements + ["</svg>"]) + "\n")


def svg_chart(table, impls, path):
    """Horizontal bars: speed-up of each implementation over the twin, per kernel case."""
    rows = sorted(table)
    bar, gap, left, width = 9, 14, 260, 420
    colors = ["#888888", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"]
    best = max(table[r]["twin"] / table[r][i] for r in rows for i in impls if i in table[r])
    scale = width / max(best, 1.0)
    height = 40 + len(rows) * (len(impls) * bar + gap) + 20 * len(impls)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" height="{height}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13">speed-up over the scalar twin (higher is faster)</text>']
    y = 30
    for r in rows:
        out.append(f'<text x="4" y="{y + len(impls) * bar / 2 + 4}">{r[0]} / {r[1]}</text>')
        for k, impl in enumerate(impls):
            if impl not in table[r]:
                continue
            s = table[r]["twin"] / table[r][impl]
            out.append(f'<rect x="{left}" y="{y}" width="{s * scale:.1f}" height="{bar - 1}" fill="{colors[k % 8]}"/>')
            out.append(f'<text x="{left + s * scale + 3:.1f}" y="{y + bar - 1}" font-size="9">{s:.2f}</text>')
            y += bar
        y += gap
    out.append(f'<line x1="{left + scale:.1f}" y1="26" x2="{left + scale:.1f}" y2="{y}" stroke="black" '
               'stroke-dasharray="3,3"/>')
    for k, impl in enumerate(impls):
        out.append(f'<rect x="{left}" y="{y + 20 * k}" width="12" height="10" fill="{colors[k % 8]}"/>')
        out.append(f'<text x="{left + 18}" y="{y + 20 * k + 9}">{impl}</text>')
    write_svg(out, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--bench-depth", type=int, default=12)
    args = parser.parse_args()

    table, context = kernel_results(args.build, args.json)
    targets = [t for t in next(iter(table.values())) if t != "twin"]
    order = {"avx3_dl": 0, "avx3": 1, "avx2": 2, "sse4": 3, "ssse3": 4, "scalar": 9}
    targets.sort(key=lambda t: order.get(t, 5))
    impls = ["twin"] + targets
    best = targets[0]

    settings = [("scalar", "best"), ("vector", "best")] + [("all-vector", t) for t in targets]
    rates = perft_rates(args.build, args.runs, settings)
    bench_settings = ([("scalar", "best", "bucket"), ("vector", "best", "bucket"), ("all-vector", "best", "bucket")] +
                      [("vector", t, "bucket") for t in targets[1:]] +
                      [("scalar", "best", "cray"), ("vector", "best", "cray"), ("vector", "avx2", "cray")])
    bench, bench_nodes = bench_rates(args.build, args.runs, bench_settings, args.bench_depth)

    lines = ["# SIMD kernels: scalar twins against Highway targets", "",
             f"Generated by `python3 perf/kernels_report.py` on {datetime.date.today().isoformat()}: "
             f"{cpu_name()}; {compiler(args.build)}; {highway_version()}; commit {commit()}.",
             f"Targets compiled and supported here, best first: {', '.join(targets)}. "
             "`twin` is the plain scalar twin; `scalar` is Highway's one-lane fallback target.", "",
             "Each kernel's Highway code is written once and compiled for every target; the engine",
             "picks one at run time (`SimdTarget`, `--simd-target`) or the scalar twins (`Kernels`,",
             "`--kernels`). Every target agrees with the twin bit for bit (tests/simd).", "",
             "## Kernels in isolation (Google Benchmark, ns per operation, median of 3)", "",
             "| kernel | case | " + " | ".join(impls) + f" | {best} vs twin |",
             "|---|---|" + "---|" * (len(impls) + 1)]
    losers = []
    for key in sorted(table):
        row = table[key]
        speedup = row["twin"] / row[best]
        if speedup < 1.0:
            losers.append((key, row["twin"], row[best]))
        cells = " | ".join(f"{row[i]:.2f}" if i in row else "-" for i in impls)
        lines.append(f"| {key[0]} | {key[1]} | {cells} | {speedup:.2f}x |")
    lines += ["", "![speed-up over the scalar twin](kernels.svg)", "",
              "## Inside the engine: perft 6 from the start position (Mnps, median of "
              f"{args.runs}, settings interleaved)", "",
              "Move generation uses the serialization kernel and, at the last ply, the move-counting",
              "kernel (`Kernels vector` runs the counting kernel on avx3_dl only: docs/simd.md);",
              "the other kernels serve the search and evaluation.", "",
              "| Kernels | SimdTarget | Mnps | vs scalar |", "|---|---|---|---|"]
    base = rates[("scalar", "best")]
    for (kernels, target), rate in rates.items():
        lines.append(f"| {kernels} | {target} | {rate:.1f} | {rate / base:.2f}x |")
    lines += ["", f"## Whole engine: `bench {args.bench_depth}` (nodes/second, median of {args.runs}, settings "
              "interleaved, 1 thread)", "",
              "The search probes the table through the probe kernel and evaluates through the table-scan",
              "kernel; the node count (the signature) must be equal within each layout.", "",
              "| Kernels | SimdTarget | TTLayout | nodes | nodes/second | vs scalar bucket |", "|---|---|---|---|---|---|"]
    bench_base = bench[("scalar", "best", "bucket")]
    for key, rate in bench.items():
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {bench_nodes[key]} | {rate:.0f} | {rate / bench_base:.2f}x |")
    lines += ["", "## Where the vector kernel loses", ""]
    if losers:
        for (kernel, case), twin, vec in losers:
            lines.append(f"- `{kernel}/{case}`: twin {twin:.2f} ns, {best} {vec:.2f} ns.")
    else:
        lines.append(f"- Nowhere in isolation on {best}.")
    engine_ratio = rates[("all-vector", best)] / base
    if engine_ratio < 1.0:
        lines.append(f"- Inside move generation: every Highway kernel on {best} (`all-vector`) runs perft at "
                     f"{engine_ratio:.2f}x the twins' speed. Serialization is called once per piece on small "
                     "target sets, and the call costs more than the pop-lsb loop it replaces, so the "
                     "default keeps the twin there.")
    lines += ["", "The engine's default (`Kernels vector`) runs the Highway version only of the kernels",
              "that win; `Kernels all-vector` forces every Highway version for comparisons. The",
              f"current defaults: {context}.", ""]
    with open(os.path.join(ROOT, "docs", "kernels.md"), "w") as f:
        f.write("\n".join(lines))
    svg_chart(table, impls, os.path.join(ROOT, "docs", "kernels.svg"))
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
