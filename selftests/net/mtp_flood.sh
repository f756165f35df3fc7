#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A flood of MTP requests (thousands of distinct transaction ids from many
# UDP sockets) against one mtpd: the server's kept state (records and
# cached answers, /proc/net/mtp/snmp gauges) stays within its sysctl
# bounds, all sockets together keep no more answers than the module's
# cache_total_bytes, kernel memory does not grow with the flood, a legitimate
# transfer running through the flood completes sha256-equal, and every
# record is forgotten once the flood stops.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-flood
S=198.18.0.1
C=198.18.0.2
PORT=8080
NREQ=${MTP_FLOOD_REQS:-6000}
MAXREC=128
OBJ=65536
SOCKB=1048576

init_kping=
init_total=
TOTAL=/sys/module/mtp/parameters/cache_total_bytes
cleanup() {
	mtp_ns_cleanup
	[ -n "$init_kping" ] && sysctl -qw net.mtp.kping_rate="$init_kping"
	[ -n "$init_total" ] && echo "$init_total" >$TOTAL
	rm -rf "$out/files" "$out/got"
}
trap cleanup EXIT

port_open() { mtp_port_open "$@"; }
kb() { awk -v n="$1:" '$1 == n { print $2 }' /proc/meminfo; }
same() { [ "$(sha256sum <"$out/files/$1")" = "$(sha256sum <"$out/got/$1")" ]; }

ktap_print_header
ktap_set_plan 11

mkdir -p "$out/files" "$out/got"
modprobe mtp
head -c 1048576 /dev/urandom >"$out/files/1m"

# A namespace's bounds on what strangers make us keep or send start no
# higher, and go no higher, than the initial namespace's.
init_kping=$(sysctl -n net.mtp.kping_rate)
sysctl -qw net.mtp.kping_rate=$((init_kping / 2))
mtp_ns_setup mtf
ktap_check "a new namespace starts at the initial one's lower kping_rate ($(ns_s sysctl -n net.mtp.kping_rate)) and cannot go above it" \
	'[ "$(ns_s sysctl -n net.mtp.kping_rate)" -eq $((init_kping / 2)) ] &&
	 ! ns_s sysctl -qw net.mtp.kping_rate=$init_kping 2>/dev/null'
sysctl -qw net.mtp.kping_rate="$init_kping"
ns_s sysctl -qw net.mtp.kping_rate="$init_kping" &&
ns_c sysctl -qw net.mtp.kping_rate="$init_kping" &&
ns_s sysctl -qw net.mtp.srv_max_pending=$MAXREC \
	net.mtp.cache_obj_bytes=$OBJ net.mtp.cache_sock_bytes=$SOCKB \
	net.mtp.cache_ms=10000
ktap_check "two namespaces, server bounds: $MAXREC records, $SOCKB bytes" \
	'[ $? -eq 0 ]'

ns_s "$B/mtpd" -q -c $OBJ -p $PORT "$out/files" &
wait_for 20 port_open $PORT
ktap_check "mtpd listens on UDP port $PORT" 'port_open $PORT'

# peaks FILE: until FILE exists (at most 1500 samples, 0.2 s apart), the
# largest SrvRecords, SrvCachedBytes and SUnreclaim (kB) seen and the
# number of samples, one line.
peaks() {
	local r b m mr=0 mb=0 mm=0 n

	for n in $(seq 1500); do
		r=$(ssnmp SrvRecords)
		b=$(ssnmp SrvCachedBytes)
		m=$(kb SUnreclaim)
		[ "${r:-0}" -gt $mr ] && mr=$r
		[ "${b:-0}" -gt $mb ] && mb=$b
		[ "${m:-0}" -gt $mm ] && mm=$m
		[ -e "$1" ] && break
		sleep 0.2
	done
	echo "$mr $mb $mm $n"
}
records_gone() { [ "$(ssnmp SrvRecords)" = 0 ]; }

sync
slab0=$(kb SUnreclaim)
ip netns exec "$MTP_CLI" "$B/mtp_flood" -n "$NREQ" -k 16 -p $PORT -f 1m $S >"$out/flood.log" 2>&1 &
fpid=$!
# Sampled in the background from the start of the flood to the end of
# the transfer through it, so that the peaks are seen, not what is left
# once it is over.
rm -f "$out/peaks.stop"
peaks "$out/peaks.stop" >"$out/peaks" &
spid=$!
# A legitimate transfer while the flood runs.
t0=$SECONDS
stats=$(ns_c timeout 300 "$B/mtpget" -e 60000 -p $PORT -o "$out/got/1m" \
	$S 1m 2>&1)
rc=$?
echo "# $stats ($((SECONDS - t0))s)"
wait $fpid
frc=$?
fpid=
touch "$out/peaks.stop"
wait $spid
read -r maxrec maxbytes slabmax nsamples <"$out/peaks"
sed 's/^/# /' "$out/flood.log"
slab1=$(kb SUnreclaim)

# The flood itself keeps few answers cached at once (new requests evict
# the answered records; a peak of 64 KiB was seen): 100 more requests,
# fewer than srv_max_pending so none evicts another, each answered with a
# $OBJ-byte object, ask for 6 MiB of cache, and the cap must stop them at
# $SOCKB.  fill_peak: the largest SrvCachedBytes seen, sampled every
# 0.1 s until it has come within one object of the cap and for 2 s
# (20 samples) after, at most 30 s in all.
fill_peak() {
	local b m=0 n after=-1

	for n in $(seq 300); do
		b=$(ssnmp SrvCachedBytes)
		[ "${b:-0}" -gt $m ] && m=$b
		if [ $after -lt 0 ]; then
			[ $m -ge $((SOCKB - OBJ)) ] && after=0
		else
			after=$((after + 1))
			[ $after -ge 20 ] && break
		fi
		sleep 0.1
	done
	echo "$m"
}
ip netns exec "$MTP_CLI" "$B/mtp_flood" -n 100 -k 4 -p $PORT -f 1m $S \
	>"$out/fill.log" 2>&1 &
fillpid=$!
fillmax=$(fill_peak)
wait $fillpid
fillrc=$?
sed 's/^/# fill: /' "$out/fill.log"
ktap_check "the flood was sent" '[ $frc -eq 0 ]'
ktap_check "a transfer during the flood arrives sha256-equal" \
	'[ $rc -eq 0 ] && same 1m'
ktap_check "records stayed within srv_max_pending (max $maxrec in $nsamples samples)" \
	'[ $maxrec -gt 0 ] && [ $maxrec -le $MAXREC ] &&
	 [ "$(ssnmp SrvRecords)" -le $MAXREC ]'
ktap_check "cached answers filled cache_sock_bytes and stayed within it (max $maxbytes in the flood, $fillmax in the fill)" \
	'[ $fillrc -eq 0 ] && [ $maxbytes -le $SOCKB ] &&
	 [ $fillmax -ge $((SOCKB - OBJ)) ] && [ $fillmax -le $SOCKB ]'
ktap_check "the full table forgot old records ($(ssnmp SrvEvictions) evictions)" \
	'[ "$(ssnmp SrvEvictions)" -gt 0 ] &&
	 [ "$(ssnmp InRequests)" -gt $((MAXREC * 2)) ]'
# Unbounded, each request would keep a record and up to $OBJ bytes.
ktap_check "unreclaimable slab peaked less than 16 MB up during the flood ($slab0 -> max $slabmax kB, $slab1 kB after)" \
	'[ "${slabmax:-0}" -gt 0 ] && [ $((slabmax - slab0)) -lt 16384 ]'
wait_for 30 records_gone
sed 's/^/# server: /' <(ns_s cat /proc/net/mtp/snmp | grep -E '^Mtp(In|Srv|Cache|Out)')
ktap_check "every record and cached byte is forgotten after the flood" \
	'[ "$(ssnmp SrvRecords)" = 0 ] && [ "$(ssnmp SrvCachedBytes)" = 0 ]'

# The same fill with the module's bound on all sockets' kept answers at
# half of this socket's own: the total stops it first.
init_total=$(cat $TOTAL)
half=$((SOCKB / 2))
echo $half >$TOTAL
ip netns exec "$MTP_CLI" "$B/mtp_flood" -n 100 -k 4 -p $PORT -f 1m $S \
	>"$out/fill2.log" 2>&1 &
fillpid=$!
SOCKB=$half
fillmax2=$(fill_peak)
SOCKB=$((half * 2))
wait $fillpid
fillrc=$?
echo "$init_total" >$TOTAL
ktap_check "cache_total_bytes $half (default $init_total) bounds all sockets' answers (max $fillmax2)" \
	'[ $fillrc -eq 0 ] && [ "$init_total" -gt $SOCKB ] &&
	 [ $fillmax2 -ge $((half - OBJ)) ] && [ $fillmax2 -le $half ]'
ktap_finished
