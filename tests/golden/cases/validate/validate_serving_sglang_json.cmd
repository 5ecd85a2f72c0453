args: validate --serving serving/sglang_llama33_70b_tp4_h200.jsonl --model 70b --gpu h200 --gpus 4 --tp 4 --engine sglang --json
exit: 0
