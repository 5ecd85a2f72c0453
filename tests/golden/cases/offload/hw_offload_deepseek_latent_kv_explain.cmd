args: offload --model deepseek-v3 --gpu h200 --gpus 8 --batch 64 --context 32768 --dtype bf16 --explain --json
exit: 0
