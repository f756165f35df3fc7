#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge a VM run's kernel log: KTAP lines for "the kernel log is clean"
# and, where kmemleak ran, "no leaks".
#
#   scripts/vm/judge-log.sh OUTDIR [LOG]
#
# OUTDIR holds dmesg.log (or console.log; LOG names another) with the
# markers that guest-suite.sh writes ("xtp-selftest: start NAME").  A
# report counts if it appears after the first marker, i.e. once our
# modules can have been loaded; each is printed with the name of the
# test that was running and up to 40 lines of its text.  Reports from
# before (the kernel's own early boot) are listed but do not fail the
# run.
set -u

out=$1
log=${2:-$out/dmesg.log}
[ -s "$log" ] || log=$out/console.log

pat='BUG:|WARNING:|Oops|general protection|KASAN|UBSAN|kernel BUG|RCU stall'
pat="$pat|hung_task|blocked for more than|scheduling while atomic"
pat="$pat|possible recursive locking|circular locking dependency"
pat="$pat|inconsistent lock state|ODEBUG|refcount_t:|list_add corruption"
pat="$pat|list_del corruption|sleeping function called from invalid context"
pat="$pat|rcu: INFO:|detected stalls|unregister_netdevice: waiting|Call Trace"
pat="$pat|page allocation failure|kmemleak: .*new suspected memory leaks"
# SLUB's own checks (slub_debug): "BUG kmalloc-1k (Tainted: ...): ...".
pat="$pat|BUG [^ ]+ [(]|Kernel panic"

# One block per report: "@@ TEST" then its lines; TEST is "(early boot)"
# before the first marker.
reports=$(awk -v pat="$pat" '
	/xtp-selftest: start / {
		cur = $0; sub(/.*xtp-selftest: start /, "", cur); next
	}
	/xtp-selftest: end/ { cur = "(after the last test)"; next }
	left > 0 { print "   " $0; left--; next }
	$0 ~ pat {
		if (++n > 20) exit
		print "@@ " (cur == "" ? "(early boot)" : cur)
		print "   " $0
		left = 40
	}' "$log" 2>/dev/null)

if ! grep -q 'xtp-selftest: start ' "$log" 2>/dev/null; then
	# Without a marker nothing below would be judged.
	echo "not ok - vm: kernel log is clean (no test marker in ${log#"$PWD"/})"
	exit 0
fi
early=$(printf '%s\n' "$reports" | grep -c '^@@ (early boot)')
late=$(printf '%s\n' "$reports" | grep '^@@ ' | grep -vc '^@@ (early boot)')
if [ "$late" -gt 0 ]; then
	echo "not ok - vm: kernel log is clean ($late report(s) after the first test started)"
	printf '%s\n' "$reports" | awk '
		/^@@ / { keep = ($0 !~ /\(early boot\)/) }
		keep' | sed 's/^@@ /# during /; s/^   /#   /' | head -200
else
	echo "ok - vm: kernel log is clean"
fi
# A report, a taint or lockdep's own exhaustion before the tests turns
# lock debugging off: the tests would then run unchecked.
off=$(awk '/xtp-selftest: start / { exit }
	/Disabling lock debugging|turning off the locking correctness validator/' \
	"$log")
if [ -n "$off" ]; then
	echo "not ok - vm: lock debugging was on when the tests started"
	printf '%s\n' "$off" | sed 's/^/# /'
fi
if [ "$early" -gt 0 ]; then
	echo "# $early report(s) during early boot, before any test (not counted):"
	printf '%s\n' "$reports" | awk '
		/^@@ / { keep = ($0 ~ /\(early boot\)/) }
		keep' | sed 's/^@@ /# /; s/^   /#   /' | head -40
fi

# kmemleak: leaks allocated once the tests began count (kmemleak.since
# holds the jiffies of that moment); earlier ones are the boot's.
if [ -f "$out/kmemleak.log" ]; then
	since=$(cat "$out/kmemleak.since" 2>/dev/null)
	awk -v since="${since:-0}" '
		/^unreferenced object/ { flush(); blk = $0; next }
		blk != "" { blk = blk "\037" $0 }
		/jiffies [0-9]+/ && blk != "" {
			match($0, /jiffies [0-9]+/)
			j = substr($0, RSTART + 8, RLENGTH - 8) + 0
		}
		function flush() {
			if (blk == "") return
			print (j >= since + 0 ? "LEAK" : "BOOT") "\t" blk
			blk = ""; j = 0
		}
		END { flush() }' "$out/kmemleak.log" >"$out/kmemleak.judged"
	leaks=$(grep -c '^LEAK' "$out/kmemleak.judged")
	boot=$(grep -c '^BOOT' "$out/kmemleak.judged")
	if [ "$leaks" -gt 0 ] ||
	   grep -qE '^(rmmod|kmemleak:)' "$out/kmemleak.log"; then
		echo "not ok - vm: kmemleak: no leaks, modules unload ($leaks leak(s) during the tests)"
		grep '^LEAK' "$out/kmemleak.judged" | cut -f2- |
			tr '\037' '\n' | sed 's/^/# /' | head -80
		grep -E '^(rmmod|kmemleak:)' "$out/kmemleak.log" | sed 's/^/# /'
	else
		echo "ok - vm: kmemleak: no leaks, modules unload"
	fi
	[ "$boot" -eq 0 ] ||
		echo "# kmemleak: $boot object(s) leaked during boot, before the tests (not counted)"
fi
