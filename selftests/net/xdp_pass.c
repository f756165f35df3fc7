// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_pass: attach an XDP program that passes every packet, in generic
 * (skb) mode, to a device, for as long as this process lives.
 *
 *   xdp_pass DEV     prints "attached" once it is, then waits for a signal
 *
 * The program is two instructions loaded with bpf(2) and attached with a
 * BPF link, so no compiler for BPF and no bpffs are needed.  Generic XDP
 * copies a nonlinear skb before its program runs (skb_cow_data_for_xdp()):
 * what the tests want to see the receiver survive.
 */
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/if_link.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	/* r0 = XDP_PASS; exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;
	unsigned int ifindex;
	int prog, link;

	if (argc != 2) {
		fprintf(stderr, "usage: xdp_pass DEV\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "error: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (unsigned long)"GPL";
	attr.log_buf = (unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0) {
		fprintf(stderr, "error: BPF_PROG_LOAD: %s\n%s", strerror(errno),
			log);
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.target_ifindex = ifindex;
	attr.link_create.attach_type = BPF_XDP;
	attr.link_create.flags = XDP_FLAGS_SKB_MODE;
	link = sys_bpf(BPF_LINK_CREATE, &attr);
	if (link < 0) {
		fprintf(stderr, "error: BPF_LINK_CREATE: %s\n", strerror(errno));
		return 1;
	}
	printf("attached\n");
	fflush(stdout);
	/* The link, and with it the program, goes when this process does. */
	pause();
	return 0;
}
