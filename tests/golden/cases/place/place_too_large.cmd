args: place --model deepseek-v3 --system dgx-h100 --json
exit: 0
