#!/usr/bin/env bash
# `dyng cycles` end to end: the TruCy histogram text byte for byte, the original's generated
# batches (counts/cases.txt of the cycle_enum fixtures), both backends, JSON, --output, errors.
# Usage: cli_cycles_test.sh DYNG_BINARY TEST_DATA_DIR
set -uo pipefail
dyng=$1
data=$2/cycle_enum
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# c16: tudataset_A, k = 4, 40 + 40 generated with seed 1 -> 2:60 3:341 4:2228.
for backend in $cpu_backends; do
  check "c16 $backend" "$dyng" cycles "$data/parser/tudataset_A.txt" -k 4 --deletes 40 --inserts 40 --batch-seed 1 \
    --backend $backend --threads 2 --compare-recompute
  same "c16 $backend text" "$tmp/out" "$(printf '# cycle_size, num_of_cycles\n2, 60\n3, 341\n4, 2228\nTotal, 2629')"
  grep -q "equal to the update" "$tmp/err" || { echo "FAIL: c16 $backend compare"; failures=$((failures + 1)); }
done
# c20: a locality window; the histogram written with --output.
check "c20 window" "$dyng" cycles "$data/generator/graph300.txt" -k 6 --random-deletions 50 --random-insertions 60 \
  --seed 12345 --window 299 --output "$tmp/c20.csv"
same "c20 output" "$tmp/c20.csv" "$(printf '# cycle_size, num_of_cycles\n2, 8\n3, 21\n4, 60\n5, 169\n6, 588\nTotal, 846')"
[[ ! -s "$tmp/out" ]] || { echo "FAIL: --output also printed"; failures=$((failures + 1)); }
# c11: ring40 with k = 39 has no cycle.
check "c11" "$dyng" cycles "$data/generator/ring40.txt" -k 39
same "c11 text" "$tmp/out" "$(printf '# cycle_size, num_of_cycles\nTotal, 0')"
# JSON.
check "json" "$dyng" cycles "$data/generator/ring40.txt" -k -1 --deletes 3 --inserts 4 --batch-seed 42 --json --compare-recompute
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/c.json"
  check "json parses" python3 -c "import json; d=json.load(open('$tmp/c.json')); assert d['histogram']=={'3':1,'14':1} and d['prior_histogram']=={'40':1} and d['verify'].startswith('ok')"
fi
# --repeat: every timed step's min and median over the trials, as sssp and mosp report them; the
# result is the same (each trial updates its own copy).
check "repeat" "$dyng" cycles "$data/generator/ring40.txt" -k -1 --deletes 3 --inserts 4 --batch-seed 42 --json --verify --repeat 3
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/r.json"
  check "repeat json" python3 -c "import json; d=json.load(open('$tmp/r.json')); assert d['histogram']=={'3':1,'14':1} and d['verify'].startswith('ok') and all(d[s]['trials']==3 and 0<=d[s]['min_ms']<=d[s]['median_ms'] for s in ('compute','update','recompute'))"
fi
# A batch file in file ids (tudataset ids are 1-based; 37 -> 1 exists).
printf -- '- 37 1\n+ 1 41\n' >"$tmp/b.txt"
check "updates file" "$dyng" cycles "$data/parser/tudataset_A.txt" -k 3 --updates "$tmp/b.txt" --verify
# --list N: the histogram, then the first N cycles (file ids, from the smallest vertex, by
# length then ids); the same on every backend; the cut inside the 3-cycles.
for backend in $cpu_backends; do
  check "list $backend" "$dyng" cycles "$data/parser/tudataset_A.txt" -k 4 --list 90 --backend $backend --threads 3
  cp "$tmp/out" "$tmp/list_$backend.txt"
done
sed -n '1,7p;95,$p' "$tmp/list_seq.txt" >"$tmp/list_ends.txt"
same "list text" "$tmp/list_ends.txt" "$(printf '# cycle_size, num_of_cycles\n2, 88\n3, 470\n4, 3388\nTotal, 3946\n# cycles: 90 of 3946 (the first 90), each from its smallest vertex, by length then ids\n1 5\n1 5 9\n1 5 13')"
[[ $(wc -l <"$tmp/list_seq.txt") -eq 96 ]] || { echo "FAIL: list lines"; failures=$((failures + 1)); }
if [[ $cpu_backends == *omp* ]]; then
  cmp -s "$tmp/list_seq.txt" "$tmp/list_omp.txt" && passes=$((passes + 1)) || { echo "FAIL: list seq != omp"; failures=$((failures + 1)); }
fi
grep -q "list .* ms: 90 of 3946 cycles (truncated)" "$tmp/err" || { echo "FAIL: list stderr"; failures=$((failures + 1)); }
# Every cycle fits: no "(the first N)", and --output leaves stdout to the cycles.
check "list all" "$dyng" cycles "$data/parser/reference_sample.txt" -k -1 --list 100 --output "$tmp/h.csv"
same "list all text" "$tmp/out" "$(printf '# cycles: 5 of 5, each from its smallest vertex, by length then ids\n2 3\n1 2 3\n1 5 2 3\n2 3 4 5\n2 3 6 4 5')"
# After a batch: the updated graph's cycles; JSON.
check "list json" "$dyng" cycles "$data/generator/ring40.txt" -k -1 --deletes 3 --inserts 4 --batch-seed 42 --list 1 --json
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/l.json"
  check "list json parses" python3 -c "import json; d=json.load(open('$tmp/l.json')); c=d['cycles']; assert len(c)==1 and len(c[0])==3 and c[0][0]==min(c[0]) and d['cycles_truncated'] is True and d['list_ms']>=0"
fi
expect_exit 2 "list" cycles "$data/generator/ring40.txt" -k 3 --list 0
expect_exit 2 "--repeat: expected a whole number of at least 1, got '0'" cycles "$data/generator/ring40.txt" -k 3 --repeat 0
# A batch row naming a vertex the graph lacks (DIMACS: file ids 1..n) is an error, not a read past the rows.
printf 'p sp 3 3\na 1 2 5\na 2 3 4\na 3 1 2\n' > "$tmp/ok.gr"
printf -- '- 9 1\n' > "$tmp/del9.txt"
expect_exit 1 "vertex id 9 is not in the graph \\(file ids 1..3" cycles "$tmp/ok.gr" -k 3 --updates "$tmp/del9.txt"
expect_exit 2 "file: expected a path" cycles "" -k 3
expect_exit 1 "dyng: error: --random-deletions 9 --random-insertions 0: cycle_count::generate_batch: 9 deletions asked, the graph has 3 arcs; ask for fewer$" cycles "$tmp/ok.gr" -k 3 --random-deletions 9
expect_exit 1 "vertex id 9 is not in the graph" cycles "$tmp/ok.gr" -k 3 --updates "$tmp/del9.txt" --output "$tmp/h.txt"
[[ ! -e $tmp/h.txt ]] || { echo "FAIL: a failed cycles run left $tmp/h.txt"; failures=$((failures + 1)); }
# An --output in a folder that does not exist yet: made for a run that succeeds, not left by one that fails.
check "output in a new folder" "$dyng" cycles "$tmp/ok.gr" -k 3 --output "$tmp/new/dir/h.txt"
[[ -s $tmp/new/dir/h.txt ]] || { echo "FAIL: --output into a new folder wrote nothing"; failures=$((failures + 1)); }
expect_exit 1 "vertex id 9 is not in the graph" cycles "$tmp/ok.gr" -k 3 --updates "$tmp/del9.txt" --output "$tmp/gone/h.txt"
[[ ! -e $tmp/gone ]] || { echo "FAIL: a failed cycles run left $tmp/gone"; failures=$((failures + 1)); }
expect_exit 1 "dyng: error: --output .*new/: is a directory; name a file" cycles "$tmp/ok.gr" -k 3 --output "$tmp/new/"
touch "$tmp/plain"
expect_exit 1 "dyng: error: --output .*plain/h.txt: cannot create directory" cycles "$tmp/ok.gr" -k 3 --output "$tmp/plain/h.txt"
mkdir -p "$tmp/a-dir"
expect_exit 1 "dyng: error: --output .*a-dir: is a directory; name a file" cycles "$tmp/ok.gr" -k 3 --output "$tmp/a-dir"
echo "an earlier histogram" > "$tmp/h.txt"
expect_exit 1 "vertex id 9 is not in the graph" cycles "$tmp/ok.gr" -k 3 --updates "$tmp/del9.txt" --output "$tmp/h.txt"
[[ $(cat "$tmp/h.txt") == "an earlier histogram" && $(ls "$tmp" | grep -c dyng-partial) == 0 ]] ||
  { echo "FAIL: a failed cycles run changed $tmp/h.txt or left its staging"; failures=$((failures + 1)); }
# An --output that is the input is refused (also through a link); a link's target is replaced
# and the link kept (a missing target made); a FIFO is written into, not replaced.
cp "$tmp/ok.gr" "$tmp/in.gr" && ln -s in.gr "$tmp/in-link.gr"
expect_exit 1 "dyng: error: --output .*in-link.gr: is the input .*in.gr, which the output would replace; name another file" cycles "$tmp/in.gr" -k 3 --output "$tmp/in-link.gr"
cmp -s "$tmp/in.gr" "$tmp/ok.gr" || { echo "FAIL: --output changed its input"; failures=$((failures + 1)); }
echo "an earlier histogram" > "$tmp/target.txt" && ln -s target.txt "$tmp/link.txt" && ln -s missing/h.txt "$tmp/dangling.txt"
check "output through a link" "$dyng" cycles "$tmp/ok.gr" -k 3 --output "$tmp/link.txt"
check "output through a dangling link" "$dyng" cycles "$tmp/ok.gr" -k 3 --output "$tmp/dangling.txt"
[[ -L $tmp/link.txt && -L $tmp/dangling.txt && $(head -1 "$tmp/target.txt") == "# cycle_size, num_of_cycles" &&
   -s $tmp/missing/h.txt ]] || { echo "FAIL: --output replaced a link instead of its target"; failures=$((failures + 1)); }
mkfifo "$tmp/fifo" && { timeout 20 cat "$tmp/fifo" > "$tmp/from-fifo.txt" & }
check "output into a FIFO" timeout 20 "$dyng" cycles "$tmp/ok.gr" -k 3 --output "$tmp/fifo"
wait
[[ -p $tmp/fifo && $(head -1 "$tmp/from-fifo.txt") == "# cycle_size, num_of_cycles" ]] ||
  { echo "FAIL: --output replaced a FIFO or wrote nothing into it"; failures=$((failures + 1)); }
expect_exit 2 "--seed: shapes the generated batch; ask for some --random-deletions" cycles "$tmp/ok.gr" -k 3 --random-deletions 0 --seed 4
expect_exit 2 "--ignore-missing requires --updates" cycles "$tmp/ok.gr" -k 3 --ignore-missing
expect_exit 2 "list" cycles "$data/generator/ring40.txt" -k 3 --list -4
expect_exit 2 "--list: '3000000000' is too large: at most 2147483647" cycles "$data/generator/ring40.txt" -k 3 --list 3000000000
[[ ! -s "$tmp/out" ]] || { echo "FAIL: a refused --list printed"; failures=$((failures + 1)); }
# Errors: message and exit code, nothing printed on stdout.
printf -- '- 2 1\n' >"$tmp/absent.txt"
expect_exit 1 "dyng: error: --updates .*absent.txt line 1: '- 2 1' deletes an edge the graph does not have; remove the line, or pass --ignore-missing" cycles "$data/generator/ring40.txt" -k 3 --updates "$tmp/absent.txt"
check "ignore missing" "$dyng" cycles "$data/generator/ring40.txt" -k 3 --updates "$tmp/absent.txt" --ignore-missing
printf -- '+ 1 999\n' >"$tmp/unknown.txt"
expect_exit 1 "dyng: error: .*vertex id 999 is not in the graph" cycles "$data/generator/ring40.txt" -k 3 --updates "$tmp/unknown.txt"
# Edge-list ids are signed 64-bit and compacted: a batch names them as the graph file does.
printf '5000000000 -3\n-3 7\n7 5000000000\n' > "$tmp/big.txt"
printf -- '- 7 5000000000\n+ 7 -3\n+ -3 5000000000\n' > "$tmp/big_b.txt"
check "64-bit ids" "$dyng" cycles "$tmp/big.txt" -k 3 --updates "$tmp/big_b.txt" --verify --list 5
grep -qx -- "-3 5000000000" "$tmp/out" || { echo "FAIL: 64-bit ids: the 2-cycle -3 5000000000 not listed"; failures=$((failures + 1)); }
printf -- '+ 7 6000000000\n' > "$tmp/big_unknown.txt"
expect_exit 1 "dyng: error: .*big_unknown.txt:1: vertex id 6000000000 is not in the graph file" cycles "$tmp/big.txt" -k 3 --updates "$tmp/big_unknown.txt"
printf -- '+ 7 -3\n= -3 7 4\n' > "$tmp/big_reweight.txt"
expect_exit 1 "dyng: error: --updates .*big_reweight.txt line 2: '=' changes an edge's weight, and cycles counts structure only" cycles "$tmp/big.txt" -k 3 --updates "$tmp/big_reweight.txt"
expect_exit 2 "-k: expected a whole number from 2 to 2147483647, or -1 \\(no bound\\), got '1'" cycles "$data/generator/ring40.txt" -k 1
expect_exit 1 "dyng: error: .*glued_token.txt:2: expected" cycles "$data/errors/glued_token.txt" -k 3
expect_exit 1 "dyng: error: .*500 deletions asked" cycles "$data/parser/tudataset_A.txt" -k 3 --deletes 500
expect_exit 2 "" cycles "$data/generator/ring40.txt" -k 3 --updates "$tmp/b.txt" --deletes 2
expect_exit 2 "" cycles "$data/generator/ring40.txt"
check "k beyond n" "$dyng" cycles "$data/generator/ring40.txt" -k 2147483647
same "k beyond n text" "$tmp/out" "$(printf '# cycle_size, num_of_cycles\n40, 1\nTotal, 1')"
# A DIMACS graph's batch file is in its 1-based ids: deleting 1 -> 2 breaks the triangle and the 2-cycle.
printf 'p sp 3 4\na 1 2 1\na 2 3 1\na 3 1 1\na 2 1 1\n' >"$tmp/tri.gr"
printf -- '- 1 2\n' >"$tmp/cut.txt"
check "dimacs ids" "$dyng" cycles "$tmp/tri.gr" -k 3 --updates "$tmp/cut.txt" --compare-recompute --json
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/tri.json"
  check "dimacs ids json" python3 -c "import json; d=json.load(open('$tmp/tri.json')); assert d['prior_histogram']=={'2':1,'3':1} and d['histogram']=={} and d['arcs']==4 and d['arcs_after_batch']==3 and d['backend']=='sequential' and d['threads']==1"
fi
# A MOSP CSR directory keeps parallel arcs; cycles merge them.
check "mosp csr" "$dyng" cycles "$data/../mosp_graph_io/r05" -k 3
# Other formats by --format (a CSV header, a DIMACS file not named .gr); the edge-list reader's
# refusal names them.
printf 'src,dst\n1,2\n2,3\n3,1\n' >"$tmp/header.csv"
check "csv with a header" "$dyng" cycles "$tmp/header.csv" -k 3
same "csv with a header text" "$tmp/out" "$(printf '# cycle_size, num_of_cycles\n3, 1\nTotal, 1')"
cp "$tmp/tri.gr" "$tmp/tri.txt"
expect_exit 1 "tri.txt:1: expected .*; an edge list is read by TruCy's rules .*pass --format gr, csv, tntp or csr" cycles "$tmp/tri.txt" -k 3
check "dimacs by --format" "$dyng" cycles "$tmp/tri.txt" -k 3 --format gr
# The generator's options, checked before the count.
expect_exit 1 "--window 400: the graph has only 40 vertices; pass at most that" cycles "$data/generator/ring40.txt" -k 3 --random-deletions 2 --window 400
expect_exit 2 "--seed: shapes the generated batch; ask for some --random-deletions or --random-insertions" cycles "$data/generator/ring40.txt" -k 3 --seed 3
# Rows without effect (an absent arc deleted under --ignore-missing, a present one inserted).
printf -- '- 1 3\n+ 1 2\n- 2 3\n' >"$tmp/no-effect.txt"
check "without effect" "$dyng" cycles "$tmp/tri.gr" -k 3 --updates "$tmp/no-effect.txt" --ignore-missing
grep -q "2 deletions, 1 insertions, 2 without effect" "$tmp/err" || { echo "FAIL: without effect"; cat "$tmp/err"; failures=$((failures + 1)); }
printf '3 3\n' >"$tmp/loops.txt"
expect_exit 1 "line 1: vertex id 1 is not in the graph \\(it has none; a batch cannot add vertices\\)" cycles "$tmp/loops.txt" -k 3 --updates "$tmp/no-effect.txt"

finish
