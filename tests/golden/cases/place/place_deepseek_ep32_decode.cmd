args: place --model deepseek-v3 --system dgx-h200 --gpus 32 --ep 32 --phase decode --objective throughput
exit: 0
