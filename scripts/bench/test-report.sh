#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/bench/report.py on a made-up run whose ratios are known: the
# goals table, the rows and results.json must say exactly those numbers,
# and a failed measurement must show as failed, not as a number.  KTAP.
#
#   scripts/bench/test-report.sh
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

cat >"$d/results.jsonl" <<'JSON'
{"label":"meta/xtp-cc","name":"bbr"}
{"label":"row1/100/xtp","proto":"xtp","mode":"crr","clients":1,"seconds":1,"transactions":10,"errors":0,"p50_rtt":1.05,"p99_rtt":1.5}
{"label":"row1/100/mtp","failed":"timeout or crash after 120 s"}
{"label":"row1/100/tcp","proto":"tcp","mode":"crr","clients":1,"seconds":1,"transactions":10,"errors":0,"p50_rtt":2.1,"p99_rtt":2.5}
{"label":"row2/1/xtp","proto":"xtp","clients":1,"seconds":2,"transactions":600,"errors":0,"tps":300,"cpu_us_per_txn":50}
{"label":"row2/1/mtp","proto":"mtp","clients":1,"seconds":2,"transactions":300,"errors":3,"first_error":"Timer expired","tps":150}
{"label":"row2/1/tcp","proto":"tcp","clients":1,"seconds":2,"transactions":200,"errors":0,"tps":100,"cpu_us_per_txn":40}
{"label":"row4/veth/xtp-bbr","clients":1,"seconds":5,"transactions":1,"errors":0,"goodput_mbps":450,"cpu_ms_per_mb":6}
{"label":"row4/veth/tcp-cubic","clients":1,"seconds":5,"transactions":1,"errors":0,"goodput_mbps":500,"cpu_ms_per_mb":4}
{"label":"row5/loss5/1MB/mtp","clients":1,"seconds":2,"transactions":1,"errors":0,"goodput_mbps":4}
{"label":"row5/loss5/1MB/tcp-cubic","clients":1,"seconds":8,"transactions":1,"errors":0,"goodput_mbps":1}
{"label":"row5/loss5/16MB/mtp","failed":"timeout or crash after 120 s"}
{"label":"row6/xtpveno/xtpveno","clients":1,"seconds":60,"transactions":1,"errors":0,"goodput_mbps":10}
{"label":"row6/xtpveno/tcp","clients":1,"seconds":60,"transactions":1,"errors":0,"goodput_mbps":10}
{"label":"row6/xtpbbr/xtpbbr","clients":1,"seconds":60,"transactions":1,"errors":0,"goodput_mbps":15}
{"label":"row6/xtpbbr/tcp","clients":1,"seconds":60,"transactions":1,"errors":0,"goodput_mbps":5}
{"label":"row6/mtpbbr/mtpbbr","failed":"timeout or crash after 120 s"}
{"label":"row4/50ms-loss1/xtp-bbr","clients":1,"seconds":15,"transactions":1,"errors":0,"goodput_mbps":330}
{"label":"row11/mtp/1","clients":1,"seconds":2,"transactions":1,"errors":0}
{"label":"row11/mtp-bbr/1","clients":1,"seconds":1.0,"transactions":1,"errors":0}
{"label":"row11/tcp-bbr/1","clients":1,"seconds":1.0,"transactions":1,"errors":0}
{"label":"row11/mtp/2","clients":1,"seconds":10,"transactions":1,"errors":0}
{"label":"row11/mtp-bbr/2","clients":1,"seconds":1.2,"transactions":1,"errors":0}
{"label":"row11/tcp-bbr/2","clients":1,"seconds":1.0,"transactions":1,"errors":0}
{"label":"row11/mtp/3","clients":1,"seconds":3,"transactions":1,"errors":0}
{"label":"row11/mtp-bbr/3","clients":1,"seconds":0.9,"transactions":1,"errors":0}
{"label":"row11/tcp-bbr/3","clients":1,"seconds":1.0,"transactions":1,"errors":0}
{"label":"row4/50ms-loss1/tcp-bbr","clients":1,"seconds":15,"transactions":1,"errors":0,"goodput_mbps":300}
{"label":"row7/xtp","proto":"xtp","mode":"hold","clients":100,"slab_kb":[1000,1100],"used_kb":[5000,5200],"slab_b":[10000000,10600000],"sock_obj":2368}
{"label":"row7/tcp","proto":"tcp","mode":"hold","clients":100,"slab_kb":[1000,1200],"used_kb":[5000,5400],"slab_b":[20000000,20500000],"sock_obj":2432}
{"label":"row9/lft/xtp","clients":1,"seconds":0.1,"transactions":1,"errors":0}
{"label":"row9/lft/tcp","clients":1,"seconds":0.2,"transactions":1,"errors":0}
{"label":"row10/mtp","proto":"mtp","mode":"rr","clients":1,"seconds":10,"transactions":300,"errors":0,"p50_rtt":1.08,"p90_rtt":4.5,"p99_rtt":9}
{"label":"iperf3/50ms/xtp","proto":"xtp","goodput_mbps":190}
{"label":"iperf3/50ms/tcp","proto":"tcp","goodput_mbps":200}
{"label":"row10/tcp","proto":"tcp","mode":"rr","clients":1,"seconds":10,"transactions":100,"errors":0,"p50_rtt":1.1,"p90_rtt":12.8,"p99_rtt":30}
JSON

doc=$d/performance.md
/usr/bin/python3 "$top/scripts/bench/report.py" --results "$d/results.jsonl" \
	--outdir "$d" --doc "$doc" --plots "$d/perf" --profile quick \
	--kernel 6.12.0-test --started "2026-01-01 00:00 UTC" --minutes 3 \
	--command "make bench-quick" >"$d/out" 2>&1
rc=$?

n=0
# has DESCRIPTION LINE: the report holds LINE exactly.
has() {
	n=$((n + 1))
	if grep -qxF -- "$2" "$doc" 2>/dev/null; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1: no line '$2'"
	fi
}

n=$((n + 1))
if [ $rc = 0 ]; then echo "ok $n - report.py runs"; else
	echo "not ok $n - report.py runs: $(tail -3 "$d/out")"; fi
has "crr latency goal met at 1.05 RTT" \
	"| crr latency, XTP, 100 B answer | median ≤ 1.1 RTT | 1.05 RTT | met |"
has "a failed run's goal is n/a" \
	"| crr latency, MTP, 100 B answer | median ≤ 1.1 RTT | n/a | n/a |"
has "the failed run shows why in its row" \
	"| 100 B | mtp | n/a | n/a |  | failed: timeout or crash after 120 s |"
has "MTP at 5% loss, 1 MB: 4 against 1 Mbit/s is 4.00x, met" \
	"| MTP object, 5% loss, 1 MB | ≥ 3× TCP | 4.00× | met |"
has "a timed-out 16 MB object still has its goal line, n/a" \
	"| MTP object, 5% loss, 16 MB | ≥ 3× TCP | n/a | n/a |"
has "crr transactions/s: 300 against 100 is 3.00x, met" \
	"| crr transactions/s, XTP, 1 client(s), loopback | ≥ 2× TCP | 3.00× | met |"
has "a run with errors is not a number" \
	"| 1 | mtp | n/a | n/a | n/a | 3 errors (Timer expired) |"
has "stream 450 against 500 Mbit/s is 0.90x, met" \
	"| stream, veth, XTP (BBR, the default) | ≥ 0.9× TCP | 0.90× | met |"
has "CPU per MB 6 against 4 is 1.50x, not met" \
	"| CPU per MB, stream | ≤ 1.2× TCP | 1.50× | **not met** |"
has "equal shares give Jain 1.000" \
	"| fairness, XTP Veno with TCP | Jain ≥ 0.9 | 1.000 | met |"
has "15 and 5 Mbit/s give Jain 0.800, not met" \
	"| fairness, XTP BBR with TCP | Jain ≥ 0.9 | 0.800 | **not met** |"
has "a failed MTP model flow gives no Jain index, n/a" \
	"| fairness, MTP model with TCP | Jain ≥ 0.9 | n/a | n/a |"
has "the default, BBR, at 1% loss: 330 against TCP BBR's 300 is 1.10x, met" \
	"| stream, 50ms-loss1, XTP (BBR, the default) | ≥ 1× TCP BBR | 1.10× | met |"
n=$((n + 1))
if grep -q "XTP BBR against TCP BBR" "$doc"; then
	echo "not ok $n - BBR as the default has no second row against TCP BBR"
else
	echo "ok $n - BBR as the default has no second row against TCP BBR"
fi
has "MTP model: median 1.0 s against TCP BBR's 1.0 s is 1.00x, met" \
	"| MTP 2 MB, 10% loss each way, model, against TCP BBR | ≥ 1× BBR | 1.00× | met |"
has "MTP window: median 3 s against 1.0 s is 0.33x, not met" \
	"| MTP 2 MB, 10% loss each way, window, against TCP BBR | ≥ 1× BBR | 0.33× | **not met** |"
has "MTP window: 2, 10 and 3 s are not within 30% of 3 s" \
	"| MTP 2 MB, 10% loss, window: runs within ±30% | ±30% of the median | 3 runs | **not met** |"
has "MTP model: 1.0, 1.2 and 0.9 s are within 30% of 1.0 s" \
	"| MTP 2 MB, 10% loss, model: runs within ±30% | ±30% of the median | 3 runs | met |"
has "memory: slab objects, 6000 B each against 5000, not SUnreclaim's 0.50x" \
	"| memory per idle association | ≤ TCP's | 1.20× TCP | **not met** |"
has "row 7 shows slab and used bytes and the socket object's size" \
	"| xtp | 6000 | 2048 | 2368 | 100 associations |"
has "P90 of 4.5 RTT at 10% loss is over 4, not met" \
	"| one-datagram MTP transaction, 10% loss each way | P90 ≤ 4 RTT | 4.50 RTT | **not met** |"
has "row 10 shows median, P90 and P99 of each transport" \
	"| tcp | 1.10 | 12.80 | 30.00 | 100 |  |"
has "iperf3 at 50 ms: 190 against 200 Mbit/s is 0.95x, met" \
	"| iperf3 under withxtp, 50ms | ≥ 0.95× TCP | 0.95× | met |"
has "iperf3 without a veth run: its goal is n/a" \
	"| iperf3 under withxtp, veth | ≥ 0.9× TCP | n/a | n/a |"
has "the thesis row: 100 ms against 200 ms is 0.50" \
	"| LFT, xft 1 MB (Table 15) | 100.000 | 200.000 | 0.50 | 1.07 |"
n=$((n + 1))
if /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; sys.exit(len(r) != 36)" "$d/results.json" 2>/dev/null; then
	echo "ok $n - results.json holds the 36 results"
else
	echo "not ok $n - results.json holds the 36 results"
fi
echo "1..$n"
