#!/usr/bin/env bash
# The dyng command line, end to end: exit codes, messages, output files (byte for byte against
# the MOSP-OpenMP fixtures), JSON. Usage: cli_test.sh DYNG_BINARY TEST_DATA_DIR
set -uo pipefail
dyng=$1
data=$2
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The bundled graph, a random batch, verification, both backends.
check "default graph" "$dyng" sssp --random 200 --verify
verified "default graph"
[[ $cpu_backends == *omp* ]] && check "openmp" "$dyng" sssp --random 200 --backend omp --threads 2 --verify --repeat 2
check "local batches" "$dyng" sssp --random 200 --locality 100 --verify
check "mosp local batch" "$dyng" mosp --random 100 --locality 50 --verify
grep -q "local ball of 50" "$tmp/out" || { echo "FAIL: mosp --locality"; failures=$((failures + 1)); }
check "version" "$dyng" --version
grep -qE "^dyng [0-9]+\.[0-9]+\.[0-9]+$" "$tmp/out" && grep -q "^backends: sequential" "$tmp/out" ||
  { echo "FAIL: --version"; cat "$tmp/out"; failures=$((failures + 1)); }
check "info" "$dyng" info
grep -q "vertices *3353" "$tmp/out" || { echo "FAIL: info vertices"; failures=$((failures + 1)); }
check "json" "$dyng" sssp --random 50 --json
cp "$tmp/out" "$tmp/result.json"
if command -v python3 >/dev/null; then
  check "json parses" python3 -c "import json; d=json.load(open('$tmp/result.json')); assert 'profile' in d and d['insertions']==25"
fi

# MOSP fixture r05 (K = 2): --out writes the original's files byte for byte.
for backend in $cpu_backends; do
  out="$tmp/r05-$backend"
  check "mosp r05 $backend" "$dyng" sssp "$data/mosp_graph_io/r05" --format csr --backend $backend \
    --insert "$data/mosp_graph_io/r05/insert.txt" --delete "$data/mosp_graph_io/r05/delete.txt" --out "$out"
  r05_same "r05 $backend" "$out" init updated
done

# A text batch with file ids (DIMACS ids are 1-based).
printf '# a comment\n+ 1 3353 7\n- 1 2\n' >"$tmp/batch.txt"
check "updates file" "$dyng" sssp --updates "$tmp/batch.txt" --verify

# --weight-scale: a float-weighted TNTP network as int32 fixed point, its batch file scaled alike.
printf '= 1 2 6.05 2.5\n- 1 3\n+ 3 1 0.5 0.25\n' >"$tmp/tntp-batch.txt"
check "weight scale" "$dyng" sssp "$data/io/tiny_net.tntp" --weight-scale 100 --updates "$tmp/tntp-batch.txt" --verify
grep -q "times 100, rounded to integers; int32 weights" "$tmp/out" || { echo "FAIL: weight scale description"; failures=$((failures + 1)); }
grep -q "weights times 100" "$tmp/out" || { echo "FAIL: weight scale batch"; failures=$((failures + 1)); }
check "weight scale mosp" "$dyng" mosp "$data/io/tiny_net.tntp" --weight-scale 100 --updates "$tmp/tntp-batch.txt" --verify
expect_exit 1 "dyng: error: .*exceeds the int32 range" sssp "$data/io/tiny_net.tntp" --weight-scale 1e9
# An unweighted file's weights are generated: a scale would apply to its batch alone.
printf 'p tw 3 2\n1 2\n2 3\n' > "$tmp/unweighted.gr"
expect_exit 1 "dyng: error: --weight-scale: .*unweighted.gr has no weights of its own to scale" sssp "$tmp/unweighted.gr" --weight-scale 100

# Errors: exit 1 with 'dyng: error:' and the file; usage errors exit 2.
expect_exit 1 "dyng: error: .*no-such-file" sssp no-such-file.gr
printf '+ 1 999999 7\n' >"$tmp/bad.txt"
expect_exit 1 "dyng: error: --updates .*bad.txt line 1: vertex id 999999 is not in the graph \\(file ids 1..3353; a batch cannot add vertices\\)" sssp --updates "$tmp/bad.txt"
printf 'p sp 3 2\na 1 2 x\n' >"$tmp/bad.gr"
expect_exit 1 "dyng: error: .*bad.gr:2" sssp "$tmp/bad.gr"
expect_exit 1 "dyng: error: --source 0" sssp --source 0
expect_exit 2 "" sssp --bogus
expect_exit 2 "" sssp --backend gpu
expect_exit 2 "" sssp --random 5 --updates "$tmp/batch.txt"
expect_exit 2 "unknown subcommand 'frobnicate'" frobnicate
# Numbers: unsigned options refuse negative values, ranges are worded plainly, --objective whole.
expect_exit 2 "--random: expected a whole number of at least 0, got '-1'" sssp --random -1
# An empty path is refused, not read as "not given" (which falls back to the bundled graph).
expect_exit 2 "file: expected a path, got an empty argument" info ""
expect_exit 2 "--updates: expected a path" sssp --updates ""
expect_exit 2 "--out: expected a path" mosp --out ""
# --engine names a CUDA engine: refused on a CPU backend, for sssp and for mosp's trees.
expect_exit 1 "--engine fused selects a CUDA engine; add --backend cuda" sssp --engine fused
expect_exit 1 "--engine operators selects a CUDA engine; add --backend cuda" mosp --engine operators
# A build without CUDA says so for --backend cuda, with its remedies.
if ! "$dyng" --version | grep -q cuda; then
  expect_exit 1 "dyng: error: --backend cuda: this dyng was built without the CUDA backend; build it with -DDYNG_ENABLE_CUDA=ON" sssp --backend cuda
fi
expect_exit 2 "--repeat: expected a whole number of at least 1, got '0'" sssp --repeat 0
expect_exit 2 "--source: expected a whole number of at least 0" sssp --source -7
expect_exit 2 "--weight-scale: expected a finite number of at least 0, got 'nan'" sssp --weight-scale nan
expect_exit 1 "dyng: error: --objective 0abc" sssp --objective 0abc
# A small graph: counts printed exactly, "reached" after the batch, a random batch that cannot
# be as large as asked says so, absent edges refused with the flag that skips them.
printf 'p sp 1234567 1\na 1 1234567 3\n' >"$tmp/wide.gr"
check "exact counts" "$dyng" info "$tmp/wide.gr"
grep -qE "^vertices +1234567$" "$tmp/out" || { echo "FAIL: exact counts"; failures=$((failures + 1)); }
check "info json" "$dyng" info "$tmp/wide.gr" --json
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/info.json"
  check "info json parses" python3 -c "import json; d=json.load(open('$tmp/info.json')); assert d['vertices']==1234567 and d['arcs']==1 and d['load_ms'] >= 0"
fi
# Any TNTP link columns, in every subcommand that reads a graph.
check "tntp columns" "$dyng" sssp "$data/io/tiny_net.tntp" --tntp-columns length --verify
grep -q "weights from the file (1 column" "$tmp/out" || { echo "FAIL: tntp columns"; cat "$tmp/out"; failures=$((failures + 1)); }
printf 'p sp 3 2\na 1 2 5\na 2 3 7\n' >"$tmp/path.gr"
printf -- '- 1 2\n' >"$tmp/cut.txt"
check "reached after the batch" "$dyng" sssp "$tmp/path.gr" --updates "$tmp/cut.txt"
grep -qE "^reached +1 vertices$" "$tmp/out" || { echo "FAIL: reached after the batch"; failures=$((failures + 1)); }
check "random shortfall" "$dyng" sssp "$tmp/path.gr" --random 1000
grep -q "only 6 made (4 insertions, 2 deletions)" "$tmp/out" || { echo "FAIL: random shortfall"; failures=$((failures + 1)); }
printf -- '- 2 1\n' >"$tmp/absent.txt"
expect_exit 1 "dyng: error: --updates .*absent.txt line 1: '- 2 1' deletes an edge the graph does not have; remove the line, or pass --ignore-missing to skip absent edges" sssp "$tmp/path.gr" --updates "$tmp/absent.txt"
# A refused row is named by its line (comments and blank lines counted) and file ids: a weight
# change of an edge the batch deleted, on the host and as mosp reads it.
printf -- '# a comment\n\n+ 3 1 4\n- 1 2\n= 1 2 9\n' >"$tmp/changed.txt"
expect_exit 1 "dyng: error: --updates .*changed.txt line 5: '= 1 2' changes the weights of an edge absent at that point of the batch; insert it with '\\+' instead" sssp "$tmp/path.gr" --updates "$tmp/changed.txt"
expect_exit 1 "changed.txt line 5: '= 1 2' changes the weights" mosp "$tmp/path.gr" --updates "$tmp/changed.txt"
check "ignore missing" "$dyng" sssp "$tmp/path.gr" --updates "$tmp/absent.txt" --ignore-missing --verify
# A weight the graph cannot hold is named by its line too, also after --weight-scale.
printf -- '+ 3 1 4\n\n+ 3 2 2.5\n' >"$tmp/fraction.txt"
expect_exit 1 "dyng: error: --updates .*fraction.txt line 3: batch insertion 1: edge \\(2, 1\\), weight column 0 is 2.5; the graph has int32 weights, so weights must be integers in \\[0, 2147483647\\] \\(file id = vertex \\+ 1\\)$" sssp "$tmp/path.gr" --updates "$tmp/fraction.txt"
expect_exit 1 "fraction.txt line 3: batch insertion 1: edge \\(2, 1\\), weight column 0 is 2.5" mosp "$tmp/path.gr" --updates "$tmp/fraction.txt"
printf -- '= 1 2 6.05 2.5\n+ 3 1 1e8 1\n' >"$tmp/scaled.txt"
expect_exit 1 "dyng: error: --updates .*scaled.txt line 2: scale_weights: insertion row 0 weight 1e\\+08 times 100 exceeds the int32 range" sssp "$data/io/tiny_net.tntp" --weight-scale 100 --updates "$tmp/scaled.txt"
# JSON strings escape control characters (a tab in a file name).
printf '0 1\n1 0\n' >"$tmp/tab$(printf '\t')name.txt"
check "json escapes" "$dyng" cycles "$tmp/tab$(printf '\t')name.txt" -k 2 --json
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/tab.json"
  check "json escapes parse" python3 -c "import json; d=json.load(open('$tmp/tab.json')); assert 'tab\tname' in d['graph'] and d['histogram']=={'2':1}"
fi

# dyng mosp on fixture r05 (K = 2): the per-objective files byte for byte against the original's,
# the combinedGraph/ files present and one line per vertex; errors name the parameter.
printf '0 1\n\n7 40\n' > "$tmp/far_delete.txt"
expect_exit 1 "dyng: error: --delete .*far_delete.txt line 3: vertex id 40 is not in the graph \\(file ids 0..9;" mosp "$data/mosp_graph_io/r05" --format csr \
  --insert "$data/mosp_graph_io/r05/insert.txt" --delete "$tmp/far_delete.txt"
printf '0 1 1 2\n1 2 3 4\n' > "$tmp/undirected_k2.txt"
expect_exit 1 "dyng: error: --insert/--delete apply the DynaMOSP batch rules, which are for directed graphs; give .* --updates file" \
  mosp "$tmp/undirected_k2.txt" --undirected --insert "$data/mosp_graph_io/r05/insert.txt" --delete "$tmp/far_delete.txt"
for backend in $cpu_backends; do
  out="$tmp/mosp-r05-$backend"
  check "dyng mosp r05 $backend" "$dyng" mosp "$data/mosp_graph_io/r05" --format csr --backend $backend --threads 2 \
    --insert "$data/mosp_graph_io/r05/insert.txt" --delete "$data/mosp_graph_io/r05/delete.txt" --out "$out" --verify
  r05_same "mosp r05 $backend" "$out" updated
  for f in distancesCsr SSSPTreeCsr mospCosts; do
    [[ $(wc -l <"$out/combinedGraph/$f.txt") -eq 10 ]] || { echo "FAIL: mosp $backend $f lines"; failures=$((failures + 1)); }
  done
done
# "auto" and "automatic" alike; mosp passes --strategy to its trees.
check "sssp strategy automatic" "$dyng" sssp --random 10 --strategy automatic --verify
check "mosp combined auto, trees recompute" "$dyng" mosp --random 10 --combined auto --strategy recompute --verify
verified "mosp combined auto, trees recompute"
check "dyng mosp random json" "$dyng" mosp --random 100 --json --pref 2 --verify
if command -v python3 >/dev/null; then
  cp "$tmp/out" "$tmp/mosp.json"
  check "mosp json parses" python3 -c "import json; d=json.load(open('$tmp/mosp.json')); assert d['pref']=='2' and 'profile' in d"
fi
expect_exit 2 "--pref: expected a whole number of at least 1, got '0'" mosp --pref 0
expect_exit 2 "--pref: expected a whole number of at least 1, got ''" mosp --pref ""
expect_exit 1 "dyng: error: --pref 1,2: 2 value\\(s\\) for 1 objective\\(s\\)" mosp --pref 1,2
expect_exit 1 "dyng: error: --objectives 3: the graph has 1 weight column\\(s\\), 0..0" mosp --objectives 3
expect_exit 2 "" mosp --combined sometimes
touch "$tmp/a-file"
expect_exit 1 "dyng: error: --out .*a-file: exists and is not a directory; name a directory" mosp --out "$tmp/a-file"
expect_exit 1 "dyng: error: --weight-columns 3: .*rome99.gr.gz has 1 weight column\\(s\\) of its own" mosp --weight-columns 3

# A failed run changes nothing in its output path: an --out it made goes (with the parents it
# made), an existing one keeps what it held, earlier results included, and an --output file
# keeps its content; a run that succeeds replaces the files it writes.
printf 'p sp 3 3\na 1 2 5\na 2 3 4\na 3 1 2\n' > "$tmp/ok.gr"
printf 'p sp 3 2\na 1 2 7\na 2 3 7\n' > "$tmp/other.gr"
printf -- '- 1 3\n' > "$tmp/absent.txt"
expect_exit 1 "line 1: '- 1 3' deletes an edge the graph does not have" sssp "$tmp/ok.gr" --out "$tmp/fresh/a/b" --updates "$tmp/absent.txt"
[[ ! -e $tmp/fresh ]] || { echo "FAIL: a failed sssp run left $tmp/fresh"; failures=$((failures + 1)); }
mkdir -p "$tmp/kept" && echo mine > "$tmp/kept/mine.txt"
expect_exit 1 "deletes an edge the graph does not have" mosp "$tmp/ok.gr" --out "$tmp/kept" --updates "$tmp/absent.txt"
[[ $(ls -A "$tmp/kept") == mine.txt ]] || { echo "FAIL: a failed mosp run left $(ls -A "$tmp/kept")"; failures=$((failures + 1)); }
check "sssp into kept" "$dyng" sssp "$tmp/ok.gr" --out "$tmp/kept"
cp "$tmp/kept/distancesOriginal.txt" "$tmp/first.txt"
expect_exit 1 "deletes an edge the graph does not have" sssp "$tmp/other.gr" --out "$tmp/kept" --updates "$tmp/absent.txt"
cmp -s "$tmp/kept/distancesOriginal.txt" "$tmp/first.txt" || { echo "FAIL: a failed run changed earlier results"; failures=$((failures + 1)); }
[[ $(LC_ALL=C ls -A "$tmp/kept" | tr '\n' ' ') == "SSSPTreeOriginal.txt distancesOriginal.txt mine.txt " ]] || { echo "FAIL: staging left in $tmp/kept: $(ls -A "$tmp/kept")"; failures=$((failures + 1)); }
check "sssp over kept" "$dyng" sssp "$tmp/other.gr" --out "$tmp/kept"
cmp -s "$tmp/kept/distancesOriginal.txt" "$tmp/first.txt" && { echo "FAIL: a run did not replace its files"; failures=$((failures + 1)); }
# A move into --out that fails part-way puts back the files moved before it. Here the second
# file (moves go in name order) replaces one that another user owns in a sticky folder, which
# a run as nobody may not do; needs root to set up (skipped otherwise).
if [[ $(id -u) == 0 ]] && command -v runuser > /dev/null && chmod 755 "$tmp" &&
   runuser -u nobody -- "$dyng" --version > /dev/null 2>&1; then
  mkdir -m 1777 "$tmp/sticky" && echo old > "$tmp/sticky/distancesOriginal.txt"
  runuser -u nobody -- "$dyng" sssp "$tmp/ok.gr" --out "$tmp/sticky" > /dev/null 2> "$tmp/err"
  [[ $? -eq 1 ]] && grep -q "failed at .*distancesOriginal.txt: .*(nothing was changed)" "$tmp/err" &&
    [[ $(ls -A "$tmp/sticky") == distancesOriginal.txt && $(cat "$tmp/sticky/distancesOriginal.txt") == old ]] ||
    { echo "FAIL: a failed move into --out: $(cat "$tmp/err"); left $(ls -A "$tmp/sticky")"; failures=$((failures + 1)); }
fi
# A first line the format chosen by the file's name cannot read: the format it was read as, and the flag.
printf 'c a DIMACS file named .txt\np sp 3 2\na 1 2 5\na 2 3 4\n' > "$tmp/dimacs.txt"
expect_exit 1 "dimacs.txt:1: expected .*; read as snap \\(from the file's name\\); if it is another format, pass --format gr" sssp "$tmp/dimacs.txt"
check "the flag it names" "$dyng" sssp "$tmp/dimacs.txt" --format gr
# Values past an option's type are said with its range, not CLI11's "Could not convert" or clamped;
# a refusal of the input carries no library source tag.
expect_exit 2 "--repeat: '2147483648' is too large: at most 2147483647" sssp "$tmp/path.gr" --repeat 2147483648
expect_exit 2 "--source: '9223372036854775808' is too large: at most 9223372036854775807" mosp "$tmp/path.gr" --source 9223372036854775808
expect_exit 1 "^dyng: error: mosp::compute: lcm\\(pref\\).*use smaller preferences$" mosp "$tmp/path.gr" --weight-columns 1 --pref 9223372036854775807
# A standard output that cannot take the report fails the run.
if [[ -w /dev/full ]]; then
  "$dyng" info --json > /dev/full 2>"$tmp/err"
  [[ $? -eq 1 ]] && grep -q "writing the standard output failed" "$tmp/err" || { echo "FAIL: /dev/full"; failures=$((failures + 1)); }
fi
printf 'p sp 0 0\n' > "$tmp/zero.gr"
expect_exit 1 "the graph has no vertices" sssp "$tmp/zero.gr"
# Far more random changes than a 3-vertex graph has room for: what fits, at once.
check "huge random" timeout 20 "$dyng" sssp "$tmp/ok.gr" --random 1000000000000 --verify
# A path of 2,000,000 edges: the most columns (65,536) take ~4.2 TB, more than any machine here
# has (a limit of the machine's, not of the bound on columns: a container's memory limit counts too).
awk 'BEGIN { print "p tw 2000001 2000000"; for (i = 1; i <= 2000000; i++) print i, i + 1 }' > "$tmp/tw_long.gr"
expect_exit 1 "^dyng: error: --weight-columns 65536: 65536 generated weight columns for 2000000 arcs .* ask for fewer columns" mosp "$tmp/tw_long.gr" --weight-columns 65536
expect_exit 2 "--weight-columns: '65537' is too large: at most 65536" mosp "$tmp/tw_long.gr" --weight-columns 65537
# Memory past the process's limit (not past the machine's, which is refused up front): a message,
# not "std::bad_alloc" (1,001 vertices of 65,536 columns: ~1 GB). Skipped where the CLI cannot
# start within the limit (AddressSanitizer).
{ echo 'p tw 1001 1000'; for i in $(seq 1 1000); do echo "$i $((i + 1))"; done; } > "$tmp/tw.gr"
if (ulimit -v 600000 && "$dyng" info "$tmp/tw.gr") > /dev/null 2>&1; then
  (ulimit -v 600000 && "$dyng" mosp "$tmp/tw.gr" --weight-columns 65536) > /dev/null 2> "$tmp/err"
  grep -q "dyng: error: out of memory: .*use a smaller input or smaller options" "$tmp/err" ||
    { echo "FAIL: out of memory: $(cat "$tmp/err")"; failures=$((failures + 1)); }
fi

# A list option takes one comma-separated argument: the graph file after it stays the graph.
check "list before the graph" "$dyng" sssp --tntp-columns length "$data/io/tiny_net.tntp"
grep -q "TNTP" "$tmp/out" || { echo "FAIL: --tntp-columns swallowed the graph"; cat "$tmp/out"; failures=$((failures + 1)); }
# The default source is the first vertex with an arc (a SNAP file may skip ids from 0).
printf '5 6\n6 7\n' >"$tmp/skips.txt"
check "default source" "$dyng" sssp "$tmp/skips.txt" --format snap
grep -qE "^source +5 \(file id\)" "$tmp/out" && grep -qE "^reached +3 vertices" "$tmp/out" ||
  { echo "FAIL: default source"; cat "$tmp/out"; failures=$((failures + 1)); }
# A file's own weights can be ignored, as the refusal of a negative one says.
printf '0,1,-10\n1,2,3\n' >"$tmp/signed.csv"
expect_exit 1 "negative weight -10; .*pass --ignore-file-weights" info "$tmp/signed.csv"
check "ignore file weights" "$dyng" info "$tmp/signed.csv" --ignore-file-weights
grep -q "weights generated" "$tmp/out" || { echo "FAIL: --ignore-file-weights"; cat "$tmp/out"; failures=$((failures + 1)); }
expect_exit 2 "--insert-fraction: expected a number in \\[0, 1\\], got 'nan'" sssp --random 10 --insert-fraction nan
expect_exit 2 "--updates: '.*/no-such-batch.txt' does not exist" sssp --updates "$tmp/no-such-batch.txt"
check "format names as info prints them" "$dyng" info "$tmp/path.gr" --format dimacs
expect_exit 2 "--format: unknown format 'xls'; one of auto, gr \\(dimacs\\)" info --format xls
# JSON is UTF-8 whatever the bytes of a file name: an invalid byte reads U+FFFD.
latin1="$tmp/$(printf 'caf\xe9').txt"
printf '0 1\n1 0\n' >"$latin1"
if command -v python3 >/dev/null; then
  check "json of a non-UTF-8 name" "$dyng" cycles "$latin1" -k 3 --json
  cp "$tmp/out" "$tmp/latin1.json"
  check "json of a non-UTF-8 name parses" python3 -c "import json; d=json.load(open('$tmp/latin1.json', encoding='utf-8')); assert 'caf\ufffd' in json.dumps(d, ensure_ascii=False)"
fi
expect_exit 2 "--seed requires --random" sssp --updates "$tmp/cut.txt" "$tmp/path.gr" --seed 3
# A short random batch says which kind ran short.
check "short batch" "$dyng" sssp "$tmp/path.gr" --random 10
grep -q "the graph has only 2 edges to delete" "$tmp/out" || { echo "FAIL: short batch"; cat "$tmp/out"; failures=$((failures + 1)); }
# --out never replaces a user's folder with a file (or a file with a folder): refused, nothing written.
mkdir -p "$tmp/keep/distancesOriginal.txt" && touch "$tmp/keep/distancesOriginal.txt/mine"
expect_exit 1 "distancesOriginal.txt is a directory where dyng writes a file; move it away" sssp "$tmp/path.gr" --out "$tmp/keep"
[[ -f "$tmp/keep/distancesOriginal.txt/mine" && $(ls "$tmp/keep" | wc -l) -eq 1 ]] ||
  { echo "FAIL: --out replaced a folder"; ls -R "$tmp/keep"; failures=$((failures + 1)); }
# Options checked against each other or against the input, each naming its flag.
expect_exit 2 "--threads: expected 0 \\(OpenMP's default\\) up to [0-9]+" sssp "$tmp/path.gr" --backend omp --threads 99999
expect_exit 2 "--tntp-columns: expected a name, got an empty one" sssp "$data/io/tiny_net.tntp" --tntp-columns ''
expect_exit 1 "--tntp-columns: .*path.gr was read as dimacs, not TNTP; drop --tntp-columns" sssp "$tmp/path.gr" --tntp-columns length
expect_exit 2 "--weights-seed excludes --unit-weights" sssp "$tmp/path.gr" --unit-weights --weights-seed 5
# Options that would change nothing are said: generated-weight options on a weighted file, batch
# shapes beside --random 0, --ignore-missing without a batch file.
expect_exit 1 "dyng: error: --unit-weights: .*path.gr has weights of its own, which --unit-weights leaves as they are; add --ignore-file-weights" sssp "$tmp/path.gr" --unit-weights
expect_exit 1 "dyng: error: --weights-seed: .*path.gr has weights of its own" mosp "$tmp/path.gr" --weights-seed 5
check "weights seed on ignored file weights" "$dyng" sssp "$tmp/path.gr" --ignore-file-weights --weights-seed 5
expect_exit 2 "--locality: shapes --random's batch, and --random 0 makes none" sssp "$tmp/path.gr" --random 0 --locality 5
expect_exit 2 "--seed: shapes --random's batch" mosp "$tmp/path.gr" --random 0 --seed 3
expect_exit 2 "--ignore-missing requires --updates" sssp "$tmp/path.gr" --ignore-missing
expect_exit 1 "the MOSP CSR format holds a directed graph; drop --undirected" mosp "$data/mosp_graph_io/r05" --undirected
expect_exit 1 "--pref 1,2,3: 3 value\\(s\\) for 2 objective\\(s\\) \\(every weight column\\)" mosp "$data/mosp_graph_io/r05" --pref 1,2,3
expect_exit 1 "--objectives 0,5: the graph has 2 weight column\\(s\\), 0..1" mosp "$data/mosp_graph_io/r05" --objectives 0,5
expect_exit 2 "--objectives: 0 is listed twice" mosp "$data/mosp_graph_io/r05" --objectives 0,0
# A list is one comma-separated value per use, or the option repeated; its help shows one value.
check "lists by repeating the option" "$dyng" mosp "$data/mosp_graph_io/r05" --objectives 1 --objectives 0 --pref 1 --pref 3
grep -q "^objectives *1 .*, 0 " "$tmp/out" && grep -q "^pref *1,3$" "$tmp/out" ||
  { echo "FAIL: repeated list options"; cat "$tmp/out"; failures=$((failures + 1)); }
expect_exit 2 "not expected: 3" mosp "$data/mosp_graph_io/r05" --pref 1 3
check "mosp help" "$dyng" mosp --help
grep -E -- "--(objectives|pref|tntp-columns) .*\.\.\." "$tmp/out" && { echo "FAIL: a list option's help shows '...'"; failures=$((failures + 1)); }
# What a backend ignores is said on stderr, not refused (one command line loops over backends).
check "threads with seq" "$dyng" sssp "$tmp/path.gr" --threads 2 --device 1
grep -q "note: --device selects a CUDA device; --backend seq ignores it" "$tmp/err" &&
  grep -q "note: --threads sets the OpenMP backend's threads; --backend seq ignores it" "$tmp/err" ||
  { echo "FAIL: ignored backend options not said"; cat "$tmp/err"; failures=$((failures + 1)); }
# Rows of a batch that changed nothing are counted apart from the batch's rows.
printf -- '- 1 3\n= 1 2 5\n- 2 3\n' >"$tmp/no-effect.txt"
check "without effect" "$dyng" sssp "$tmp/path.gr" --updates "$tmp/no-effect.txt" --ignore-missing
grep -qE "^deletions +2$" "$tmp/out" && grep -qE "^without effect +2 arcs$" "$tmp/out" ||
  { echo "FAIL: without effect"; cat "$tmp/out"; failures=$((failures + 1)); }
# Help shows no default the option refuses.
check "help" "$dyng" sssp --help
grep -qE -- "--source INT:UINT +Source" "$tmp/out" || { echo "FAIL: --source default in help"; grep -- --source "$tmp/out"; failures=$((failures + 1)); }

finish
