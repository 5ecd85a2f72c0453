args: ep --model deepseek-v3 --system gb200-nvl72 --gpus 72 --mode low-latency --batch 9216
exit: 2
