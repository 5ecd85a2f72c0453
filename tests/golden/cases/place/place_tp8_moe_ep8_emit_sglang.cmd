args: place --model qwen3-235b-a22b --system dgx-h200 --phase decode --context 2048 --tp 8 --moe-ep 8 --emit sglang
exit: 0
