// SPDX-License-Identifier: GPL-2.0
/*
 * The thesis traces as data.  Each row is one printed line; "text" keeps the
 * line (OCR repaired: d1->dl, a1->al, t1->tl, in0*RTN->in0+RTN, FOM->EOM;
 * Fig. 44's "dh:192.200.200.100" is the server, 192.200.200.200).  Figures:
 *
 *   fig8   SDT, 1000 bytes (p. 45)                       4 packets
 *   fig10  S_D_T, 1000 bytes (p. 46-47)                  8 packets
 *   fig42  finger, S_D_T + AbbrevClose (p. 101)         10 packets
 *   fig44  xft FILETRANSFER, 5000 bytes (p. 103)         8 packets
 *   fig45  xft FILETRANSFER, 1000 bytes (p. 104)         3 packets
 */
#include "golden.h"
#include "testlib.h"

#include <arpa/inet.h>

#define C2S	true
#define S2C	false
#define RTN	true
#define NORTN	false

/*
 * Option masks and packet types written out here rather than taken from
 * wire.h, so a wrong constant there cannot hide from the golden tests
 * (extraction section 1.2/1.3: COMMAND bits 31..16, PFORMAT in bits 4..0).
 */
#define O_END	0x00020000
#define O_EOM	0x00040000
#define O_WCL	0x00080000
#define O_RCL	0x00100000
#define O_SRQ	0x00400000

#define D_	0
#define C_	1
#define F_	2
#define T_	5

#define HDR(f, n, dir, pf, k, r, dl, sy, sq, opt)			\
	.fig = (f), .no = (n), .c2s = (dir), .pformat = (pf), .key = (k),	\
	.rtn = (r), .dlen = (dl), .sync = (sy), .seq = (sq), .options = (opt)
#define CTL(rq, al, ec)	.rseq = (rq), .alloc = (al), .echo = (ec)
#define PORTS(dp, sp)	.dport = (dp), .sport = (sp)

const struct golden_pkt golden[] = {
	/* Figure 8: SDT */
	{ HDR("fig8", 1, C2S, F_, 1255, NORTN, 1024, 1, 90000,
	      O_EOM | O_WCL | O_SRQ), PORTS(9999, 64008),
	  .text = "F ky1255 in0 dl1024 sy1 sq90000 EOM WCL SRQ al16 ad9216 af256 dp9999 dh:192.200.200.200 sp64008 sh:192.100.100.100 tl8 sv4 tf0" },
	{ HDR("fig8", 2, S2C, T_, 1255, RTN, 40, 0, 0, O_RCL),
	  CTL(1024, 91024, 1), .xkey = 1324,
	  .text = "T ky1255 in0+RTN dl40 sy0 sq0 RCL rq1024 al91024 ec1 xk1324 tl8 sv4 tf0" },
	{ HDR("fig8", 3, S2C, C_, 1255, RTN, 20, 1, 0, O_WCL | O_RCL | O_SRQ),
	  CTL(1024, 91024, 1),
	  .text = "C ky1255 in0+RTN dl20 sy1 sq0 WCL RCL SRQ rq1024 al91024 ec1" },
	{ HDR("fig8", 4, C2S, C_, 1324, RTN, 20, 1, 1024, O_END | O_WCL | O_RCL),
	  CTL(0, 90000, 1),
	  .text = "C ky1324 in0+RTN dl20 sy1 sq1024 END WCL RCL rq0 al90000 ec1" },

	/* Figure 10: S_D_T */
	{ HDR("fig10", 1, C2S, F_, 1258, NORTN, 24, 1, 90000, O_SRQ),
	  PORTS(9999, 64776),
	  .text = "F ky1258 in0 dl24 sy1 sq90000 SRQ al16 ad9216 af256 dp9999 dh:192.200.200.200 sp64776 sh:192.100.100.100 tl8 sv4 tf0" },
	{ HDR("fig10", 2, S2C, T_, 1258, RTN, 40, 0, 0, 0),
	  CTL(24, 90024, 1), .xkey = 1327,
	  .text = "T ky1258 in0+RTN dl40 sy0 sq0 rq24 al90024 ec1 xk1327 tl8 sv4 tf0" },
	{ HDR("fig10", 3, C2S, D_, 1327, RTN, 1000, 2, 24, O_EOM | O_SRQ),
	  .text = "D ky1327 in0+RTN dl1000 sy2 sq24 EOM SRQ" },
	{ HDR("fig10", 4, S2C, C_, 1258, RTN, 20, 0, 0, 0),
	  CTL(1024, 91024, 2),
	  .text = "C ky1258 in0+RTN dl20 sy0 sq0 rq1024 al91024 ec2" },
	{ HDR("fig10", 5, C2S, C_, 1327, RTN, 20, 3, 1024, O_WCL | O_SRQ),
	  CTL(0, 90000, 0),
	  .text = "C ky1327 in0+RTN dl20 sy3 sq1024 WCL SRQ rq0 al90000 ec0" },
	{ HDR("fig10", 6, S2C, C_, 1258, RTN, 20, 0, 0, O_RCL),
	  CTL(1024, 91024, 3),
	  .text = "C ky1258 in0+RTN dl20 sy0 sq0 RCL rq1024 al91024 ec3" },
	{ HDR("fig10", 7, S2C, C_, 1258, RTN, 20, 1, 0, O_WCL | O_RCL | O_SRQ),
	  CTL(1024, 91024, 3),
	  .text = "C ky1258 in0+RTN dl20 sy1 sq0 WCL RCL SRQ rq1024 al91024 ec3" },
	{ HDR("fig10", 8, C2S, C_, 1327, RTN, 20, 3, 1024,
	      O_END | O_WCL | O_RCL),
	  CTL(0, 90000, 1),
	  .text = "C ky1327 in0+RTN dl20 sy3 sq1024 END WCL RCL rq0 al90000 ec1" },

	/* Figure 42: finger over XTP */
	{ HDR("fig42", 1, C2S, F_, 103, NORTN, 24, 1, 90000, O_SRQ),
	  PORTS(79, 4),
	  .text = "F ky103 in0 dl24 sy1 sq90000 SRQ al16 ad9216 af256 dp79 dh:192.200.200.200 sp4 sh:192.100.100.100 tl8 sv4 tf0" },
	{ HDR("fig42", 2, S2C, T_, 103, RTN, 40, 0, 0, 0),
	  CTL(24, 90024, 1), .xkey = 106,
	  .text = "T ky103 in0+RTN dl40 sy0 sq0 rq24 al90024 ec1 xk106 tl8 sv4 tf0" },
	{ HDR("fig42", 3, C2S, D_, 106, RTN, 3, 2, 24, O_EOM | O_SRQ),
	  .text = "D ky106 in0+RTN dl3 sy2 sq24 EOM SRQ" },
	{ HDR("fig42", 4, S2C, C_, 103, RTN, 20, 0, 0, 0),
	  CTL(27, 90027, 2),
	  .text = "C ky103 in0+RTN dl20 sy0 sq0 rq27 al90027 ec2" },
	{ HDR("fig42", 5, C2S, D_, 106, RTN, 2, 3, 27, O_EOM | O_SRQ),
	  .text = "D ky106 in0+RTN dl2 sy3 sq27 EOM SRQ" },
	{ HDR("fig42", 6, S2C, C_, 103, RTN, 20, 0, 0, 0),
	  CTL(29, 90029, 3),
	  .text = "C ky103 in0+RTN dl20 sy0 sq0 rq29 al90029 ec3" },
	{ HDR("fig42", 7, S2C, D_, 103, RTN, 1414, 1, 0, O_EOM | O_SRQ),
	  .text = "D ky103 in0+RTN dl1414 sy1 sq0 EOM SRQ" },
	{ HDR("fig42", 8, C2S, C_, 106, RTN, 20, 3, 29, 0),
	  CTL(1414, 91414, 1),
	  .text = "C ky106 in0+RTN dl20 sy3 sq29 rq1414 al91414 ec1" },
	{ HDR("fig42", 9, S2C, C_, 103, RTN, 20, 2, 1414, O_WCL | O_SRQ),
	  CTL(29, 90029, 3),
	  .text = "C ky103 in0+RTN dl20 sy2 sq1414 WCL SRQ rq29 al90029 ec3" },
	{ HDR("fig42", 10, C2S, C_, 106, RTN, 20, 3, 29, O_END | O_RCL),
	  CTL(1414, 91414, 2),
	  .text = "C ky106 in0+RTN dl20 sy3 sq29 END RCL rq1414 al91414 ec2" },

	/* Figure 44: xft, FILETRANSFER service, 5000 bytes */
	{ HDR("fig44", 1, C2S, F_, 248, NORTN, 1448, 1, 0, O_RCL | O_SRQ),
	  PORTS(9998, 4),
	  .text = "F ky248 in0 dl1448 sy1 sq0 RCL SRQ al16 ad9216 af256 dp9998 dh:192.200.200.200 sp4 sh:192.100.100.100 tl8 sv4 tf0" },
	{ HDR("fig44", 2, S2C, T_, 248, RTN, 40, 0, 0, O_WCL),
	  CTL(1448, 91448, 1), .xkey = 148,
	  .text = "T ky248 in0+RTN dl40 sy0 sq0 WCL rq1448 al91448 ec1 xk148 tl8 sv4 tf0" },
	{ HDR("fig44", 3, C2S, D_, 148, RTN, 1448, 1, 1448, O_RCL),
	  .text = "D ky148 in0+RTN dl1448 sy1 sq1448 RCL" },
	{ HDR("fig44", 4, C2S, D_, 148, RTN, 1448, 2, 2896, O_RCL | O_SRQ),
	  .text = "D ky148 in0+RTN dl1448 sy2 sq2896 RCL SRQ" },
	{ HDR("fig44", 5, S2C, C_, 248, RTN, 20, 0, 0, O_WCL),
	  CTL(4344, 94344, 2),
	  .text = "C ky248 in0+RTN dl20 sy0 sq0 WCL rq4344 al94344 ec2" },
	{ HDR("fig44", 6, C2S, D_, 148, RTN, 680, 3, 4344,
	      O_EOM | O_WCL | O_RCL | O_SRQ),
	  .text = "D ky148 in0+RTN dl680 sy3 sq4344 EOM WCL RCL SRQ" },
	{ HDR("fig44", 7, S2C, C_, 248, RTN, 20, 0, 0, O_WCL | O_RCL),
	  CTL(5024, 95024, 3),
	  .text = "C ky248 in0+RTN dl20 sy0 sq0 WCL RCL rq5024 al95024 ec3" },
	{ HDR("fig44", 8, C2S, C_, 148, RTN, 20, 3, 5024,
	      O_END | O_WCL | O_RCL),
	  CTL(0, 90000, 0),
	  .text = "C ky148 in0+RTN dl20 sy3 sq5024 END WCL RCL rq0 al90000 ec0" },

	/* Figure 45: xft, FILETRANSFER service, 1000 bytes */
	{ HDR("fig45", 1, C2S, F_, 306, NORTN, 1024, 1, 0,
	      O_EOM | O_WCL | O_RCL | O_SRQ), PORTS(9998, 4),
	  .text = "F ky306 in0 dl1024 sy1 sq0 EOM WCL RCL SRQ al16 ad9216 af256 dp9998 dh:192.200.200.200 sp4 sh:192.100.100.100 tl8 sv4 tf0" },
	{ HDR("fig45", 2, S2C, T_, 306, RTN, 40, 0, 0, O_WCL | O_RCL),
	  CTL(1024, 91024, 1), .xkey = 206,
	  .text = "T ky306 in0+RTN dl40 sy0 sq0 WCL RCL rq1024 al91024 ec1 xk206 tl8 sv4 tf0" },
	{ HDR("fig45", 3, C2S, C_, 206, RTN, 20, 1, 1024,
	      O_END | O_WCL | O_RCL),
	  CTL(0, 90000, 0),
	  .text = "C ky206 in0+RTN dl20 sy1 sq1024 END WCL RCL rq0 al90000 ec0" },
};

const unsigned int golden_count = ARRAY_SIZE(golden);

void golden_build(const struct golden_pkt *g, struct xtp_wire_pkt *pkt,
		  u8 *data)
{
	u32 n = 0, i;

	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr.key = g->key | (g->rtn ? XTP_KEY_RETURN : 0);
	pkt->hdr.options = g->options;
	pkt->hdr.pformat = g->pformat;
	pkt->hdr.sync = g->sync;
	pkt->hdr.seq = g->seq;
	pkt->ctl.rseq = g->rseq;
	pkt->ctl.alloc = g->alloc;
	pkt->ctl.echo = g->echo;
	pkt->ctl.xkey = g->xkey;

	switch (g->pformat) {
	case F_:
		pkt->addr.adomain = GOLDEN_ADOMAIN;
		pkt->addr.aformat = GOLDEN_AFORMAT;
		pkt->addr.dsthost.v4 = inet_addr(GOLDEN_SERVER);
		pkt->addr.srchost.v4 = inet_addr(GOLDEN_CLIENT);
		pkt->addr.dstport = g->dport;
		pkt->addr.srcport = g->sport;
		n = g->dlen - GOLDEN_ALEN - GOLDEN_TLEN;
		/* fall through */
	case T_:
		pkt->traffic.service = GOLDEN_SERVICE;
		pkt->traffic.tformat = GOLDEN_TFORMAT;
		break;
	case D_:
		n = g->dlen;
		break;
	}
	for (i = 0; i < n; i++)
		data[i] = (u8)('a' + (g->seq + i) % 26);
	pkt->data = n ? data : NULL;
	pkt->data_len = n;
}
