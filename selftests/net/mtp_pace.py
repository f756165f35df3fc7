#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Spread of an MTP transaction's first window of subrequests.

    mtp_pace.py PCAP N RTT_MS

PCAP holds the client's requests (UDP to the server's port, Ethernet or
Linux cooked link type).  Requests are grouped by request id, in the
order the ids first appear.  Of the N-th transaction (from 1) only the
subrequests count, tag not 0: the initial request and its repeats carry
tag 0 (a slow server makes the client repeat its initial request before
the first answer comes).  The first subrequest is sent when the first
answer came; nothing but pacing spreads the ones sent before its own
answer, one RTT later.  Prints the number of subrequests in [first
subrequest, first subrequest + 0.8 RTT) and the milliseconds from the
first to the last of them.
"""
import struct
import sys


def requests(path):
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    scale = 1e9 if magic == 0xa1b23c4d else 1e6
    link = struct.unpack('<I', data[20:24])[0]
    l2 = {1: 14, 113: 16}[link]
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack('<IIII', data[off:off + 16])
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        ip = pkt[l2:]
        mtp = ip[(ip[0] & 15) * 4 + 8:]
        if len(mtp) >= 28:
            tag = struct.unpack('>H', mtp[26:28])[0]
            yield sec + frac / scale, mtp[8:12], tag


def main():
    path, n, rtt = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) / 1e3
    txns = {}
    for t, reqid, tag in requests(path):
        subs = txns.setdefault(reqid, [])
        if tag:
            subs.append(t)
    times = list(txns.values())[n - 1] if len(txns) >= n else []
    if not times:
        print(0, 0)
        return
    first = times[0]
    win = [t for t in times if t < first + 0.8 * rtt]
    print(len(win), round((win[-1] - first) * 1e3, 1))


main()
