#!/usr/bin/env bash
# Drives the bash completion function the way bash would and checks what it offers.
#   test_bash_completion.sh ICX COMPLETION_SCRIPT
set -uo pipefail
icx=$1
# shellcheck source=/dev/null
source "$2"

failures=0
# complete_words "WORDS" : runs the completion with the cursor on the last word (an empty one
# when WORDS is empty or ends with a space).
complete_words() {
  local -a words=()
  read -ra words <<<"$1"
  if [[ -z $1 || $1 == *" " ]]; then
    words+=("")
  fi
  COMP_WORDS=("$icx" "${words[@]}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _icx
  printf '%s\n' "${COMPREPLY[@]}"
}
# expect "WORDS" LINE... : every LINE must be offered.
expect() {
  local words=$1
  shift
  local offered
  offered=$(complete_words "$words")
  for line in "$@"; do
    if ! grep -qxF -- "$line" <<<"$offered"; then
      echo "FAIL: 'icx $words' does not offer '$line'; offers: $(tr '\n' ' ' <<<"$offered")"
      failures=$((failures + 1))
    fi
  done
}
# expect_none "WORDS" : nothing offered.
expect_none() {
  local offered
  offered=$(complete_words "$1")
  if [[ -n $offered ]]; then
    echo "FAIL: 'icx $1' offers '$(tr '\n' ' ' <<<"$offered")', expected nothing"
    failures=$((failures + 1))
  fi
}

expect "t" tp
expect "c" coldstart
expect "" tp ep place coldstart offload links gpus models systems storage dtypes --help --version
expect "tp --w" --wire
expect "tp --" --model --hf-config --tokens --json --catalog --gpu
expect "place --s" --system --scale-up --scale-out
expect "tp --model llama-3.1-7" llama-3.1-70b
expect "tp --wire pc" pcie4 pcie5
expect "tp --wire nvlink4,pc" nvlink4,pcie4 nvlink4,pcie5
expect "tp --wire a" all
expect "place --system dgx" dgx-h100
expect "offload --gpu h1" h100-sxm
expect "tp --dtype fp" fp8 fp16 fp32
expect "e" ep
# Values --help lists for a flag, and a subcommand's positional.
expect "tp --objective " latency throughput
expect "tp --impl n" nccl
expect "tp --format " table json csv
expect "tp --color a" auto always
expect "tp --sweep " tokens= batch=
expect "collective a" all-reduce all-gather all-to-all
expect_none "collective all-reduce --size "
expect "c" coldstart collective
expect "ep --" --model --gpus --system --tokens-per-gpu --batch --mode --max-nodes-per-token \
  --skew --redundant-experts --dispatch-dtype --combine-dtype --json
expect "ep --dispatch-dtype fp" fp8
expect "ep --combine-dtype bf" bf16
expect "place --ep-" --ep-mode
expect "place --" --dispatch-dtype --max-nodes-per-token --skew --redundant-experts
expect "place --dispatch-dtype fp" fp8
expect_none "ep --skew "
expect "coldstart --from nvme-gen" nvme-gen4 nvme-gen5
expect "offload --host-link nvlink-" nvlink-c2c
expect "coldstart --host-link nvlink-" nvlink-c2c
expect "coldstart --ho" --host-link
expect_none "coldstart --wir"
expect "coldstart --w" --wide
expect "tp --wire = pc" pcie4 pcie5
expect "tp --catalog $(dirname "$0")/../golden/catalogs/extra_link.json --wire ib-x" ib-xdr
expect_none "tp --tokens "
expect_none "tp --model no-such-model"

if ((failures)); then
  echo "$failures completion check(s) failed"
  exit 1
fi
echo "bash completion: all checks passed"
