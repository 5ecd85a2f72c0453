args: place --model deepseek-r1 --system dgx-h200 --phase decode --tp 8 --moe-tp 3
exit: 2
