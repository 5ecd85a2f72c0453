args: ep --model deepseek-v3 --system dgx-h100 --gpus 16 --explain --json
exit: 0
