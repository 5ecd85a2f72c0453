args: place --model qwen3-235b-a22b --system dgx-h200 --phase decode --attn-dp 8
exit: 0
