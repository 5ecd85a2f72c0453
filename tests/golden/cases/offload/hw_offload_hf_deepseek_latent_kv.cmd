args: offload --hf-config ../data/hf/deepseek-v3.json --gpu h200 --gpus 8 --batch 1 --context 1 --dtype bf16 --json
exit: 0
