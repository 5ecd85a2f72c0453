args: place --model 70b --system dgx-h100 --tp 8 --concurrency 64 --fast
exit: 2
