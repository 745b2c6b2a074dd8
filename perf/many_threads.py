#!/usr/bin/env python3
"""Many threads on a small machine (oversubscribed): `bench 10 64` and `bench 10 256` finish;
`go nodes N` on 256 threads stays within N + 1024 x threads; `Threads 1024` and then `Threads 1`
gives the memory back; `stop` on 256 threads is answered within 100 ms (median of 5); and,
measured: the cost the pool adds to a move (`go depth 1`, median of 21) at 1, 8, 64 and 256
threads. Prints a table; exits 1 when a check fails. ctest `many_threads` (label `slow`).

usage: python3 perf/many_threads.py VBLITZ
"""
import statistics
import subprocess
import sys
import time

vblitz = sys.argv[1]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([vblitz], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before '{prefix}'")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        return self.until("readyok")

    def rss_mb(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
        return -1

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=60)


for threads in (64, 256):
    start = time.monotonic()
    out = subprocess.run([vblitz, "bench", "10", str(threads)], capture_output=True, text=True, timeout=1800)
    check(out.returncode == 0 and "Nodes searched" in out.stdout,
          f"bench 10 {threads} finishes ({time.monotonic() - start:.1f} s)")

e = Engine()
e.send("uci")
e.until("uciok")
e.send("setoption name Threads value 256")
errors = [line for line in e.ready() if "error" in line]
check(not errors, f"Threads 256 accepted {errors}")
e.send("position startpos")
limit = 200000
e.send(f"go nodes {limit}")
lines = e.until("bestmove")
nodes = max(int(line.split(" nodes ")[1].split()[0]) for line in lines if " nodes " in line)
check(nodes <= limit + 1024 * 256, f"go nodes {limit} on 256 threads searched {nodes} (bound {limit + 1024 * 256})")
stops = []
for _ in range(5):
    e.send("go infinite")
    time.sleep(0.5)
    start = time.monotonic()
    e.send("stop")
    e.until("bestmove")
    stops.append((time.monotonic() - start) * 1000)
    e.ready()
stop_ms = statistics.median(stops)
check(stop_ms < 100, f"stop on 256 threads answered in {stop_ms:.1f} ms, median of 5 "
      f"({', '.join(f'{ms:.1f}' for ms in stops)}; target: under 100)")

cost = {}
for threads in (1, 8, 64, 256):
    e.send(f"setoption name Threads value {threads}")
    e.ready()
    times = []
    for _ in range(21):
        start = time.monotonic()
        e.send("go depth 1")
        e.until("bestmove")
        times.append((time.monotonic() - start) * 1000)
    cost[threads] = statistics.median(times)
print("| threads | go depth 1, ms (median of 21) |\n|---:|---:|")
for threads, ms in cost.items():
    print(f"| {threads} | {ms:.2f} |")

e.send("setoption name Threads value 1")
e.ready()
base = e.rss_mb()
e.send("setoption name Threads value 1024")
e.ready()
e.send("go depth 6")
e.until("bestmove")
high = e.rss_mb()
e.send("setoption name Threads value 1")
e.ready()
back = e.rss_mb()
check(back <= base + (high - base) // 4,
      f"Threads 1024 then 1 gives the memory back: {base} MB, {high} MB with 1024 threads, {back} MB after")
e.quit()
sys.exit(1 if failures else 0)
