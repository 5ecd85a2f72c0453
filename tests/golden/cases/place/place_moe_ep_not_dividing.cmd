args: place --model qwen3-235b-a22b --system dgx-h200 --tp 8 --moe-ep 3
exit: 2
