#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ss with the project's patch series (tools/iproute2, `make iproute2`),
# against the kernel: `ss --xtp` lists the contexts /proc/net/xtp/contexts
# lists (listening, active and zombie, same addresses and states), its
# state and port filters select what /proc says they should, -i shows
# each context's key, -p its process, -m its memory, -K is refused and
# leaves the context alive; `ss --mtp` lists MTP sockets with their
# process, where UDP's listing shows only the port's kernel socket.
set -u
. "$(dirname "$0")/lib.sh"

SS=$XTP_TOP/build/iproute2/ss
OUT=${XTP_OUT:-/tmp}/xtp_ss
NS=xtpss-$$
mkdir -p "$OUT"

ktap_print_header
ktap_set_plan 12

# The namespace goes once its ZOMBIEs end (they hold it and the module);
# xtp_diag, which this test loaded, is unloaded now.
cleanup() {
	[ -n "${holder:-}" ] && kill "$holder" 2>/dev/null && wait "$holder"
	ip netns delete "$NS" 2>/dev/null
	! module_loaded xtp_diag || rmmod xtp_diag
}
trap cleanup EXIT

[ -x "$SS" ] || ktap_exit_fail_msg "no $SS: run make iproute2"
modprobe xtp && modprobe mtp || ktap_exit_fail_msg "modprobe failed"
ip netns add "$NS" && ip -n "$NS" link set lo up ||
	ktap_exit_fail_msg "namespace setup failed"
ns() { ip netns exec "$NS" "$@"; }
xss() { ns "$SS" "$@"; }

# A listener on 7701 with two associations: one carries 1000 bytes and
# stays, one is closed by both ends (its contexts go ZOMBIE for 120 s: the
# checks that need them come first, the debug kernel takes 15 s a check);
# and an MTP socket on 7702.  The process waits to be killed.
# ip netns exec execs python: $! is its pid.
ip netns exec "$NS" python3 -c '
import os, socket, time
X, XTP, M = 7, 36, 8
ls = socket.socket(socket.AF_INET, X, XTP)
ls.bind(("127.0.0.1", 7701))
ls.listen(8)
c = socket.socket(socket.AF_INET, X, XTP)
c.connect(("127.0.0.1", 7701))
s, _ = ls.accept()
c.sendall(b"x" * 1000)
got = 0
while got < 1000:
    got += len(s.recv(1000 - got))
c2 = socket.socket(socket.AF_INET, X, XTP)
c2.setsockopt(XTP, 15, 120000)   # XTPSOCK_ZOMBIE_TMO: 120 s
c2.connect(("127.0.0.1", 7701))
s2, _ = ls.accept()
s2.setsockopt(XTP, 15, 120000)
c2.close()
s2.close()
m = socket.socket(socket.AF_INET, M, 0)
m.bind(("127.0.0.1", 7702))
print(c.getsockname()[1], os.getpid(), flush=True)
time.sleep(300)
' >"$OUT/holder.out" 2>"$OUT/holder.err" &
holder=$!
wait_for 120 test -s "$OUT/holder.out" ||
	ktap_exit_fail_msg "holder did not start: $(cat "$OUT/holder.err")"
read -r cport pid <"$OUT/holder.out"
# The two ZOMBIE contexts appear once both ends have seen the close.
zombies() { ns grep -c ' ZOMBIE ' /proc/net/xtp/contexts; }
wait_for 30 test "$(zombies)" -ge 1

# /proc's contexts as "local peer STATE", in ss's words: ACTIVE is ESTAB,
# ZOMBIE TIME-WAIT, a peer port 0 "*".
proc_set() {
	ns awk 'NR > 1 {
		st = $3 == "ACTIVE" ? "ESTAB" : $3 == "ZOMBIE" ? "TIME-WAIT" : $3
		sub(/:0$/, ":*", $2)
		print $1, $2, st }' /proc/net/xtp/contexts | sort
}
# ss's XTP lines, same form (Netid column first as -t is asked too).
ss_set() {
	xss -HOtanie --xtp "$@" 2>/dev/null | awk '$1 == "xtp" { print $5, $6, $2 }' | sort
}
n=$(xss -Hn --xtp state time-wait | grep -c .)
z=$(zombies)
ktap_check "state time-wait selects the zombies ($n, /proc $z)" \
	'[ "$n" = "$z" ] && [ "$n" -ge 1 ]'
proc_set >"$OUT/proc.set"
ss_set >"$OUT/ss.set"
xss -Otanie --xtp >"$OUT/ss.out" 2>&1
ktap_check "ss --xtp -tanie lists what /proc lists ($(wc -l <"$OUT/ss.set") contexts, $(grep -c TIME-WAIT "$OUT/ss.set") zombie)" \
	'[ -s "$OUT/ss.set" ] && cmp -s "$OUT/proc.set" "$OUT/ss.set" &&
	 grep -q LISTEN "$OUT/ss.set" && grep -q ESTAB "$OUT/ss.set" &&
	 grep -q TIME-WAIT "$OUT/ss.set"'

n=$(xss -Hn --xtp state listening | grep -c .)
ktap_check "state listening selects the listener (lines $n)" \
	'[ "$n" = 1 ] && xss -Hn --xtp state listening | grep -q "127.0.0.1:7701 "'
n=$(xss -Hn --xtp state established | grep -c .)
ktap_check "state established selects the live association ($n)" \
	'[ "$n" = 2 ]'
want=$(ns awk 'NR > 1 && $1 ~ /:7701$/' /proc/net/xtp/contexts | grep -c .)
n=$(xss -Hna --xtp sport = :7701 | grep -c .)
ktap_check "sport = :7701 selects what /proc has on 7701 ($n, /proc $want)" \
	'[ "$n" = "$want" ] && [ "$n" -ge 2 ]'
n=$(xss -Hna --xtp dport = :7701 | grep -c .)
ktap_check "dport = :7701 selects the clients ($n)" \
	'[ "$n" -ge 1 ] && ! xss -Hna --xtp dport = :7701 | grep -q LISTEN'

# -i: the client's key is /proc's key column, its bytes counted.
pkey=$(ns awk -v p="127.0.0.1:$cport" '$1 == p { print $4 }' \
	/proc/net/xtp/contexts)
line=$(xss -HOnie --xtp sport = :"$cport" 2>/dev/null)
echo "$line" >"$OUT/info.out"
skey=$(echo "$line" | grep -o ' key:[0-9a-f]*' | cut -d: -f2)
cc=$(cc_name "$(ns sysctl -n net.xtp.cc)")
ktap_check "-i shows the key /proc shows (ss $skey, /proc $pkey), controller $cc" \
	'[ -n "$skey" ] && [ $((16#$skey)) = $((16#$pkey)) ] &&
	 echo "$line" | grep -q "bytes_sent:1000 " &&
	 echo "$line" | grep -q " $cc key:"'
ktap_check "-p names the process" \
	'xss -Hnp --xtp state listening | grep -q "users:((\"python3\",pid=$pid,"'
ktap_check "-m shows socket memory" \
	'xss -HOnm --xtp state listening | grep -q "skmem:(r"'

# -K: inet_diag refuses SOCK_DESTROY for XTP; the association lives on.
xss -HnK --xtp dport = :7701 >"$OUT/kill.out" 2>&1
rc=$?
ktap_check "-K is refused, the context stays ACTIVE (rc $rc)" \
	'[ $rc = 0 ] && ns grep -q "^127.0.0.1:$cport .* ACTIVE " /proc/net/xtp/contexts'

# MTP: its own listing, with the process; UDP shows the kernel socket.
line=$(xss -Hnpi --mtp)
echo "$line" >"$OUT/mtp.out"
ktap_check "ss --mtp lists the MTP socket with its process" \
	'echo "$line" | grep -q " 127.0.0.1:7702 .*users:((\"python3\",pid=$pid," &&
	 echo "$line" | grep -q "txns:0 records:0 cached:0" &&
	 [ "$(xss -Hn --mtp | grep -c .)" = 1 ]'
ktap_check "UDP's listing shows the port without a process" \
	'xss -Hnpua sport = :7702 | grep -q "127.0.0.1:7702" &&
	 ! xss -Hnpua sport = :7702 | grep -q users:'
ktap_finished
