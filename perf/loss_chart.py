#!/usr/bin/env python3
"""Draws the training and validation loss per epoch of `vblitz train` (NET.nnue.loss.csv) as SVG.

    python3 perf/loss_chart.py NET.nnue.loss.csv docs/network_loss.svg [--title TEXT]
"""
import argparse
import csv


def read_curve(path):
    """The rows of a loss CSV as (epoch, train loss, validation loss) floats."""
    with open(path, newline="") as f:
        return [(float(r["epoch"]), float(r["train_loss"]), float(r["validation_loss"])) for r in csv.DictReader(f)]


def chart(rows, title):
    """An SVG line chart of both losses against the epoch."""
    width, height, left, top, bottom = 560, 300, 70, 40, 40
    plot_w, plot_h = width - left - 20, height - top - bottom
    epochs = [r[0] for r in rows]
    losses = [v for r in rows for v in r[1:]]
    lo, hi = min(losses), max(losses)
    span = (hi - lo) or 1.0

    def x(e):
        return left + (e - epochs[0]) / max(epochs[-1] - epochs[0], 1) * plot_w

    def y(v):
        return top + (hi - v) / span * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="13">{title}</text>',
           f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>']
    for i in range(5):
        v = lo + span * i / 4
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.4f}</text>')
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + plot_w}" y2="{y(v):.1f}" stroke="#ddd"/>')
    for e in epochs:
        out.append(f'<text x="{x(e):.1f}" y="{top + plot_h + 15}" text-anchor="middle">{int(e)}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 5}" text-anchor="middle">epoch</text>')
    for column, colour, name in ((1, "#1f77b4", "training loss"), (2, "#d62728", "validation loss (held-out games)")):
        points = " ".join(f"{x(r[0]):.1f},{y(r[column]):.1f}" for r in rows)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        legend_y = top + 12 + 16 * (column - 1)
        out.append(f'<line x1="{left + plot_w - 200}" y1="{legend_y}" x2="{left + plot_w - 180}" y2="{legend_y}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{left + plot_w - 175}" y="{legend_y + 4}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("svg")
    parser.add_argument("--title", default="vblitz train: loss per epoch")
    args = parser.parse_args()
    with open(args.svg, "w") as f:
        f.write(chart(read_curve(args.csv), args.title))


if __name__ == "__main__":
    main()
