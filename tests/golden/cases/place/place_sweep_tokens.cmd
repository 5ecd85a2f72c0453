args: place --model 70b --system dgx-h100 --sweep tokens=1024:8192:x2 --top 3
exit: 0
