args: place --model 70b --system dgx-h100 --tp 8 --concurrency 64 --input 1000 --output 1000 --requests 256 --warmup 0
exit: 0
