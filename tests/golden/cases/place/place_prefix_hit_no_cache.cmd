args: place --model 8b --gpu h100-sxm --gpus 1 --engine vllm-v0 --concurrency 4 --prefix-hit 0.5
exit: 2
