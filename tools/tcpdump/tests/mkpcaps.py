#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test captures for the XTP printer, derived from the unit tests' oracle
capture (selftests/unit/oracle.c writes the golden and sample packets).

  mkpcaps.py bad ORACLE_PCAP OUT_PCAP
      truncated and malformed variants of the oracle's packets, plus XTP
      over IPv6; each packet's purpose is listed in BAD below (and printed,
      one per line, on stdout)
  mkpcaps.py fuzz OUTDIR FILES PACKETS SEED PCAP...
      FILES captures of PACKETS packets each, every packet a copy of one of
      the given captures' packets with random damage; deterministic for a
      given SEED

Only the standard library; LINKTYPE_RAW (101) in and out.
"""

import random
import struct
import sys

LINKTYPE_RAW = 101
XTP_HDR = 32

# PFORMAT values and option bits (Documentation/networking/xtp.rst).
DATA, CNTL, FIRST, ECNTL, TCNTL, JCNTL, DIAG = 0, 1, 2, 3, 5, 7, 8
OPT_NOCHECK = 0x40000000
OPT_BTAG = 0x00010000


# --- pcap -------------------------------------------------------------------

def read_pcap(path):
    """Return [(ts_sec, data, orig_len)] of a little-endian pcap."""
    with open(path, 'rb') as f:
        buf = f.read()
    magic, _, _, _, _, _, link = struct.unpack_from('<IHHiIII', buf, 0)
    if magic != 0xa1b2c3d4 or link != LINKTYPE_RAW:
        sys.exit('%s: not a little-endian LINKTYPE_RAW pcap' % path)
    off, out = 24, []
    while off + 16 <= len(buf):
        sec, _, incl, orig = struct.unpack_from('<IIII', buf, off)
        off += 16
        out.append((sec, buf[off:off + incl], orig))
        off += incl
    return out


def write_pcap(path, recs):
    """recs: [(data, orig_len)]; timestamps count up from 2000000000."""
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535,
                            LINKTYPE_RAW))
        for i, (data, orig) in enumerate(recs):
            f.write(struct.pack('<IIII', 2000000000 + i, 0, len(data), orig))
            f.write(data)


# --- IP and XTP helpers -----------------------------------------------------

def sum16(b):
    if len(b) & 1:
        b = b + b'\0'
    s = sum(struct.unpack('>%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def ip4(payload, proto=36, src=(198, 18, 0, 1), dst=(198, 18, 0, 2),
        ident=1):
    h = bytearray(struct.pack('>BBHHHBBH4B4B', 0x45, 0, 20 + len(payload),
                              ident, 0x4000, 64, proto, 0, *src, *dst))
    struct.pack_into('>H', h, 10, ~sum16(bytes(h)) & 0xffff)
    return bytes(h) + payload


def ip6(payload, nh=36):
    src = bytes.fromhex('20010db8000000000000000000000001')
    dst = bytes.fromhex('20010db8000000000000000000000002')
    return struct.pack('>IHBB', 6 << 28, len(payload), nh, 64) + src + \
        dst + payload


def xtp_of(ip):
    """The XTP bytes of an IPv4 packet from the oracle."""
    return bytearray(ip[(ip[0] & 0xf) * 4:])


def fix_csum(x):
    """Recompute CHECK when the bytes it covers are all there."""
    if len(x) < XTP_HDR:
        return x
    cmd, dlen = struct.unpack_from('>II', x, 8)
    cover = XTP_HDR if cmd & OPT_NOCHECK else XTP_HDR + dlen
    if cover > len(x):
        return x
    struct.pack_into('>H', x, 16, 0)
    struct.pack_into('>H', x, 16, ~sum16(bytes(x[:cover])) & 0xffff)
    return x


def pformat(x):
    return x[11] & 0x1f


def dlen(x):
    return struct.unpack_from('>I', x, 12)[0]


def set_dlen(x, n):
    struct.pack_into('>I', x, 12, n)


# --- the malformed and truncated set ---------------------------------------

def pick(pkts, pred, what):
    for _, ip, _ in pkts:
        x = xtp_of(ip)
        if len(x) >= XTP_HDR and pred(x):
            return x
    sys.exit('mkpcaps: the oracle capture has no %s' % what)


def first_v4(x):
    return pformat(x) == FIRST and x[35] == 1 and x[32 + 16 + 3] == 0


def bad_set(pkts):
    first4 = pick(pkts, first_v4, 'IPv4 FIRST')
    first6 = pick(pkts, lambda x: pformat(x) == FIRST and x[35] == 6,
                  'IPv6 FIRST')
    cntl = pick(pkts, lambda x: pformat(x) == CNTL, 'CNTL')
    tcntl = pick(pkts, lambda x: pformat(x) == TCNTL, 'TCNTL')
    ecntl5 = pick(pkts, lambda x: pformat(x) == ECNTL and dlen(x) >= 24 + 80,
                  'ECNTL with 5 spans')
    jcntl = pick(pkts, lambda x: pformat(x) == JCNTL and x[32 + 35] == 1,
                 'IPv4 JCNTL')
    diag = pick(pkts, lambda x: pformat(x) == DIAG and dlen(x) > 16, 'DIAG')
    data = pick(pkts, lambda x: pformat(x) == DATA and dlen(x) > 8, 'DATA')

    out = []          # (name, ip bytes, orig_len or None)

    def add(name, x, cut=None, fix=True, wrap=ip4):
        x = bytearray(x)
        if fix:
            fix_csum(x)
        ip = wrap(bytes(x))
        if cut is None:
            out.append((name, ip, len(ip)))
        else:
            out.append((name, ip[:cut], len(ip)))

    c = lambda x: bytearray(x)

    # Cut short by the snapshot length (IPv4 header is 20 bytes).
    add('trunc_in_key', first4, cut=20 + 5)
    add('trunc_in_seq', first4, cut=20 + 28)
    add('trunc_after_header', first4, cut=20 + 32)
    add('trunc_in_aseg', first4, cut=20 + 32 + 10)
    add('trunc_in_tseg', first4, cut=20 + 32 + 16 + 6)
    add('trunc_in_aseg_ipv6', first6, cut=20 + 32 + 12)
    add('trunc_in_xkey', tcntl, cut=20 + 32 + 28)
    add('trunc_in_spans', ecntl5, cut=20 + 32 + 24 + 16 * 2 + 4)
    add('trunc_in_diag_msg', diag, cut=20 + 32 + 8 + 5)
    add('trunc_cntl_in_echo', cntl, cut=20 + 32 + 18)

    # Lengths that do not add up.
    add('short_ip_payload', first4[:10])
    x = c(cntl); set_dlen(x, 200)
    add('dlen_past_ip_payload', x)
    x = c(cntl) + b'\0\0\0\0'; set_dlen(x, 24)
    add('cntl_dlen_too_long', x)
    x = c(cntl)[:44]; set_dlen(x, 12)
    add('cntl_dlen_too_short', x)
    x = c(ecntl5)[:32 + 24 + 16]; set_dlen(x, 24 + 16)
    struct.pack_into('>I', x, 32 + 20, 3)
    add('ecntl_nspan_3_room_1', x)
    x = c(ecntl5)[:32 + 24 + 16]; set_dlen(x, 24 + 16)
    struct.pack_into('>I', x, 32 + 20, 0xffffffff)
    add('ecntl_nspan_max', x)
    x = c(first4); struct.pack_into('>H', x, 32, 17)
    add('first_alen_17', x)
    x = c(first4); struct.pack_into('>H', x, 32, 0xffff)
    add('first_alen_past_dlen', x)
    x = c(first4); struct.pack_into('>H', x, 32, 40)
    add('first_ipv4_alen_40', x)
    x = c(first6); struct.pack_into('>H', x, 32, 16)
    add('first_ipv6_alen_16', x)
    x = c(first4); x[35] = 9; struct.pack_into('>H', x, 32, 8)
    x = x[:40] + x[48:]; set_dlen(x, dlen(x) - 8)
    add('first_unknown_aformat', x)
    x = c(first4); struct.pack_into('>H', x, 48, 24)
    add('first_tformat0_tlen_24', x)
    x = c(first4); x[51] = 7
    add('first_unknown_tformat', x)
    x = c(first4)[:35]; set_dlen(x, 3)
    add('first_dlen_3', x)
    x = c(tcntl) + b'\1\2\3\4'; set_dlen(x, dlen(x) + 4)
    add('tcntl_trailing_bytes', x)
    x = c(tcntl); struct.pack_into('>I', x, 32 + 20, 0x5a5a)
    struct.pack_into('>Q', x, 32 + 24, (1 << 63) | (7 << 32) | 9)
    add('tcntl_rsvd_and_xkey_high', x)
    x = c(jcntl)[:32 + 32 + 16]; set_dlen(x, 48)
    add('jcntl_no_traffic_seg', x)
    x = c(data)[:37]; set_dlen(x, 5)
    struct.pack_into('>I', x, 8, struct.unpack_from('>I', x, 8)[0] | OPT_BTAG)
    add('data_btag_dlen_5', x)
    x = c(diag)[:36]; set_dlen(x, 4)
    add('diag_dlen_4', x)
    x = c(diag)[:40] + b'bad\x01\x7f\xffmsg\0after'; set_dlen(x, len(x) - 32)
    add('diag_msg_unprintable', x)
    x = c(cntl); x[11] = (2 << 5) | CNTL
    add('version_2', x)
    x = c(cntl); x[11] = (1 << 5) | 4
    add('pformat_4', x)
    x = c(cntl); x[10] = 0x5a
    add('reserved_byte_set', x)
    x = c(data); struct.pack_into('>I', x, 8,
                                  struct.unpack_from('>I', x, 8)[0] |
                                  OPT_NOCHECK)
    fix_csum(x); x[40] ^= 0xff
    add('nocheck_payload_damaged', x, fix=False)
    x = c(data); x[40] ^= 0xff
    add('payload_damaged', x, fix=False)

    # XTP over IPv6, and a jumbo-free truncated one.
    add('ipv6_cntl', cntl, wrap=ip6)
    add('ipv6_first_trunc', first4, wrap=ip6, cut=40 + 32 + 8)
    return out


# --- fuzzing ---------------------------------------------------------------

# Offsets of length and count fields worth hitting with boundary values.
HOT = [(12, 4), (32, 2), (34, 1), (35, 1), (48, 2), (51, 1), (52, 4),
       (56, 4), (64, 2), (67, 1), (80, 2), (83, 1), (11, 1), (10, 1),
       (8, 4)]
EDGE = [0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 23, 24, 31, 32, 39, 40, 41,
        0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
        0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff]


def mutate(rng, x):
    x = bytearray(x)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        if not x:
            x = bytearray(rng.randbytes(rng.randint(1, 64)))
        if op == 0:
            i = rng.randrange(len(x))
            x[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            x[rng.randrange(len(x))] = rng.randrange(256)
        elif op in (2, 3):
            off, size = rng.choice(HOT)
            if off + size <= len(x):
                v = rng.choice(EDGE) & ((1 << (8 * size)) - 1)
                x[off:off + size] = v.to_bytes(size, 'big')
        elif op == 4 and len(x) > 11:
            pf = rng.choice([DATA, CNTL, FIRST, ECNTL, TCNTL, JCNTL, DIAG,
                             rng.randrange(32)])
            x[11] = (rng.choice([1, 1, 1, rng.randrange(8)]) << 5) | pf
        elif op == 5:
            cut = rng.randrange(len(x) + 1)
            if rng.random() < 0.8:      # mostly near the end
                cut = max(cut, len(x) - rng.randint(1, 40))
            x = x[:cut]
        else:
            x += rng.randbytes(rng.randint(1, 48))
    if rng.random() < 0.5:
        fix_csum(x)
    return bytes(x)


def fuzz(outdir, files, packets, seed, pcaps):
    base = []
    for p in pcaps:
        for _, ip, _ in read_pcap(p):
            if len(ip) >= 20 and ip[0] >> 4 == 4:
                base.append(xtp_of(ip))
    rng = random.Random(seed)
    for n in range(files):
        recs = []
        for _ in range(packets):
            x = mutate(rng, rng.choice(base))
            ip = ip4(x, ident=rng.randrange(65536))
            r = rng.random()
            if r < 0.2:                  # cut by the snapshot length
                recs.append((ip[:rng.randrange(20, len(ip) + 1)], len(ip)))
            elif r < 0.3:                # IP length says less than sent
                ip = bytearray(ip)
                struct.pack_into('>H', ip, 2, rng.randrange(20, len(ip) + 1))
                recs.append((bytes(ip), len(ip)))
            else:
                recs.append((ip, len(ip)))
        write_pcap('%s/fuzz-%03d.pcap' % (outdir, n), recs)


def main(argv):
    if len(argv) == 4 and argv[1] == 'bad':
        recs = bad_set(read_pcap(argv[2]))
        write_pcap(argv[3], [(ip, orig) for _, ip, orig in recs])
        for i, (name, _, _) in enumerate(recs):
            print('%d\t%s' % (i + 1, name))
        return 0
    if len(argv) >= 7 and argv[1] == 'fuzz':
        fuzz(argv[2], int(argv[3]), int(argv[4]), int(argv[5]), argv[6:])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
