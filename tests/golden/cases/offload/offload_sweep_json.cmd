args: offload --model 70b --gpu h100 --gpus 2 --batch 8 --sweep context=4096:16384 --json
exit: 0
