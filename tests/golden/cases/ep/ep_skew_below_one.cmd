args: ep --model deepseek-v3 --system dgx-h100 --gpus 16 --skew 0.5
exit: 2
