args: place --model 70b --system dgx-h100 --phase decode --tp 8 --spec eagle:3:3 --emit trtllm --json
exit: 0
