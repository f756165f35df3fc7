/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xtpsend and xtprecv: the Appendix A socket options as command-line
 * flags, and the Appendix B "Association Info" block printed from
 * XTPSOCK_MIBSTAT in the LinuxXTP thesis' layout.
 *
 * Header-only so each of the two stays a single compilation unit.
 */
#ifndef XTPOPTS_H
#define XTPOPTS_H

#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <linux/xtp.h>

struct xtpopt_name {
	const char *name;
	int value;
};

static const struct xtpopt_name xtpopt_assoc_names[] = {
	{ "s_d_t", XTP_ASSOC_S_D_T }, { "sdt", XTP_ASSOC_SDT },
	{ "sd_t", XTP_ASSOC_SD_T }, { "s_dt", XTP_ASSOC_S_DT }, { NULL, 0 },
};

static const struct xtpopt_name xtpopt_teardown_names[] = {
	{ "graceful", XTP_TEARDOWN_GRACEFUL }, { "abbrev", XTP_TEARDOWN_ABBREV },
	{ "forced", XTP_TEARDOWN_FORCED }, { "abort", XTP_TEARDOWN_ABORT },
	{ NULL, 0 },
};

static const struct xtpopt_name xtpopt_cc_names[] = {
	{ "scc", XTP_CC_SCC }, { "newreno", XTP_CC_NEWRENO },
	{ "veno", XTP_CC_VENO }, { "bbr", XTP_CC_BBR }, { NULL, 0 },
};

static const struct xtpopt_name xtpopt_tts_names[] = {
	{ "default", XTP_SERVICE_DEFAULT },
	{ "filetransfer", XTP_SERVICE_FILETRANSFER },
	{ "reqresp", XTP_SERVICE_REQRESP }, { NULL, 0 },
};

/* One Appendix A option: its long flag, socket option and value names. */
struct xtpopt_desc {
	const char *flag;
	int opt;
	int is_bool;
	const struct xtpopt_name *names;
	const char *help;
};

static const struct xtpopt_desc xtpopt_table[] = {
	{ "assoc", XTPSOCK_ASSOCTYPE, 0, xtpopt_assoc_names,
	  "association type: sdt, s_d_t, sd_t, s_dt or 1..4" },
	{ "ratecontrol", XTPSOCK_RATECONTROL, 1, NULL, "rate control (no effect)" },
	{ "tts", XTPSOCK_TTS, 0, xtpopt_tts_names,
	  "traffic service: default, filetransfer, reqresp or 1..3" },
	{ "maxdata", XTPSOCK_MAXDATA, 0, NULL, "largest DATA payload (25..1448)" },
	{ "ln-thresh", XTPSOCK_LN_THRESH, 0, NULL, "SCC linear threshold, bytes" },
	{ "init-trainsize", XTPSOCK_INIT_TRAINSIZE, 0, NULL,
	  "SCC initial window, bytes" },
	{ "teardown", XTPSOCK_TEARDOWNMETHOD, 0, xtpopt_teardown_names,
	  "graceful, abbrev, forced, abort or 1..4" },
	{ "service-profile", XTPSOCK_SERVICEPROFILE, 0, NULL,
	  "traffic segment service type" },
	{ "sreqfreq", XTPSOCK_SREQFREQ, 0, NULL, "SREQ every N DATA packets" },
	{ "nb-connect", XTPSOCK_NB_CONNECT, 1, NULL, "non-blocking connect()" },
	{ "rtt-nodecouple", XTPSOCK_RTT_NODECOUPLE, 1, NULL,
	  "no SREQ/EDGE decoupling" },
	{ "rtt-cache-size", XTPSOCK_RTT_CACHE_SIZE, 0, NULL, "RTT cache, 1..10" },
	{ "wtimer", XTPSOCK_WTIMER_TMO, 0, NULL, "WTIMER ms, 0 = from the RTT" },
	{ "ctimer", XTPSOCK_CTIMER_TMO, 0, NULL, "CTIMER keep-alive period ms" },
	{ "zombie", XTPSOCK_ZOMBIE_TMO, 0, NULL, "ZOMBIE lifetime ms" },
	{ "ctimeout", XTPSOCK_CTIMEOUT_TMO, 0, NULL, "CTIMEOUT ms" },
	{ "no-atmap-timer", XTPSOCK_NO_ATMAP_TIMER, 1, NULL,
	  "responder: no ATM replay timer" },
	{ "nocheck", XTPSOCK_NOCHECK, 1, NULL, "checksum over the header only" },
	/* Beyond Appendix A. */
	{ "cc", XTPSOCK_CONGESTION, 0, xtpopt_cc_names,
	  "congestion control: scc, newreno, veno, bbr or 1..4" },
	{ "fastnak", XTPSOCK_FASTNAK, 1, NULL,
	  "ask the peer for FASTNAK ECNTLs" },
};

#define XTPOPT_N (int)(sizeof(xtpopt_table) / sizeof(xtpopt_table[0]))
/* getopt_long values for the table's flags: 1000 + index. */
#define XTPOPT_BASE 1000

/* Options chosen on the command line, applied with xtpopt_apply(). */
struct xtpopt_set {
	int set[XTPOPT_N];
	int value[XTPOPT_N];
};

/* Fill @lo (room for XTPOPT_N entries) with the table's long options. */
static inline void xtpopt_longopts(struct option *lo)
{
	int i;

	for (i = 0; i < XTPOPT_N; i++) {
		lo[i].name = xtpopt_table[i].flag;
		lo[i].has_arg = xtpopt_table[i].is_bool ? no_argument :
			required_argument;
		lo[i].flag = NULL;
		lo[i].val = XTPOPT_BASE + i;
	}
}

/* Parse a number or one of @names; -1 on error. */
static inline int xtpopt_value(const char *s, const struct xtpopt_name *names,
			       int *out)
{
	char *end;
	long v;

	for (; names && names->name; names++)
		if (!strcasecmp(s, names->name)) {
			*out = names->value;
			return 0;
		}
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < 0 || v > 0x7fffffff)
		return -1;
	*out = (int)v;
	return 0;
}

/* getopt_long returned @c with @arg: 1 if it was one of ours, -1 if bad. */
static inline int xtpopt_parse(struct xtpopt_set *s, int c, const char *arg)
{
	int i = c - XTPOPT_BASE;

	if (i < 0 || i >= XTPOPT_N)
		return 0;
	if (xtpopt_table[i].is_bool) {
		s->value[i] = 1;
	} else if (xtpopt_value(arg, xtpopt_table[i].names, &s->value[i])) {
		fprintf(stderr, "bad value for --%s: %s\n",
			xtpopt_table[i].flag, arg);
		return -1;
	}
	s->set[i] = 1;
	return 1;
}

/*
 * Set the chosen options on @fd; the service goes first (it resets others).
 * On failure errno is the setsockopt()'s, e.g. ENOPROTOOPT from a module
 * that does not know the option.
 */
static inline int xtpopt_apply(int fd, const struct xtpopt_set *s)
{
	int pass, i, err;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < XTPOPT_N; i++) {
			if (!s->set[i] ||
			    (xtpopt_table[i].opt == XTPSOCK_TTS) != !pass)
				continue;
			if (setsockopt(fd, SOL_XTP, xtpopt_table[i].opt,
				       &s->value[i], sizeof(int))) {
				err = errno;
				fprintf(stderr, "setsockopt --%s=%d: %s\n",
					xtpopt_table[i].flag, s->value[i],
					strerror(err));
				errno = err;
				return -1;
			}
		}
	return 0;
}

static inline void xtpopt_usage(FILE *f)
{
	int i;

	fprintf(f, "XTP options (Appendix A and after, level SOL_XTP):\n");
	for (i = 0; i < XTPOPT_N; i++)
		fprintf(f, "  --%s%s\t%s\n", xtpopt_table[i].flag,
			xtpopt_table[i].is_bool ? "" : "=N",
			xtpopt_table[i].help);
}

/* The Appendix B block, as the thesis prints it (Fig. 22). */
static inline void xtp_print_mibstat(FILE *f, const struct xtp_mibstat *m)
{
	unsigned long long so, ri;

	so = m->fpk_out + m->dpk_out + m->dgpk_out + m->cpk_out +
	     m->tpk_out + m->epk_out;
	ri = m->fpk_in + m->dpk_in + m->dgpk_in + m->cpk_in +
	     m->tpk_in + m->epk_in;
	fprintf(f, "Association Info:\n");
	fprintf(f, "Assoc_type=%u Teardown_method=%u Service=%u\n",
		m->assoc_type, m->teardown_type, m->profile_type);
	fprintf(f, "Pk sent: F=%llu D=%llu DG=%llu C=%llu T=%llu E=%llu; "
		"Total=%llu (Re-transmit:DpkOut=%llu)\n",
		(unsigned long long)m->fpk_out, (unsigned long long)m->dpk_out,
		(unsigned long long)m->dgpk_out, (unsigned long long)m->cpk_out,
		(unsigned long long)m->tpk_out, (unsigned long long)m->epk_out,
		so, (unsigned long long)m->data_retransmits);
	fprintf(f, "Pk recv: F=%llu D=%llu DG=%llu C=%llu T=%llu E=%llu; "
		"Total=%llu\n",
		(unsigned long long)m->fpk_in, (unsigned long long)m->dpk_in,
		(unsigned long long)m->dgpk_in, (unsigned long long)m->cpk_in,
		(unsigned long long)m->tpk_in, (unsigned long long)m->epk_in,
		ri);
	fprintf(f, "Congestion Management:\n");
	fprintf(f, "FCwaits=%llu RCwaits=%llu\n",
		(unsigned long long)m->fc_wait, (unsigned long long)m->rc_wait);
	fprintf(f, "Sync=%llu Data_sreq_sent=%llu Rtt_updates=%llu Ack_freq=%u\n",
		(unsigned long long)m->sync,
		(unsigned long long)m->datasreq_sent,
		(unsigned long long)m->rtt_updates, m->sreq_freq);
	fprintf(f, "EdgeBit Set=%llu RTT_cache_size=%u\n",
		(unsigned long long)m->edgebit_set, m->rtt_cache_sz);
	fprintf(f, "Initial_trainsize=%u Final_trainsize=%u Cong_trainsize=%u\n",
		m->init_trainsize, m->trainsize, m->cong_trainsize);
	fprintf(f, "Linear_threshold=%u Linear_count=%u\n",
		m->linear_thresh, m->linear_count);
	fprintf(f, "Exp Inc=%llu Exp Dec=%llu Lin Inc=%llu Lin Dec=%llu\n",
		(unsigned long long)m->xp_inc, (unsigned long long)m->xp_dec,
		(unsigned long long)m->lin_inc, (unsigned long long)m->lin_dec);
	fprintf(f, "XTP Timers:\n");
	fprintf(f, "wtimerTMO=%u ctimerTMO=%u ctimeoutTMO=%u zombieTMO=%u\n",
		m->wtimer_tmo, m->ctimer_tmo, m->ctimeout_tmo, m->zombie_tmo);
	fprintf(f, "HandShake=%llu\n", (unsigned long long)m->handshakes);
	/* Not in the thesis: this implementation's extra metrics. */
	fprintf(f, "Bytes sent=%llu recv=%llu SRTT=%uus RTTVAR=%uus\n",
		(unsigned long long)m->bytes_sent,
		(unsigned long long)m->bytes_received, m->srtt_us, m->rttvar_us);
}

static inline const char *xtp_cc_name(unsigned int cc)
{
	const struct xtpopt_name *n;

	if (!cc)
		return "none";
	for (n = xtpopt_cc_names; n->name; n++)
		if (n->value == (int)cc)
			return n->name;
	return "unknown";
}

/*
 * One line after the block for the tail beyond the thesis: the congestion
 * controller, losses ECNTLs reported, duplicate DATA received, pacing rate
 * (bytes per second, 0 = not paced), then the least RTT and the window cuts
 * Veno took for random loss.  @len is what getsockopt returned: a module
 * built before these fields gives a shorter struct.
 */
static inline void xtp_print_mibstat_cc(FILE *f, const struct xtp_mibstat *m,
					socklen_t len)
{
	if (len < offsetof(struct xtp_mibstat, pacing_rate) +
		  sizeof(m->pacing_rate)) {
		fprintf(f, "Congestion: not reported by this module\n");
		return;
	}
	fprintf(f, "Congestion: cc=%s ecntl_losses=%llu dup_data_in=%llu "
		"pacing_rate=%llu", xtp_cc_name(m->cc),
		(unsigned long long)m->ecntl_losses,
		(unsigned long long)m->dup_data_in,
		(unsigned long long)m->pacing_rate);
	if (len >= offsetof(struct xtp_mibstat, random_losses) +
		   sizeof(m->random_losses))
		fprintf(f, " min_rtt=%uus random_losses=%llu", m->min_rtt_us,
			(unsigned long long)m->random_losses);
	fputc('\n', f);
}

/* getsockopt(XTPSOCK_MIBSTAT) and print; -1 on error. */
static inline int xtp_show_mibstat(FILE *f, int fd)
{
	struct xtp_mibstat m;
	socklen_t len = sizeof(m);

	memset(&m, 0, sizeof(m));
	if (getsockopt(fd, SOL_XTP, XTPSOCK_MIBSTAT, &m, &len)) {
		fprintf(stderr, "getsockopt XTPSOCK_MIBSTAT: %s\n",
			strerror(errno));
		return -1;
	}
	xtp_print_mibstat(f, &m);
	xtp_print_mibstat_cc(f, &m, len);
	return 0;
}

#endif /* XTPOPTS_H */
