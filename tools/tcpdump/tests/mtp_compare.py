#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare our tcpdump's MTP decode with the MTP module's own decoder.

  mtp_compare.py TCPDUMP MTP_DECODE PCAP NAMES

tshark has no MTP dissector; instead MTP_DECODE (tests/mtp_decode.c, the
module's net/mtp/wire.c built in user space) decodes every UDP datagram of
PCAP and prints the fields in our printer's words.  Both decodes are parsed
back into fields (kind, id, act, flag, ch, addr, rsize, limit, opts,
appver, shift, tag, close, length, the module's reason to drop it) and
compared field by field, at -nv (every header field) and at -n (the
default line: the same without appver, shift, tag and close).  "-T mtp"
makes tcpdump decode every UDP datagram, whatever its port.

A datagram cut short by the snapshot length must print what it holds: when
tcpdump's line ends in "[|mtp]" and the capture was cut, its fields must
be the leading fields of the module's decode (which reads the missing
bytes as zeros).

NAMES is `mkpcaps.py mtp`'s listing.  Prints one line per datagram: "1<TAB>
name" when they agree, "0<TAB>name<TAB>why" when not.
"""

import re
import subprocess
import sys

LINE = re.compile(
    r'^MTP (?P<kind>request|reply code \d+|reply|pending|validate|error \S+)'
    r' id (?P<id>[0-9a-f]{8}) act (?P<act>\S+) flag (?P<flag>\d+)'
    r' ch (?P<ch>[0-9a-f]{8}) addr (?P<addr>\d+) rsize (?P<rsize>\d+)'
    r' limit (?P<limit>\d+)(?: opts (?P<opts>\S+))?'
    r'(?: token (?P<token>[0-9a-f]{16}))?'
    r'(?: appver (?P<appver>\d+) shift (?P<shift>\d+) tag (?P<tag>\d+))?'
    r'(?P<close> close)?, length (?P<length>\d+)'
    r'(?: \((?P<reason>[^)]*)\))?(?P<trunc> \[\|mtp\])?$')
SHORT = re.compile(r'^MTP (?P<short>\d+) bytes \((?P<reason>truncated)\)'
                   r'(?P<trunc> \[\|mtp\])$')
BADVER = re.compile(r'^MTP version (?P<version>0x[0-9a-f]{2})'
                    r' \((?P<reason>bad version)\)(?P<trunc> \[\|mtp\])$')
VFIELDS = re.compile(r' appver \d+ shift \d+ tag \d+( close)?')
KEYS = ('kind', 'id', 'act', 'flag', 'ch', 'addr', 'rsize', 'limit', 'opts',
        'token', 'appver', 'shift', 'tag', 'close', 'length')


def fields(text):
    for r in (LINE, SHORT, BADVER):
        m = r.match(text)
        if m:
            return {k: v for k, v in m.groupdict().items() if v is not None}
    return None


def ours(tcpdump, opts, pcap):
    out = subprocess.run([tcpdump] + opts + ['-T', 'mtp', '-r', pcap],
                         capture_output=True, text=True,
                         env={'TZ': 'GMT0', 'LC_ALL': 'C'}).stdout
    got = []
    for line in out.splitlines():
        m = re.search(r'(?:: |\] )(MTP( .*)?)$', line)
        if m:
            got.append(m.group(1))
    return got


def prefix_why(got, want):
    """got (tcpdump, cut short) must be want's leading fields."""
    g = got[:-len(' [|mtp]')].split(' ')
    w = want.split(' ')
    key = 'kind'
    for i, tok in enumerate(g):
        if i >= len(w) or tok != w[i]:
            return 'field %s: tcpdump "%s", module "%s"' % (
                key, tok, w[i] if i < len(w) else '')
        if tok in KEYS:
            key = tok
    return None


def compare(got, want, snapped):
    if snapped and got.endswith(' [|mtp]') and got != want:
        return prefix_why(got, want)
    g, w = fields(got), fields(want)
    if g is None:
        return 'tcpdump line not understood: %s' % got
    if w is None:
        return 'module line not understood: %s' % want
    diff = ['%s: tcpdump %s, module %s' % (k, g.get(k, '-'), w.get(k, '-'))
            for k in sorted(set(g) | set(w)) if g.get(k) != w.get(k)]
    if diff:
        return '; '.join(diff)
    if got != want:        # same fields, other words
        return 'text differs: "%s" vs "%s"' % (got, want)
    return None


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    tcpdump, decode, pcap, names_file = argv[1:]
    names = {}
    with open(names_file) as f:
        for line in f:
            n, name = line.rstrip('\n').split('\t')
            names[int(n)] = name
    module = []
    out = subprocess.run([decode, pcap], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        head, text = line.split('\t', 1)
        n, how = head.split(' ')
        module.append((int(n), how == 'snap', text))
    v = ours(tcpdump, ['-nv'], pcap)
    d = ours(tcpdump, ['-n'], pcap)
    if len(v) != len(module) or len(d) != len(module):
        print('0\tmtp_compare\t%d datagrams, tcpdump printed %d (-nv), %d '
              '(-n) MTP lines' % (len(module), len(v), len(d)))
        return 0
    for (n, snapped, want), got_v, got_d in zip(module, v, d):
        why = compare(got_v, want, snapped)
        if why is None:
            why = compare(got_d, VFIELDS.sub('', want), snapped)
            if why is not None:
                why = '-n: ' + why
        name = names.get(n, str(n))
        print('1\t%s' % name if why is None else '0\t%s\t%s' % (name, why))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
