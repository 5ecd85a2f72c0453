#!/bin/sh
# The launch commands of `--emit` are shell a user can paste: each parses (sh -n), and run with
# stand-ins for the engines' programs each passes exactly the flags its JSON lists, in order,
# after the checkpoint; TensorRT-LLM's options file is written where the command reads it.
#   test_launch_scripts.sh ICX
set -eu
icx=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/bin"
# Each stand-in prints its arguments, one per line.
for program in vllm python trtllm-serve srun; do
  printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done\n' >"$scratch/bin/$program"
  chmod +x "$scratch/bin/$program"
done
status=0
check() {
  name=$1
  shift
  "$icx" place "$@" --json >"$scratch/$name.json"
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["launch"]["script"], end="")' \
    "$scratch/$name.json" >"$scratch/$name.sh"
  if ! sh -n "$scratch/$name.sh"; then
    echo "$name: the script does not parse"
    status=1
    return
  fi
  mkdir "$scratch/$name.run"
  (cd "$scratch/$name.run" && NODE_RANK=0 FIRST_NODE=head PATH="$scratch/bin:$PATH" \
    sh "$scratch/$name.sh" >"$scratch/$name.argv")
  python3 - "$scratch" "$name" <<'PY' || status=1
import json, os, sys
scratch, name = sys.argv[1], sys.argv[2]
launch = json.load(open(os.path.join(scratch, name + ".json")))["launch"]
argv = open(os.path.join(scratch, name + ".argv")).read().split("\n")[:-1]
expected = []
for arg in launch["args"]:
    expected += [arg["flag"]] + ([arg["value"]] if arg["value"] is not None else [])
expected = [v.replace("$NODE_RANK", "0").replace("$FIRST_NODE", "head") for v in expected]
at = argv.index(launch["checkpoint"])
if argv[at + 1:] != expected:
    print(f"{name}: the command passed {argv[at + 1:]}, its JSON lists {expected}")
    sys.exit(1)
options = launch.get("options_file")
if options and not os.path.exists(os.path.join(scratch, name + ".run", options["path"])):
    print(f"{name}: {options['path']} was not written")
    sys.exit(1)
PY
}
check vllm_dense --model 70b --system dgx-h100 --tp 4 --emit vllm
check vllm_moe_ray --model deepseek-v3 --system dgx-h200 --gpus 16 --ep 16 --phase decode --emit vllm
check sglang_nodes --model deepseek-v3 --system dgx-h200 --gpus 16 --ep 16 --phase decode --emit sglang
check trtllm_options --model 8b --system dgx-h100 --dtype fp8 --kv-dtype fp8 --tp 2 --ep 1 --emit trtllm
check trtllm_slurm --model deepseek-v3 --system dgx-h200 --gpus 16 --ep 16 --phase decode --emit trtllm
exit $status
