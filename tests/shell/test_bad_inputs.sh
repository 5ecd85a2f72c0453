#!/usr/bin/env bash
# The bad-input matrix: every number flag of every subcommand with leading zeros, signs,
# exponents, hex, NaN, inf, empty and huge values, and every file input with empty, binary,
# endless, directory, deeply nested and duplicate-key contents.
#
#   test_bad_inputs.sh ICX DATA_DIR SCRATCH [SHARD SHARDS]
#
# A rejected input must exit 2 with stdout empty (also under --json) and exactly one line on
# stderr that names the flag or file. A number written with leading zeros is decimal: the
# output equals the output for the same number without them. A whole-number flag reads any
# decimal spelling of a whole number ("1e3", "4.096e3", "8.0") as that number.
# With SHARD and SHARDS, only every SHARDS-th check from the SHARD-th runs, so that ctest runs
# the matrix as SHARDS tests side by side.
set -u
icx=$1
data=$2
scratch=$3
shard=${4:-0}
shards=${5:-1}
rm -rf "$scratch" && mkdir -p "$scratch"
cases=0
failures=0
checks=0

# mine: whether the next check is this shard's (checks are dealt round-robin).
mine() {
  checks=$((checks + 1))
  [ $((checks % shards)) -eq "$shard" ]
}

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# expect_rejected NAME_IN_ERROR ARGS...: exit 2, empty stdout, one stderr line naming it.
expect_rejected() {
  mine || return 0
  local name=$1
  shift
  local json
  for json in "" "--json"; do
    cases=$((cases + 1))
    timeout 30 "$icx" "$@" $json >"$scratch/out" 2>"$scratch/err"
    local status=$?
    local lines
    lines=$(wc -l <"$scratch/err")
    if [ "$status" -ne 2 ]; then
      fail "exit $status (expected 2): icx $* $json"
    elif [ -s "$scratch/out" ]; then
      fail "stdout not empty: icx $* $json"
    elif [ "$lines" -ne 1 ]; then
      fail "$lines lines on stderr (expected 1): icx $* $json"
    elif ! grep -qF -- "$name" "$scratch/err"; then
      fail "stderr does not name '$name': icx $* $json: $(cat "$scratch/err")"
    fi
  done
}

# expect_same ARGS_A -- ARGS_B: both succeed with identical stdout.
expect_same() {
  mine || return 0
  local a=() b=()
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  b=("$@")
  cases=$((cases + 1))
  if ! "$icx" "${a[@]}" >"$scratch/a" 2>"$scratch/a.err"; then
    fail "failed: icx ${a[*]}: $(head -c 300 "$scratch/a.err")"
  elif ! "$icx" "${b[@]}" >"$scratch/b" 2>/dev/null; then
    fail "failed: icx ${b[*]}"
  elif ! cmp -s "$scratch/a" "$scratch/b"; then
    fail "different output: icx ${a[*]} vs icx ${b[*]}"
  fi
}

# Values no number flag accepts.
never=("-1" "+5" "0x10" "0X1A" "nan" "NaN" "inf" "-inf" "infinity" "" " 5" "5 " "1,5" "abc"
  "99999999999999999999999" "1e400" "1e-400" "5abc" "0b101")
# Values only a whole-number flag rejects besides those: decimal numbers that are not whole.
not_whole=("2.5" "1e-3" "4.0965e3" "08.5")

# scientific DIGITS: the same number in scientific notation (4096 -> 4.096e3, 8 -> 8e0).
scientific() {
  local digits=$1
  if [ "${#digits}" -eq 1 ]; then
    echo "${digits}e0"
  else
    echo "${digits:0:1}.${digits:1}e$((${#digits} - 1))"
  fi
}

# check_whole CMD... -- FLAG GOOD PADDED: the flag rejects every bad value and reads the
# padded spelling, the scientific one and GOOD.0 as GOOD.
check_whole() {
  local cmd=()
  while [ "$1" != "--" ]; do cmd+=("$1"); shift; done
  local flag=$2 good=$3 padded=$4
  local value
  for value in "${never[@]}" "${not_whole[@]}" "0"; do
    expect_rejected "$flag" "${cmd[@]}" "$flag" "$value"
  done
  for value in "$padded" "$(scientific "$good")" "$good.0"; do
    expect_same "${cmd[@]}" "$flag" "$value" -- "${cmd[@]}" "$flag" "$good"
  done
}

check_decimal() {
  local cmd=()
  while [ "$1" != "--" ]; do cmd+=("$1"); shift; done
  local flag=$2 good=$3 padded=$4
  local value
  for value in "${never[@]}"; do
    expect_rejected "$flag" "${cmd[@]}" "$flag" "$value"
  done
  expect_same "${cmd[@]}" "$flag" "$padded" -- "${cmd[@]}" "$flag" "$good"
}

tp=(tp --model 70b --wire nvlink4)
check_whole "${tp[@]}" -- --tokens 4096 04096
check_whole "${tp[@]}" --phase decode -- --batch 32 032
check_whole "${tp[@]}" -- --gpus 8 08
check_whole "${tp[@]}" -- --hidden 8192 08192
check_whole "${tp[@]}" -- --layers 80 080
expect_same "${tp[@]}" --tokens 1e3 -- "${tp[@]}" --tokens 1000
expect_same "${tp[@]}" --tokens 1000e-3 -- "${tp[@]}" --tokens 1
check_decimal "${tp[@]}" -- --params 70.6e9 070.6e9
check_decimal "${tp[@]}" -- --mfu 0.5 00.5
expect_rejected --params "${tp[@]}" --params 1e-300
expect_rejected --mfu "${tp[@]}" --mfu 1e-300
expect_rejected --mfu "${tp[@]}" --mfu 1.5
check_whole "${tp[@]}" --phase decode -- --context 2048 02048
check_whole "${tp[@]}" --objective throughput -- --max-batch 256 0256
check_decimal "${tp[@]}" -- --overlap 0.3 00.3
check_decimal "${tp[@]}" -- --hbm-fraction 0.8 00.8
expect_rejected --overlap "${tp[@]}" --overlap 1.5
expect_rejected --hbm-fraction "${tp[@]}" --hbm-fraction 1.5
expect_rejected --objective "${tp[@]}" --objective fastest
expect_rejected --phase "${tp[@]}" --phase train
expect_rejected --act-dtype "${tp[@]}" --act-dtype fp7
expect_rejected --kv-dtype "${tp[@]}" --kv-dtype fp7
expect_rejected --context "${tp[@]}" --context 2048
expect_rejected --tokens "${tp[@]}" --phase decode --tokens 2048

place=(place --model 70b --system dgx-h100)
check_whole "${place[@]}" -- --gpus 16 016
check_whole "${place[@]}" -- --gpus-per-node 8 08
check_whole "${place[@]}" -- --tokens 4096 04096
check_whole "${place[@]}" --gpus 8 -- --tp 8 08
check_whole "${place[@]}" --gpus 16 --tp 8 -- --pp 2 02
check_whole "${place[@]}" --gpus 16 --tp 8 -- --dp 2 02
check_whole place --model mixtral --system dgx-h100 --gpus 8 -- --ep 8 08
check_decimal "${place[@]}" -- --reserve 0.2 00.2
check_whole "${place[@]}" --phase decode -- --batch 32 032
check_whole "${place[@]}" -- --top 8 08
check_decimal "${place[@]}" --phase decode -- --overlap 0.5 00.5
expect_rejected --objective "${place[@]}" --objective cheapest
check_decimal "${place[@]}" -- --mfu 0.5 00.5

collective=(collective all-reduce --wire nvlink4)
check_whole "${collective[@]}" --size 1GiB -- --gpus 8 08
for value in "${never[@]}" "1e3" "2.5" "0"; do
  expect_rejected --size "${collective[@]}" --gpus 8 --size "$value"
done
expect_same "${collective[@]}" --gpus 8 --size 01024 -- "${collective[@]}" --gpus 8 --size 1024

coldstart=(coldstart --model 70b)
check_whole "${coldstart[@]}" -- --gpus 8 08
check_whole "${coldstart[@]}" -- --gpus-per-node 8 08
check_decimal "${coldstart[@]}" -- --budget 10 010
expect_rejected --budget "${coldstart[@]}" --budget 1e-300
for value in "" vllm-fast 1; do
  expect_rejected --loader "${coldstart[@]}" --loader "$value"
done
expect_rejected --system "${coldstart[@]}" --system aws-p4d
expect_rejected --system "${coldstart[@]}" --system dgx-z100
expect_rejected --from "${coldstart[@]}" --from node-nvme
expect_rejected --from "${coldstart[@]}" --system gb200-nvl72 --gpus 8 --from node-nvme

offload=(offload --model 70b --gpu h100)
check_whole "${offload[@]}" -- --gpus 2 02
check_whole "${offload[@]}" --context 4096 -- --batch 8 08
check_whole "${offload[@]}" --batch 8 -- --context 4096 04096
check_decimal "${offload[@]}" -- --reserve 0.1 00.1
for value in "" 12XB 0 -5GB 1.5GB "2 TB" 2EB; do
  expect_rejected --host-memory "${offload[@]}" --host-memory "$value"
done
expect_rejected --host-memory "${offload[@]}" --host-memory 10GB
expect_rejected --offload-engine "${offload[@]}" --offload-engine deepspeed
expect_rejected --offload-engine "${offload[@]}" --offload-engine ""
expect_rejected --system offload --model 70b --system mi300x-8
expect_rejected --system offload --model 70b --system dgx-z100
expect_rejected --system offload --model 405b --system dgx-a100 --dtype fp32
# --sweep and --plot on coldstart (GPUs only) and offload (batch or context, the other given).
for value in tokens=256:4096 batch=1:8 gpus=0:8 gpus=8:1 gpus=1:8:0 gpus=1:1e9 gpus; do
  expect_rejected --sweep "${coldstart[@]}" --sweep "$value"
done
expect_rejected --sweep "${coldstart[@]}" --gpus 4 --sweep gpus=1:8
expect_rejected --sweep "${coldstart[@]}" --sweep gpus=1:8 --explain
expect_rejected --plot "${coldstart[@]}" --plot cold.svg
expect_rejected --plot "${coldstart[@]}" --sweep gpus=1:8 --plot cold.pdf
for value in tokens=256:4096 gpus=1:8 size=1KB:8KB batch=0:8 context=1:1e12 batch; do
  expect_rejected --sweep "${offload[@]}" --context 4096 --sweep "$value"
done
expect_rejected --sweep "${offload[@]}" --sweep batch=1:8
expect_rejected --sweep "${offload[@]}" --sweep context=1024:8192
expect_rejected --sweep "${offload[@]}" --batch 8 --context 4096 --sweep batch=1:8
expect_rejected --sweep "${offload[@]}" --context 4096 --sweep batch=1:8 --explain
expect_rejected --plot "${offload[@]}" --plot offload.svg
expect_rejected --plot "${offload[@]}" --context 4096 --sweep batch=1:8 --plot offload.txt

# --host-link names the same kind of link on coldstart and offload, with the same error;
# coldstart still takes its former name --wire, and an error then names --wire.
for value in nvlink4 pcie9 ""; do
  expect_rejected --host-link "${coldstart[@]}" --host-link "$value"
  expect_rejected --host-link "${offload[@]}" --host-link "$value"
  cases=$((cases + 1))
  "$icx" "${coldstart[@]}" --host-link "$value" 2>"$scratch/cold.err" >/dev/null
  "$icx" "${offload[@]}" --host-link "$value" 2>"$scratch/offload.err" >/dev/null
  cmp -s "$scratch/cold.err" "$scratch/offload.err" ||
    fail "--host-link $value: coldstart and offload word the error differently"
done
expect_rejected --wire "${coldstart[@]}" --wire nvlink4
expect_rejected --wire "${coldstart[@]}" --wire pcie5 --host-link pcie5
expect_same "${coldstart[@]}" --wire nvlink-c2c -- "${coldstart[@]}" --host-link nvlink-c2c

# --impl and --pcie-topology: the same names and errors on tp, place and collective.
for value in "" bogus nvls "custom,nccl"; do
  expect_rejected --impl tp --model 70b --wire nvlink4 --impl "$value"
  expect_rejected --impl place --model 70b --system dgx-h100 --impl "$value"
  expect_rejected --impl collective all-reduce --size 1MiB --gpus 8 --wire nvlink4 --impl "$value"
done
for value in bogus SWITCH2 nvls; do
  expect_rejected --pcie-topology tp --model 70b --wire pcie5 --pcie-topology "$value"
  expect_rejected --pcie-topology place --model 70b --system l40s-8 --pcie-topology "$value"
  expect_rejected --pcie-topology collective all-reduce --size 1MiB --gpus 8 --wire pcie5 \
    --pcie-topology "$value"
done
# The engines' own kernels: all-reduce only, and only where the catalog has their figures.
expect_rejected --impl collective all-gather --size 1MiB --gpus 8 --wire nvlink4 --impl custom
# icx ep and the expert-parallel flags of place.
ep=(ep --model deepseek-v3 --system dgx-h100 --gpus 16)
check_whole "${ep[@]}" -- --tokens-per-gpu 4096 04096
check_whole "${ep[@]}" -- --batch 256 0256
check_whole ep --model deepseek-v3 --system dgx-h100 -- --gpus 16 016
check_whole "${ep[@]}" -- --max-nodes-per-token 2 02
check_whole ep --model deepseek-v3 --scale-up nvlink4 --scale-out ib-ndr --gpus 16 \
  -- --gpus-per-node 8 08
check_decimal "${ep[@]}" -- --skew 1.3 01.3
expect_rejected --skew "${ep[@]}" --skew 0.5
expect_rejected --redundant-experts "${ep[@]}" --redundant-experts 2.5
expect_rejected --redundant-experts "${ep[@]}" --redundant-experts -1
expect_rejected --redundant-experts "${ep[@]}" --redundant-experts abc
expect_rejected --mode "${ep[@]}" --mode fast
expect_rejected --mode "${ep[@]}" --mode ""
expect_rejected --dispatch-dtype "${ep[@]}" --dispatch-dtype fp7
expect_rejected --combine-dtype "${ep[@]}" --combine-dtype fp7
expect_rejected --gpus ep --model deepseek-v3 --system dgx-h100 --gpus 12
expect_rejected --gpus ep --model deepseek-v3
expect_rejected "dense model" ep --model 70b --system dgx-h100
expect_rejected --batch "${ep[@]}" --batch 256 --tokens-per-gpu 16
expect_rejected --system "${ep[@]}" --system nosuch
place_ep=(place --model deepseek-v3 --system dgx-h200 --gpus 32 --ep 32)
check_whole "${place_ep[@]}" -- --max-nodes-per-token 2 02
check_decimal "${place_ep[@]}" -- --skew 1.3 01.3
expect_rejected --skew "${place_ep[@]}" --skew 0.5
expect_rejected --redundant-experts "${place_ep[@]}" --redundant-experts 2.5
expect_rejected --redundant-experts "${place_ep[@]}" --redundant-experts -1
expect_rejected --ep-mode "${place_ep[@]}" --ep-mode fast
expect_rejected --dispatch-dtype "${place_ep[@]}" --dispatch-dtype fp7

# place --sweep and --plot, and report's page.
expect_rejected --sweep "${place[@]}" --sweep gpus=8:32:x2 --gpus 16
expect_rejected --sweep "${place[@]}" --sweep size=1KiB:1MiB
expect_rejected --sweep "${place[@]}" --sweep context=1024:4096
expect_rejected --plot "${place[@]}" --plot "$scratch/place.svg"
expect_rejected --output report --model 70b --system dgx-h100 -o "$scratch/review.txt"
expect_rejected --format report --model 70b --system dgx-h100 -o "$scratch/review.html" --format csv

expect_rejected --impl collective all-reduce --size 1MiB --gpus 8 --wire pcie5 --impl multimem
expect_rejected --impl collective all-reduce --size 1MiB --gpus 8 --wire infinity-fabric --impl one-shot

# Across nodes: the fabric flags on collective and place. They use the same whole-number
# check as the flags above, which meet every value of never and not_whole; here one of each
# kind.
few=("0" "-1" "2.5" "abc" "")
across=(collective all-reduce --size 1GiB --gpus 16)
for value in "${few[@]}"; do
  expect_rejected --gpus-per-node "${across[@]}" --scale-up nvlink4 --scale-out ib-ndr \
    --gpus-per-node "$value"
  expect_rejected --nics-per-node "${across[@]}" --system dgx-h100 --nics-per-node "$value"
  expect_rejected --nics-per-node place --model 70b --system dgx-h100 --gpus 16 \
    --nics-per-node "$value"
done
expect_rejected --scale-out "${across[@]}" --system dgx-h100 --scale-out nosuch
expect_rejected --system "${across[@]}" --system nosuch
expect_rejected --scale-out "${across[@]}" --wire nvlink4 --gpus-per-node 8
expect_rejected --gpus collective all-reduce --size 1GiB --gpus 12 --system dgx-h100
expect_rejected --scale-up "${across[@]}" --wire nvlink4 --scale-up nvlink3 --system dgx-h100
expect_rejected --algo "${across[@]}" --system dgx-h100 --algo nvls
expect_rejected --algo collective all-gather --size 1GiB --gpus 16 --system dgx-h100 --algo tree
expect_rejected --algo collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --algo nvls-tree
expect_rejected --algo "${across[@]}" --system dgx-a100 --algo nvls-tree
expect_rejected --impl "${across[@]}" --system dgx-h100 --impl one-shot
expect_rejected --algo collective all-reduce --size 1GiB --gpus 2 --gpus-per-node 1 \
  --scale-out ib-ndr --algo nvls-tree
expect_rejected --wire collective all-reduce --size 1GiB --gpus 8

log="$data/nccl-tests/nvl72-gb200-all_reduce.log"
for value in "${never[@]}" "${not_whole[@]}" "0"; do
  expect_rejected --gpus calibrate "$log" --wire nvlink5 --gpus "$value"
done
# A log across nodes: the fabric's flags, and the hosts the log lists.
log="$data/nccl-tests/a3mega-h100-16gpu-all_reduce.log"
nodes=(--scale-up nvlink4 --scale-out gcp-tcpxo --nics-per-node 8)
for value in "${few[@]}"; do
  expect_rejected --gpus-per-node calibrate "$log" "${nodes[@]}" --gpus-per-node "$value"
  expect_rejected --nics-per-node calibrate "$log" --scale-up nvlink4 --scale-out gcp-tcpxo \
    --nics-per-node "$value"
done
expect_rejected --gpus-per-node calibrate "$log" "${nodes[@]}" --gpus-per-node 3
expect_rejected --scale-out calibrate "$log" --scale-up nvlink4 --scale-out nosuch
expect_rejected --scale-out calibrate "$log" --wire nvlink4
expect_rejected --system calibrate "$log" --system nosuch
expect_rejected --algo calibrate "$log" "${nodes[@]}" --algo nvls

# File inputs.
: >"$scratch/empty.json"
printf '\x00\x01\xff\xfe binary \x80\x81\n\x00' >"$scratch/junk.bin"
mkdir -p "$scratch/a-directory"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' \
  >"$scratch/nested.json"
printf '{"links": [], "links": []}\n' >"$scratch/duplicate-catalog.json"
sed 's/"hidden_size": \([0-9]*\),/"hidden_size": \1, "hidden_size": 1,/' \
  "$data/hf/llama-3.1-8b.json" >"$scratch/duplicate-config.json"
grep -q '"hidden_size": 1,' "$scratch/duplicate-config.json" || fail "could not make a duplicate key"
head -n 1 "$data/../../data/measurements/collectives.csv" | sed 's/^\([^,]*\),/\1,\1,/' >"$scratch/duplicate-column.csv"
for file in "$scratch/empty.json" "$scratch/junk.bin" /dev/zero "$scratch/a-directory" \
  "$scratch/nested.json" "$scratch/duplicate-catalog.json"; do
  expect_rejected "$file" links --catalog "$file"
done
for file in "$scratch/empty.json" "$scratch/junk.bin" /dev/zero "$scratch/a-directory" \
  "$scratch/nested.json" "$scratch/duplicate-config.json"; do
  expect_rejected "$file" tp --hf-config "$file" --wire nvlink4
done
for file in "$scratch/empty.json" "$scratch/junk.bin" /dev/zero "$scratch/a-directory"; do
  expect_rejected "$file" calibrate "$file" --wire nvlink5
done
for file in "$scratch/empty.json" "$scratch/junk.bin" /dev/zero "$scratch/a-directory" \
  "$scratch/duplicate-column.csv"; do
  expect_rejected "$file" validate "$file"
done

# Measurement rows across nodes: every node holds gpus / nodes GPUs, scale_up and
# nics_per_node describe nodes only, and several GPUs a node need the link inside it.
nodes_csv() {
  printf 'hardware,link,gpus,nodes,op,algo,size_bytes,time_us,busbw_GBps,use,source,scale_up,'
  printf 'nics_per_node\n%s\n' "$1"
}
nodes_rows=("x,ib-hdr,24,5,all-reduce,ring,65536,40,,fit,s,nvlink3,4"
  "x,nvlink4,8,1,all-reduce,ring,65536,40,,fit,s,nvlink4,"
  "x,nvlink4,8,1,all-reduce,ring,65536,40,,fit,s,,8"
  "x,ib-ndr,16,2,all-reduce,ring,65536,40,,fit,s,,8")
for value in "${few[@]}" "1e400" "08.5"; do
  [ -n "$value" ] && nodes_rows+=("x,ib-ndr,16,2,all-reduce,ring,65536,40,,fit,s,nvlink4,$value")
done
for i in "${!nodes_rows[@]}"; do
  nodes_csv "${nodes_rows[$i]}" >"$scratch/nodes-$i.csv"
  expect_rejected "$scratch/nodes-$i.csv" validate "$scratch/nodes-$i.csv"
done

# Published load rows: bounded figures, a host link, a known tier and loader.
loads_csv() {
  printf 'hardware,gpus,host_link,weights_GB,from,storage_GBps,loader,measured_s,use,bound,'
  printf 'source\n%s\n' "$1"
}
loads_rows=("h,1,nvlink4,10,page-cache,,vllm-default,5,fit,2,s"
  "h,1,pcie5,10,page-cache,,bogus,5,fit,2,s"
  "h,1,pcie5,10,tape,,vllm-default,5,fit,2,s"
  "h,1,pcie5,10,storage,,vllm-default,5,fit,2,s"
  "h,1,pcie5,10,page-cache,7,vllm-default,5,fit,2,s"
  "h,1,pcie5,1e400,page-cache,,vllm-default,5,fit,2,s"
  "h,1,pcie5,10,page-cache,,vllm-default,0,fit,2,s"
  "h,1,pcie5,10,page-cache,,vllm-default,5,fit,,s"
  "h,0,pcie5,10,page-cache,,vllm-default,5,fit,2,s")
for i in "${!loads_rows[@]}"; do
  loads_csv "${loads_rows[$i]}" >"$scratch/loads-$i.csv"
  expect_rejected "$scratch/loads-$i.csv" validate --loads "$scratch/loads-$i.csv"
done
for file in "$scratch/empty.json" "$scratch/junk.bin" /dev/zero "$scratch/a-directory"; do
  expect_rejected "$file" validate --loads "$file"
done

# Published offload rows: a known engine, a host link with a measurement, bounded figures.
offload_csv() {
  printf 'hardware,gpu,hbm_held_GB,gpus,host_link,model,dtype,batch,engine,'
  printf 'measured_tokens_per_s,bound,use,note,source\n%s\n' "$1"
}
offload_rows=("h,h100,80,1,pcie5,70b,bf16,1,deepspeed,4,2,held-out,,s"
  "h,h100,80,1,nvlink4,70b,bf16,1,vllm,4,2,held-out,,s"
  "h,h999,80,1,pcie5,70b,bf16,1,vllm,4,2,held-out,,s"
  "h,h100,80,1,pcie5,70b,bf16,1,vllm,1e400,2,held-out,,s"
  "h,h100,80,81,pcie5,70b,bf16,1,vllm,4,2,held-out,,s"
  "h,,,,,,,,,,,outside,,s")
for i in "${!offload_rows[@]}"; do
  offload_csv "${offload_rows[$i]}" >"$scratch/offload-$i.csv"
  expect_rejected "$scratch/offload-$i.csv" validate --offload "$scratch/offload-$i.csv"
done
expect_rejected --offload validate --offload --loads

# --sweep and --plot on tp and collective: the grammar, the parameters each sweeps, and a
# chart file name gnuplot can draw. (The same grammar on place, coldstart and offload below.)
for value in "" tokens "tokens=" tokens=8 tokens=8:1 tokens=0:8 tokens=1:8:0 tokens=1:8:x1 \
  tokens=1:8:x tokens=1:8:x1e9 tokens=1:8:2:4 tokens=1:1e8:1 tokens=-1:8 tokens=0x10:0x20 \
  tokens=nan:8 tokens=1:inf size=1:8 TOKENS=1:8 "=1:8" "tokens=1 :8"; do
  expect_rejected --sweep tp --model 70b --wire nvlink4 --sweep "$value"
done
expect_rejected --sweep tp --model 70b --phase decode --sweep tokens=1:8
expect_rejected --sweep tp --model 70b --sweep context=1:8
expect_rejected --sweep tp --model 70b --gpus 8 --sweep gpus=2:8
expect_rejected --explain tp --model 70b --sweep tokens=256:1024 --explain
for value in tp.pdf tp "" tp.svg.txt; do
  expect_rejected --plot tp --model 70b --sweep tokens=256:1024 --plot "$value"
done
expect_rejected --plot tp --model 70b --plot /tmp/never.svg
for value in "" gpus=1:8 gpus=2:2e6 gpus=2:8:x0 tokens=1:8 size=0:8 size=1:2PiB size=1KiB:1B \
  size=1:8:0B; do
  expect_rejected --sweep collective all-reduce --size 1GiB --wire nvlink4 --sweep "$value"
done
for value in 8B:1GiB:0 8B:1GiB:x1 8B:1GiB:x 8B:1GiB:1:2 1:1PiB:1; do
  expect_rejected --size collective all-reduce --gpus 8 --wire nvlink4 --size "$value"
done
expect_rejected --sweep collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --sweep gpus=2:8
expect_rejected --sweep collective all-reduce --size 8B:1GiB --wire nvlink4 --sweep gpus=2:8
expect_rejected --sweep collective all-reduce --gpus 8 --size 1GiB --wire nvlink4 --sweep size=8B:1GiB
expect_rejected --size collective all-reduce --gpus 8 --wire nvlink4
expect_rejected --gpus collective all-reduce --size 1GiB --wire nvlink4
expect_rejected --plot collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --plot /tmp/x.svg
log="$data/nccl-tests/synthetic-two-regimes.log"
expect_rejected --measured collective all-reduce --size 8B:1GiB --gpus 4 --wire nvlink4 \
  --measured "$log"
expect_rejected --measured collective all-reduce --size 1GiB --wire nvlink4 --sweep gpus=2:8 \
  --measured "$log"
for file in "$scratch/empty.json" "$scratch/junk.bin" /dev/zero "$scratch/a-directory" \
  "$data/nccl-tests/mscclpp-nvls-cut-mid-row.log" "$data/nccl-tests/a100-sendrecv-trimmed.log" \
  "$scratch/no-such.log"; do
  expect_rejected --measured collective all-reduce --size 8B:1GiB --gpus 8 --wire nvlink4 \
    --measured "$file"
done

# icx plan: targets need units, a load needs a rate, prices name a system and a number.
plan="plan --model 70b --input 2048 --output 256"
expect_rejected --ttft $plan --ttft 2 --tpot 50ms --rate 5
expect_rejected --ttft $plan --ttft -2s --tpot 50ms --rate 5
expect_rejected --ttft $plan --ttft 2parsecs --tpot 50ms --rate 5
expect_rejected --tpot $plan --ttft 2s --tpot 0ms --rate 5
expect_rejected --tpot $plan --ttft 2s --tpot nanms --rate 5
expect_rejected --rate $plan --ttft 2s --tpot 50ms
expect_rejected --rate $plan --ttft 2s --tpot 50ms --rate 0
expect_rejected --rate $plan --ttft 2s --tpot 50ms --rate 1e300
expect_rejected --input $plan --ttft 2s --tpot 50ms --rate 5 --input 0
expect_rejected --system $plan --ttft 2s --tpot 50ms --rate 5 --system aws-p5,nope
expect_rejected --price $plan --ttft 2s --tpot 50ms --rate 5 --price aws-p5
expect_rejected --price $plan --ttft 2s --tpot 50ms --rate 5 --price nope=3
expect_rejected --price $plan --ttft 2s --tpot 50ms --rate 5 --price aws-p5=-3
expect_rejected --price $plan --ttft 2s --tpot 50ms --rate 5 --price aws-p5=cheap
expect_rejected --max-nodes $plan --ttft 2s --tpot 50ms --rate 5 --max-nodes 0
expect_rejected --prefill-chunk $plan --ttft 2s --tpot 50ms --rate 5 --prefill-chunk 0
# icx place under a load: the load sets the phase and context, and needs its rate.
expect_rejected --input place --model 70b --system aws-p5 --input 2048
expect_rejected --phase place --model 70b --system aws-p5 --rate 5 --phase prefill
expect_rejected --context place --model 70b --system aws-p5 --rate 5 --context 100
expect_rejected --sweep place --model 70b --system aws-p5 --rate 5 --sweep batch=1:8

# icx topo: files, the overlay's flags, and matrices that are cut, garbled or not one at all.
topo_matrix="$data/../golden/topo/pcie-two-sockets.txt"
expect_rejected no-such-topo.txt topo "$scratch/no-such-topo.txt"
expect_rejected bad-inputs topo "$scratch"
expect_rejected garbled.txt topo "$data/../golden/topo/garbled.txt"
printf 'GPU0 GPU1\nGPU0 X NV4\n' >"$scratch/cut-topo.txt"
expect_rejected cut-topo.txt topo "$scratch/cut-topo.txt"
printf 'hello\n' >"$scratch/no-topo.txt"
expect_rejected no-topo.txt topo "$scratch/no-topo.txt"
expect_rejected --id topo "$topo_matrix" --gpu l40s -o "$scratch/t.json"
expect_rejected -o topo "$topo_matrix" --id mine
expect_rejected --pcie topo "$topo_matrix" --pcie nvlink4
expect_rejected --gpu topo "$topo_matrix" --gpu h101
expect_rejected --size topo "$topo_matrix" --size 0
expect_rejected --domain topo "$topo_matrix" --domain 0 -o "$scratch/t.json" --id x
expect_rejected --domain topo "$topo_matrix" --gpu l40s --scale-out roce --domain 8 -o "$scratch/t.json" --id x
expect_rejected --scale-out topo "$topo_matrix" --gpu l40s -o "$scratch/t.json" --id x
expect_rejected --pcie topo "$topo_matrix" --gpu h100 -o "$scratch/t.json" --id x --scale-out roce

# Round 2. Outputs over inputs: every writer refuses a file the command reads, naming both.
cp "$data/hf/llama-3.1-70b.json" "$scratch/c.html"
expect_rejected "(--hf-config" report --hf-config "$scratch/c.html" --system dgx-h100 -o "$scratch/c.html"
ln -sf "$scratch/c.html" "$scratch/link.svg"
expect_rejected "(--hf-config" coldstart --hf-config "$scratch/c.html" --sweep gpus=1:8:x2 --plot "$scratch/link.svg"
expect_rejected "(FILE" topo "$topo_matrix" --gpu l40s -o "$topo_matrix" --id x
# A host link is not a wire between GPUs; an engine's kernels need its figures on the wire.
expect_rejected nvlink-c2c tp --model 70b --wire nvlink-c2c
expect_rejected nvlink-c2c collective all-reduce --size 1GiB --gpus 8 --wire nvlink-c2c
expect_rejected --impl tp --model 70b --impl one-shot --wire pcie5
# A decode step needs the KV cache's shape; nodes are whole.
expect_rejected --hf-config place --hidden 8192 --layers 80 --params 70e9 --phase decode --gpu h100 --gpus 8
expect_rejected --gpus coldstart --model 70b --gpus 8 --gpus-per-node 3
# A lowercase b means bits.
expect_rejected "--size: '1Gb'" collective all-reduce --size 1Gb --gpus 8 --wire nvlink4
expect_rejected "--host-memory: '2Tb'" offload --model 70b --gpu h100 --host-memory 2Tb
expect_rejected "'1Mb'" collective all-reduce --size 1Mb:8MiB --gpus 8 --wire nvlink4
# Text that is not UTF-8, in every kind of input file, and standard input closed.
printf 'hardware,link\ncaf\351\n' >"$scratch/latin1.csv"
expect_rejected "latin1.csv: line 2, column 4" validate "$scratch/latin1.csv"
printf '\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n\351\n' >"$scratch/latin1-topo.txt"
expect_rejected "latin1-topo.txt: line 4" topo "$scratch/latin1-topo.txt" --gpu a30
printf '{"dtypes": [{"id": "x", "name": "caf\351", "bytes_per_element": 1, "source": "s"}]}' >"$scratch/latin1.json"
expect_rejected "latin1.json: line 1" dtypes --catalog "$scratch/latin1.json"
expect_rejected "cannot read standard input" topo - <&-
# Catalog entries that contradict the rest, each with its JSON Pointer or entry.
for file in kv_heads_not_dividing scale_up_scale_out domain_not_dividing nvme_shared bidi_name id_with_comma; do
  expect_rejected "$file.json" systems --catalog "$data/../golden/catalogs/$file.json"
done
# A run nccl-tests found wrong; a matrix with more NVLinks than the GPU has.
expect_rejected "#wrong" calibrate "$data/../golden/nccl/wrong-results.log" --wire nvlink4
expect_rejected "more than a30's link" topo "$data/../golden/topo/nv18-pair.txt" --gpu a30
expect_rejected "over XGMI" topo "$data/../golden/topo/xgmi-pair.txt" --gpu h100-sxm
expect_rejected "over NVLink" topo "$data/../golden/topo/nv18-pair.txt" --gpu mi300x

echo "bad inputs: $cases cases, $failures failures"
[ "$failures" -eq 0 ] && echo "all checks passed"
