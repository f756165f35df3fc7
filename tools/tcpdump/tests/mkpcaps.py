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

  mkpcaps.py mtp OUT_PCAP
      MTP datagrams over UDP (IPv4, one IPv6) from the vectors in MTP
      below: requests, responses, error responses, every option, and
      truncated and malformed ones; valid UDP checksums; names on stdout
  mkpcaps.py mtpfuzz OUTDIR FILES PACKETS SEED PCAP...
      as fuzz, for the MTP datagrams (UDP) of the given captures

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


# --- MTP over UDP ----------------------------------------------------------

MTP_PORT = 8080         # tools/tcpdump/mtp-port.h
MTP_HDR = 28
MTP_VERSION = 0x30
SINGLE, NOPAYLOAD, STREAM, SUPPRESS, NORESP = 1, 2, 4, 8, 0x10
TOKEN = 0x20            # an 8-byte token follows the header
CLI = (198, 18, 0, 1)
SRV = (198, 18, 0, 2)


def udp(payload, sport, dport, src=CLI, dst=SRV, ulen=None, v6=False):
    """A UDP datagram with a valid checksum inside IPv4, or IPv6 when v6;
    ulen sets another UDP length field than the payload's."""
    ulen = 8 + len(payload) if ulen is None else ulen
    h = bytearray(struct.pack('>HHHH', sport, dport, ulen, 0))
    if v6:
        s6 = bytes.fromhex('20010db8000000000000000000000001')
        d6 = bytes.fromhex('20010db8000000000000000000000002')
        pseudo = s6 + d6 + struct.pack('>IxxxB', 8 + len(payload), 17)
    else:
        # As a receiver checks it: over the bytes the UDP length and the
        # IP packet both cover (trailing bytes past a short UDP length are
        # zeros, which do not change the sum).
        pseudo = bytes(src) + bytes(dst) + struct.pack(
            '>xBH', 17, min(ulen, 8 + len(payload)))
    c = ~sum16(pseudo + bytes(h) + payload) & 0xffff
    struct.pack_into('>H', h, 6, c or 0xffff)
    if v6:
        return struct.pack('>IHBB', 6 << 28, 8 + len(payload), 17, 64) + \
            s6 + d6 + bytes(h) + payload
    return ip4(bytes(h) + payload, proto=17, src=src, dst=dst)


def mtp_hdr(version=MTP_VERSION, appver=0, opts=0, error=0, response=0,
            action=0, flag=0, shift=0, reqid=0, channel=0, address=0,
            rsize=0, limit=0, tag=0):
    return struct.pack('>8BIIIIHH', version, appver, opts, error, response,
                       action, flag, shift, reqid, channel, address, rsize,
                       limit, tag)


IDSTR = b'mtping - Linux MTP'
TOKEN_BYTES = bytes.fromhex('0123456789abcdef')
FILE = bytes(range(256)) * 4

# name, header fields, payload, direction ('q' client -> server, 'r' back),
# extra: cut (bytes of the IP packet captured), ulen (UDP length field),
# port (the server's port), v6.
MTP = [
    # mtping: IDSTR and PING, answered by the kernel or by mtping -s.
    ('req_idstr_single', dict(opts=SINGLE, action=1, reqid=0x8f3a0c21,
                              tag=1), b'', 'q', {}),
    ('reply_idstr_single', dict(opts=SINGLE, response=1, action=1,
                                reqid=0x8f3a0c21, rsize=len(IDSTR), tag=1),
     IDSTR, 'r', {}),
    ('req_ping_single', dict(opts=SINGLE, action=0, reqid=0x8f3a0c22,
                             tag=2), b'', 'q', {}),
    ('reply_ping_single', dict(opts=SINGLE, response=1, action=0,
                               reqid=0x8f3a0c22, tag=2), b'', 'r', {}),
    # mtpget/mtpd: a file in a multi-datagram transaction.
    ('req_data_multi', dict(appver=3, action=4, flag=7, shift=10,
                            reqid=0x00000001, limit=128, tag=3),
     b'hello.txt', 'q', {}),
    ('resp_data_first', dict(appver=3, opts=SUPPRESS, response=1, action=4,
                             flag=7, reqid=1, channel=0x55667788,
                             rsize=100000, limit=128, tag=3),
     FILE, 'r', {}),
    ('subreq_nopayload', dict(appver=3, opts=NOPAYLOAD, action=4, flag=7,
                              shift=11, reqid=1, channel=0x55667788,
                              address=4096, rsize=2048, limit=4, tag=4),
     b'', 'q', {}),
    ('resp_data_last', dict(appver=3, opts=SUPPRESS, response=1, action=4,
                            flag=7, reqid=1, channel=0x55667788,
                            address=99000, rsize=1000, limit=128, tag=4),
     FILE[:1000], 'r', {}),
    ('req_max_shift_limit', dict(action=4, shift=14, reqid=0xffffffff,
                                 channel=0xffffffff, address=0xfffff000,
                                 rsize=0x1000, limit=0xffff, tag=0xffff),
     b'x' * 1024, 'q', {}),
    # Streams.
    ('resp_stream_nodata', dict(opts=STREAM, response=1, action=64,
                                reqid=0x1234, channel=9), b'', 'r', {}),
    ('resp_stream_data', dict(opts=STREAM | SUPPRESS, response=1,
                              action=64, reqid=0x1234, channel=9,
                              address=512, rsize=4096),
     b'stream bytes', 'r', {}),
    ('error_app_eod', dict(error=4, response=7, action=64, reqid=0x1234,
                           channel=9, address=524, rsize=524), b'', 'r', {}),
    ('req_stream_close', dict(action=64, shift=9, reqid=0x1234, channel=9,
                              address=0xffffffff, rsize=0xffffffff),
     b'', 'q', {}),
    # Error responses, one of every class.
    ('error_app_address', dict(opts=SINGLE, error=4, response=5, action=1,
                               reqid=0x8f3a0c23, address=99), b'', 'r', {}),
    ('error_app_action', dict(opts=SINGLE, error=4, response=2, action=99,
                              reqid=0x8f3a0c24), b'', 'r', {}),
    ('error_app_channel', dict(error=4, response=3, action=4, reqid=2,
                               channel=0xdeadbeef), b'', 'r', {}),
    ('error_app_code64', dict(error=4, response=64, action=70, reqid=3),
     b'application said no', 'r', {}),
    ('error_client_sys', dict(error=1, response=2, reqid=4), b'', 'r', {}),
    ('error_net_expire', dict(error=2, response=7, reqid=5),
     b'expired', 'r', {}),
    ('error_server_rspsz', dict(error=3, response=5, action=4, reqid=6,
                                limit=2), b'', 'r', {}),
    ('error_route_3', dict(error=5, response=3, reqid=7), b'', 'r', {}),
    ('error_server_unknown_code', dict(error=3, response=200, reqid=8),
     b'', 'r', {}),
    # Reply codes and actions.
    ('reply_code_64', dict(opts=SINGLE, response=64, action=70, flag=255,
                           reqid=9), b'ok', 'r', {}),
    # MTP_RES_PENDING as the server's kernel sends it: empty, echoing
    # the subrequest's address, rsize and tag.
    ('reply_pending', dict(response=2, action=4, reqid=10, channel=1,
                           address=4194304, rsize=8192, tag=77), b'', 'r',
     {}),
    ('req_every_action', dict(opts=SINGLE, action=5, reqid=11), b'', 'q',
     {}),
    ('req_forget', dict(opts=SINGLE | NORESP, action=10, flag=0x5a,
                        reqid=12), b'note', 'q', {}),
    ('resp_every_option', dict(opts=0x1f, response=1, action=2,
                               reqid=13), b'', 'r', {}),
    ('req_terminate', dict(opts=SINGLE, action=3, reqid=14), b'', 'q', {}),
    ('req_grant_hold', dict(opts=SINGLE, action=6, reqid=15), b'', 'q', {}),
    ('req_revoke', dict(opts=SINGLE, action=7, reqid=16), b'', 'q', {}),
    ('req_hold', dict(opts=SINGLE, action=8, reqid=17), b'', 'q', {}),
    ('req_resume', dict(opts=SINGLE, action=9, reqid=18), b'', 'q', {}),
    ('req_reqkey', dict(opts=SINGLE, action=11, reqid=19), b'', 'q', {}),
    ('req_stat', dict(opts=SINGLE, action=12, reqid=20), b'', 'q', {}),
    ('req_ipv6', dict(opts=SINGLE, action=1, reqid=21), b'', 'q',
     {'v6': True}),
    # -T mtp: another port (printed as plain UDP without it).
    ('req_other_port', dict(opts=SINGLE, action=1, reqid=22), b'', 'q',
     {'port': 7777}),
    ('reply_other_port', dict(opts=SINGLE, response=1, action=1,
                              reqid=22, rsize=4), b'abcd', 'r',
     {'port': 7777}),
    # Truncated by the snapshot length, or shorter than the header.
    ('trunc_in_reqid', dict(opts=SINGLE, action=1, reqid=23), b'', 'q',
     {'cut': 20 + 8 + 10}),
    ('trunc_in_limit', dict(opts=SINGLE, action=1, reqid=24), b'', 'q',
     {'cut': 20 + 8 + 25}),
    ('trunc_in_payload', dict(opts=SINGLE, response=1, action=1,
                              reqid=25, rsize=18), IDSTR, 'r',
     {'cut': 20 + 8 + 28 + 5}),
    ('short_datagram_18', dict(opts=SINGLE, action=1, reqid=26), b'', 'q',
     {'trim': 18}),
    ('short_datagram_0', dict(), b'', 'q', {'trim': 0}),
    ('udp_length_shorter', dict(opts=SINGLE, response=1, action=1,
                                reqid=27, rsize=4), b'abcd\0\0\0\0', 'r',
     {'ulen': 8 + 28 + 4}),
    ('udp_length_longer', dict(opts=SINGLE, response=1, action=1,
                               reqid=28, rsize=4), b'abcd', 'r',
     {'ulen': 8 + 28 + 400}),
    # Malformed: what the module drops.
    ('bad_version_31', dict(version=0x31, opts=SINGLE, reqid=29), b'', 'q',
     {}),
    ('bad_version_0', dict(version=0), b'', 'q', {}),
    ('reserved_option', dict(opts=SINGLE | 0x40, action=1, reqid=30), b'',
     'q', {}),
    ('reserved_options_all', dict(opts=0xdf, response=1, reqid=31), b'',
     'r', {}),
    ('error_class_7', dict(error=7, response=1, reqid=32), b'', 'r', {}),
    ('error_in_request', dict(error=4, response=0, reqid=33), b'', 'r', {}),
    ('shift_20', dict(action=4, shift=20, reqid=34), b'', 'q', {}),
    ('shift_0_multi', dict(action=4, shift=0, reqid=35), b'', 'q', {}),
    ('request_payload_1025', dict(opts=SINGLE, action=4, reqid=36),
     b'r' * 1025, 'q', {}),
    ('nopayload_with_payload', dict(opts=NOPAYLOAD, action=4, shift=10,
                                    reqid=37), b'x', 'q', {}),
    ('request_range_past_4g', dict(action=4, shift=10, reqid=38,
                                   address=0xffffff00, rsize=0x101), b'',
     'q', {}),
    ('response_payload_16385', dict(response=1, action=4, reqid=39,
                                    rsize=0x7fffffff), b'\0' * 16385, 'r',
     {}),
    ('response_payload_past_rsize', dict(response=1, action=4, reqid=40,
                                         rsize=10), b'y' * 11, 'r', {}),
    ('response_past_4g', dict(response=1, action=4, reqid=41,
                              address=0xfffffffe, rsize=0xffffffff),
     b'zzz', 'r', {}),
    ('error_text_1025', dict(error=4, response=6, reqid=42), b'e' * 1025,
     'r', {}),
    ('absurd_all_ones', dict(appver=255, opts=0x1f, response=255,
                             action=255, flag=255, shift=255,
                             reqid=0xffffffff, channel=0xffffffff,
                             address=0xffffffff, rsize=0xffffffff,
                             limit=0xffff, tag=0xffff),
     b'\xff' * 40, 'r', {}),
    # Address validation: the server's token in a cut answer and in a
    # "validate" reply (the answer held), echoed by the client; a token
    # announced in a datagram too short for it.
    ('reply_token', dict(opts=SUPPRESS | TOKEN, response=1, action=4,
                         reqid=43, channel=1, rsize=1048576, limit=0,
                         shift=0), TOKEN_BYTES + FILE[:110], 'r', {}),
    ('req_token', dict(opts=NOPAYLOAD | TOKEN, action=4, shift=14,
                       reqid=43, channel=1, address=110, rsize=131072,
                       limit=256, tag=1), TOKEN_BYTES, 'q', {}),
    ('reply_validate', dict(opts=SINGLE | TOKEN, response=3, action=1,
                            reqid=44), TOKEN_BYTES, 'r', {}),
    ('req_token_single', dict(opts=SINGLE | TOKEN, action=1, reqid=44),
     TOKEN_BYTES, 'q', {}),
    ('token_short', dict(opts=SINGLE | TOKEN, action=1, reqid=45),
     TOKEN_BYTES[:5], 'q', {}),
    ('trunc_in_token', dict(opts=SINGLE | TOKEN, action=1, reqid=46),
     TOKEN_BYTES, 'q', {'cut': 20 + 8 + 32}),
]


def mtp_set():
    out = []
    for i, (name, hdr, payload, way, x) in enumerate(MTP):
        m = mtp_hdr(**hdr) + payload
        if 'trim' in x:
            m = m[:x['trim']]
        port = x.get('port', MTP_PORT)
        cport = 40000 + i
        if way == 'q':
            ip = udp(m, cport, port, CLI, SRV, x.get('ulen'), x.get('v6'))
        else:
            ip = udp(m, port, cport, SRV, CLI, x.get('ulen'), x.get('v6'))
        if 'cut' in x:
            out.append((name, ip[:x['cut']], len(ip)))
        else:
            out.append((name, ip, len(ip)))
    return out


MTP_HOT = [(0, 1), (2, 1), (3, 1), (4, 1), (5, 1), (7, 1), (16, 4),
           (20, 4), (24, 2)]
MTP_EDGE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 15, 16, 0x1f, 0x20, 0x30,
            0x31, 0x40, 0x7f, 0x80, 0xff, 0x100, 0x3ff, 0x400, 0x401,
            0x4000, 0x4001, 0xffff, 0xfffffffe, 0xffffffff]


def mtp_mutate(rng, m):
    m = bytearray(m)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        if not m:
            m = bytearray(rng.randbytes(rng.randint(1, 40)))
        if op == 0:
            m[rng.randrange(len(m))] ^= 1 << rng.randrange(8)
        elif op == 1:
            m[rng.randrange(len(m))] = rng.randrange(256)
        elif op in (2, 3):
            off, size = rng.choice(MTP_HOT)
            if off + size <= len(m):
                v = rng.choice(MTP_EDGE) & ((1 << (8 * size)) - 1)
                m[off:off + size] = v.to_bytes(size, 'big')
        elif op == 4:
            m = m[:rng.randrange(len(m) + 1)]
        else:
            m += rng.randbytes(rng.randint(1, 64))
    return bytes(m)


def udp_payload(ip):
    """The UDP payload of an IPv4 or IPv6 packet, or None."""
    if len(ip) >= 28 and ip[0] >> 4 == 4 and ip[9] == 17:
        return ip[(ip[0] & 0xf) * 4 + 8:]
    if len(ip) >= 48 and ip[0] >> 4 == 6 and ip[6] == 17:
        return ip[48:]
    return None


def mtp_fuzz(outdir, files, packets, seed, pcaps):
    base = []
    for p in pcaps:
        for _, ip, _ in read_pcap(p):
            m = udp_payload(ip)
            if m is not None:
                base.append(m)
    rng = random.Random(seed)
    for n in range(files):
        recs = []
        for _ in range(packets):
            m = mtp_mutate(rng, rng.choice(base))
            ports = (40000, MTP_PORT) if rng.random() < 0.5 else \
                (MTP_PORT, 40000)
            r = rng.random()
            ulen = None
            if r < 0.1:                  # UDP length field damaged
                ulen = rng.choice([0, 1, 7, 8, 9, 35, 36, 37, 0xffff,
                                   rng.randrange(65536)])
            ip = udp(m, *ports, ulen=ulen, v6=rng.random() < 0.1)
            r = rng.random()
            if r < 0.2:                  # cut by the snapshot length
                recs.append((ip[:rng.randrange(20, len(ip) + 1)], len(ip)))
            elif r < 0.3 and ip[0] >> 4 == 4:   # IP length damaged
                ip = bytearray(ip)
                struct.pack_into('>H', ip, 2, rng.randrange(20, len(ip) + 1))
                recs.append((bytes(ip), len(ip)))
            else:
                recs.append((ip, len(ip)))
        write_pcap('%s/mtpfuzz-%03d.pcap' % (outdir, n), recs)


def main(argv):
    if len(argv) == 4 and argv[1] == 'bad':
        recs = bad_set(read_pcap(argv[2]))
        write_pcap(argv[3], [(ip, orig) for _, ip, orig in recs])
        for i, (name, _, _) in enumerate(recs):
            print('%d\t%s' % (i + 1, name))
        return 0
    if len(argv) == 3 and argv[1] == 'mtp':
        recs = mtp_set()
        write_pcap(argv[2], [(ip, orig) for _, ip, orig in recs])
        for i, (name, _, _) in enumerate(recs):
            print('%d\t%s' % (i + 1, name))
        return 0
    if len(argv) >= 7 and argv[1] == 'mtpfuzz':
        mtp_fuzz(argv[2], int(argv[3]), int(argv[4]), int(argv[5]), argv[6:])
        return 0
    if len(argv) >= 7 and argv[1] == 'fuzz':
        fuzz(argv[2], int(argv[3]), int(argv[4]), int(argv[5]), argv[6:])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
