"""Checks a cluster bench's output (stdin) for NP processes: a line per process, every process
searched, the exchange delivered what was sent (ring, the default: process r received what
process r-1 sent; `allgather` as the second argument: what every other process sent), no
process stored more than it received, and "Nodes searched" is the sum of the processes' nodes.
Exit 1 with the reason otherwise.

usage: check_bench_shares.py NP [ring|allgather] < bench output"""
import re
import sys

np = int(sys.argv[1])
allgather = len(sys.argv) > 2 and sys.argv[2] == "allgather"
text = sys.stdin.read()
shares = [tuple(map(int, m)) for m in re.findall(
    r"^Process \d+: nodes (\d+) \(\d+%\), entries sent (\d+), received (\d+), stored (\d+), rounds (\d+)$",
    text, re.M)]
total = re.search(r"^Nodes searched: (\d+)$", text, re.M)
problems = []
if len(shares) != np:
    problems.append(f"{len(shares)} process lines, not {np}")
elif not total:
    problems.append("no 'Nodes searched'")
else:
    nodes = [s[0] for s in shares]
    if any(n == 0 for n in nodes):
        problems.append(f"a process searched nothing: {nodes}")
    if sum(nodes) != int(total.group(1)):
        problems.append(f"total {total.group(1)} is not the sum of {nodes}")
    for r, (_, sent, received, stored, rounds) in enumerate(shares):
        others = sum(s[1] for s in shares) - sent
        if allgather and received != others:
            problems.append(f"process {r} received {received}, the others sent {others}")
        if not allgather and received != shares[r - 1][1]:
            problems.append(f"process {r} received {received}, process {(r - 1) % np} sent {shares[r - 1][1]}")
        if stored > received:
            problems.append(f"process {r} stored {stored} of {received}")
        if rounds == 0:
            problems.append(f"process {r} ran no exchange round")
    if sum(s[1] for s in shares) == 0:
        problems.append("no table entry was exchanged")
if problems:
    print("\n".join(problems))
    sys.exit(1)
