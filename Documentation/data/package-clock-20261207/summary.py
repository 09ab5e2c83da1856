#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What this directory's logs of speed_test say, in the units of
Documentation/boards.rst ("Clocks"): the 90th percentiles of the IPI
round trips of each take, in us, and the time ratios and shares lost of
clock_follows_highest_request over all its runs here.

  ./summary.py > summary.txt
"""
import glob
import os
import re

IPI = re.compile(r'busy cpu\d+ at full speed: p50 \d+ ns, p90 (\d+) ns.*'
                 r'busy cpu\d+ at (\d+) kHz .*: p50 \d+ ns, p90 (\d+) ns')
RATIO = re.compile(r'([\d.]+) times as long.*\(([\d.]+) wanted')
LOST = re.compile(r'([\d.]+), then ([\d.]+) of the time lost')
KHZ = re.compile(r'busy cpu\d+ asking (\d+) kHz.* (\d+) kHz')


def ghz(khz):
    return f'{int(khz) / 1e6:g}'


def us(ns):
    return str(round(int(ns) / 1000))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ratios, lost_low, lost_high, want, freqs = [], [], [], None, set()
    for path in sorted(glob.glob(os.path.join(here, '*.txt'))):
        name = os.path.basename(path)[:-4]
        if name in ('summary', 'host-loop'):
            continue
        full, low, khz = [], [], None
        with open(path) as f:
            for line in f:
                m = IPI.search(line)
                if m:
                    full.append(int(m.group(1)))
                    khz = m.group(2)
                    low.append(m.group(3))
                if 'clock_follows_highest_request' not in line and \
                        not line.startswith('busy cpu'):
                    continue
                m = KHZ.search(line)
                if m:
                    freqs.add((ghz(m.group(1)), ghz(m.group(2))))
                m = RATIO.search(line)
                if m:
                    ratios.append(float(m.group(1)))
                    want = m.group(2)
                m = LOST.search(line)
                if m:
                    lost_low.append(float(m.group(1)))
                    lost_high.append(float(m.group(2)))
        if full:
            print(f'{name}: ipi p90 at full speed {us(min(full))} to '
                  f'{us(max(full))} us; at {ghz(khz)} GHz '
                  + ', '.join(us(v) for v in low) + ' us')
    (low, high), = freqs
    print(f'clock_follows_highest_request, the busy CPU at {low} GHz, its '
          f'neighbour at {low} then {high} GHz: {len(ratios)} runs, time ratio '
          f'{min(ratios):.2f} to {max(ratios):.2f} ({want} wanted); '
          f'{len(lost_low)} with the shares lost: {min(lost_low):.2f} to '
          f'{max(lost_low):.2f} with the neighbour low, {min(lost_high):.3f} '
          f'to {max(lost_high):.3f} with it high')


if __name__ == '__main__':
    main()
