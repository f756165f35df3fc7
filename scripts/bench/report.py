#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one bench run (results.jsonl and its sample files) into
build/bench/results.json and Documentation/performance.md with plots.

Every number in the report comes from the run; the goals (the
performance targets of the project's issues) are set where each row is
reported (Report.goal()).  A goal that is not met is reported, never a
failure.
"""
import argparse
import json
import os
import sys

# The thesis' own XTP/TCP time ratios on its LAN (Tables 12-15).
THESIS = {
    'srr1': ('SRR, finger, 1-packet answer (Table 12)', 0.73),
    'srr2': ('SRR, finger, 2-packet answer (Table 12)', 0.82),
    'mrr': ('MRR, ftp session (Table 13)', 0.75),
    'sft1000': ('SFT, xft 1000 B (Table 14)', 0.68),
    'sft10000': ('SFT, xft 10000 B (Table 14)', 1.20),
    'lft': ('LFT, xft 1 MB (Table 15)', 1.07),
}


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except ValueError:
                continue
            rows[r.get('label', '')] = r
    return rows


def ok(r):
    return r is not None and 'failed' not in r and not r.get('errors')


def fmt(v, digits=2, unit=''):
    if v is None:
        return 'n/a'
    return f'{v:.{digits}f}{unit}'


def ratio(a, b):
    if a is None or b is None or not b:
        return None
    return a / b


def val(rows, label, key):
    r = rows.get(label)
    if not ok(r):
        return None
    return r.get(key)


def failed_note(rows, label):
    r = rows.get(label)
    if r is None:
        return 'not run'
    if 'failed' in r:
        return 'failed: ' + r['failed']
    if r.get('errors'):
        return f"{r['errors']} errors ({r.get('first_error', '')})"
    return ''


def read_series(path):
    """Per-second goodput (Mbit/s) of a stream client from its -I file."""
    pts = []
    try:
        with open(path) as f:
            for line in f:
                t, _, b = line.split()
                pts.append((float(t), int(b)))
    except (OSError, ValueError):
        return []
    out, prev_t, prev_b = [], 0.0, 0
    for t, b in pts:
        if t > prev_t:
            out.append((t, (b - prev_b) * 8 / (t - prev_t) / 1e6))
        prev_t, prev_b = t, b
    return out


def read_samples(path):
    try:
        with open(path) as f:
            return [int(x) for x in f if x.strip()]
    except (OSError, ValueError):
        return []


# Row 6's flows of ours: their labels and names in the report.
NAMES = {'xtpveno': 'XTP Veno', 'xtpbbr': 'XTP BBR', 'mtp': 'MTP window',
         'mtpbbr': 'MTP model', 'tcp': 'TCP'}
# XTP's controllers as the report names them.
CC_NAMES = {'scc': 'SCC', 'newreno': 'NewReno', 'veno': 'Veno',
            'bbr': 'BBR'}


def default_cc(rows):
    """The name of XTP's default controller that the bench recorded."""
    return rows.get('meta/xtp-cc', {}).get('name')


def jain(xs):
    xs = [x for x in xs if x is not None]
    if not xs or not sum(x * x for x in xs):
        return None
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


class Report:
    def __init__(self, rows, args):
        self.rows = rows
        self.args = args
        self.lines = []
        self.goals = []
        self.plots = []

    def out(self, s=''):
        self.lines.append(s)

    def table(self, head, body):
        self.out('| ' + ' | '.join(head) + ' |')
        self.out('|' + '|'.join('---' for _ in head) + '|')
        for b in body:
            self.out('| ' + ' | '.join(str(x) for x in b) + ' |')
        self.out()

    def goal(self, what, goal, measured, met):
        state = 'n/a' if met is None else ('met' if met else '**not met**')
        self.goals.append((what, goal, measured, state))

    def plot(self, name, title, draw):
        try:
            import matplotlib
            matplotlib.use('Agg')
            import matplotlib.pyplot as plt
        except ImportError:
            self.out(f'(plot {name} not drawn: matplotlib is missing)')
            return
        os.makedirs(self.args.plots, exist_ok=True)
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        draw(ax)
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize='small')
        fig.tight_layout()
        path = os.path.join(self.args.plots, name)
        fig.savefig(path, dpi=90)
        plt.close(fig)
        rel = os.path.relpath(path, os.path.dirname(self.args.doc))
        self.out(f'![{title}]({rel})')
        self.out()

    # -- rows ------------------------------------------------------------
    def row1(self):
        r = self.rows
        self.out('## 1. A request and its answer over a new association, '
                 '40 ms RTT')
        self.out()
        self.out('64-byte request; XTP: `sendto()` with MSG_XTP_WCLOSE, '
                 'the data in the FIRST; MTP: one transaction; TCP: '
                 'connect, send, shutdown, read to EOF; TFO: the same with '
                 'MSG_FASTOPEN and a warm cookie.  Latency in round trips '
                 'of the path.')
        self.out()
        body = []
        for size in ('100', '10000'):
            for p in ('xtp', 'mtp', 'tcp', 'tfo'):
                lab = f'row1/{size}/{p}'
                if lab not in r:
                    continue
                body.append([f'{size} B', p, fmt(val(r, lab, 'p50_rtt')),
                             fmt(val(r, lab, 'p99_rtt')),
                             val(r, lab, 'transactions') or '',
                             failed_note(r, lab)])
        self.table(['answer', 'transport', 'median (RTT)', 'P99 (RTT)',
                    'transactions', 'note'], body)
        for p in ('xtp', 'mtp'):
            m = val(r, f'row1/100/{p}', 'p50_rtt')
            self.goal(f'crr latency, {p.upper()}, 100 B answer',
                      'median ≤ 1.1 RTT', fmt(m, unit=' RTT'),
                      None if m is None else m <= 1.1)

        def draw(ax):
            for p in ('xtp', 'mtp', 'tcp', 'tfo'):
                s = sorted(read_samples(os.path.join(
                    self.args.outdir, f'lat-100-{p}.txt')))
                if s:
                    n = len(s)
                    ax.step([x / 1e3 / 40 for x in s],
                            [(i + 1) / n for i in range(n)], where='post',
                            label=p.upper())
            ax.set_xlabel('latency (RTTs of 40 ms)')
            ax.set_ylabel('fraction of transactions')
        self.plot('latency-cdf.png', 'crr latency, 100-byte answer', draw)

    def row10(self):
        r = self.rows
        if not any(k.startswith('row10/') for k in r):
            return
        self.out('## 10. A one-datagram transaction through 10% loss, '
                 '20 ms RTT')
        self.out()
        self.out('netem drops 10% of the packets each way; 64-byte '
                 'request, 100-byte answer.  MTP: one transaction each, '
                 'all on one socket, so the server\'s RTT is known after '
                 'the first; TCP: request and answer on one kept '
                 'connection.  Latency in round trips of the path.')
        self.out()
        body = []
        for p in ('mtp', 'tcp'):
            lab = f'row10/{p}'
            if lab not in r:
                continue
            body.append([p, fmt(val(r, lab, 'p50_rtt')),
                         fmt(val(r, lab, 'p90_rtt')),
                         fmt(val(r, lab, 'p99_rtt')),
                         val(r, lab, 'transactions') or '',
                         failed_note(r, lab)])
        self.table(['transport', 'median (RTT)', 'P90 (RTT)', 'P99 (RTT)',
                    'transactions', 'note'], body)
        q = val(r, 'row10/mtp', 'p90_rtt')
        self.goal('one-datagram MTP transaction, 10% loss each way',
                  'P90 ≤ 4 RTT', fmt(q, unit=' RTT'),
                  None if q is None else q <= 4)

    def row11(self):
        r = self.rows
        if not any(k.startswith('row11/') for k in r):
            return
        self.out('## 11. A 2 MB object through 10% loss, 20 ms RTT')
        self.out()
        self.out('netem drops 10% of the packets each way; TCP sends one '
                 'segment per skb.  MTP with its loss-based window '
                 '(net.mtp.cc 1) and with the delivery-rate model (2); '
                 'each run on its own socket.  Seconds per run; the '
                 'spread is the largest and the smallest against the '
                 'median.')
        self.out()
        body, med = [], {}
        for f in ('mtp', 'mtp-bbr', 'tcp-cubic', 'tcp-bbr'):
            runs = sorted(k for k in r if k.startswith(f'row11/{f}/'))
            secs = [val(r, k, 'seconds') for k in runs]
            bad = [failed_note(r, k) for k in runs if failed_note(r, k)]
            good = sorted(x for x in secs if x)
            if not runs:
                continue
            m = good[(len(good) - 1) // 2] if good else None
            med[f] = m if not bad else None
            spread = (f'{fmt(good[0] / m)}–{fmt(good[-1] / m)}'
                      if m else 'n/a')
            body.append([f, ' '.join(fmt(x) for x in secs), fmt(m),
                         spread, '; '.join(bad)])
        self.table(['sender', 'seconds per run', 'median', 'spread',
                    'note'], body)
        for f, name in (('mtp', 'window'), ('mtp-bbr', 'model')):
            q = ratio(med.get('tcp-bbr'), med.get(f))
            self.goal(f'MTP 2 MB, 10% loss each way, {name}, against TCP '
                      'BBR', '≥ 1× BBR', fmt(q, unit='×'),
                      None if q is None else q >= 1)
        for f, name in (('mtp', 'window'), ('mtp-bbr', 'model')):
            runs = [val(r, k, 'seconds') for k in r
                    if k.startswith(f'row11/{f}/')]
            m = med.get(f)
            ok = m and runs and all(x and 0.7 * m <= x <= 1.3 * m
                                    for x in runs)
            self.goal(f'MTP 2 MB, 10% loss, {name}: runs within ±30%',
                      '±30% of the median',
                      f'{len(runs)} runs' if m else 'n/a',
                      None if not m else bool(ok))

    def rows23(self):
        r = self.rows
        for row, name in (('2', 'new association each (crr)'),
                          ('3', 'one kept association (rr)')):
            self.out(f'## {row}. Transactions per second on loopback, '
                     f'{name}')
            self.out()
            body = []
            for n in ('1', '16'):
                tcp = val(r, f'row{row}/{n}/tcp', 'tps')
                for p in ('xtp', 'mtp', 'tcp'):
                    lab = f'row{row}/{n}/{p}'
                    t = val(r, lab, 'tps')
                    body.append([n, p, fmt(t, 0), fmt(ratio(t, tcp)),
                                 fmt(val(r, lab, 'p50_us'), 0),
                                 failed_note(r, lab)])
                if row == '2':
                    for p in ('xtp', 'mtp'):
                        q = ratio(val(r, f'row2/{n}/{p}', 'tps'), tcp)
                        self.goal(f'crr transactions/s, {p.upper()}, {n} '
                                  'client(s), loopback', '≥ 2× TCP',
                                  fmt(q, unit='×'),
                                  None if q is None else q >= 2)
            self.table(['clients', 'transport', 'transactions/s', '× TCP',
                        'median µs', 'note'], body)

    def row4(self):
        r = self.rows
        self.out('## 4. Bulk goodput')
        self.out()
        self.out('One stream for a fixed time.  With loss, netem drops '
                 'each direction\'s packets independently and TCP sends '
                 'one segment per skb (gso_max_segs 1), so both lose the '
                 'same share of packets; without loss TCP keeps GSO, '
                 'which TCG rewards.  At 50 ms netem\'s queue holds '
                 '100000 packets: its default 1000 counts skbs, so it '
                 'would carry a TCP GSO train of 45 packets as one and '
                 'drop XTP\'s from 1.4 MB in flight on.')
        self.out()
        profiles = ['loopback', 'veth', '50ms'] + [
            f'50ms-loss{x}' for x in ('0.01', '1', '5', '20')]
        flav = ['xtp-scc', 'xtp-newreno', 'xtp-veno', 'xtp-bbr', 'tcp-cubic',
                'tcp-reno', 'tcp-bbr']
        body = []
        for prof in profiles:
            cubic = val(r, f'row4/{prof}/tcp-cubic', 'goodput_mbps')
            bbr = val(r, f'row4/{prof}/tcp-bbr', 'goodput_mbps')
            for f in flav:
                lab = f'row4/{prof}/{f}'
                if lab not in r:
                    continue
                g = val(r, lab, 'goodput_mbps')
                body.append([prof, f, fmt(g, 1), fmt(ratio(g, cubic)),
                             fmt(ratio(g, bbr)), failed_note(r, lab)])
        self.table(['path', 'sender', 'Mbit/s', '× CUBIC', '× BBR',
                    'note'], body)
        dflt = default_cc(r)
        name = CC_NAMES.get(dflt, dflt or 'not recorded')
        who = f'XTP ({name}, the default)'
        for prof, goal, lim, tcp in (
                ('veth', '≥ 0.9× TCP', 0.9, 'cubic'),
                ('50ms', '≥ 0.95× TCP', 0.95, 'cubic'),
                ('50ms-loss1', '≥ 1× TCP CUBIC', 1.0, 'cubic'),
                ('50ms-loss1', '≥ 1× TCP BBR', 1.0, 'bbr')):
            q = ratio(val(r, f'row4/{prof}/xtp-{dflt}', 'goodput_mbps'),
                      val(r, f'row4/{prof}/tcp-{tcp}', 'goodput_mbps'))
            self.goal(f'stream, {prof}, {who}', goal,
                      fmt(q, unit='×'), None if q is None else q >= lim)
        # BBR's own goals against TCP's BBR, where it is not the default.
        bbr_goals = (('50ms-loss1', '≥ 1× BBR', 1.0),
                     ('50ms', '≥ 0.95× BBR', 0.95))
        for prof, goal, lim in bbr_goals if dflt != 'bbr' else ():
            q = ratio(val(r, f'row4/{prof}/xtp-bbr', 'goodput_mbps'),
                      val(r, f'row4/{prof}/tcp-bbr', 'goodput_mbps'))
            self.goal(f'stream, {prof}, XTP BBR against TCP BBR', goal,
                      fmt(q, unit='×'), None if q is None else q >= lim)

        def draw(ax):
            losses = [0.01, 1, 5, 20]
            for f in flav:
                pts = [(x, val(r, f'row4/50ms-loss{x}/{f}', 'goodput_mbps'))
                       for x in ('0.01', '1', '5', '20')]
                pts = [(float(x), g) for x, g in pts if g]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts],
                            marker='o', label=f)
            ax.set_xscale('log')
            ax.set_xticks(losses)
            ax.set_xticklabels([str(x) for x in losses])
            ax.set_yscale('log')
            ax.set_xlabel('loss per direction (%)')
            ax.set_ylabel('goodput (Mbit/s)')
        self.plot('goodput-loss.png', 'bulk goodput at 50 ms RTT', draw)

    def row5(self):
        r = self.rows
        self.out('## 5. An MTP object against TCP, 50 ms RTT')
        self.out()
        self.out('MTP in its default mode, the loss-based window '
                 '(net.mtp.cc 1; rows 1 and 10 too).')
        self.out()
        body = []
        for loss in ('0', '1', '5', '20'):
            for mb in ('1', '16'):
                base = f'row5/loss{loss}/{mb}MB'
                if f'{base}/mtp' not in r:
                    continue
                m = val(r, f'{base}/mtp', 'goodput_mbps')
                c = val(r, f'{base}/tcp-cubic', 'goodput_mbps')
                b = val(r, f'{base}/tcp-bbr', 'goodput_mbps')
                body.append([f'{loss}%', f'{mb} MB', fmt(m, 2), fmt(c, 2),
                             fmt(b, 2), fmt(ratio(m, c)), fmt(ratio(m, b)),
                             failed_note(r, f'{base}/mtp') or
                             failed_note(r, f'{base}/tcp-cubic')])
        self.table(['loss', 'object', 'MTP Mbit/s', 'CUBIC', 'BBR',
                    'MTP × CUBIC', 'MTP × BBR', 'note'], body)
        for mb in ('1', '16'):
            if f'row5/loss5/{mb}MB/mtp' not in r:
                continue
            q = ratio(val(r, f'row5/loss5/{mb}MB/mtp', 'goodput_mbps'),
                      val(r, f'row5/loss5/{mb}MB/tcp-cubic', 'goodput_mbps'))
            self.goal(f'MTP object, 5% loss, {mb} MB', '≥ 3× TCP',
                      fmt(q, unit='×'), None if q is None else q >= 3)

    def row6(self):
        r = self.rows
        self.out('## 6. Sharing a 20 Mbit/s bottleneck with TCP CUBIC')
        self.out()
        self.out('20 ms RTT, a queue of one BDP (a 50 KB tbf under the '
                 'netem that delays); both flows '
                 'start together and run for the same time.  MTP\'s data '
                 'flows from its server, so its TCP companion flows the '
                 'same way.')
        self.out()
        body = []
        for ours in ('xtpveno', 'xtpbbr', 'mtp', 'mtpbbr'):
            a = val(r, f'row6/{ours}/{ours}', 'goodput_mbps')
            t = val(r, f'row6/{ours}/tcp', 'goodput_mbps')
            j = jain([a, t]) if a is not None and t is not None else None
            body.append([NAMES[ours], fmt(a), fmt(t), fmt(j, 3),
                         failed_note(r, f'row6/{ours}/{ours}') or
                         failed_note(r, f'row6/{ours}/tcp')])
            self.goal(f'fairness, {NAMES[ours]} with TCP', 'Jain ≥ 0.9',
                      fmt(j, 3), None if j is None else j >= 0.9)
        self.table(['ours', 'ours Mbit/s', 'TCP Mbit/s', 'Jain index',
                    'note'], body)

        def draw(ax):
            for ours in ('xtpveno', 'xtpbbr', 'mtp', 'mtpbbr'):
                for who in (ours, 'tcp'):
                    s = read_series(os.path.join(
                        self.args.outdir, f'fair-{ours}-{who}.txt'))
                    if s:
                        ax.plot([p[0] for p in s], [p[1] for p in s],
                                label=f'{NAMES[who]} (with '
                                f'{"TCP" if who == ours else NAMES[ours]})')
            ax.set_xlabel('seconds')
            ax.set_ylabel('Mbit/s (per second)')
        self.plot('fairness.png', 'two flows through 20 Mbit/s', draw)

    def row7(self):
        r = self.rows
        self.out('## 7. Memory per idle association')
        self.out()
        self.out('Both ends are in the guest, so each association counts '
                 'a client and a server socket.  "slab" is the growth of '
                 'the kernel objects /proc/slabinfo counts (active objects '
                 'times their size: the sockets and what hangs off them); '
                 'the goal is judged on it.  Page counts such as '
                 'SUnreclaim miss objects that fill slab pages earlier '
                 'rows left partly free.  "used" is the growth of MemTotal '
                 '− MemAvailable, which also sees pages outside the slab '
                 'and such slack.  "socket" is the size of one socket '
                 'object of the transport\'s slab cache.  Each transport '
                 'is measured from a settled machine: a fresh server, '
                 'and the previous one\'s sockets gone.')
        self.out()
        per = {}
        body = []
        for p in ('xtp', 'tcp'):
            x = r.get(f'row7/{p}')
            if not x or 'failed' in x:
                body.append([p, 'n/a', 'n/a', 'n/a',
                             failed_note(r, f'row7/{p}')])
                continue
            n = x['clients']
            slab = (x['slab_b'][1] - x['slab_b'][0]) / n
            used = (x['used_kb'][1] - x['used_kb'][0]) * 1024 / n
            obj = x['sock_obj']
            per[p] = slab
            body.append([p, fmt(slab, 0), fmt(used, 0),
                         str(obj) if obj else 'n/a', f'{n} associations'])
        self.table(['transport', 'slab bytes each', 'used bytes each',
                    'socket bytes', 'note'], body)
        if 'xtp' in per and 'tcp' in per:
            q = ratio(per['xtp'], per['tcp'])
            self.goal('memory per idle association', '≤ TCP\'s',
                      fmt(q, unit='× TCP'), q <= 1)
        else:
            self.goal('memory per idle association', '≤ TCP\'s', 'n/a',
                      None)

    def row8(self):
        r = self.rows
        self.out('## 8. CPU time')
        self.out()
        self.out('From /proc/stat over each run: the whole guest, so '
                 'sender, receiver and softirq work together.')
        self.out()
        body = []
        x = val(r, f'row4/veth/xtp-{default_cc(r)}', 'cpu_ms_per_mb')
        t = val(r, 'row4/veth/tcp-cubic', 'cpu_ms_per_mb')
        body.append(['stream, veth', 'ms per MB', fmt(x), fmt(t),
                     fmt(ratio(x, t))])
        self.goal('CPU per MB, stream', '≤ 1.2× TCP',
                  fmt(ratio(x, t), unit='×'),
                  None if ratio(x, t) is None else ratio(x, t) <= 1.2)
        x = val(r, 'row2/1/xtp', 'cpu_us_per_txn')
        t = val(r, 'row2/1/tcp', 'cpu_us_per_txn')
        body.append(['crr, loopback, 1 client', 'µs per transaction',
                     fmt(x, 0), fmt(t, 0), fmt(ratio(x, t))])
        self.table(['workload', 'unit', 'XTP', 'TCP', 'XTP × TCP'], body)

    def row9(self):
        r = self.rows
        self.out('## 9. The thesis\' workloads (Tables 12–15) on the veth')
        self.out()
        self.out('Mean time per transaction (run time × clients / '
                 'transactions), XTP over TCP: below 1 XTP is faster.  The '
                 'thesis measured 1997 hardware on a 10 Mbit/s LAN; its '
                 'ratios stand beside ours for the shape, not the value.')
        self.out()
        body = []

        def mean_s(lab):
            x = r.get(lab)
            if not ok(x) or not x.get('transactions'):
                return None
            return x['seconds'] * x['clients'] / x['transactions']
        for key, (name, thesis) in THESIS.items():
            xs, ts = mean_s(f'row9/{key}/xtp'), mean_s(f'row9/{key}/tcp')
            body.append([name, fmt(xs * 1e3 if xs else None, 3),
                         fmt(ts * 1e3 if ts else None, 3),
                         fmt(ratio(xs, ts)), fmt(thesis)])
        self.table(['workload', 'XTP ms', 'TCP ms', 'XTP/TCP here',
                    'XTP/TCP thesis (LAN)'], body)

    def iperf(self):
        r = self.rows
        self.out('## Cross-check: iperf3')
        self.out()
        self.out('Debian\'s iperf3, unmodified, over TCP and under '
                 '`withxtp` (every TCP socket becomes an XTP one), on the '
                 'veth without delay and at 50 ms RTT (netem queue as in '
                 'row 4).')
        self.out()
        body = []
        for path, goal, lim in (('veth', '≥ 0.9× TCP', 0.9),
                                ('50ms', '≥ 0.95× TCP', 0.95)):
            x = r.get(f'iperf3/{path}/xtp', {}).get('goodput_mbps')
            t = r.get(f'iperf3/{path}/tcp', {}).get('goodput_mbps')
            q = ratio(x, t)
            body.append([path, fmt(t, 1), fmt(x, 1), fmt(q)])
            self.goal(f'iperf3 under withxtp, {path}', goal,
                      fmt(q, unit='×'), None if q is None else q >= lim)
        self.table(['path', 'TCP Mbit/s', 'XTP Mbit/s', 'XTP × TCP'], body)

    def write(self):
        a = self.args
        body = self.lines
        self.lines = []
        self.out('# XTP and MTP performance against TCP')
        self.out()
        self.out('<!-- Generated by scripts/bench/report.py from one bench '
                 'run; do not edit by hand. -->')
        self.out()
        self.out(f'Measured by `{a.command}` on {a.started}, Linux '
                 f'{a.kernel} under QEMU TCG (2 vCPUs), {a.minutes} '
                 f'minutes, profile `{a.profile}`.  TCG makes absolute '
                 'numbers an emulator\'s: read the ratios, which come from '
                 'one boot.  Where TCP gains from offloads (GSO/GRO) the '
                 'row says so.  A goal not met is reported, never hidden.')
        self.out()
        self.out('## Goals')
        self.out()
        self.table(['measure', 'goal', 'measured', ''], self.goals)
        self.lines += body
        with open(a.doc, 'w') as f:
            f.write('\n'.join(self.lines).rstrip() + '\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--results', required=True)
    ap.add_argument('--outdir', required=True)
    ap.add_argument('--doc', required=True)
    ap.add_argument('--plots', required=True)
    ap.add_argument('--profile', default='full')
    ap.add_argument('--kernel', default='')
    ap.add_argument('--started', default='')
    ap.add_argument('--minutes', default='')
    ap.add_argument('--command', default='make bench')
    args = ap.parse_args()
    rows = load(args.results)
    if not rows:
        print('report: no results in ' + args.results, file=sys.stderr)
        return 1
    with open(os.path.join(args.outdir, 'results.json'), 'w') as f:
        json.dump({'profile': args.profile, 'kernel': args.kernel,
                   'started': args.started, 'results': rows}, f, indent=1)
    rep = Report(rows, args)
    for step in (rep.row1, rep.rows23, rep.row4, rep.row5, rep.row6,
                 rep.row7, rep.row8, rep.row9, rep.row10, rep.row11,
                 rep.iperf):
        step()
    rep.write()
    print(f'report: {args.doc} ({len(rows)} results)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
