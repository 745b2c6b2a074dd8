#!/usr/bin/env python3
"""perf/report.py's page in a real headless Chromium (ctest `report_page`, label `report`): the
page made from the result sets given renders to a screenshot that is not blank, and every figure
the rendered page shows (its data-figure spans, read back from Chromium's DOM) equals the figure
computed here from the JSON files. Exits 77 (skipped) where Chromium or Pillow is missing.

usage: check_report.py REPORT_PY RESULTS...
"""
import glob
import html.parser
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

report_py, sets = sys.argv[1], sys.argv[2:]
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("SKIP: no chromium (apt install chromium; .ci/install-report-deps.sh)")
    sys.exit(77)
try:
    from PIL import Image
except ImportError:
    print("SKIP: no Pillow (apt install python3-pil)")
    sys.exit(77)

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def expected(name, directory):
    """The figures the page must show for one set, straight from its JSON files."""
    runs, cpu_runs, out, scaling = {}, {}, {}, []
    for path in glob.glob(os.path.join(directory, "**", "*.json"), recursive=True):
        with open(path) as f:
            d = json.load(f)
        s = d["settings"]
        out[f"{name}|hardware_threads|"] = str(d["machine"]["hardware_threads"])
        if d["schema"].startswith("vblitz-scaling/"):
            scaling.append(d)
            continue
        if d["kind"] in ("bench", "speedtest"):
            runs.setdefault((d["kind"], s["eval_mode"], s["threads"]), []).append(d[d["kind"]]["nodes_per_second"])
            if d["kind"] == "speedtest" and "nodes_per_cpu_second" in d["speedtest"]:
                cpu_runs.setdefault((s["eval_mode"], s["threads"]), []).append(d["speedtest"]["nodes_per_cpu_second"])
        else:
            for r in d["sweep"]["runs"]:
                if r["kernels"] != "scalar":
                    key = f"{name}|ratio|{s['eval_mode']}/{r['simd_target']}/{r['kernels']}"
                    out[key] = f"{r['ratio_to_scalar']:.2f}"
    for (kind, ev, t), values in runs.items():
        out[f"{name}|nps|{kind}/{ev}/{t}"] = f"{statistics.median(values):.0f}"
        if kind == "speedtest":
            spread = (max(values) - min(values)) / statistics.median(values) * 100
            out[f"{name}|spread|{ev}/{t}"] = f"{spread:.1f}%"
    for d in sorted(scaling, key=lambda d: d["date"])[-1:]:  # the newest scaling run
        depth = d["settings"]["bench_depth"]
        for r in d["runs"]:
            t = r["threads"]
            out[f"{name}|scaling_nps|{t}"] = str(r["speedtest_nodes_per_second"])
            out[f"{name}|scaling_depth_ms|{depth}/{t}"] = str(r["bench_time_ms"])
            out[f"{name}|scaling_depth_nodes|{depth}/{t}"] = str(r["bench_nodes"])
            out[f"{name}|scaling_datagen|{t}"] = str(r["datagen_positions_per_second"])
    for (ev, t), values in cpu_runs.items():
        med = statistics.median(values)
        out[f"{name}|cpu_nps|{ev}/{t}"] = f"{med:.0f}"
        out[f"{name}|cpu_spread|{ev}/{t}"] = f"{(max(values) - min(values)) / med * 100:.1f}%"
    return out


class Figures(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.figures, self.key = {}, None

    def handle_starttag(self, tag, attrs):
        self.key = dict(attrs).get("data-figure")

    def handle_data(self, data):
        if self.key is not None:
            self.figures[self.key] = data
            self.key = None


with tempfile.TemporaryDirectory() as tmp:
    page, shot = os.path.join(tmp, "report.html"), os.path.join(tmp, "report.png")
    subprocess.run([sys.executable, report_py, *sets, "--html", page], check=True)
    flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
             f"--user-data-dir={tmp}/profile"]
    subprocess.run(flags + [f"--screenshot={shot}", "--window-size=1200,1600", f"file://{page}"],
                   check=True, capture_output=True, timeout=120)
    dom = subprocess.run(flags + ["--dump-dom", f"file://{page}"], check=True, capture_output=True, text=True,
                         timeout=120).stdout

    image = Image.open(shot).convert("RGB")
    pixels = list(image.getdata())
    ink = sum(1 for p in pixels if sum(p) < 600) / len(pixels)
    colors = len(set(pixels))
    check(image.size == (1200, 1600), f"screenshot size {image.size}")
    check(ink > 0.01, f"the screenshot is nearly blank ({ink:.2%} ink)")
    check(colors > 20, f"the screenshot has {colors} colours: the charts did not render")

    parser = Figures()
    parser.feed(dom)
    want = {}
    for arg in sets:
        name, _, directory = arg.partition("=")
        want.update(expected(name, directory))
    for key, value in want.items():
        check(parser.figures.get(key) == value, f"{key}: page {parser.figures.get(key)!r}, JSON {value!r}")
    check(len(parser.figures) == len(want), f"the page shows {len(parser.figures)} figures, the JSON {len(want)}")

for f in failures:
    print("FAIL:", f)
if not failures:
    print(f"report page: {len(want)} figures equal the JSON's; screenshot {ink:.1%} ink, {colors} colours")
sys.exit(1 if failures else 0)
