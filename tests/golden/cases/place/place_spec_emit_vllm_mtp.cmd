args: place --model deepseek-r1 --system dgx-h200 --phase decode --tp 8 --spec mtp:1.9:2 --emit vllm
exit: 0
