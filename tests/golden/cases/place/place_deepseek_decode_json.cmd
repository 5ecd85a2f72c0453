args: place --model deepseek-v3 --system dgx-h200 --phase decode --json
exit: 0
