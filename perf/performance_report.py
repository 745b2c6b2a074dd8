#!/usr/bin/env python3
"""Writes docs/performance.md (and its charts) in one run from VBlitz's own JSON results:
`vblitz sweep` (bench for every kernel setting and SIMD target, classic and network evaluation),
`vblitz bench` and `vblitz speedtest` for 1..N threads, Stockfish 15.1's and Ethereal 12's
`bench` nodes per second when installed, and perft against Stockfish; medians of interleaved
runs on this machine. Every JSON result is kept in --json-dir, which perf/machines_report.py
reads (with the directories of other machines) to compare machines.

usage: python3 perf/performance_report.py [--build build/release] [--runs 3] [--depth 12]
                                          [--speedtest-seconds 150] [--ttd-depth 19] [--json-dir DIR]
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels_report  # noqa: E402  (write_svg)
import thread_scaling  # noqa: E402  (markers, svg)
import time_to_depth  # noqa: E402  (measure)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = {"Stockfish 15.1": ("/usr/games/stockfish", r"Nodes/second\s*:\s*(\d+)"),
         "Ethereal 12": ("/usr/games/ethereal-chess", r"NPS\s*:\s*(\d+)")}


def peer_nps(binary, pattern):
    out = subprocess.run([binary, "bench"], check=True, capture_output=True, text=True)
    return int(re.search(pattern, out.stdout + out.stderr).group(1))


def result(binary, args, path):
    """Runs `vblitz ARGS --json PATH` and returns the JSON document."""
    subprocess.run([binary] + args + ["--json", path], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(path) as f:
        return json.load(f)


def bar_svg(rows, path, title):
    """Horizontal bars of nodes per second, one per row (label, value)."""
    left, width, bar = 230, 380, 18
    top = max(v for _, v in rows)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" height="{40 + len(rows) * (bar + 6)}" '
           'font-family="sans-serif" font-size="11">', f'<text x="4" y="16" font-size="13">{title}</text>']
    for i, (label, value) in enumerate(rows):
        y = 28 + i * (bar + 6)
        w = value / top * width
        out.append(f'<text x="4" y="{y + 13}">{label}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="#1f77b4"/>')
        out.append(f'<text x="{left + w + 4:.1f}" y="{y + 13}">{value / 1e6:.2f} M</text>')
    kernels_report.write_svg(out, path)


def sweep_table(doc):
    runs = doc["sweep"]["runs"]
    lines = ["| Kernels | SimdTarget | nodes | nodes/second (median) | vs scalar |", "|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| {r['kernels']} | {r['simd_target']} | {r['nodes'][0]} | {r['median_nodes_per_second']} | "
                     f"{r['ratio_to_scalar']:.2f}x |")
    same = "the same node count in every run" if doc["sweep"].get("signatures_match") else "DIFFERENT node counts"
    return lines + ["", f"`{doc['settings']['eval_mode']}` evaluation: {same}."]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--speedtest-seconds", type=int, default=150)
    parser.add_argument("--ttd-depth", type=int, default=19, help="time-to-depth depth (perf/time_to_depth.py)")
    parser.add_argument("--json-dir", default=os.path.join(ROOT, "build", "results"))
    args = parser.parse_args()
    binary = os.path.join(args.build, "vblitz")
    os.makedirs(args.json_dir, exist_ok=True)
    out = lambda name: os.path.join(args.json_dir, name)

    sweeps = {mode: result(binary, ["--eval-mode", mode, "sweep", "--rounds", str(args.runs), "--depth",
                                    str(args.depth)], out(f"sweep-bench-{mode}.json"))
              for mode in ("classic", "network")}

    cpus = os.cpu_count() or 1
    threads = list(range(1, cpus + 1))
    bench, speed = {t: [] for t in threads}, {t: [] for t in threads}
    for run in range(args.runs):
        for t in threads:
            bench[t].append(result(binary, ["bench", str(args.depth), str(t)], out(f"bench-t{t}-r{run + 1}.json"))["bench"])
        for t in threads:
            speed[t].append(result(binary, ["speedtest", str(t), str(64 * t), str(args.speedtest_seconds)],
                                   out(f"speedtest-t{t}-r{run + 1}.json"))["speedtest"])
    b_nps = {t: statistics.median(b["nodes_per_second"] for b in bench[t]) for t in threads}
    b_ms = {t: statistics.median(b["time_ms"] for b in bench[t]) for t in threads}
    s_nps = {t: statistics.median(s["nodes_per_second"] for s in speed[t]) for t in threads}

    peers = {}
    for name, (path, pattern) in PEERS.items():
        if os.access(path, os.X_OK):
            peers[name] = statistics.median(peer_nps(path, pattern) for _ in range(args.runs))

    ttd = None
    if len(threads) > 1:
        fens = time_to_depth.load_fens(os.path.join(ROOT, "perf", "data", "openings.epd"), 100)
        speedups, totals, _ = time_to_depth.measure([binary], fens, args.ttd_depth, threads[-1])
        ttd = (len(fens), time_to_depth.quartiles(speedups[0]), totals[0][0] / totals[0][1])

    perft = subprocess.run(["bash", os.path.join(ROOT, "perf", "perft_vs_stockfish.sh"), str(args.runs), binary],
                           capture_output=True, text=True).stdout.strip()
    perft_threads = {t: [] for t in threads}
    for _ in range(args.runs):
        for t in threads:
            out = subprocess.run([binary, "perft", "7", "--threads", str(t)], check=True, capture_output=True,
                                 text=True).stdout
            perft_threads[t].append(int(re.search(r"Nodes/second: (\d+)", out).group(1)))
    p_nps = {t: statistics.median(v) for t, v in perft_threads.items()}

    doc = sweeps["classic"]
    machine, build = doc["machine"], doc["build"]
    date = datetime.date.today().isoformat()
    lines = ["# Performance", "",
             f"Generated by `python3 perf/performance_report.py --runs {args.runs}` on {date}: {machine['cpu_model']}, "
             f"{machine['hardware_threads']} hardware threads, SIMD targets {' '.join(machine['simd_targets'])}; "
             f"{build['compiler']}, `{build['flags']}`, commit {build['commit']}. Shared, noisy machine: medians of "
             "interleaved runs; compare ratios within this page, not across pages. The JSON results behind every "
             f"figure are in `{os.path.relpath(args.json_dir, ROOT)}` (schema `docs/result.schema.json`).", ""]
    for mode in ("classic", "network"):
        lines += [f"## bench (depth {args.depth}, 1 thread), {mode} evaluation: kernels and SIMD targets", "",
                  f"`vblitz --eval-mode {mode} sweep --rounds {args.runs} --depth {args.depth}`:", ""]
        lines += sweep_table(sweeps[mode]) + [""]
    lines += ["![bench nodes per second](bench.svg)", "",
              "## Threads (Lazy SMP)", "", thread_scaling.BEGIN, "",
              f"`vblitz bench {args.depth} T`:", "",
              "| threads | nodes/second | nps speed-up | time-to-depth speed-up |", "|---|---|---|---|"]
    for t in threads:
        lines.append(f"| {t} | {b_nps[t]:.0f} | {b_nps[t] / b_nps[1]:.2f}x | {b_ms[1] / b_ms[t]:.2f}x |")
    lines += ["", "![thread scaling](threads.svg)", "", thread_scaling.END, ""]
    if ttd:
        count, (lo, mid, hi), summed = ttd
        lines += ["The bench's time is dominated by a few long positions. Per position, `python3 "
                  f"perf/time_to_depth.py build/release/vblitz --count {count} --depth {args.ttd_depth} --threads "
                  f"{threads[-1]}` (the first {count} positions of perf/data/openings.epd, a fresh table each time, "
                  f"one and {threads[-1]} threads interleaved) gives a median time-to-depth speed-up of {mid:.2f}x "
                  f"(quartiles {lo:.2f}-{hi:.2f}; summed times {summed:.2f}x). On a shared machine the figure moves "
                  "by about 0.1 from run to run.", ""]
    lines += [
              "## speedtest: the whole machine as in play", "",
              f"`vblitz speedtest T {64}xT {args.speedtest_seconds}` (419 positions of four games under a clock; "
              "each run's nodes per second, then the median and the spread (max - min) / median; the same for "
              "nodes per CPU-second of the search threads, the figure to quote on a shared machine):", "",
              "| threads | runs (nodes/second) | median | spread | nodes/CPU-second (median) | its spread | speed-up | "
              "mean depth |", "|---|---|---|---|---|---|---|---|"]
    for t in threads:
        values = [s["nodes_per_second"] for s in speed[t]]
        spread = (max(values) - min(values)) / s_nps[t] * 100
        depth = statistics.median(s["mean_depth"] for s in speed[t])
        cpu = [s["nodes_per_cpu_second"] for s in speed[t]]
        cpu_med = statistics.median(cpu)
        cpu_spread = (max(cpu) - min(cpu)) / cpu_med * 100
        lines.append(f"| {t} | {', '.join(str(v) for v in values)} | {s_nps[t]:.0f} | {spread:.1f}% | "
                     f"{cpu_med:.0f} | {cpu_spread:.1f}% | {s_nps[t] / s_nps[1]:.2f}x | {depth:.1f} |")
    lines += ["", "## Other engines' bench (their own positions and depths, 1 thread)", ""]
    vector = next(r for r in sweeps["classic"]["sweep"]["runs"] if r["kernels"] == "vector")
    if peers:
        lines += ["| engine | nodes/second |", "|---|---|"]
        lines.append(f"| VBlitz (bench {args.depth}, vector kernels) | {vector['median_nodes_per_second']} |")
        for name, rate in peers.items():
            lines.append(f"| {name} | {rate:.0f} |")
        lines += ["", "Each engine's `bench` searches its own positions with its own evaluation, so this compares",
                  "throughput only, not search efficiency."]
    else:
        lines.append("Neither Stockfish nor Ethereal is installed (`apt-get install stockfish ethereal-chess`).")
    lines += ["", "## Move generation: perft against Stockfish 15.1", "",
              f"`perf/perft_vs_stockfish.sh {args.runs}` (one thread each; the last ply counted, not generated):", "",
              perft, "", "### perft on all cores", "", "`vblitz perft 7 --threads T` (start position):", "",
              "| threads | nodes/second (runs) | median | speed-up |", "|---|---|---|---|"]
    for t in threads:
        lines.append(f"| {t} | {', '.join(str(v) for v in perft_threads[t])} | {p_nps[t]:.0f} | "
                     f"{p_nps[t] / p_nps[1]:.2f}x |")
    lines.append("")
    with open(os.path.join(ROOT, "docs", "performance.md"), "w") as f:
        f.write("\n".join(lines))
    rows = [(f"{mode} {r['kernels']} {r['simd_target']}", r["median_nodes_per_second"])
            for mode in ("classic", "network") for r in sweeps[mode]["sweep"]["runs"] if r["kernels"] != "all-vector"]
    bar_svg(rows + [(name, rate) for name, rate in peers.items()], os.path.join(ROOT, "docs", "bench.svg"),
            f"bench nodes per second, 1 thread ({date})")
    thread_scaling.svg([(t, b_nps[t], b_nps[t] / b_nps[1], b_ms[1] / b_ms[t]) for t in threads],
                       os.path.join(ROOT, "docs", "threads.svg"))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
