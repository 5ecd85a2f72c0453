args: ep --model deepseek-v3 --system dgx-h100 --gpus 12
exit: 2
