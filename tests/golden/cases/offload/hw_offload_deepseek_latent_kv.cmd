args: offload --model deepseek-v3 --gpu h200 --gpus 8 --batch 64 --context 32768
exit: 0
