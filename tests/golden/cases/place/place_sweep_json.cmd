args: place --model 70b --system dgx-h100 --sweep tokens=1024:2048:x2 --top 1 --json
exit: 0
