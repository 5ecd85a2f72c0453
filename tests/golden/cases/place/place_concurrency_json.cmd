args: place --model 70b --system dgx-h100 --concurrency 16 --input 2048 --output 256 --spread 0.2 --json
exit: 0
