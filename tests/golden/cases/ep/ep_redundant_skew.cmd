args: ep --model deepseek-v3 --system dgx-h200 --gpus 144 --redundant-experts 32 --skew 1.3 --mode low-latency
exit: 0
