#!/usr/bin/env python3
"""Measures Lazy SMP scaling with `vblitz bench`: nodes per second, their speed-up, and the
time-to-depth speed-up on the bench positions, for 1, 2, ... N threads (medians of interleaved
runs). Writes the table into docs/performance.md (between the threads markers) and the chart
to docs/threads.svg.

usage: python3 perf/thread_scaling.py [--build build/release] [--threads 1,2] [--runs 5] [--depth 12]
"""
import argparse
import datetime
import os
import re
import statistics
import subprocess

import kernels_report  # write_svg

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- threads:begin -->", "<!-- threads:end -->"


def bench(binary, depth, threads):
    out = subprocess.run([binary, "bench", str(depth), str(threads)], check=True, capture_output=True,
                         text=True).stdout
    nps = int(re.search(r"Nodes/second: (\d+)", out).group(1))
    ms = int(re.search(r"Total time \(ms\): (\d+)", out).group(1))
    return nps, ms


def svg(rows, path):
    width, height, left, bottom = 420, 240, 50, 200
    top = max(max(r[2], r[3]) for r in rows) * 1.1
    maxt = max(r[0] for r in rows)
    x = lambda t: left + (t - 1) / max(maxt - 1, 1) * (width - left - 20)
    y = lambda v: bottom - v / top * (bottom - 20)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 20}" '
             'font-family="sans-serif" font-size="11">',
             f'<line x1="{left}" y1="{bottom}" x2="{width - 10}" y2="{bottom}" stroke="black"/>',
             f'<line x1="{left}" y1="{bottom}" x2="{left}" y2="10" stroke="black"/>',
             f'<text x="{left}" y="{height + 10}">threads</text>']
    for t, _, _, _ in rows:
        parts.append(f'<text x="{x(t) - 3:.0f}" y="{bottom + 14}">{t}</text>')
    for col, color, label in ((2, "#1f77b4", "nodes/second speed-up"), (3, "#ff7f0e", "time-to-depth speed-up")):
        pts = " ".join(f"{x(r[0]):.1f},{y(r[col]):.1f}" for r in rows)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        for r in rows:
            parts.append(f'<circle cx="{x(r[0]):.1f}" cy="{y(r[col]):.1f}" r="3" fill="{color}"/>')
        parts.append(f'<text x="{left + 10}" y="{20 + 14 * (col - 2)}" fill="{color}">{label}</text>')
    parts.append(f'<line x1="{x(1):.1f}" y1="{y(1):.1f}" x2="{x(maxt):.1f}" y2="{y(maxt):.1f}" '
                 'stroke="gray" stroke-dasharray="3,3"/>')
    kernels_report.write_svg(parts, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--threads", default=",".join(str(t) for t in range(1, (os.cpu_count() or 1) + 1)))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--depth", type=int, default=12)
    args = parser.parse_args()
    binary = os.path.join(args.build, "vblitz")
    threads = [int(t) for t in args.threads.split(",")]
    samples = {t: [] for t in threads}
    for _ in range(args.runs):
        for t in threads:
            samples[t].append(bench(binary, args.depth, t))
    nps = {t: statistics.median(s[0] for s in samples[t]) for t in threads}
    ms = {t: statistics.median(s[1] for s in samples[t]) for t in threads}
    rows = [(t, nps[t], nps[t] / nps[threads[0]], ms[threads[0]] / ms[t]) for t in threads]
    lines = [BEGIN, "",
             f"`python3 perf/thread_scaling.py --threads {args.threads} --runs {args.runs} --depth {args.depth}` "
             f"on {os.cpu_count()} cores, {datetime.date.today().isoformat()} (medians, runs interleaved):", "",
             "| threads | nodes/second | nps speed-up | time-to-depth speed-up |", "|---|---|---|---|"]
    for t, n, s, d in rows:
        lines.append(f"| {t} | {n:.0f} | {s:.2f}x | {d:.2f}x |")
    lines += ["", "![thread scaling](threads.svg)", "", END]
    path = os.path.join(ROOT, "docs", "performance.md")
    with open(path) as f:
        text = f.read()
    block = "\n".join(lines)
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text += "\n## Threads (Lazy SMP)\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)
    svg(rows, os.path.join(ROOT, "docs", "threads.svg"))
    print(block)


if __name__ == "__main__":
    main()
