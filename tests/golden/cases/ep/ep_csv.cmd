args: ep --model deepseek-v3 --system dgx-h100 --gpus 16 --format csv
exit: 0
