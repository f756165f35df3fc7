#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An MTP decoder written from the dissertation, as a second opinion on
our tcpdump's MTP printer.

  mtp_reference.py TCPDUMP PCAP [NAMES]   one line per UDP datagram
  mtp_reference.py --summary TCPDUMP PCAP...   one line per capture
  mtp_reference.py --cuts PCAP OUT   OUT: PCAP's datagrams cut by the
                                     capture at each byte of the header
  mtp_reference.py --dump PCAP       the reference's decode only

Why: the printer (print-mtp.c) is otherwise checked only against the MTP
module's own codec (net/mtp/wire.c through mtp_decode.c), so both could
share one mistake.  Nothing here comes from the project's code: the
fields, widths, codes and rules are taken from

  [N]  S. B. Noble, "Development and Testing of a New Transport Protocol
       Optimized for Multimedia Internet Transactions", PhD dissertation,
       Univ. of Oklahoma, 1999 (seed 000, /work/shared/seeds/000_*.txt),
       and its extraction /work/shared/reference/mtp-seed-000.md ([X]):
   - Ch V "Messages" (~p.33, [X] 3.2): "request and response messages are
     formatted identically ... a 28 byte header followed by zero or more
     bytes of payload"; the field list and the widths of [X] 3.2
     (mtp_id_t, mtp_request_t in App. A mtp.h, ~p.88-93, [X] 3.7.8):
     mtpversion 8, appversion 8, reqid 32, channel 32, action 8, flag 8,
     address 32, rsize 32, reserved 16 (echoed: our "tag"), error class,
     response code, response limit, option flags.
   - the header drawing is lost in the OCR ([X] 0.1, 9 A1); byte
     positions are therefore the layout decided in [X] 3.4 (big-endian,
     offsets 0 mtpversion, 1 appversion, 2 options, 3 error, 4 response,
     5 action, 6 flag, 7 dgram_shift, 8 reqid, 12 channel, 16 address,
     20 rsize, 24 limit in 512-byte units, 26 reserved/tag), with the
     option bits of [X] 3.4: bit0 SINGLE, bit1 suppressed request payload,
     bit2 STREAM, bit3 suppress permitted, bit4 NORESP, bits 5-7 zero.
   - App. A mtp.h ([X] 3.7.3, 3.7.5): error classes ERR_NONE..ERR_ROUTE
     = 0..5, the ERR_DMN_*, ERR_NET_*, ERR_APP_* codes (2..15; 64 and up
     application-defined), RES_REQUEST 0 "This is a request", RES_REPLY 1,
     RES_APP 64; the ACT_* actions 0..12 (5's name is lost in the OCR,
     6's name too: its comment is "Allow proxy use of device"), ACT_APP 64.
   - sizes ([X] 3.7.2): MTP_SIZE_REQUEST 1024 "Largest allowable request
     payload", MTP_SIZE_MINIMUM 512 .. MTP_SIZE_RESPONSE 16384 per
     response datagram (so dgram_shift 9..14, [X] 3.4); a single
     response may use a whole IP datagram (Ch VI, ~p.52: "IP permits a
     payload size of up to approximately 63 kB").
   - Ch VI "Client" (~p.52): "For a single request, MTP ignores the
     values of channel, address, rsize, and flag"; for multi requests
     address is a byte offset and rsize the bytes wanted, 0 = to the end;
     objects are at most 2^32 bytes ([X] 3.1).  Ch VI "Server" (~p.56):
     a multi response's rsize is "the extent of the *entire* data object
     starting at address"; error responses have "broad discretion" in
     those fields; the final stream request has "both address and rsize
     set to -0 (all bits set to one)" (the stream close).
 What the dissertation leaves open and the project's documentation
 (Documentation/networking/mtp.rst, "Wire format") fixes, used here as
 documented there, not as coded: MTP_VERSION = 0x30 (the seed never gives
 its value), response code 2 = "pending" and 3 = "validate" (server MTP
 to client MTP), option bit 5 TOKEN with its 8-byte address validation
 token between the header and the payload ("Address validation"), the
 message size = the UDP length (UDP's, or IP's when that is shorter), and
 the order in which a receiver rejects a datagram.

The reference decodes every UDP datagram of PCAP (IPv4 or IPv6; Ethernet,
raw IP, Linux cooked or BSD loopback framing) and our tcpdump decodes the
same capture with -T mtp at -nv and at -n.  Each tcpdump line is parsed
back into fields and compared with the reference field by field: kind
(request/reply/pending/reply code/error class and code), reqid, action,
flag, channel, address, rsize, limit, the option bits, appversion,
dgram_shift, tag, stream close, payload length, the reason the datagram
is malformed (the printer's reason must be one of the reference's), and
for a capture cut inside the header the fields that were captured.
Prints "1<TAB>name" per agreeing datagram and "0<TAB>name<TAB>why" per
disagreement (with --summary, the same per capture).
"""

import re
import struct
import subprocess
import sys

# --- the header, from [X] 3.4 ----------------------------------------------

HDR = 28                        # "a 28 byte header" (Ch V, Messages)
TOKEN_LEN = 8                   # mtp.rst: after the header, with TOKEN
MTP_VERSION = 0x30              # mtp.rst (the seed leaves it open)
SIZE_REQUEST = 1024             # MTP_SIZE_REQUEST
SIZE_RESPONSE = 16 * 1024       # MTP_SIZE_RESPONSE
SHIFT_MIN, SHIFT_MAX = 9, 14    # 512 (MTP_SIZE_MINIMUM) .. 16384
LIMIT_UNIT = 512
ALL_ONES = 0xffffffff           # "-0 (all bits set to one)"

# (name, offset, size) in wire order
FIELDS = (('mtpversion', 0, 1), ('appversion', 1, 1), ('options', 2, 1),
          ('error', 3, 1), ('response', 4, 1), ('action', 5, 1),
          ('flag', 6, 1), ('dgram_shift', 7, 1), ('reqid', 8, 4),
          ('channel', 12, 4), ('address', 16, 4), ('rsize', 20, 4),
          ('limit', 24, 2), ('tag', 26, 2))
FIELD = {n: (o, s) for n, o, s in FIELDS}

# Option bits ([X] 3.4) and the words our printer uses for them.
OPT_SINGLE, OPT_SUPPRESSED, OPT_STREAM, OPT_SUPPRESS_OK, OPT_NORESP = \
    0x01, 0x02, 0x04, 0x08, 0x10
OPT_TOKEN = 0x20                # mtp.rst, "Address validation"
OPT_DEFINED = 0x3f
OPT_WORDS = {'SINGLE': OPT_SINGLE, 'NOPAYLOAD': OPT_SUPPRESSED,
             'STREAM': OPT_STREAM, 'SUPPRESS': OPT_SUPPRESS_OK,
             'NORESP': OPT_NORESP, 'TOKEN': OPT_TOKEN}

# Error classes (mtp.h "Error Codes").
ERR_NONE, ERR_CLIENT, ERR_NET, ERR_SERVER, ERR_APP, ERR_ROUTE = range(6)
CLASS = {ERR_CLIENT: 'CLIENT', ERR_NET: 'NET', ERR_SERVER: 'SERVER',
         ERR_APP: 'APP', ERR_ROUTE: 'ROUTE'}
DMN = {2: 'SYS', 3: 'ACTION', 4: 'DEL', 5: 'RSPSZ', 6: 'VERSION',
       7: 'NORSRC', 8: 'REQSZ', 9: 'PROTO', 10: 'CHECK'}
NET = {2: 'CLIENT', 3: 'SERVER', 4: 'UNAVAIL', 5: 'DOWN', 6: 'TRANS',
       7: 'EXPIRE'}
APP = {2: 'ACTION', 3: 'CHANNEL', 4: 'FLAG', 5: 'ADDRESS', 6: 'DATA',
       7: 'EOD', 8: 'SIZE', 9: 'UNAVAIL', 10: 'AUTH', 11: 'BUSY', 12: 'HOLD',
       13: 'TIMEOUT', 14: 'PROXY', 15: 'VERSION'}
CODES = {ERR_CLIENT: DMN, ERR_SERVER: DMN, ERR_NET: NET, ERR_APP: APP,
         ERR_ROUTE: {}}         # the route codes are lost in the OCR
RES_REQUEST, RES_REPLY, RES_PENDING, RES_VALIDATE = 0, 1, 2, 3  # 2, 3: mtp.rst

# The one rule taken from neither the dissertation nor mtp.rst: the module
# drops an error response whose payload (error text) is above 1024 bytes.
# The dissertation bounds only request payloads by 1024 (MTP_SIZE_REQUEST)
# and response datagrams by 16384; kept here, named, so that the rest of
# the comparison can run, and reported as a disagreement.
PROJECT_MAX_ERRTEXT = 1024

# ACT_* of mtp.h; 5 has no name in the OCR; 6 "Allow proxy use of
# device" is printed GRANT (the OCR repeats "ACT_REVOKE" for it, a typo:
# 7 is REVOKE "Remove proxy authorization").
ACTIONS = {0: 'PING', 1: 'IDSTR', 2: 'REGISTER', 3: 'TERMINATE', 4: 'DATA',
           6: 'GRANT', 7: 'REVOKE', 8: 'HOLD', 9: 'RESUME', 10: 'NOTIFY',
           11: 'REQKEY', 12: 'STAT'}


def header(b):
    """The fields present in b (a header that may be cut short)."""
    h = {}
    for name, off, size in FIELDS:
        if off + size <= len(b):
            h[name] = int.from_bytes(b[off:off + size], 'big')
    if h.get('options', 0) & OPT_TOKEN and len(b) >= HDR + TOKEN_LEN:
        h['token'] = int.from_bytes(b[HDR:HDR + TOKEN_LEN], 'big')
    return h


def has_token(h):
    return bool(h.get('options', 0) & OPT_TOKEN)


def kind(h):
    if h['error'] != ERR_NONE:
        c = h['error']
        code = CODES.get(c, {}).get(h['response'], str(h['response']))
        return 'error %s/%s' % (CLASS.get(c, str(c)), code)
    return {RES_REQUEST: 'request', RES_REPLY: 'reply',
            RES_PENDING: 'pending',
            RES_VALIDATE: 'validate'}.get(h['response'],
                                        'reply code %d' % h['response'])


def is_request(h):
    return h['error'] == ERR_NONE and h['response'] == RES_REQUEST


def is_close(h):
    return (is_request(h) and not h['options'] & OPT_SINGLE and
            h['address'] == ALL_ONES and h['rsize'] == ALL_ONES)


def malformed(h, plen):
    """Every reason a receiver must not accept the datagram (a set; the
    dissertation gives no order of checks, so any one of them may be the
    one printed)."""
    why = set()
    req = is_request(h)
    single = h['options'] & OPT_SINGLE
    if h['options'] & ~OPT_DEFINED:
        why.add('reserved options')             # [X] 3.4 bits 5-7
    if h['error'] > ERR_ROUTE:
        why.add('bad error class')              # ERR_NONE..ERR_ROUTE
    if h['response'] == RES_REQUEST and h['error'] != ERR_NONE:
        # RES_REQUEST "This is a request", and a request has no error
        # ([X] 3.3): an error class without a code.
        why.add('bad error class')
    if req and not single and \
            not SHIFT_MIN <= h['dgram_shift'] <= SHIFT_MAX:
        why.add('bad datagram size')            # [X] 3.4, 3.7.2
    if req and plen > SIZE_REQUEST:
        why.add('payload too large')            # MTP_SIZE_REQUEST
    if req and h['options'] & OPT_SUPPRESSED and plen:
        why.add('payload too large')            # "header only" ([X] 3.5)
    if not req and h['error'] == ERR_NONE and not single and \
            plen > SIZE_RESPONSE:
        why.add('payload too large')            # MTP_SIZE_RESPONSE
    if ERR_NONE < h['error'] <= ERR_ROUTE and \
            h['response'] != RES_REQUEST and plen > PROJECT_MAX_ERRTEXT:
        why.add('payload too large')            # the project's, see above
    if single or h['error'] != ERR_NONE:
        return why              # address and rsize are opaque
    if req:
        if not is_close(h) and h['address'] + h['rsize'] > 1 << 32:
            why.add('bad address range')        # objects <= 2^32 bytes
    elif h['address'] + plen > 1 << 32 or plen > h['rsize']:
        # A multi response's rsize is "the extent of the *entire* data
        # object starting at address", so its payload fits in it; a
        # stream's is the server's buffer, and "the client MTP will
        # assure that the range of requests outstanding ... does not
        # exceed rsize" (Ch VI, Server), so its payload fits in it too.
        why.add('bad address range')
    return why


# The order our printer shows the fields in (README.md), each with the
# header fields it needs; the line of a header cut short stops before the
# first field that was not captured.
SHOWN = (('kind', ('error', 'response')), ('id', ('reqid',)),
         ('act', ('action',)), ('flag', ('flag',)), ('ch', ('channel',)),
         ('addr', ('address',)), ('rsize', ('rsize',)),
         ('limit', ('limit',)), ('opts', ('options',)),
         ('token', ('token',)), ('appver', ('appversion',)), ('shift', ('dgram_shift',)),
         ('tag', ('tag',)))


VERBOSE_ONLY = ('appver', 'shift', 'tag')


def decode(udp_payload_captured, msg_len, verbose):
    """The reference's fields of one datagram as tcpdump shows them at -n
    (verbose False) or -nv: a dict; when the capture stops before the
    last header byte that verbosity shows (the tag at -nv; the limit at
    -n), 'cut' lists the fields shown, those captured in order up to the
    first missing one (the options only when not zero)."""
    b = udp_payload_captured
    if msg_len < HDR:
        return {'short': msg_len, 'reason': 'truncated'}
    if len(b) < 1:
        return {'cut': []}
    if b[0] != MTP_VERSION:
        return {'version': b[0], 'reason': 'bad version'}
    if len(b) > 2 and b[2] & OPT_TOKEN and msg_len < HDR + TOKEN_LEN:
        # The token announced is part of the header: too short for it.
        return {'short': msg_len, 'reason': 'truncated'}
    h = header(b)
    tok = has_token(h)
    hlen = HDR + (TOKEN_LEN if tok else 0)
    plen = msg_len - hlen
    # The token is shown at every verbosity, before the -v fields.
    need = hlen if verbose or tok else \
        FIELD['limit'][0] + FIELD['limit'][1]
    d = shown(h, plen)
    if len(b) < need:
        cut = []
        for name, fields in SHOWN:
            if name in VERBOSE_ONLY and not verbose:
                continue
            if name == 'token' and not tok:
                continue
            if not all(f in h for f in fields):
                break
            if name != 'opts' or h['options']:
                cut.append(name)
        return {'cut': cut, **{k: d[k] for k in cut}}
    d['length'] = plen
    d['reason'] = malformed(h, plen)
    return d


def shown(h, plen):
    d = {}
    if 'response' in h:
        d['kind'] = kind(h)
    for word, field, fmt in (('id', 'reqid', '%08x'), ('act', 'action', None),
                             ('flag', 'flag', '%d'),
                             ('ch', 'channel', '%08x'),
                             ('addr', 'address', '%d'),
                             ('rsize', 'rsize', '%d'),
                             ('appver', 'appversion', '%d'),
                             ('shift', 'dgram_shift', '%d'),
                             ('tag', 'tag', '%d')):
        if field in h:
            v = h[field]
            d[word] = ACTIONS.get(v, str(v)) if fmt is None else fmt % v
    if 'limit' in h:
        d['limit'] = str(h['limit'] * LIMIT_UNIT)
    if 'token' in h:
        d['token'] = '%016x' % h['token']
    if 'options' in h:
        d['opts'] = h['options']
    if all(f in h for f in ('error', 'response', 'options',
                            'address', 'rsize')):
        d['close'] = is_close(h)
    return d


# --- captures ----------------------------------------------------------------

def packets(path):
    """(captured bytes from the network layer, ethertype-ish 4/6/None)."""
    with open(path, 'rb') as f:
        data = f.read()
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        e = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        e = '>'
    else:
        raise SystemExit('%s: not a pcap file' % path)
    link = struct.unpack(e + 'I', data[20:24])[0] & 0x0fffffff
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(e + 'I', data[off + 8:off + 12])[0]
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        yield network(link, pkt)


def network(link, p):
    if link == 1:                       # Ethernet, maybe 802.1Q
        t, o = struct.unpack('>H', p[12:14])[0] if len(p) >= 14 else 0, 14
        while t in (0x8100, 0x88a8) and len(p) >= o + 4:
            t, o = struct.unpack('>H', p[o + 2:o + 4])[0], o + 4
        return p[o:] if t in (0x0800, 0x86dd) else b''
    if link in (101, 228, 229, 12, 14):   # raw IP
        return p
    if link == 113:                     # Linux cooked
        return p[16:] if p[14:16] in (b'\x08\x00', b'\x86\xdd') else b''
    if link == 276:                     # Linux cooked v2
        return p[20:] if p[0:2] in (b'\x08\x00', b'\x86\xdd') else b''
    if link in (0, 108):                # BSD loopback
        return p[4:]
    return b''


def udp_of(ip):
    """(captured UDP payload, message length) or None: not UDP, not the
    first fragment, or a UDP length below its header."""
    if len(ip) < 1:
        return None
    v = ip[0] >> 4
    if v == 4 and len(ip) >= 20:
        ihl = (ip[0] & 15) * 4
        total = struct.unpack('>H', ip[2:4])[0]
        if ip[9] != 17 or struct.unpack('>H', ip[6:8])[0] & 0x1fff:
            return None
        start, iplen = ihl, total - ihl
    elif v == 6 and len(ip) >= 40:
        if ip[6] != 17:                 # no extension headers here
            return None
        start, iplen = 40, struct.unpack('>H', ip[4:6])[0]
    else:
        return None
    if iplen < 8:
        return None
    u = ip[start:start + iplen]         # not the bytes past IP's length
    if len(u) < 8:
        return None
    ulen = struct.unpack('>H', u[4:6])[0]
    if ulen < 8:
        return None
    size = min(ulen, iplen)
    return u[8:size], size - 8


# --- our tcpdump's lines, parsed back ----------------------------------------

TOKENS = re.compile(
    r'(?P<kind>request|reply code \d+|reply|pending|validate|error \S+)'
    r'|id (?P<id>[0-9a-f]{8})|act (?P<act>\S+)|flag (?P<flag>\d+)'
    r'|ch (?P<ch>[0-9a-f]{8})|addr (?P<addr>\d+)|rsize (?P<rsize>\d+)'
    r'|limit (?P<limit>\d+)|opts (?P<opts>\w+(?:,\w+)*)'
    r'|token (?P<token>[0-9a-f]{16})'
    r'|appver (?P<appver>\d+)|shift (?P<shift>\d+)|tag (?P<tag>\d+)'
    r'|(?P<close>close)|, length (?P<length>\d+)(?: "[^\n]*"?)?'
    r'|\((?P<reason>[a-z ]+)\)|(?P<cutmark>\[\|mtp\])')


def parse(text):
    """Fields of one 'MTP ...' text, or a string saying what is wrong."""
    m = re.fullmatch(r'MTP (\d+) bytes \(truncated\) \[\|mtp\]', text)
    if m:
        return {'short': int(m.group(1)), 'reason': 'truncated'}
    m = re.fullmatch(r'MTP version 0x([0-9a-f]{2}) \(bad version\) '
                     r'\[\|mtp\]', text)
    if m:
        return {'version': int(m.group(1), 16), 'reason': 'bad version'}
    if not text.startswith('MTP '):
        return 'not an MTP line: %s' % text
    rest, d, order = text[4:], {}, []
    while rest:
        rest = rest.lstrip(' ')
        m = TOKENS.match(rest)
        if not m:
            return 'cannot read "%s"' % rest
        for k, v in m.groupdict().items():
            if v is not None and k in ('kind', 'id', 'act', 'flag', 'ch',
                                       'addr', 'rsize', 'limit', 'opts',
                                       'appver', 'shift', 'tag', 'close',
                                       'length', 'reason', 'cutmark',
                                       'token'):
                if k in d:
                    return 'field %s twice' % k
                d[k] = v
                order.append(k)
                break
        rest = rest[m.end():]
    if 'opts' in d:
        bits = 0
        for w in d['opts'].split(','):
            if w in OPT_WORDS:
                bits |= OPT_WORDS[w]
            elif re.fullmatch(r'0x[0-9a-f]+', w):
                bits |= int(w, 16)
            else:
                return 'unknown option %s' % w
        d['opts'] = bits
    else:
        d['opts'] = 0
    d['close'] = 'close' in d
    if 'length' in d:
        d['length'] = int(d['length'])
    d['order'] = order
    return d


def tcpdump_records(tcpdump, opts, pcap):
    """One text per packet (tcpdump -# numbers them), its MTP part or ''."""
    out = subprocess.run([tcpdump, '-#', '-T', 'mtp'] + opts + ['-r', pcap],
                         capture_output=True, text=True,
                         env={'TZ': 'GMT0', 'LC_ALL': 'C'}).stdout
    recs = []
    for line in out.splitlines():
        m = re.match(r'^\s*(\d+)  ', line)
        if m and int(m.group(1)) == len(recs) + 1:
            recs.append(line)
        elif recs:
            recs[-1] += '\n' + line
    res = []
    for r in recs:
        m = re.search(r'(?:: |\] )(MTP( [^\n]*)?)$', r, re.S)
        res.append(m.group(1) if m else '')
    return res


def compare(want, got, verbose):
    """None when tcpdump's fields (got) are the reference's (want)."""
    if isinstance(got, str):
        return got
    if 'short' in want or 'version' in want:
        diff = [k for k in ('short', 'version', 'reason')
                if want.get(k) != got.get(k)]
        return None if not diff else '; '.join(
            '%s: reference %s, tcpdump %s' % (k, want.get(k, '-'),
                                              got.get(k, '-')) for k in diff)
    if 'short' in got or 'version' in got:
        return 'tcpdump printed %s, reference decodes a header' % (
            'a short datagram' if 'short' in got else 'a bad version')
    keys = ['kind', 'id', 'act', 'flag', 'ch', 'addr', 'rsize', 'limit',
            'opts']
    if 'token' in want or 'token' in got:
        keys.append('token')
    if verbose:
        keys += ['appver', 'shift', 'tag']
    if 'cut' in want:
        # Cut inside the header: exactly the captured leading fields.
        cut = want['cut']
        printed = [k for k in got['order'] if k != 'cutmark']
        if 'cutmark' not in got:
            return 'header cut at capture, tcpdump does not say [|mtp]'
        if printed != cut:
            return 'cut header: reference shows %s, tcpdump %s' % (
                ' '.join(cut) or '-', ' '.join(printed) or '-')
        diff = [k for k in cut if want[k] != got.get(k, 0 if k == 'opts'
                                                      else None)]
        return None if not diff else '; '.join(
            '%s: reference %s, tcpdump %s' % (k, want[k], got.get(k))
            for k in diff)
    keys += ['length'] + (['close'] if verbose else [])
    diff = []
    for k in keys:
        w, g = want.get(k), got.get(k)
        if k == 'opts':
            w, g = '0x%02x' % w, '0x%02x' % g
        if w != g:
            diff.append('%s: reference %s, tcpdump %s' % (k, w, g))
    why, said = want['reason'], got.get('reason')
    if why and said not in why:
        diff.append('reason: reference %s, tcpdump %s' % (
            ' or '.join(sorted(why)), said))
    if not why and said:
        diff.append('reason: reference none, tcpdump %s' % said)
    if bool(why) != ('cutmark' in got):
        diff.append('[|mtp]: reference %s, tcpdump %s' % (
            'malformed' if why else 'well-formed',
            'has it' if 'cutmark' in got else 'has not'))
    return '; '.join(diff) or None


def cuts(src, dst):
    """Write dst (raw IP): every datagram of src that holds an MTP header,
    cut by the capture after each of the header's first 27 bytes, its
    original length kept; returns how many packets were written."""
    recs = []
    for ip in packets(src):
        u = udp_of(ip)
        if u is None or len(u[0]) < HDR:
            continue
        hdr = (ip[0] & 15) * 4 + 8 if ip[0] >> 4 == 4 else 48
        recs += [(ip, hdr + n) for n in range(HDR)]
    with open(dst, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 101))
        for i, (ip, n) in enumerate(recs):
            f.write(struct.pack('<IIII', i, 0, n, len(ip)) + ip[:n])
    return len(recs)


def check(tcpdump, pcap, names=None):
    """[(ok, name, why)] for each UDP datagram of pcap, or one line for the
    whole capture when tcpdump and the capture do not line up."""
    names = names or {}
    ips = list(packets(pcap))
    recs = {o: tcpdump_records(tcpdump, [o], pcap) for o in ('-nv', '-n')}
    base = pcap.rsplit('/', 1)[-1]
    for o, r in recs.items():
        if len(r) != len(ips):
            return [(0, base, 'tcpdump %s printed %d packets of %d' % (
                o, len(r), len(ips)))]
    res = []
    for i, ip in enumerate(ips):
        name = names.get(i + 1, 'packet_%d' % (i + 1))
        u = udp_of(ip)
        if u is None:
            if any(recs[o][i] for o in recs):
                res.append((0, name, 'not an MTP datagram, tcpdump '
                            'printed "%s"' % recs['-nv'][i]))
            continue
        why = None
        for o, verbose in (('-nv', True), ('-n', False)):
            why = compare(decode(*u, verbose), parse(recs[o][i])
                          if recs[o][i] else 'tcpdump printed no MTP line',
                          verbose)
            if why:
                why = '%s: %s' % (o, why)
                break
        res.append((1, name, None) if why is None else (0, name, why))
    return res


def main(argv):
    if len(argv) == 4 and argv[1] == '--cuts':
        print(cuts(argv[2], argv[3]))
        return 0
    if len(argv) == 3 and argv[1] == '--dump':
        for i, ip in enumerate(packets(argv[2]), 1):
            u = udp_of(ip)
            print(i, decode(*u, True) if u else '-')
        return 0
    if len(argv) >= 4 and argv[1] == '--summary':
        # One line per capture: 1/0, its path, how many datagrams agreed
        # or the first disagreements.
        for pcap in argv[3:]:
            res = check(argv[2], pcap)
            bad = [r for r in res if not r[0]]
            if res and not bad:
                print('1\t%s\t%d datagrams' % (pcap, len(res)))
            elif not res:
                print('0\t%s\tno UDP datagram in it' % pcap)
            else:
                print('0\t%s\t%d of %d disagree: %s' % (
                    pcap, len(bad), len(res),
                    ' | '.join('%s %s' % r[1:] for r in bad[:3])))
        return 0
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    names = {}
    if len(argv) == 4:
        with open(argv[3]) as f:
            for line in f:
                n, name = line.rstrip('\n').split('\t')
                names[int(n)] = name
    for ok, name, why in check(argv[1], argv[2], names):
        print('1\t%s' % name if ok else '0\t%s\t%s' % (name, why))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
