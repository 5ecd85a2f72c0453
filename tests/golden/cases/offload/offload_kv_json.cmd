args: offload --model 70b --gpu h100 --gpus 2 --batch 8 --context 8192 --json
exit: 0
