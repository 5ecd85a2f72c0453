args: place --model 70b --system dgx-h200 --tp 8 --moe-ep 8
exit: 2
