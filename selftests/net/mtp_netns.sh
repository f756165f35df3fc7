#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Namespaces deleted under live MTP transactions: transfers under netem
# loss and delay (client repeat timers pending, server records and their
# garbage-collection timer alive) and a client repeating to a server that
# never answers.  Both namespaces are deleted and their processes killed
# at once; then every MTP socket is gone (the module's reference count
# drops to 0), rmmod mtp succeeds, the module's caches held nothing, and
# the kernel log has no warning.  The module is loaded again at the end.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-netns
S=198.18.0.1
C=198.18.0.2
PORT=8080

cleanup() {
	mtp_ns_cleanup
	rm -rf "$out/files"
	modprobe mtp 2>/dev/null
}
trap cleanup EXIT

port_open() { mtp_port_open "$@"; }
live() {
	[ "$(ssnmp SrvRecords)" -gt 0 ] &&
	[ "$(csnmp TxnStarted)" -ge 4 ] &&
	[ "$(csnmp OutRepeats)" -gt 0 ] &&
	[ "$(csnmp TxnStarted)" -gt "$(csnmp TxnDone)" ]
}
refcnt() { cat /sys/module/mtp/refcnt 2>/dev/null; }

ktap_print_header
ktap_set_plan 6

mkdir -p "$out/files"
head -c 4194304 /dev/urandom >"$out/files/4m"
modprobe mtp
dmesg_mark="mtp_netns $$ start"
echo "$dmesg_mark" >/dev/kmsg

mtp_ns_setup mtn &&
ns_s tc qdisc replace dev vs root netem delay 50ms loss 20% &&
ns_c tc qdisc replace dev vc root netem delay 50ms loss 20%
ktap_check "two namespaces joined by a lossy veth pair" '[ $? -eq 0 ]'

ns_s "$B/mtpd" -q -p $PORT "$out/files" &
wait_for 20 port_open $PORT
# Three transfers that cannot finish soon, one request nobody answers.
for i in 1 2 3; do
	ns_c "$B/mtpget" -e 60000 -p $PORT -o /dev/null $S 4m \
		>/dev/null 2>&1 &
done
ns_c "$B/mtpget" -r 500 -e 60000 -p 9 -o /dev/null $S 4m >/dev/null 2>&1 &
wait_for 60 live
ktap_check "transactions are live on both sides (server records $(ssnmp SrvRecords), client repeats $(csnmp OutRepeats))" \
	'live'

# Delete the namespaces and kill what runs in them in one go.
pids="$(ip netns pids $MTP_SRV) $(ip netns pids $MTP_CLI)"
ip netns del $MTP_SRV
ip netns del $MTP_CLI
kill -9 $pids 2>/dev/null
for p in $pids; do
	wait "$p" 2>/dev/null
done
# Sockets are freed after an RCU grace period; each held the module.
wait_for 60 sh -c '[ "$(cat /sys/module/mtp/refcnt)" = 0 ]'
ktap_check "every MTP socket is gone (module refcount $(refcnt))" \
	'[ "$(refcnt)" = 0 ]'
rmmod mtp
ktap_check "rmmod mtp succeeds" '[ $? -eq 0 ] && ! module_loaded mtp'
bad=$(dmesg | sed -n "/$dmesg_mark/,\$p" |
	grep -E 'BUG|WARNING|Oops|leak|still has objects|refcount_t|unregister_netdevice: waiting')
echo "${bad:-}" | sed '/^$/d; s/^/# /'
ktap_check "kernel log is clean since the test began" '[ -z "$bad" ]'
modprobe mtp
ktap_check "the module loads again" 'module_loaded mtp'
ktap_finished
