args: place --model deepseek-r1 --system dgx-h200 --phase decode --context 2048 --tp 8 --moe-ep 8 --emit trtllm --json
exit: 0
