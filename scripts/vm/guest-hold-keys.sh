#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM, before the first test: hold the static keys that the
# tests would otherwise switch on and off, test after test.
#
# Under QEMU's TCG with two vCPUs, the kernel's patching of its own text
# (text_poke_bp(): an int3 over the first byte, the new bytes, the first
# byte last) now and then leaves a vCPU to run the int3 after the patch
# is done: "Oops: int3" and a panic that ends the suite.  Seen in
# udp_destroy_sock(), when each MTP socket switched UDP's encapsulation
# key (mtp.ko holds it now), and in __schedule(), when a test's trace
# instance went away.  With a key held, a test's rule or qdisc only
# counts it.
#
#  - tracing: no task names (the top-level record-cmd option, which
#    instances inherit): the sched_switch probe that records them is the
#    key in __schedule() that lib.sh's trace_start() switched;
#  - netfilter: a base chain on each IPv4 and IPv6 hook (the tests' nft
#    tables in their own namespaces would switch nf_hooks_needed);
#  - tc: an ingress qdisc on lo (xtp_ingress_netem()'s ingress qdiscs).
#
# The chains and the qdisc sit in the VM's own namespace, whose traffic
# no test measures; they pass everything.
set -u
t=/sys/kernel/tracing
[ -d $t/options ] || mount -t tracefs nodev $t 2>/dev/null
echo 0 >$t/options/record-cmd ||
	echo "# hold-keys: record-cmd stays on; trace instances switch sched_switch"
nft -f - <<'NFT' || echo "# hold-keys: nft failed; tests switch netfilter's keys"
table inet xtp_vm_keys {
	chain prerouting { type filter hook prerouting priority 0; }
	chain input { type filter hook input priority 0; }
	chain forward { type filter hook forward priority 0; }
	chain output { type filter hook output priority 0; }
	chain postrouting { type filter hook postrouting priority 0; }
}
NFT
tc qdisc add dev lo ingress ||
	echo "# hold-keys: tc failed; tests switch the ingress key"
exit 0
