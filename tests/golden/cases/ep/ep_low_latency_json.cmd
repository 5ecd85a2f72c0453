args: ep --model deepseek-v3 --system dgx-h100 --gpus 32 --mode low-latency --json
exit: 0
