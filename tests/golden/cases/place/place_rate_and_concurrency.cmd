args: place --model 70b --system dgx-h100 --tp 8 --rate 5 --concurrency 8
exit: 2
