#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ftpx -> inetdx -> ftpdx over XTP (control and data associations): an
# anonymous session that makes a directory, uploads, lists, downloads in
# passive (EPSV) and active (PORT) mode, and cannot leave the server's
# root; then a download over TCP with the same server.
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/prog_ftp
B=$XTP_BINDIR
rm -rf "$OUT"
mkdir -p "$OUT/root" "$OUT/cli"

prog_setup 9

cat >"$OUT/inetdx.conf" <<CONF
ftp  stream  xtp  nowait  root  $B/ftpdx  ftpdx -r $OUT/root -w
ftp  stream  tcp  nowait  root  $B/ftpdx  ftpdx -r $OUT/root -w
CONF
ip netns exec "$NS_S" "$B/inetdx" -d -l "$OUT/inetdx.conf" \
	2>"$OUT/inetdx.log" &
INETD=$!
wait_for 30 grep -q "ready: 2 services" "$OUT/inetdx.log"
ktap_check "inetdx serves ftp over xtp and tcp" '[ $? -eq 0 ]'

head -c 200000 /dev/urandom >"$OUT/cli/up.bin"
cd "$OUT/cli" || exit 1
ip netns exec "$NS_C" timeout 300 "$B/ftpx" 198.18.0.2 >"$OUT/xtp.txt" 2>&1 <<'CMDS'
pwd
mkdir sub
cd sub
put up.bin
size up.bin
ls
get up.bin down-pasv.bin
passive
get up.bin down-port.bin
nlist
cd ../../..
pwd
get ../../etc/passwd passwd
cdup
delete sub/up.bin
rmdir sub
quit
CMDS
rc=$?
sed 's/^/# /' "$OUT/xtp.txt"
ktap_check "anonymous login and session over XTP" \
	'[ $rc -eq 0 ] && grep -q "^230 " "$OUT/xtp.txt" && grep -q "^221 " "$OUT/xtp.txt"'
ktap_check "STOR over an XTP data association: SIZE 200000" \
	'grep -q "^213 200000" "$OUT/xtp.txt"'
ktap_check "LIST and NLST show the file" \
	'grep -qE "^-rw.* 200000 .* up\.bin$" "$OUT/xtp.txt" && grep -qx "up.bin" "$OUT/xtp.txt"'
ktap_check "RETR with EPSV and with PORT: sha256-equal" \
	'[ "$(sha up.bin)" = "$(sha down-pasv.bin)" ] &&
	 [ "$(sha up.bin)" = "$(sha down-port.bin)" ]'
ktap_check "the root cannot be left: cd ../../.. stays at \"/\", no /etc/passwd" \
	'[ "$(grep -c "^257 \"/\" is the current directory" "$OUT/xtp.txt")" = 2 ] &&
	 [ ! -s passwd ]'
ktap_check "DELE and RMD" \
	'[ ! -e "$OUT/root/sub" ] && grep -q "^250 RMD done" "$OUT/xtp.txt"'

# The edge sizes: empty, one byte, and 1 MB, stored and fetched both
# ways (EPSV, then PORT after "passive" turns passive mode off).
for n in 0 1 1048576; do
	head -c $n /dev/urandom >"f$n.bin"
done
ip netns exec "$NS_C" timeout 300 "$B/ftpx" 198.18.0.2 >"$OUT/sizes.txt" 2>&1 <<'CMDS'
put f0.bin
put f1.bin
put f1048576.bin
get f0.bin p0.bin
get f1.bin p1.bin
get f1048576.bin p1048576.bin
passive
get f0.bin a0.bin
get f1.bin a1.bin
get f1048576.bin a1048576.bin
quit
CMDS
rc=$?
sizes_ok() {
	local n

	[ $rc -eq 0 ] || return 1
	for n in 0 1 1048576; do
		[ "$(sha "f$n.bin")" = "$(sha "$OUT/root/f$n.bin")" ] &&
		[ "$(sha "f$n.bin")" = "$(sha "p$n.bin")" ] &&
		[ "$(sha "f$n.bin")" = "$(sha "a$n.bin")" ] || return 1
	done
}
ktap_check "0 B, 1 B and 1 MB: STOR, RETR passive and active, sha256-equal" \
	sizes_ok

cp up.bin "$OUT/root/file.bin"
ip netns exec "$NS_C" timeout 300 "$B/ftpx" -t 198.18.0.2 >"$OUT/tcp.txt" 2>&1 <<'CMDS'
get file.bin down-tcp.bin
quit
CMDS
rc=$?
sed 's/^/# /' "$OUT/tcp.txt"
ktap_check "ftpx -t: the same server over TCP, sha256-equal" \
	'[ $rc -eq 0 ] && [ "$(sha up.bin)" = "$(sha down-tcp.bin)" ] &&
	 grep -q "^220 ftpdx ready (TCP)" "$OUT/tcp.txt"'
ktap_finished
