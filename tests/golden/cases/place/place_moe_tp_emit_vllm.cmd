args: place --model deepseek-r1 --system dgx-h200 --phase decode --attn-tp 8 --moe-tp 2 --emit vllm
exit: 0
