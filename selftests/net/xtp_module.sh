#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Module life cycle: autoload from socket(), /proc/net/protocols, unload
# refused while a socket is open, error unwind when loading fails half
# way, per-namespace state.
set -u
. "$(dirname "$0")/lib.sh"

unload_all() {
	for m in xtp_diag xtp mtp xtp_blocker; do
		module_loaded $m && rmmod $m
	done
	! module_loaded xtp && ! module_loaded mtp
}

ktap_print_header
ktap_set_plan 18

ktap_test_result "start with no XTP/MTP module loaded" unload_all

r=$(sockprobe inet $SOCK_XTP 0)
ktap_check "socket(AF_INET, SOCK_XTP, 0) autoloads xtp ($r)" \
	'[ "$r" = ok ] && module_loaded xtp' 
rmmod xtp
r=$(sockprobe inet $SOCK_XTP $IPPROTO_XTP)
ktap_check "socket(AF_INET, SOCK_XTP, IPPROTO_XTP) autoloads xtp ($r)" \
	'[ "$r" = ok ] && module_loaded xtp' 
# The types withxtp uses; their aliases once named the enumerators.
for t in 1:SOCK_STREAM 5:SOCK_SEQPACKET; do
	rmmod xtp
	r=$(sockprobe inet ${t%%:*} $IPPROTO_XTP)
	ktap_check "socket(AF_INET, ${t#*:}, IPPROTO_XTP) autoloads xtp ($r)" \
		'[ "$r" = ok ] && module_loaded xtp'
done

r=$(sockprobe inet $SOCK_MTP 0)
ktap_check "socket(AF_INET, SOCK_MTP, 0) autoloads mtp ($r)" \
	'[ "$r" = ok ] && module_loaded mtp' 

ktap_check "/proc/net/protocols lists XTP and MTP" \
	'grep -q "^XTP " /proc/net/protocols && grep -q "^MTP " /proc/net/protocols'

sockprobe inet $SOCK_XTP $IPPROTO_XTP -- rmmod xtp 2>/dev/null
r=$?
ktap_check "rmmod xtp is refused while a socket is open (rmmod: $r)" \
	'[ $r -ne 0 ] && module_loaded xtp'
sockprobe inet $SOCK_MTP 0 -- rmmod mtp 2>/dev/null
r=$?
ktap_check "rmmod mtp is refused while a socket is open (rmmod: $r)" \
	'[ $r -ne 0 ] && module_loaded mtp'


ktap_check "rmmod works once the sockets are closed" \
	'rmmod xtp && rmmod mtp && ! grep -qE "^(XTP|MTP) " /proc/net/protocols'

# Load failure half way: IP protocol 36 is taken by the blocker module.
modprobe xtp_blocker
dmesg -C 2>/dev/null
modprobe xtp 2>/dev/null
ktap_check "load fails when IP protocol 36 is taken" '! module_loaded xtp'
ktap_check "failed load leaves no proto, no /proc/net/xtp" \
	'! grep -q "^XTP " /proc/net/protocols && [ ! -e /proc/net/xtp ]'
ktap_check "failed load says why" \
	'dmesg | grep -q "IP protocol 36 is taken"'
rmmod xtp_blocker
ktap_test_result "load succeeds once protocol 36 is free" modprobe xtp

# Per-namespace state.
ns=xtpmod-$$
ip netns add $ns
n_in=$(ip netns exec $ns "$XTP_BINDIR/sockprobe" inet $SOCK_XTP 0 -- \
	awk '$1 == "XtpCurrSockets" { print $2 }' /proc/net/xtp/snmp)
n_out=$(snmp_get CurrSockets)
ktap_check "a namespace has its own /proc/net/xtp (in=$n_in init=$n_out)" \
	'[ "$n_in" = 1 ] && [ "$n_out" = 0 ]'
# The socket is open in the namespace (CurrSockets 1 there) before and
# after its name is deleted: the socket keeps the namespace alive; once
# sockprobe closes it the namespace goes, its XTP state with it, and the
# module's reference count returns to 0 (the unload below needs it).
csocks() { awk '$1 == "XtpCurrSockets" { printf "%s ", $2 }' /proc/net/xtp/snmp; }
export -f csocks
r=$(ip netns exec $ns "$XTP_BINDIR/sockprobe" inet $SOCK_XTP 0 -- \
	bash -c "csocks; ip netns delete $ns && csocks")
refcnt_zero() { [ "$(cat /sys/module/xtp/refcnt)" = 0 ]; }
wait_for 30 refcnt_zero
ktap_check "deleting a namespace with an open socket is fine (CurrSockets before, after: $r; refcnt $(cat /sys/module/xtp/refcnt))" \
	'[ "$r" = "1 1 " ] && [ ! -e /run/netns/$ns ] && [ -e /proc/net/xtp/snmp ] &&
	 refcnt_zero'
ktap_test_result "unload after namespace teardown" unload_all

r=$(sockprobe inet $SOCK_XTP 0 -- true)
ktap_test_result "reload after unload works" module_loaded xtp

ktap_finished
