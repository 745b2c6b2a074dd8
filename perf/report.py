#!/usr/bin/env python3
"""One self-contained HTML page from VBlitz's JSON results (`vblitz bench|speedtest|sweep --json`,
docs/result.schema.json), machines side by side: what each machine is (CPU, topology, build),
nodes per second against threads with the ideal-scaling line, the vector/scalar ratio per SIMD
target, the speedtest's spread, and perf/scaling.sh's runs (scaling.json: nodes per second, time
to a depth and self-play positions per second against threads). Inline SVG, no script and
nothing fetched.

Each RESULTS argument is a directory of JSON files (or one file) for one machine, optionally
named: NAME=DIR. Unnamed sets are named by their CPU model and hardware threads.

Every figure on the page is also in a `data-figure` attribute (machine|what|key), so a test can
check the page against the JSON.

usage: python3 perf/report.py RESULTS... --html OUT.html
"""
import argparse
import glob
import html
import json
import os
import statistics
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"]


def load_set(arg):
    """(name, [documents]) for one RESULTS argument."""
    name, _, path = arg.rpartition("=") if "=" in arg else ("", "", arg)
    paths = [path] if os.path.isfile(path) else sorted(glob.glob(os.path.join(path, "**", "*.json"), recursive=True))
    docs = []
    for p in paths:
        with open(p) as f:
            doc = json.load(f)
        if isinstance(doc, dict) and str(doc.get("schema", "")).startswith(("vblitz-result/", "vblitz-scaling/")):
            docs.append(doc)
    if not docs:
        sys.exit(f"report.py: no VBlitz results in {path}")
    if not name:
        m = docs[0]["machine"]
        name = f"{m['cpu_model']} ({m['hardware_threads']} threads)"
    return name, docs


def topology_text(machine):
    t = machine.get("topology")
    if not t:
        return "not recorded (schema 1)"
    parts = [f"{t['packages']} package(s)", f"{t['numa_nodes']} NUMA node(s)"]
    if t["l3_groups"]:
        parts.append(f"{t['l3_groups']} L3 group(s)")
    parts.append(f"{t['cores']} cores, {t['hardware_threads']} hardware threads")
    return ", ".join(parts)


def figures(docs):
    """The page's figures of one machine: nodes/s by (test, threads) as medians of the runs,
    speedtest runs by threads (nodes per wall-clock second, and per CPU-second where the result
    has it), and vector/scalar ratios by (eval, target, kernels)."""
    nps, speed_runs, ratios = {}, {}, {}
    for d in docs:
        if "kind" not in d:  # scaling.json: scaling_rows() reads it
            continue
        kind, s = d["kind"], d["settings"]
        if kind in ("bench", "speedtest"):
            f = d[kind]
            key = (kind, s["eval_mode"], s["threads"])
            nps.setdefault(key, []).append(f["nodes_per_second"])
            if kind == "speedtest":
                speed_runs.setdefault((s["eval_mode"], s["threads"]), []).append(
                    (f["nodes_per_second"], f.get("nodes_per_cpu_second")))
        elif kind == "sweep":
            for r in d["sweep"]["runs"]:
                if r["kernels"] != "scalar":
                    ratios[(s["eval_mode"], r["simd_target"], r["kernels"])] = r["ratio_to_scalar"]
    medians = {k: statistics.median(v) for k, v in nps.items()}
    return medians, speed_runs, ratios


def scaling_runs(docs):
    """perf/scaling.sh's rows of one machine (the newest scaling.json), by thread count."""
    found = sorted((d for d in docs if str(d.get("schema", "")).startswith("vblitz-scaling/")), key=lambda d: d["date"])
    return (found[-1]["settings"], found[-1]["runs"]) if found else (None, [])


def speedup_svg(sets_docs):
    """Each scaling figure's ratio to one thread's against threads (time to depth inverted, so
    higher is better everywhere), with the ideal diagonal dashed."""
    lines = []
    for name, docs in sets_docs:
        _, runs = scaling_runs(docs)
        if not runs or runs[0]["threads"] != 1:
            continue
        first = runs[0]
        for label, value in (("speedtest nodes/s", lambda r: r["speedtest_nodes_per_second"] / first["speedtest_nodes_per_second"]),
                             ("time to depth (1 thread's / this)", lambda r: first["bench_time_ms"] / max(r["bench_time_ms"], 1)),
                             ("datagen positions/s", lambda r: r["datagen_positions_per_second"] / first["datagen_positions_per_second"])):
            lines.append((f"{name}: {label}", COLORS[len(lines) % len(COLORS)], [(r["threads"], value(r)) for r in runs]))
    if not lines:
        return "<p>No scaling runs (perf/scaling.sh).</p>"
    width, height, left, bottom, top_pad = 640, 340, 60, 40, 20
    max_t = max(t for _, _, pts in lines for t, _ in pts)
    max_v = max(max(max(v for _, v in pts) for _, _, pts in lines), max_t)
    sx = lambda t: left + (t - 1) / max(max_t - 1, 1) * (width - left - 20)  # noqa: E731
    sy = lambda v: height - bottom - v / max_v * (height - bottom - top_pad)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 18 * len(lines)}" '
           f'font-family="sans-serif" font-size="11" role="img">',
           f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" stroke="#000"/>',
           f'<line x1="{left}" y1="{top_pad}" x2="{left}" y2="{height - bottom}" stroke="#000"/>',
           f'<text x="{(width + left) / 2}" y="{height - 8}" text-anchor="middle">threads</text>',
           f'<text x="12" y="{top_pad - 6}">x one thread</text>',
           f'<polyline points="{sx(1):.1f},{sy(1):.1f} {sx(max_t):.1f},{sy(max_t):.1f}" fill="none" stroke="#888" '
           'stroke-dasharray="4 3"/>']
    for k in range(5):
        v = max_v * k / 4
        out.append(f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    for t in sorted({t for _, _, pts in lines for t, _ in pts}):
        out.append(f'<text x="{sx(t):.1f}" y="{height - bottom + 14}" text-anchor="middle">{t}</text>')
    for n, (label, color, pts) in enumerate(lines):
        poly = " ".join(f"{sx(t):.1f},{sy(v):.1f}" for t, v in pts)
        out.append(f'<polyline points="{poly}" fill="none" stroke="{color}" stroke-width="2"/>')
        y = height + 14 + 18 * n
        out.append(f'<rect x="{left}" y="{y - 9}" width="12" height="10" fill="{color}"/>')
        out.append(f'<text x="{left + 18}" y="{y}">{html.escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def figure(name, what, key, text):
    return f'<span data-figure="{html.escape(name)}|{what}|{key}">{text}</span>'


def scaling_svg(sets):
    """Nodes per second against threads, one line per machine, test and evaluation, with its
    ideal line (one thread's figure times the threads) dashed."""
    lines = []
    for i, (name, (medians, _, _)) in enumerate(sets):
        for kind in ("speedtest", "bench"):
            for ev in ("network", "classic"):
                pts = sorted((t, v) for (k, e, t), v in medians.items() if k == kind and e == ev)
                if pts:
                    lines.append((f"{name}: {kind}, {ev}", COLORS[len(lines) % len(COLORS)], pts))
    if not lines:
        return "<p>No bench or speedtest results.</p>"
    width, height, left, bottom, top_pad = 640, 340, 70, 40, 20
    max_t = max(t for _, _, pts in lines for t, _ in pts)
    max_v = max(max(v for _, v in pts) for _, _, pts in lines)
    max_v = max(max_v, max(pts[0][1] * max_t / pts[0][0] for _, _, pts in lines if pts[0][0] >= 1))
    sx = lambda t: left + (t - 1) / max(max_t - 1, 1) * (width - left - 20)  # noqa: E731
    sy = lambda v: height - bottom - v / max_v * (height - bottom - top_pad)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 18 * len(lines)}" '
           f'font-family="sans-serif" font-size="11" role="img">',
           f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" stroke="#000"/>',
           f'<line x1="{left}" y1="{top_pad}" x2="{left}" y2="{height - bottom}" stroke="#000"/>',
           f'<text x="{(width + left) / 2}" y="{height - 8}" text-anchor="middle">threads</text>',
           f'<text x="12" y="{top_pad - 6}">nodes/s</text>']
    for k in range(5):
        v = max_v * k / 4
        out.append(f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{v / 1e6:.1f}M</text>')
        out.append(f'<line x1="{left}" y1="{sy(v):.1f}" x2="{width - 10}" y2="{sy(v):.1f}" stroke="#ddd"/>')
    for t in sorted({t for _, _, pts in lines for t, _ in pts}):
        out.append(f'<text x="{sx(t):.1f}" y="{height - bottom + 14}" text-anchor="middle">{t}</text>')
    for n, (label, color, pts) in enumerate(lines):
        t0, v0 = pts[0]
        ideal = f'{sx(t0):.1f},{sy(v0):.1f} {sx(max_t):.1f},{sy(v0 * max_t / t0):.1f}'
        out.append(f'<polyline points="{ideal}" fill="none" stroke="{color}" stroke-dasharray="4 3"/>')
        poly = " ".join(f"{sx(t):.1f},{sy(v):.1f}" for t, v in pts)
        out.append(f'<polyline points="{poly}" fill="none" stroke="{color}" stroke-width="2"/>')
        for t, v in pts:
            out.append(f'<circle cx="{sx(t):.1f}" cy="{sy(v):.1f}" r="3" fill="{color}"/>')
        y = height + 14 + 18 * n
        out.append(f'<rect x="{left}" y="{y - 9}" width="12" height="10" fill="{color}"/>')
        out.append(f'<text x="{left + 18}" y="{y}">{html.escape(label)} (dashed: ideal scaling)</text>')
    out.append("</svg>")
    return "\n".join(out)


def ratio_svg(sets):
    bars = []
    for name, (_, _, ratios) in sets:
        for (ev, target, kernels), r in sorted(ratios.items()):
            bars.append((f"{name}: {ev}, {target}, {kernels}", r))
    if not bars:
        return "<p>No sweep results.</p>"
    left, width, bar = 380, 300, 16
    top = max(r for _, r in bars)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{20 + len(bars) * (bar + 5)}" '
           f'font-family="sans-serif" font-size="11" role="img">']
    for i, (label, r) in enumerate(bars):
        y = 10 + i * (bar + 5)
        w = r / top * width
        out.append(f'<text x="4" y="{y + 12}">{html.escape(label)}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="#1f77b4"/>')
        out.append(f'<text x="{left + w + 4:.1f}" y="{y + 12}">{r:.2f}x</text>')
    x1 = left + 1 / top * width
    out.append(f'<line x1="{x1:.1f}" y1="4" x2="{x1:.1f}" y2="{16 + len(bars) * (bar + 5)}" stroke="#000" '
               'stroke-dasharray="3 3"/>')
    out.append("</svg>")
    return "\n".join(out)


def page(sets_docs):
    sets = [(name, figures(docs)) for name, docs in sets_docs]
    rows = []
    scaling_rows = []
    for name, docs in sets_docs:
        settings, runs = scaling_runs(docs)
        for r in runs:
            t, depth = r["threads"], settings["bench_depth"]
            scaling_rows.append(
                f"<tr><td>{html.escape(name)}</td><td>{t}</td><td>{r['hash_mb']}</td>"
                f"<td>{figure(name, 'scaling_nps', t, r['speedtest_nodes_per_second'])}</td>"
                f"<td>{figure(name, 'scaling_depth_ms', f'{depth}/{t}', r['bench_time_ms'])}</td>"
                f"<td>{figure(name, 'scaling_depth_nodes', f'{depth}/{t}', r['bench_nodes'])}</td>"
                f"<td>{figure(name, 'scaling_datagen', t, r['datagen_positions_per_second'])}</td></tr>")
    for name, docs in sets_docs:
        m, b = docs[0]["machine"], docs[0]["build"]
        rows.append(
            "<tr>" + "".join(f"<td>{c}</td>" for c in [
                html.escape(name), html.escape(m["cpu_model"]), html.escape(topology_text(m)),
                figure(name, "hardware_threads", "", m["hardware_threads"]), f"{m['memory_mb']} MB",
                html.escape(m["os"]), html.escape(" ".join(m["simd_targets"])),
                html.escape(f"{b['version']} {b['commit']}, {b['build_type']}, {b['compiler']}"),
                len(docs)]) + "</tr>")
    nps_rows = []
    for name, (medians, _, _) in sets:
        for (kind, ev, t), v in sorted(medians.items()):
            nps_rows.append(f"<tr><td>{html.escape(name)}</td><td>{kind}</td><td>{ev}</td><td>{t}</td>"
                            f"<td>{figure(name, 'nps', f'{kind}/{ev}/{t}', f'{v:.0f}')}</td></tr>")
    spread_rows = []
    for name, (_, runs, _) in sets:
        for (ev, t), pairs in sorted(runs.items()):
            values = [wall for wall, _ in pairs]
            med = statistics.median(values)
            spread = (max(values) - min(values)) / med * 100 if med else 0
            cpu = [c for _, c in pairs if c is not None]
            cpu_cells = "<td>-</td><td>-</td>"
            if len(cpu) == len(pairs):
                cpu_med = statistics.median(cpu)
                cpu_spread = (max(cpu) - min(cpu)) / cpu_med * 100 if cpu_med else 0
                cpu_cells = (f"<td>{figure(name, 'cpu_nps', f'{ev}/{t}', f'{cpu_med:.0f}')}</td>"
                             f"<td>{figure(name, 'cpu_spread', f'{ev}/{t}', f'{cpu_spread:.1f}%')}</td>")
            spread_rows.append(f"<tr><td>{html.escape(name)}</td><td>{ev}</td><td>{t}</td><td>{len(values)}</td>"
                               f"<td>{min(values)}</td><td>{med:.0f}</td><td>{max(values)}</td>"
                               f"<td>{figure(name, 'spread', f'{ev}/{t}', f'{spread:.1f}%')}</td>{cpu_cells}</tr>")
    ratio_rows = []
    for name, (_, _, ratios) in sets:
        for (ev, target, kernels), r in sorted(ratios.items()):
            ratio_rows.append(f"<tr><td>{html.escape(name)}</td><td>{ev}</td><td>{target}</td><td>{kernels}</td>"
                              f"<td>{figure(name, 'ratio', f'{ev}/{target}/{kernels}', f'{r:.2f}')}</td></tr>")
    style = ("body{font-family:sans-serif;margin:24px;color:#111}table{border-collapse:collapse;margin:8px 0 20px}"
             "td,th{border:1px solid #bbb;padding:3px 8px;font-size:13px;text-align:left}th{background:#eee}")
    head = lambda cols: "<tr>" + "".join(f"<th>{c}</th>" for c in cols) + "</tr>"  # noqa: E731
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>VBlitz results</title><style>{style}</style></head>
<body>
<h1>VBlitz results: {len(sets)} machine(s)</h1>
<h2>Machines</h2>
<table>{head(["set", "CPU", "topology", "hardware threads", "memory", "OS", "SIMD targets", "build", "results"])}
{"".join(rows)}</table>
<h2>Nodes per second against threads</h2>
{scaling_svg(sets)}
<table>{head(["set", "test", "evaluation", "threads", "nodes/s (median of the runs)"])}{"".join(nps_rows)}</table>
<h2>Vector kernels against their scalar twins</h2>
{ratio_svg(sets)}
<table>{head(["set", "evaluation", "SIMD target", "kernels", "ratio to scalar"])}{"".join(ratio_rows)}</table>
<h2>Scaling with threads (perf/scaling.sh)</h2>
{speedup_svg(sets_docs)}
<table>{head(["set", "threads", "table MB", "speedtest nodes/s", "bench: ms to depth", "nodes to depth",
        "datagen positions/s"])}{"".join(scaling_rows)}</table>
<h2>Speedtest spread</h2>
<table>{head(["set", "evaluation", "threads", "runs", "lowest", "median", "highest", "spread",
        "nodes/CPU-s (median)", "CPU spread"])}{"".join(spread_rows)}</table>
</body></html>
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="DIR, FILE or NAME=DIR")
    parser.add_argument("--html", required=True)
    args = parser.parse_args()
    sets = [load_set(a) for a in args.results]
    with open(args.html, "w") as f:
        f.write(page(sets))
    print(f"{args.html}: {len(sets)} machine(s), {sum(len(d) for _, d in sets)} results")


if __name__ == "__main__":
    main()
