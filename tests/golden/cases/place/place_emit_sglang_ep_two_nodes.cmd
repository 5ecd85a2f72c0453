args: place --model deepseek-v3 --system dgx-h200 --gpus 16 --ep 16 --phase decode --emit sglang
exit: 0
